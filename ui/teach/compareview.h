#pragma once

#include "teach/sandbox.h"

#include <QWidget>

#include <array>
#include <optional>

class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QSlider;
class QSpinBox;
class QValueAxis;

namespace bloom {

class BitGridWidget;

/**
 * The same names in a classic and in a blocked filter of equal size: both bit arrays, and the
 * measured and modelled false-positive rate of each as names are added (a slider for n) - the
 * reference's 0.585% (blocked) against 0.578% (classic), at a classroom scale.
 */
class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget *parent = nullptr);

    void setNames(int n);
    int names() const;
    /** At the current n: {classic measured, classic model, blocked measured, blocked model}. */
    std::array<double, 4> rates() const { return mRates; }
    QString summary() const;

private:
    void rebuild();
    void refill();

    std::optional<SandboxFilter> mClassic, mBlocked;
    QList<QByteArray> mNamePool;
    std::array<double, 4> mRates{};

    QComboBox *mSize = nullptr;
    QSpinBox *mK = nullptr;
    QSlider *mN = nullptr;
    QLabel *mNLabel = nullptr;
    QLabel *mSummary = nullptr;
    BitGridWidget *mClassicGrid = nullptr;
    BitGridWidget *mBlockedGrid = nullptr;
    QLineSeries *mClassicModel = nullptr;
    QLineSeries *mBlockedModel = nullptr;
    QScatterSeries *mClassicMeasured = nullptr;
    QScatterSeries *mBlockedMeasured = nullptr;
    QScatterSeries *mNow = nullptr;
    QValueAxis *mNAxis = nullptr;
    QLogValueAxis *mFprAxis = nullptr;
};

} // namespace bloom
