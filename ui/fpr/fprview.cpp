#include "fpr/fprview.h"

#include "model/fprmodel.h"
#include "style/theme.h"

#include <QChartView>
#include <QCursor>
#include <QDateTimeAxis>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace bloom {

namespace {

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
    const QPalette pal = palette();
    mModel = new QLineSeries(chart);
    mModel->setName(tr("model"));
    mModel->setPen(QPen(theme::seriesColour(QColor(0x3d, 0x85, 0xe0), pal), 2));
    mTargetLine = new QLineSeries(chart);
    mTargetLine->setName(tr("target"));
    mTargetLine->setPen(QPen(theme::seriesColour(QColor(0xe0, 0x3a, 0x3a), pal), 1.5, Qt::DashLine));
    mCapacityLine = new QLineSeries(chart);
    mCapacityLine->setName(tr("capacity at target"));
    mCapacityLine->setPen(QPen(theme::seriesColour(QColor(0x9b, 0x59, 0xb6), pal), 1.5, Qt::DotLine));
    mReference = new QScatterSeries(chart);
    mReference->setName(tr("the reference's figures"));
    mReference->setMarkerSize(9);
    mReference->setColor(theme::seriesColour(QColor(0xf0, 0x90, 0x10), pal));
    mReference->setBorderColor(mReference->color());
    mToday = new QScatterSeries(chart);
    mToday->setName(tr("now"));
    mToday->setMarkerSize(13);
    mToday->setColor(theme::seriesColour(QColor(0x2e, 0xb0, 0x4f), pal));
    mToday->setBorderColor(mToday->color());
    // Tooltips, not point labels: a label beside a point at the axis is cut off.
    for (QXYSeries *series : std::initializer_list<QXYSeries *>{mModel, mReference, mToday})
        connect(series, &QXYSeries::hovered, this, [this, series](const QPointF &point, bool state) {
            if (state)
                QToolTip::showText(QCursor::pos(), pointText(series, point), mModelView);
            else
                QToolTip::hideText();
        });
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
    mFprAxis->setMinorTickCount(0);
    mFprAxis->setRange(1e-6, 1.0);
    chart->addAxis(mNamesAxis, Qt::AlignBottom);
    chart->addAxis(mFprAxis, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(mNamesAxis);
        s->attachAxis(mFprAxis);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    mModelView = new QChartView(chart, this);
    mModelView->setObjectName(QStringLiteral("fprChart"));
    mModelView->setAccessibleName(tr("FPR against names"));
    mModelView->setRenderHint(QPainter::Antialiasing);
    mModelView->setMinimumHeight(280); // below this Qt Charts elides every axis label to "..."
    theme::styleChart(chart, pal);

    auto *timeChart = new QChart;
    timeChart->setTitle(tr("Estimated FPR since the window opened (one point a refresh)"));
    mMeasured = new QLineSeries(timeChart);
    mMeasured->setName(tr("estimated FPR"));
    mMeasured->setPen(QPen(theme::seriesColour(QColor(0x2e, 0xb0, 0x4f), pal), 2));
    mMeasuredPoints = new QScatterSeries(timeChart);
    mMeasuredPoints->setName(tr("refresh"));
    mMeasuredPoints->setMarkerSize(7);
    mMeasuredPoints->setColor(theme::seriesColour(QColor(0x2e, 0xb0, 0x4f), pal));
    mMeasuredPoints->setBorderColor(mMeasuredPoints->color());
    connect(mMeasuredPoints, &QXYSeries::hovered, this, [this](const QPointF &point, bool state) {
        if (state)
            QToolTip::showText(QCursor::pos(), pointText(mMeasuredPoints, point), mTimeView);
        else
            QToolTip::hideText();
    });
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
    mTimeView->setObjectName(QStringLiteral("fprTimeChart"));
    mTimeView->setAccessibleName(tr("Estimated FPR over time"));
    mTimeView->setRenderHint(QPainter::Antialiasing);
    mTimeView->setMinimumHeight(190);
    theme::styleChart(timeChart, pal);

    mTargetBox = new QDoubleSpinBox(this);
    mTargetBox->setObjectName(QStringLiteral("targetFpr"));
    mTargetBox->setSuffix(QStringLiteral(" %"));
    mTargetBox->setDecimals(3);
    mTargetBox->setRange(0.001, 50.0);
    mTargetBox->setValue(mTarget * 100);
    connect(mTargetBox, &QDoubleSpinBox::valueChanged, this, [this](double v) { setTarget(v / 100.0); });
    mCapacityLabel = new QLabel(this);
    mCapacityLabel->setObjectName(QStringLiteral("capacity"));
    mCapacityLabel->setWordWrap(true);
    mForecastLabel = new QLabel(this);
    mForecastLabel->setObjectName(QStringLiteral("forecast"));
    mForecastLabel->setWordWrap(true);

    auto *controls = new QHBoxLayout;
    auto *targetLabel = new QLabel(tr("&Target FPR:"), this);
    targetLabel->setBuddy(mTargetBox);
    controls->addWidget(targetLabel);
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

QString FprView::pointText(const QXYSeries *series, const QPointF &point) const
{
    if (series == mMeasuredPoints)
        return tr("%1: estimated FPR %2")
            .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(qint64(point.x())), QLocale::LongFormat))
            .arg(point.y() * mTimeUnit, 0, 'g', 3);
    const double names = point.x() * mUnit;
    const double rate = series == mModel ? fpr::blocked(names, mGeometry) : point.y();
    const QString what = series == mToday       ? tr("now")
                         : series == mReference ? tr("the reference's figure")
                                                : tr("model");
    return tr("%1: %2 names, FPR %3 (%4)").arg(what, millions(names)).arg(rate, 0, 'g', 3).arg(fpr::oneIn(rate));
}

