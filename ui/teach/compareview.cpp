#include "teach/compareview.h"
#include "style/theme.h"

#include "local/demo.h"
#include "model/fprmodel.h"
#include "teach/bitgridwidget.h"

#include <QChartView>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSlider>
#include <QSpinBox>
#include <QValueAxis>
#include <QVBoxLayout>

namespace bloom {

namespace {

const QColor ClassicColour(0x7b, 0x3f, 0xbf);
const QColor BlockedColour(0x1e, 0x88, 0xc8);
constexpr double FprFloor = 1e-5;

struct Size {
    int chunkLog2, bitsLog2;
};
const Size Sizes[] = {{4, 6}, {6, 6}, {7, 7}};

QString percent(double v)
{
    return QStringLiteral("%1%").arg(100.0 * v, 0, 'f', v < 0.001 ? 4 : 3);
}

} // namespace

CompareView::CompareView(QWidget *parent)
    : QWidget(parent)
{
    mSize = new QComboBox(this);
    mSize->setAccessibleName(tr("Filter size"));
    mSize->addItem(tr("1,024 bits: classic, or 16 chunks x 64"));
    mSize->addItem(tr("4,096 bits: classic, or 64 chunks x 64"));
    mSize->addItem(tr("16,384 bits: classic, or 128 chunks x 128"));
    mSize->setCurrentIndex(1);
    mK = new QSpinBox(this);
    mK->setAccessibleName(tr("Positions a name (k)"));
    mK->setRange(1, 12);
    mK->setValue(7);
    mK->setPrefix(tr("k = "));
    mN = new QSlider(Qt::Horizontal, this);
    mN->setAccessibleName(tr("Names added"));
    mN->setObjectName(QStringLiteral("compareNames"));
    mNLabel = new QLabel(this);
    mNLabel->setMinimumWidth(90);
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Equal size:"), this));
    controls->addWidget(mSize);
    controls->addWidget(mK);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("names added:"), this));
    controls->addWidget(mN, 1);
    controls->addWidget(mNLabel);

    mClassicGrid = new BitGridWidget(this);
    mClassicGrid->setCompact(true);
    mBlockedGrid = new BitGridWidget(this);
    mBlockedGrid->setCompact(true);
    auto *classicTitle = new QLabel(tr("<b style='color:%1'>Classic</b>: k positions anywhere in the array, "
                                       "md5(\"i:\" + name) mod m")
                                        .arg(theme::textOn(ClassicColour, palette())),
                                    this);
    auto *blockedTitle = new QLabel(tr("<b style='color:%1'>Blocked</b>: all k positions in one chunk (one row "
                                       "a chunk), as username_bits")
                                        .arg(theme::textOn(BlockedColour, palette())),
                                    this);
    classicTitle->setWordWrap(true);
    blockedTitle->setWordWrap(true);

    auto *chart = new QChart;
    chart->setTitle(tr("False-positive rate against names added"));
    mClassicModel = new QLineSeries(chart);
    mClassicModel->setName(tr("classic, model"));
    const QColor classic = theme::seriesColour(ClassicColour, palette());
    const QColor blockedColour = theme::seriesColour(BlockedColour, palette());
    mClassicModel->setPen(QPen(classic, 2));
    mBlockedModel = new QLineSeries(chart);
    mBlockedModel->setName(tr("blocked, model"));
    mBlockedModel->setPen(QPen(blockedColour, 2));
    mClassicMeasured = new QScatterSeries(chart);
    mClassicMeasured->setName(tr("classic, measured"));
    mClassicMeasured->setColor(classic);
    mClassicMeasured->setBorderColor(classic);
    mClassicMeasured->setMarkerSize(8);
    mBlockedMeasured = new QScatterSeries(chart);
    mBlockedMeasured->setName(tr("blocked, measured"));
    mBlockedMeasured->setColor(blockedColour);
    mBlockedMeasured->setBorderColor(blockedColour);
    mBlockedMeasured->setMarkerSize(8);
    mBlockedMeasured->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    mNow = new QScatterSeries(chart);
    mNow->setName(tr("now"));
    mNow->setColor(theme::seriesColour(QColor(0xf0, 0x9a, 0x1c), palette()));
    mNow->setBorderColor(mNow->color());
    mNow->setMarkerSize(13);
    for (QAbstractSeries *s : std::initializer_list<QAbstractSeries *>{mClassicModel, mBlockedModel, mClassicMeasured,
                                                                       mBlockedMeasured, mNow})
        chart->addSeries(s);
    mNAxis = new QValueAxis(chart);
    mNAxis->setTitleText(tr("names"));
    mNAxis->setLabelFormat(QStringLiteral("%.0f"));
    mFprAxis = new QLogValueAxis(chart);
    mFprAxis->setBase(10);
    mFprAxis->setLabelFormat(QStringLiteral("%g"));
    mFprAxis->setRange(FprFloor, 1);
    mFprAxis->setTitleText(tr("false-positive rate"));
    chart->addAxis(mNAxis, Qt::AlignBottom);
    chart->addAxis(mFprAxis, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(mNAxis);
        s->attachAxis(mFprAxis);
    }
    chart->legend()->setAlignment(Qt::AlignRight); // five entries: a column never cuts their names
    auto *chartView = new QChartView(chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setAccessibleName(tr("FPR against names, classic and blocked"));
    theme::styleChart(chart, palette());

    mSummary = new QLabel(this);
    mSummary->setObjectName(QStringLiteral("compareSummary"));
    mSummary->setWordWrap(true);
    mSummary->setTextFormat(Qt::RichText);

    auto *grids = new QGridLayout;
    grids->addWidget(classicTitle, 0, 0);
    grids->addWidget(blockedTitle, 0, 1);
    grids->addWidget(mClassicGrid, 1, 0);
    grids->addWidget(mBlockedGrid, 1, 1);
    auto *left = new QVBoxLayout;
    left->addLayout(grids, 1);
    auto *body = new QHBoxLayout;
    body->addLayout(left, 1);
    body->addWidget(chartView, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(body, 1);
    layout->addWidget(mSummary);

    connect(mSize, &QComboBox::currentIndexChanged, this, &CompareView::rebuild);
    connect(mK, &QSpinBox::valueChanged, this, &CompareView::rebuild);
    connect(mN, &QSlider::valueChanged, this, &CompareView::refill);
    rebuild();
}

void CompareView::setNames(int n)
{
    mN->setValue(n);
}

int CompareView::names() const
{
    return mN->value();
}

void CompareView::rebuild()
{
    const Size sz = Sizes[qBound(0, mSize->currentIndex(), 2)];
    const int k = mK->value();
    const auto g = Geometry::create(sz.chunkLog2, sz.bitsLog2, k);
    const double m = double(g->totalBits());
    // Up to where the classic rate passes 20%.
    const int maxN = int(m / 3.0);
    mNamePool = demoNames(maxN, 11);
    // The model curves and, every twelfth of the way, a measurement on fresh filters.
    mClassicModel->clear();
    mBlockedModel->clear();
    mClassicMeasured->clear();
    mBlockedMeasured->clear();
    for (int i = 1; i <= 120; ++i) {
        const double n = maxN * i / 120.0;
        mClassicModel->append(n, qMax(FprFloor, fpr::standard(n, m, k)));
        mBlockedModel->append(n, qMax(FprFloor, fpr::blocked(n, *g)));
    }
    auto classic = SandboxFilter::classic(quint64(m), k);
    auto blocked = SandboxFilter::blocked(*g);
    int added = 0;
    for (int step = 1; step <= 12; ++step) {
        const int upto = maxN * step / 12;
        for (; added < upto; ++added) {
            (void)classic->add(mNamePool[added]);
            (void)blocked->add(mNamePool[added]);
        }
        const double mc = classic->measuredFpr(4000, 100 + quint32(step));
        const double mb = blocked->measuredFpr(4000, 100 + quint32(step));
        if (mc > 0)
            mClassicMeasured->append(upto, mc);
        if (mb > 0)
            mBlockedMeasured->append(upto, mb);
    }
    const theme::NiceAxis x = theme::niceAxis(0, maxN, 4);
    mNAxis->setRange(0, x.max);
    mNAxis->setTickCount(x.tickCount());
    const QSignalBlocker block(mN);
    mN->setRange(0, maxN);
    // Start where the classic model gives the reference's 0.578%: about 10.7 bits a name.
    int start = 0;
    while (start < maxN && fpr::standard(start, m, k) < 0.00578)
        ++start;
    mN->setValue(start);
    refill();
}

void CompareView::refill()
{
    const Size sz = Sizes[qBound(0, mSize->currentIndex(), 2)];
    const auto g = Geometry::create(sz.chunkLog2, sz.bitsLog2, mK->value());
    mClassic = *SandboxFilter::classic(g->totalBits(), mK->value());
    mBlocked = *SandboxFilter::blocked(*g);
    const int n = mN->value();
    for (int i = 0; i < n && i < mNamePool.size(); ++i) {
        (void)mClassic->add(mNamePool[i]);
        (void)mBlocked->add(mNamePool[i]);
    }
    mClassicGrid->setFilter(&*mClassic);
    mBlockedGrid->setFilter(&*mBlocked);
    mRates = {mClassic->measuredFpr(20000, 7), mClassic->modelFpr(), mBlocked->measuredFpr(20000, 7),
              mBlocked->modelFpr()};
    mNLabel->setText(tr("n = %1").arg(n));
    mNow->clear();
    mNow->append(n, qMax(FprFloor, mRates[1]));
    mNow->append(n, qMax(FprFloor, mRates[3]));
    mSummary->setText(summary());
}

QString CompareView::summary() const
{
    if (!mClassic)
        return {};
    const double m = double(mClassic->size());
    return tr("%1 names in %2 bits (%3 bits a name), k = %4. <b style='color:%5'>Classic</b>: measured %6, "
              "model %7. <b style='color:%8'>Blocked</b> (%9-bit chunks): measured %10, model %11. Keeping a name "
              "in one chunk costs a little accuracy because chunks do not fill evenly; the bigger the chunk, the "
              "smaller the cost - at the reference's 8,192-bit chunks it is 0.585% against 0.578%.")
        .arg(names())
        .arg(qint64(m))
        .arg(names() ? m / names() : 0.0, 0, 'f', 1)
        .arg(mClassic->k())
        .arg(theme::textOn(ClassicColour, palette()))
        .arg(percent(mRates[0]), percent(mRates[1]))
        .arg(theme::textOn(BlockedColour, palette()))
        .arg(mBlocked->chunkBits())
        .arg(percent(mRates[2]), percent(mRates[3]));
}

} // namespace bloom
