#pragma once

#include "teach/sandbox.h"

#include <QWidget>

#include <array>
#include <optional>

class QAreaSeries;
class QComboBox;
class QChartView;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QSlider;
class QSpinBox;
class QToolButton;
class QValueAxis;

namespace bloom {

class BitGridWidget;

/**
 * The same names in a classic and in a blocked filter of equal size: both bit arrays, and the
 * false-positive rate of each as names are added (a slider for n): the model, the spread of several
 * other sets of names around it (so a measurement that differs from the model is the lesson, not a
 * bug), and this set measured - the reference's 0.585% (blocked) against 0.578% (classic), at a
 * classroom scale.
 */
class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget *parent = nullptr);

    /** Name sets in the spread around each model. */
    static constexpr int SpreadSets = 12;

    void setNames(int n);
    int names() const;
    /** At the current n: {classic measured, classic model, blocked measured, blocked model}. */
    std::array<double, 4> rates() const
    {
        ensureBuilt();
        return mRates;
    }
    /** The other sets' lowest and highest rate at exactly n names: {classic lo, hi, blocked lo, hi}. */
    std::array<double, 4> spreadAt(int n) const;
    /** The reference's formula for the blocked filter (every chunk at its expected fill) at the current n. */
    double blockedFormula() const;
    QString summary() const; ///< empty until built (shown, or asked for a number)
    QChartView *chartView() const { return mChartView; }
    void setPresentation(bool on);

signals:
    void changed();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void ensureBuilt() const;
    void rebuild();
    void refill();
    void showBits(bool bits);

    std::optional<SandboxFilter> mClassic, mBlocked;
    QList<QByteArray> mNamePool;
    std::array<double, 4> mRates{};
    QList<double> mSpreadN;
    QList<QList<QByteArray>> mSpreadSets; ///< the other sets of names, drawn as the bands
    std::array<QList<double>, 4> mSpread; ///< classic lo, hi, blocked lo, hi at each mSpreadN
    bool mPresentation = false;

    QComboBox *mSize = nullptr;
    QSpinBox *mK = nullptr;
    QSlider *mN = nullptr;
    QLabel *mNLabel = nullptr;
    QLabel *mNamesCaption = nullptr;
    QLabel *mSummary = nullptr;
    QToolButton *mBitsButton = nullptr;
    QWidget *mGrids = nullptr;
    BitGridWidget *mClassicGrid = nullptr;
    BitGridWidget *mBlockedGrid = nullptr;
    QChartView *mChartView = nullptr;
    QLineSeries *mClassicModel = nullptr;
    QLineSeries *mBlockedModel = nullptr;
    QAreaSeries *mClassicBand = nullptr;
    QAreaSeries *mBlockedBand = nullptr;
    QScatterSeries *mClassicMeasured = nullptr;
    QScatterSeries *mBlockedMeasured = nullptr;
    QScatterSeries *mNow = nullptr;
    QValueAxis *mNAxis = nullptr;
    QLogValueAxis *mFprAxis = nullptr;
};

} // namespace bloom
