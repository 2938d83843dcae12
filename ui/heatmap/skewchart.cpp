#include "heatmap/skewchart.h"

#include <QLineSeries>
#include <QValueAxis>

namespace bloom {

SkewChart::SkewChart(QWidget *parent)
    : QChartView(parent)
{
    auto *chart = new QChart;
    mObserved = new QLineSeries(chart);
    mObserved->setName(tr("chunks (observed)"));
    mObserved->setPen(QPen(QColor(0x5e, 0xa1, 0xff), 2));
    mExpected = new QLineSeries(chart);
    mExpected->setName(tr("model (Poisson loads)"));
    mExpected->setPen(QPen(QColor(0xff, 0x9f, 0x1c), 2, Qt::DashLine));
    chart->addSeries(mObserved);
    chart->addSeries(mExpected);
    auto *x = new QValueAxis(chart);
    x->setTitleText(tr("set bits in a chunk"));
    x->setLabelFormat(QStringLiteral("%d"));
    auto *y = new QValueAxis(chart);
    y->setTitleText(tr("chunks"));
    y->setLabelFormat(QStringLiteral("%d"));
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
        chart()
            ->axes(Qt::Horizontal)
            .first()
            ->setRange(r.bins.first().lo, qMax(r.bins.last().hi, r.bins.first().lo + 1));
        chart()->axes(Qt::Vertical).first()->setRange(0, top * 1.1);
    }
    chart()->setTitle(tr("Chunk fill: observed vs model (%1 names a chunk, %2 outlier chunk(s))")
                          .arg(r.lambda, 0, 'f', 1)
                          .arg(r.outlierCount));
}

} // namespace bloom
