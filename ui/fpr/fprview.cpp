#include "fpr/fprview.h"

#include "model/fprmodel.h"

#include <QChartView>
#include <QDateTimeAxis>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace bloom {

namespace {

constexpr double FprFloor = 1e-6; // the log axis starts here; smaller rates are drawn at the floor

QString millions(double n)
{
    return n >= 1e6 ? QStringLiteral("%1 M").arg(n / 1e6, 0, 'f', 1) : QString::number(qRound64(n));
}

} // namespace

FprView::FprView(QWidget *parent)
    : QWidget(parent)
{
    auto *chart = new QChart;
    chart->setTitle(tr("False-positive rate against names (blocked model)"));
    mModel = new QLineSeries(chart);
    mModel->setName(tr("model"));
    mModel->setPen(QPen(QColor(0x5e, 0xa1, 0xff), 2));
    mTargetLine = new QLineSeries(chart);
    mTargetLine->setName(tr("target"));
    mTargetLine->setPen(QPen(QColor(0xff, 0x4d, 0x4d), 1.5, Qt::DashLine));
    mCapacityLine = new QLineSeries(chart);
    mCapacityLine->setName(tr("capacity at target"));
    mCapacityLine->setPen(QPen(QColor(0xff, 0x4d, 0x4d), 1, Qt::DotLine));
    mReference = new QScatterSeries(chart);
    mReference->setName(tr("the reference's figures"));
    mReference->setMarkerSize(9);
    mReference->setColor(QColor(0xff, 0x9f, 0x1c));
    mToday = new QScatterSeries(chart);
    mToday->setName(tr("now"));
    mToday->setMarkerSize(13);
    mToday->setColor(QColor(0x5e, 0xff, 0x6c));
    mToday->setPointLabelsVisible(true);
    mToday->setPointLabelsFormat(QStringLiteral("now"));
    for (QAbstractSeries *s :
         std::initializer_list<QAbstractSeries *>{mModel, mTargetLine, mCapacityLine, mReference, mToday})
        chart->addSeries(s);
    mNamesAxis = new QValueAxis(chart);
    mNamesAxis->setTitleText(tr("names (millions)"));
    mNamesAxis->setLabelFormat(QStringLiteral("%.0f"));
    mFprAxis = new QLogValueAxis(chart);
    mFprAxis->setTitleText(tr("false-positive rate"));
    mFprAxis->setLabelFormat(QStringLiteral("%g"));
    mFprAxis->setBase(10);
    mFprAxis->setRange(FprFloor, 1.0);
    chart->addAxis(mNamesAxis, Qt::AlignBottom);
    chart->addAxis(mFprAxis, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(mNamesAxis);
        s->attachAxis(mFprAxis);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    mModelView = new QChartView(chart, this);
    mModelView->setRenderHint(QPainter::Antialiasing);

    auto *timeChart = new QChart;
    timeChart->setTitle(tr("Estimated FPR since the window opened (one point a refresh)"));
    mMeasured = new QLineSeries(timeChart);
    mMeasured->setName(tr("estimated FPR"));
    mMeasured->setPen(QPen(QColor(0x5e, 0xff, 0x6c), 2));
    mMeasuredPoints = new QScatterSeries(timeChart);
    mMeasuredPoints->setName(tr("refresh"));
    mMeasuredPoints->setMarkerSize(7);
    mMeasuredPoints->setColor(QColor(0x5e, 0xff, 0x6c));
    timeChart->addSeries(mMeasured);
    timeChart->addSeries(mMeasuredPoints);
    mTimeAxis = new QDateTimeAxis(timeChart);
    mTimeAxis->setFormat(QStringLiteral("HH:mm:ss"));
    mTimeAxis->setTitleText(tr("time"));
    mTimeFprAxis = new QValueAxis(timeChart);
    mTimeFprAxis->setLabelFormat(QStringLiteral("%.3g"));
    mTimeFprAxis->setTitleText(tr("FPR"));
    timeChart->addAxis(mTimeAxis, Qt::AlignBottom);
    timeChart->addAxis(mTimeFprAxis, Qt::AlignLeft);
    for (QAbstractSeries *s : timeChart->series()) {
        s->attachAxis(mTimeAxis);
        s->attachAxis(mTimeFprAxis);
    }
    timeChart->legend()->hide();
    mTimeView = new QChartView(timeChart, this);
    mTimeView->setRenderHint(QPainter::Antialiasing);

    mTargetBox = new QDoubleSpinBox(this);
    mTargetBox->setObjectName(QStringLiteral("targetFpr"));
    mTargetBox->setSuffix(QStringLiteral(" %"));
    mTargetBox->setDecimals(3);
    mTargetBox->setRange(0.001, 50.0);
    mTargetBox->setValue(mTarget * 100);
    connect(mTargetBox, &QDoubleSpinBox::valueChanged, this, [this](double v) { setTarget(v / 100.0); });
    mCapacityLabel = new QLabel(this);
    mCapacityLabel->setObjectName(QStringLiteral("capacity"));
    mForecastLabel = new QLabel(this);
    mForecastLabel->setObjectName(QStringLiteral("forecast"));
    mForecastLabel->setWordWrap(true);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Target FPR:"), this));
    controls->addWidget(mTargetBox);
    controls->addSpacing(16);
    controls->addWidget(mCapacityLabel, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(mForecastLabel);
    layout->addWidget(mModelView, 3);
    layout->addWidget(mTimeView, 2);
    rebuildModel();
}

void FprView::setGeometry(const Geometry &g)
{
    mGeometry = g;
    mSamples.clear();
    mMeasured->clear();
    mMeasuredPoints->clear();
    rebuildModel();
}

void FprView::setTarget(double fpr)
{
    if (std::abs(fpr - mTarget) < 1e-12)
        return;
    mTarget = fpr;
    if (std::abs(mTargetBox->value() / 100.0 - fpr) > 1e-9)
        mTargetBox->setValue(fpr * 100);
    rebuildModel();
}

void FprView::rebuildModel()
{
    mCapacity = fpr::capacity(mGeometry, mTarget);
    const double reference = fpr::capacity(mGeometry, 0.11);
    const double xMax = qMax(mCapacity * 1.8, reference * 1.05);
    QList<QPointF> points;
    const int n = 240;
    for (int i = 1; i <= n; ++i) {
        const double names = xMax * i / n;
        points.append({names / 1e6, qMax(FprFloor, fpr::blocked(names, mGeometry))});
    }
    mModel->replace(points);
    mNamesAxis->setRange(0, xMax / 1e6);
    mNamesAxis->applyNiceNumbers();
    mNamesAxis->setTitleText(tr("names (millions) for %1").arg(mGeometry.describe()));
    mTargetLine->replace({QPointF(0, mTarget), QPointF(xMax / 1e6, mTarget)});
    mCapacityLine->replace({QPointF(mCapacity / 1e6, FprFloor), QPointF(mCapacity / 1e6, 1.0)});
    QList<QPointF> ref;
    if (mGeometry.isReference()) // the text's own figures: 1 in 170, 1 in 27, 1 in 9
        ref = {QPointF(100, 1 / 170.0), QPointF(150, 1 / 27.0), QPointF(200, 1 / 9.0)};
    mReference->replace(ref);
    updateMarkers();
}

QString FprView::capacityText() const
{
    const double now = mSamples.isEmpty() ? 0 : mSamples.last().names;
    const double left = mCapacity - now;
    return left > 0 ? tr("capacity left until %1%: %2 names (the curve crosses the target at %3)")
                          .arg(mTarget * 100, 0, 'g', 3)
                          .arg(millions(left), millions(mCapacity))
                    : tr("over the %1% target by %2 names: rebuild with more chunks")
                          .arg(mTarget * 100, 0, 'g', 3)
                          .arg(millions(-left));
}

QString FprView::forecastText() const
{
    if (mSamples.size() < 2)
        return tr("growth: needs two refreshes to measure");
    // Least-squares slope of names over time, from the refreshes since the window opened.
    const qint64 t0 = mSamples.first().at.toMSecsSinceEpoch();
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const Sample &s : mSamples) {
        const double x = double(s.at.toMSecsSinceEpoch() - t0) / 1000.0;
        sx += x;
        sy += s.names;
        sxx += x * x;
        sxy += x * s.names;
    }
    const double n = double(mSamples.size());
    const double denom = n * sxx - sx * sx;
    const double perSecond = denom > 0 ? (n * sxy - sx * sy) / denom : 0;
    const double now = mSamples.last().names;
    if (perSecond <= 0.01)
        return tr("growth: none measured since the window opened, so no date for the target");
    const double seconds = (mCapacity - now) / perSecond;
    if (seconds <= 0)
        return tr("growth %1 names/s: the target is already crossed").arg(perSecond, 0, 'f', 1);
    const QDateTime when = mSamples.last().at.addSecs(qint64(qMin(seconds, 3.0e9)));
    return tr("growth %1 names/s (%2 a day): the %3% target is crossed around %4")
        .arg(perSecond, 0, 'f', 1)
        .arg(millions(perSecond * 86400))
        .arg(mTarget * 100, 0, 'g', 3)
        .arg(QLocale().toString(when, QLocale::ShortFormat));
}

void FprView::updateMarkers()
{
    if (!mSamples.isEmpty()) {
        const Sample &s = mSamples.last();
        mToday->replace({QPointF(s.names / 1e6, qMax(FprFloor, s.fpr))});
    }
    mCapacityLabel->setText(capacityText());
    mForecastLabel->setText(forecastText());
}

void FprView::addMeasurement(const QDateTime &at, double estimatedFpr, double estimatedNames)
{
    mSamples.append({at, estimatedFpr, estimatedNames});
    QList<QPointF> points;
    double lo = estimatedFpr, hi = estimatedFpr;
    for (const Sample &s : mSamples) {
        points.append({double(s.at.toMSecsSinceEpoch()), s.fpr});
        lo = qMin(lo, s.fpr);
        hi = qMax(hi, s.fpr);
    }
    mMeasured->replace(points);
    mMeasuredPoints->replace(points);
    const QDateTime first = mSamples.first().at;
    mTimeAxis->setRange(first.addSecs(-5), qMax(at.addSecs(5), first.addSecs(60)));
    const double pad = qMax((hi - lo) * 0.2, hi * 0.05 + 1e-12);
    mTimeFprAxis->setRange(qMax(0.0, lo - pad), hi + pad);
    updateMarkers();
}

} // namespace bloom