void FprView::rebuildModel()
{
    mCapacity = fpr::capacity(mGeometry, mTarget);
    const double now = mSamples.isEmpty() ? 0 : mSamples.last().names;
    const double nowFpr = mSamples.isEmpty() ? 0 : mSamples.last().fpr;
    // The x range follows the geometry (its capacity at the target), today's names and, for the
    // reference geometry, the text's own figures; its ticks are round numbers of a round unit.
    double xMax = qMax(mCapacity * 1.5, now * 1.25);
    if (mGeometry.isReference())
        xMax = qMax(xMax, 210e6);
    xMax = qMax(xMax, 10.0);
    mUnit = xMax >= 2e6 ? 1e6 : xMax >= 2e3 ? 1e3 : 1;
    const QString unitName = mUnit == 1e6 ? tr("millions") : mUnit == 1e3 ? tr("thousands") : tr("names");
    const theme::NiceAxis x = theme::niceAxis(0, xMax / mUnit, 5);
    mNamesAxis->setRange(x.min, x.max);
    mNamesAxis->setTickCount(x.tickCount());
    mNamesAxis->setLabelFormat(x.step < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    mNamesAxis->setTitleText(mUnit == 1 ? tr("names for %1").arg(mGeometry.describe())
                                        : tr("names (%1) for %2").arg(unitName, mGeometry.describe()));
    const double top = x.max * mUnit;

    // The log axis starts a little below the lowest rate that matters (the curve at a tenth of the
    // range, today's rate, a hundredth of the target), so the curve rises across the chart instead
    // of lying flat on a floor. Past 8 decades the labels go every second decade.
    double lowest = qMin(fpr::blocked(top * 0.1, mGeometry), mTarget / 100);
    if (nowFpr > 0)
        lowest = qMin(lowest, nowFpr / 3);
    lowest = qBound(1e-30, lowest, mTarget / 10);
    const double decades = std::ceil(-std::log10(lowest));
    const int base = decades > 8 ? 100 : 10;
    const double floorExp = base == 100 ? 2 * std::ceil(decades / 2) : decades;
    mFloor = std::pow(10.0, -floorExp);
    mFprAxis->setBase(base);
    mFprAxis->setRange(mFloor, 1.0);

    QList<QPointF> points;
    const int n = 400;
    for (int i = 1; i <= n; ++i) {
        const double names = top * i / n;
        const double rate = fpr::blocked(names, mGeometry);
        if (rate >= mFloor)
            points.append({names / mUnit, qMin(1.0, rate)});
    }
    mModel->replace(points);
    mTargetLine->replace({QPointF(0, mTarget), QPointF(x.max, mTarget)});
    mCapacityLine->replace({QPointF(mCapacity / mUnit, mFloor), QPointF(mCapacity / mUnit, 1.0)});
    QList<QPointF> ref;
    if (mGeometry.isReference()) // the text's own figures: 1 in 170, 1 in 27, 1 in 9
        ref = {QPointF(100e6 / mUnit, 1 / 170.0), QPointF(150e6 / mUnit, 1 / 27.0), QPointF(200e6 / mUnit, 1 / 9.0)};
    mReference->replace(ref);
    updateMarkers();
}

QString FprView::samplesCsv() const
{
    QString out = QStringLiteral("time,estimated_names,estimated_fpr\n");
    for (const Sample &s : mSamples)
        out += QStringLiteral("%1,%2,%3\n")
                   .arg(s.at.toUTC().toString(Qt::ISODateWithMs))
                   .arg(qRound64(s.names))
                   .arg(s.fpr, 0, 'g', 6);
    return out;
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
        mToday->replace({QPointF(s.names / mUnit, qMax(mFloor, s.fpr))});
        // The legend names the point: a label beside it would be cut at the axis.
        mToday->setName(tr("now: %1 names, FPR %2").arg(millions(s.names)).arg(s.fpr, 0, 'g', 2));
    } else {
        mToday->clear();
        mToday->setName(tr("now"));
    }
    mCapacityLabel->setText(capacityText());
    mForecastLabel->setText(forecastText());
}

