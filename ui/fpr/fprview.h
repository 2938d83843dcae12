#pragma once

#include "common/result.h"

#include "maintenance/history.h"
#include "model/geometry.h"

#include <QDateTime>
#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QDoubleSpinBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QXYSeries;
class QLogValueAxis;
class QValueAxis;

namespace bloom {

class HistoryChart;

/**
 * The FPR against the number of names for the filter's geometry (blocked model), today's position,
 * a target line and where the curve crosses it; below, the filter over time (HistoryChart): the
 * recorded snapshots, the growth fit, the date the target is crossed and the geometry to rebuild into.
 */
class FprView : public QWidget {
    Q_OBJECT
public:
    explicit FprView(QWidget *parent = nullptr);

    void setGeometry(const Geometry &g);
    const Geometry &filterGeometry() const { return mGeometry; }
    /** One refresh: the estimate from the fill and the names it implies, at time `at`. */
    void addMeasurement(const QDateTime &at, double estimatedFpr, double estimatedNames);
    /** The recorded history (bloomscope_history): all of it, or what was recorded since. */
    void setSnapshots(const QList<Snapshot> &snapshots);
    void appendSnapshots(const QList<Snapshot> &snapshots);
    void setHistoryNote(const QString &note);
    HistoryChart *history() const { return mHistory; }
    void setTarget(double fpr);
    double target() const { return mTarget; }

    QLineSeries *modelSeries() const { return mModel; }
    QScatterSeries *referencePoints() const { return mReference; }
    QScatterSeries *todayPoint() const { return mToday; }
    QValueAxis *namesAxis() const { return mNamesAxis; }
    QLogValueAxis *fprAxis() const { return mFprAxis; }
    QChartView *modelView() const { return mModelView; }
    QString capacityText() const;
    /** "time,estimated_names,estimated_fpr,source" and one line a point of the history chart. */
    QString samplesCsv() const;
    /** File > Export: the tab as PNG, and samplesCsv() as a file. */
    Status writePng(const QString &path); ///< grab() is not const
    Status writeCsv(const QString &path) const;
    QString forecastText() const;

private:
    static constexpr int MaxFprLabels = 6; ///< labels on the log axis
    void rebuildModel();
    QString pointText(const QXYSeries *series, const QPointF &point) const;
    void updateMarkers();

    Geometry mGeometry;
    double mTarget = 0.01;
    double mCapacity = 0;
    double mUnit = 1e6;   ///< names a unit of the x axis
    double mFloor = 1e-6; ///< the log axis' bottom
    struct Sample {
        QDateTime at;
        double fpr, names;
    };
    QList<Sample> mSamples;

    QChartView *mModelView = nullptr;
    QLineSeries *mModel = nullptr;
    QLineSeries *mTargetLine = nullptr;
    QLineSeries *mCapacityLine = nullptr;
    QScatterSeries *mToday = nullptr;
    QScatterSeries *mReference = nullptr;
    QValueAxis *mNamesAxis = nullptr;
    QLogValueAxis *mFprAxis = nullptr;
    QDoubleSpinBox *mTargetBox = nullptr;
    QLabel *mCapacityLabel = nullptr;
    HistoryChart *mHistory = nullptr;
};

} // namespace bloom
