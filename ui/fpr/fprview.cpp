#include "fpr/fprview.h"

#include "fpr/historychart.h"

#include "model/fprmodel.h"
#include "style/theme.h"

#include <QChartView>
#include <QCursor>
#include <QDoubleSpinBox>
#include <QFile>
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
    mFprAxis->setTitleText(tr("FPR, log scale")); // a longer title is elided in the chart's height
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
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // dashed target, dotted capacity, points
    mModelView = new QChartView(chart, this);
    mModelView->setObjectName(QStringLiteral("fprChart"));
    mModelView->setAccessibleName(tr("FPR against names"));
    mModelView->setRenderHint(QPainter::Antialiasing);
    mModelView->setMinimumHeight(250); // below this (with styleChart's margins) Qt Charts elides every axis label
    theme::styleChart(chart, pal);

    mHistory = new HistoryChart(this);

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

    auto *controls = new QHBoxLayout;
    auto *targetLabel = new QLabel(tr("&Target FPR:"), this);
    targetLabel->setBuddy(mTargetBox);
    controls->addWidget(targetLabel);
    controls->addWidget(mTargetBox);
    controls->addSpacing(16);
    controls->addWidget(mCapacityLabel, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(mModelView, 3);
    layout->addWidget(mHistory, 3);
    rebuildModel();
}

void FprView::setGeometry(const Geometry &g)
{
    mGeometry = g;
    mSamples.clear();
    mHistory->clear();
    mHistory->setFilter(g, mTarget);
    rebuildModel();
}

void FprView::setTarget(double fpr)
{
    if (std::abs(fpr - mTarget) < 1e-12)
        return;
    mTarget = fpr;
    if (std::abs(mTargetBox->value() / 100.0 - fpr) > 1e-9)
        mTargetBox->setValue(fpr * 100);
    mHistory->setFilter(mGeometry, mTarget);
    rebuildModel();
}

QString FprView::pointText(const QXYSeries *series, const QPointF &point) const
{
    const double names = point.x() * mUnit;
    const double rate = series == mModel ? fpr::blocked(names, mGeometry) : point.y();
    const QString what = series == mToday       ? tr("now")
                         : series == mReference ? tr("the reference's figure")
                                                : tr("model");
    return tr("%1: %2 names, FPR %3 (%4)").arg(what, millions(names), QString::number(rate, 'g', 3), fpr::oneIn(rate));
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
    // of lying flat on a floor.
    double lowest = qMin(fpr::blocked(top * 0.1, mGeometry), mTarget / 100);
    if (nowFpr > 0)
        lowest = qMin(lowest, nowFpr / 3);
    lowest = qBound(1e-30, lowest, mTarget / 10);
    // At most MaxFprLabels labels: a label gets the plot's height over their count, and Qt Charts elides
    // every one to "..." when that is less than a line (11 labels did at 200,000 names, 1e-20).
    const double decades = std::ceil(-std::log10(lowest));
    const double perLabel = std::ceil(decades / (MaxFprLabels - 1));
    const double floorExp = perLabel * std::ceil(decades / perLabel);
    mFloor = std::pow(10.0, -floorExp);
    mFprAxis->setBase(std::pow(10.0, perLabel));
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
    return mHistory->csv();
}

QString FprView::forecastText() const
{
    return mHistory->forecastText();
}

void FprView::setSnapshots(const QList<Snapshot> &snapshots)
{
    mHistory->setSnapshots(snapshots);
}

void FprView::appendSnapshots(const QList<Snapshot> &snapshots)
{
    mHistory->appendSnapshots(snapshots);
}

void FprView::setHistoryNote(const QString &note)
{
    mHistory->setHistoryNote(note);
}

QString FprView::capacityText() const
{
    const double now = mSamples.isEmpty() ? 0 : mSamples.last().names;
    const double left = mCapacity - now;
    return left > 0 ? tr("capacity left until %1%: %2 names (the curve crosses the target at %3)")
                          .arg(QString::number(mTarget * 100, 'g', 3), millions(left), millions(mCapacity))
                    : tr("over the %1% target by %2 names: rebuild with more chunks")
                          .arg(QString::number(mTarget * 100, 'g', 3), millions(-left));
}

void FprView::updateMarkers()
{
    if (!mSamples.isEmpty()) {
        const Sample &s = mSamples.last();
        mToday->replace({QPointF(s.names / mUnit, qMax(mFloor, s.fpr))});
        // The legend names the point: a label beside it would be cut at the axis.
        mToday->setName(tr("now: %1 names, FPR %2").arg(millions(s.names), QString::number(s.fpr, 'g', 2)));
    } else {
        mToday->clear();
        mToday->setName(tr("now"));
    }
    mCapacityLabel->setText(capacityText());
}

void FprView::addMeasurement(const QDateTime &at, double estimatedFpr, double estimatedNames)
{
    mSamples.append({at, estimatedFpr, estimatedNames});
    mHistory->addRefresh(at, estimatedFpr, estimatedNames);
    const bool grew =
        mSamples.size() < 2 || std::abs(mSamples.last().names - mSamples[mSamples.size() - 2].names) > 0.5;
    if (grew)
        rebuildModel(); // the x range follows today's names
    else
        updateMarkers();
}

Status FprView::writePng(const QString &path)
{
    if (!grab().save(path, "PNG"))
        return makeError(ErrorKind::Io, tr("cannot write %1").arg(path));
    return success();
}

Status FprView::writeCsv(const QString &path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return makeError(ErrorKind::Io, tr("cannot write %1: %2").arg(path, file.errorString()));
    const QByteArray out = samplesCsv().toUtf8();
    if (file.write(out) != out.size() || !file.flush())
        return makeError(ErrorKind::Io, tr("cannot write %1: %2").arg(path, file.errorString()));
    return success();
}

} // namespace bloom
