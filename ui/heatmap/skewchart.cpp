#include "heatmap/skewchart.h"

#include "style/theme.h"

#include <QLineSeries>
#include <QValueAxis>

namespace bloom {

SkewChart::SkewChart(QWidget *parent)
    : QChartView(parent)
{
    auto *chart = new QChart;
    mObserved = new QLineSeries(chart);
    mObserved->setName(tr("chunks (observed)"));
    mObserved->setPen(QPen(theme::seriesColour(QColor(0x3d, 0x85, 0xe0), palette()), 2));
    mExpected = new QLineSeries(chart);
    mExpected->setName(tr("model (Poisson loads)"));
    mExpected->setPen(QPen(theme::seriesColour(QColor(0xf0, 0x90, 0x10), palette()), 2, Qt::DashLine));
    chart->addSeries(mObserved);
    chart->addSeries(mExpected);
    auto *x = new QValueAxis(chart);
    x->setTitleText(tr("set bits in a chunk"));
    x->setLabelFormat(QStringLiteral("%d"));
    auto *y = new QValueAxis(chart);
    y->setTitleText(tr("chunks"));
    y->setLabelFormat(QStringLiteral("%d"));
    // Until a fill arrives, 0 and 1 only: whole-number labels on five ticks read "0 0 0 0 1".
    x->setTickCount(2);
    y->setTickCount(2);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QLineSeries *s : {mObserved, mExpected}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    chart->setTitle(tr("Chunk fill: observed vs model"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    setChart(chart);
    theme::styleChart(chart, palette());
    setAccessibleName(tr("Chunk fill histogram"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(200);
}

void SkewChart::setReport(const SkewReport &r)
{
    QList<QPointF> observed, expected;
    double top = 1;
    for (const SkewBin &b : r.bins) {
        const double mid = (b.lo + b.hi) / 2.0;
        observed.append({mid, double(b.observed)});
        expected.append({mid, b.expected});
        top = qMax(top, qMax(double(b.observed), b.expected));
    }
    mObserved->replace(observed); // in bulk, not point by point
    mExpected->replace(expected);
    auto axes = chart()->axes();
    if (!r.bins.isEmpty()) {
        // Round ticks on both axes (bits and chunk counts are whole numbers).
        auto *x = qobject_cast<QValueAxis *>(chart()->axes(Qt::Horizontal).first());
        auto *y = qobject_cast<QValueAxis *>(chart()->axes(Qt::Vertical).first());
        theme::NiceAxis nx = theme::niceAxis(r.bins.first().lo, qMax(r.bins.last().hi, r.bins.first().lo + 1), 5);
        nx.step = qMax(1.0, nx.step);
        x->setRange(nx.min, nx.max);
        x->setTickCount(nx.tickCount());
        theme::NiceAxis ny = theme::niceAxis(0, top * 1.05, 4);
        ny.step = qMax(1.0, ny.step);
        y->setRange(0, ny.max);
        y->setTickCount(ny.tickCount());
    }
    // Short enough for the chart's minimum width; the numbers go on a line of their own.
    chart()->setTitle(tr("Chunk fill: observed vs model<br><small>%1 names a chunk, %Ln outlier chunk(s)</small>",
                         nullptr, r.outlierCount)
                          .arg(r.lambda, 0, 'f', 1));
}

} // namespace bloom