void FprView::addMeasurement(const QDateTime &at, double estimatedFpr, double estimatedNames)
{
    mSamples.append({at, estimatedFpr, estimatedNames});
    double lo = estimatedFpr, hi = estimatedFpr;
    for (const Sample &s : std::as_const(mSamples)) {
        lo = qMin(lo, s.fpr);
        hi = qMax(hi, s.fpr);
    }
    // Qt Charts cannot lay out ticks over a range like 1.76e-13..1.94e-13: the axis counts in units of
    // a power of ten that its title names, and its ticks are round numbers of that unit.
    const double unit = hi > 0 ? std::pow(10.0, std::floor(std::log10(hi))) : 1.0;
    QList<QPointF> points;
    for (const Sample &s : std::as_const(mSamples))
        points.append({double(s.at.toMSecsSinceEpoch()), s.fpr / unit});
    mMeasured->replace(points);
    mMeasuredPoints->replace(points);
    mTimeUnit = unit;
    const QDateTime first = mSamples.first().at;
    mTimeAxis->setRange(first.addSecs(-5), qMax(at.addSecs(5), first.addSecs(60)));
    const double pad = qMax((hi - lo) * 0.2, hi * 0.05);
    const theme::NiceAxis y = theme::niceAxis(qMax(0.0, lo - pad) / unit, (hi + pad) / unit, 4);
    mTimeFprAxis->setRange(y.min, y.max);
    mTimeFprAxis->setTickCount(y.tickCount());
    mTimeFprAxis->setLabelFormat(y.step < 0.1 ? QStringLiteral("%.2f") : QStringLiteral("%.1f"));
    mTimeFprAxis->setTitleText(unit == 1.0 ? tr("FPR") : tr("FPR (\u00d7 %1)").arg(unit, 0, 'g', 1));
    const bool grew =
        mSamples.size() < 2 || std::abs(mSamples.last().names - mSamples[mSamples.size() - 2].names) > 0.5;
    if (grew)
        rebuildModel(); // the x range follows today's names
    else
        updateMarkers();
}

} // namespace bloom
