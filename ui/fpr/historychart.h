#pragma once

#include "maintenance/history.h"
#include "model/forecast.h"
#include "model/geometry.h"

#include <QDateTime>
#include <QList>
#include <QWidget>

#include <optional>

class QAreaSeries;
class QChart;
class QChartView;
class QComboBox;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QSpinBox;
class QValueAxis;

namespace bloom {

/**
 * The filter over time: estimated names and FPR of every recorded snapshot (bloomscope_history), or of
 * the window's own refreshes when none is recorded; a robust fit of the growth over a chosen window
 * (model/forecast: Theil-Sen with Sen's interval), the date the target FPR is crossed with its
 * interval, and the geometry that holds the next N months.
 */
class HistoryChart : public QWidget {
    Q_OBJECT
public:
    explicit HistoryChart(QWidget *parent = nullptr);

    /** The filter's geometry and the target rate: the capacity line and the recommendation follow. */
    void setFilter(const Geometry &g, double target);
    /** All recorded snapshots (replace) or the ones recorded since the last call (append). */
    void setSnapshots(const QList<Snapshot> &snapshots);
    void appendSnapshots(const QList<Snapshot> &snapshots);
    /** No history can be read (no table, no right): says why; the window's refreshes are plotted. */
    void setHistoryNote(const QString &note);
    /** One refresh of the window (used while no snapshot is recorded). */
    void addRefresh(const QDateTime &at, double fpr, double names);
    /** Forgets the refreshes and the snapshots (another filter). */
    void clear();

    void setMethod(forecast::Method m);
    /** The fit's window in days (0: all). */
    void setWindowDays(int days);
    void setHorizonMonths(int months);

    const QList<Snapshot> &snapshots() const { return mSnapshots; }
    /** The highest id known (what the next read asks to come after). */
    qint64 lastId() const;
    bool usesSnapshots() const { return !mSnapshots.isEmpty(); }
    const std::optional<forecast::Fit> &fit() const { return mFit; }
    QString forecastText() const;
    QString recommendationText() const;
    QString sourceText() const;
    QLineSeries *namesSeries() const { return mNames; }
    QLineSeries *fprSeries() const { return mFprLine; }
    QLineSeries *forecastSeries() const { return mForecast; }
    QChartView *chartView() const { return mView; }
    /** The FPR axis counts in a power of ten (its title says which): the series holds FPR / that. */
    QValueAxis *fprAxis() const { return mFprAxis; }
    QValueAxis *namesAxis() const { return mNamesAxis; }
    /** "time,estimated_names,estimated_fpr,source" and one line a point plotted. */
    QString csv() const;

private:
    struct Sample {
        QDateTime at;
        double fpr = 0, names = 0;
    };
    QList<Sample> samples() const;
    void replot();

    Geometry mGeometry;
    double mTarget = 0.01;
    QList<Snapshot> mSnapshots;
    QList<Sample> mRefreshes;
    QString mNote;
    std::optional<forecast::Fit> mFit;
    QString mFitWhy;
    forecast::Support mSupport;
    forecast::Method mMethod = forecast::Method::Linear;
    int mWindowDays = 30;
    int mHorizonMonths = 12;

    QChartView *mView = nullptr;
    QChart *mChart = nullptr;
    QLineSeries *mNames = nullptr;
    QScatterSeries *mNamePoints = nullptr;
    QLineSeries *mFprLine = nullptr;
    QLineSeries *mForecast = nullptr;
    QLineSeries *mBandLow = nullptr;
    QLineSeries *mBandHigh = nullptr;
    QAreaSeries *mBand = nullptr;
    QLineSeries *mCapacity = nullptr;
    QDateTimeAxis *mTime = nullptr;
    QValueAxis *mNamesAxis = nullptr;
    QValueAxis *mFprAxis = nullptr;
    QComboBox *mMethodBox = nullptr;
    QComboBox *mWindowBox = nullptr;
    QSpinBox *mHorizonBox = nullptr;
    QLabel *mSource = nullptr;
    QLabel *mForecastLabel = nullptr;
    QLabel *mRecommendation = nullptr;
    double mUnit = 1e6;
    bool mCapacityShown = false;
};

} // namespace bloom
