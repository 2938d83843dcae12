#pragma once

#include "model/fillstats.h"

#include <QChartView>

class QLineSeries;

namespace bloom {

/** The load histogram (set bits per chunk) beside the spread the model expects. */
class SkewChart : public QChartView {
    Q_OBJECT
public:
    explicit SkewChart(QWidget *parent = nullptr);
    void setReport(const SkewReport &report);
    QLineSeries *observedSeries() const { return mObserved; }
    QLineSeries *expectedSeries() const { return mExpected; }

private:
    QLineSeries *mObserved = nullptr;
    QLineSeries *mExpected = nullptr;
};

} // namespace bloom
