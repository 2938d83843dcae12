#pragma once

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
class QDateTimeAxis;

namespace bloom {

/**
 * The FPR against the number of names for the filter's geometry (blocked model), today's position,
 * a target line and where the curve crosses it; below, the estimated FPR measured at each refresh.
 */
class FprView : public QWidget {
    Q_OBJECT
public:
    explicit FprView(QWidget *parent = nullptr);

    void setGeometry(const Geometry &g);
    const Geometry &filterGeometry() const { return mGeometry; }
    /** One refresh: the estimate from the fill and the names it implies, at time `at`. */
    void addMeasurement(const QDateTime &at, double estimatedFpr, double estimatedNames);
    void setTarget(double fpr);
    double target() const { return mTarget; }

    QLineSeries *modelSeries() const { return mModel; }
    QScatterSeries *measuredSeries() const { return mMeasuredPoints; }
    QScatterSeries *referencePoints() const { return mReference; }
    QScatterSeries *todayPoint() const { return mToday; }
    QValueAxis *namesAxis() const { return mNamesAxis; }
    QLogValueAxis *fprAxis() const { return mFprAxis; }
    QValueAxis *timeFprAxis() const { return mTimeFprAxis; }
    QChartView *modelView() const { return mModelView; }
    QString capacityText() const;
    /** "time,estimated_names,estimated_fpr" and one line a refresh. */
    QString samplesCsv() const;
    QString forecastText() const;

private:
    void rebuildModel();
    QString pointText(const QXYSeries *series, const QPointF &point) const;
    void updateMarkers();

    Geometry mGeometry;
    double mTarget = 0.01;
    double mCapacity = 0;
    double mUnit = 1e6;   ///< names a unit of the x axis
    double mFloor = 1e-6; ///< the log axis' bottom
    double mTimeUnit = 1; ///< the time chart's FPR axis counts in this unit
    struct Sample {
        QDateTime at;
        double fpr, names;
    };
    QList<Sample> mSamples;

    QChartView *mModelView = nullptr;
    QChartView *mTimeView = nullptr;
    QLineSeries *mModel = nullptr;
    QLineSeries *mTargetLine = nullptr;
    QLineSeries *mCapacityLine = nullptr;
    QScatterSeries *mToday = nullptr;
    QScatterSeries *mReference = nullptr;
    QLineSeries *mMeasured = nullptr;
    QScatterSeries *mMeasuredPoints = nullptr;
    QValueAxis *mNamesAxis = nullptr;
    QLogValueAxis *mFprAxis = nullptr;
    QDateTimeAxis *mTimeAxis = nullptr;
    QValueAxis *mTimeFprAxis = nullptr;
    QDoubleSpinBox *mTargetBox = nullptr;
    QLabel *mCapacityLabel = nullptr;
    QLabel *mForecastLabel = nullptr;
};

} // namespace bloom
