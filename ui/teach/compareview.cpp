#include "teach/compareview.h"
#include "style/theme.h"

#include "local/demo.h"
#include "model/fprmodel.h"
#include "teach/bitgridwidget.h"

#include <QAreaSeries>
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
#include <QToolButton>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace bloom {

namespace {

const QColor ClassicColour(0x7b, 0x3f, 0xbf);
const QColor BlockedColour(0x1e, 0x88, 0xc8);
const QColor NowColour(0xf0, 0x9a, 0x1c);
constexpr double FprFloor = 1e-5;
constexpr int SpreadPoints = 24;
constexpr int MeasureProbes = 4000;

struct Size {
    int chunkLog2, bitsLog2;
};
const Size Sizes[] = {{4, 6}, {6, 6}, {7, 7}};

QString percent(double v)
{
    return QStringLiteral("%1%").arg(100.0 * v, 0, 'f', v < 0.001 ? 4 : 3);
}

/** The filter's own rate, from its fill: what a never-added name meets on average. */
double fillRate(const SandboxFilter &f)
{
    const quint64 b = f.chunkBits();
    double sum = 0;
    for (quint64 c = 0; c < f.size() / b; ++c) {
        quint64 set = 0;
        for (quint64 i = 0; i < b; ++i)
            set += f.bit(c * b + i) ? 1 : 0;
        sum += std::pow(double(set) / double(b), f.k());
    }
    return sum / double(f.size() / b);
}

QList<QPointF> abovefloor(const QList<QPointF> &points)
{
    QList<QPointF> out;
    for (const QPointF &p : points)
        if (p.y() >= FprFloor)
            out << p;
    return out;
}

} // namespace

CompareView::CompareView(QWidget *parent)
    : QWidget(parent)
{
    mSize = new QComboBox(this);
    mSize->setAccessibleName(tr("Filter size"));
    mSize->setObjectName(QStringLiteral("compareSize"));
    mSize->addItem(tr("1,024 bits = 16 x 64"));
    mSize->addItem(tr("4,096 bits = 64 x 64"));
    mSize->addItem(tr("16,384 bits = 128 x 128"));
    mSize->setToolTip(tr("Both filters' size; the blocked one as chunks x bits a chunk"));
    mSize->setCurrentIndex(1);
    mK = new QSpinBox(this);
    mK->setAccessibleName(tr("Positions a name (k)"));
    mK->setRange(1, 12);
    mK->setValue(7);
    mK->setPrefix(tr("k = "));
    mN = new QSlider(Qt::Horizontal, this);
    mN->setAccessibleName(tr("Names added"));
    mN->setObjectName(QStringLiteral("compareNames"));
    mN->setMinimumWidth(80);
    mNLabel = new QLabel(this);
    mBitsButton = new QToolButton(this);
    mBitsButton->setText(tr("Bit arrays"));
    mBitsButton->setAccessibleName(tr("Show the bit arrays instead of the chart"));
    mBitsButton->setObjectName(QStringLiteral("compareBits"));
    mBitsButton->setCheckable(true);
    mBitsButton->setVisible(false);
    connect(mBitsButton, &QToolButton::toggled, this, &CompareView::showBits);
    auto *controls = new QHBoxLayout;
    controls->addWidget(mSize);
    controls->addWidget(mK);
    controls->addSpacing(8);
    mNamesCaption = new QLabel(tr("names:"), this);
    controls->addWidget(mNamesCaption);
    controls->addWidget(mN, 1);
    controls->addWidget(mNLabel);
    controls->addWidget(mBitsButton);

    mGrids = new QWidget(this);
    mClassicGrid = new BitGridWidget(mGrids);
    mClassicGrid->setCompact(true);
    mClassicGrid->setAccessibleName(tr("The classic filter's bits"));
    mBlockedGrid = new BitGridWidget(mGrids);
    mBlockedGrid->setCompact(true);
    mBlockedGrid->setAccessibleName(tr("The blocked filter's bits"));
    auto *classicTitle = new QLabel(tr("<b style='color:%1'>Classic</b>: k positions anywhere in the array, "
                                       "md5(\"i:\" + name) mod m")
                                        .arg(theme::textOn(ClassicColour, palette())),
                                    mGrids);
    auto *blockedTitle = new QLabel(tr("<b style='color:%1'>Blocked</b>: all k positions in one chunk (one row "
                                       "a chunk), as username_bits")
                                        .arg(theme::textOn(BlockedColour, palette())),
                                    mGrids);
    classicTitle->setWordWrap(true);
    blockedTitle->setWordWrap(true);
    auto *grids = new QGridLayout(mGrids);
    grids->setContentsMargins(0, 0, 0, 0);
    grids->addWidget(classicTitle, 0, 0);
    grids->addWidget(blockedTitle, 0, 1);
    grids->addWidget(mClassicGrid, 1, 0);
    grids->addWidget(mBlockedGrid, 1, 1);
    grids->setRowStretch(1, 1);

    auto *chart = new QChart;
    chart->setTitle(tr("False-positive rate against names added"));
    const QColor classic = theme::seriesColour(ClassicColour, palette());
    const QColor blocked = theme::seriesColour(BlockedColour, palette());
    mClassicModel = new QLineSeries(chart);
    mClassicModel->setName(tr("classic, model"));
    mClassicModel->setPen(QPen(classic, 2));
    mBlockedModel = new QLineSeries(chart);
    mBlockedModel->setName(tr("blocked, model"));
    mBlockedModel->setPen(QPen(blocked, 2));
    const auto band = [chart](const QColor &c, const QString &name) {
        auto *a = new QAreaSeries(new QLineSeries(chart), new QLineSeries(chart));
        QColor fill = c;
        fill.setAlpha(60);
        a->setBrush(fill);
        a->setPen(Qt::NoPen);
        a->setName(name);
        return a;
    };
    mClassicBand = band(classic, tr("classic, %1 other name sets").arg(SpreadSets));
    mBlockedBand = band(blocked, tr("blocked, %1 other name sets").arg(SpreadSets));
    mClassicMeasured = new QScatterSeries(chart);
    mClassicMeasured->setName(tr("classic, this set measured"));
    mClassicMeasured->setColor(classic);
    mClassicMeasured->setBorderColor(classic);
    mClassicMeasured->setMarkerSize(8);
    mBlockedMeasured = new QScatterSeries(chart);
    mBlockedMeasured->setName(tr("blocked, this set measured"));
    mBlockedMeasured->setColor(blocked);
    mBlockedMeasured->setBorderColor(blocked);
    mBlockedMeasured->setMarkerSize(8);
    mBlockedMeasured->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    mNow = new QScatterSeries(chart);
    mNow->setColor(theme::seriesColour(NowColour, palette()));
    mNow->setBorderColor(mNow->color());
    mNow->setMarkerSize(13);
    for (QAbstractSeries *s : std::initializer_list<QAbstractSeries *>{
             mClassicBand, mBlockedBand, mClassicModel, mBlockedModel, mClassicMeasured, mBlockedMeasured, mNow})
        chart->addSeries(s);
    mNAxis = new QValueAxis(chart);
    mNAxis->setTitleText(tr("names"));
    mNAxis->setLabelFormat(QStringLiteral("%.0f"));
    mFprAxis = new QLogValueAxis(chart);
    mFprAxis->setBase(10);
    mFprAxis->setLabelFormat(QStringLiteral("%g"));
    mFprAxis->setRange(FprFloor, 1);
    mFprAxis->setTitleText(tr("false-positive rate (none drawn below 1e-5)"));
    chart->addAxis(mNAxis, Qt::AlignBottom);
    chart->addAxis(mFprAxis, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(mNAxis);
        s->attachAxis(mFprAxis);
    }
    chart->legend()->setAlignment(Qt::AlignRight); // a column never cuts their names
    mChartView = new QChartView(chart, this);
    mChartView->setRenderHint(QPainter::Antialiasing);
    mChartView->setAccessibleName(tr("FPR against names, classic and blocked"));
    mChartView->setMinimumSize(200, 150);
    theme::styleChart(chart, palette());

    mSummary = new QLabel(this);
    mSummary->setObjectName(QStringLiteral("compareSummary"));
    mSummary->setWordWrap(true);
    mSummary->setTextFormat(Qt::RichText);

    auto *body = new QHBoxLayout;
    body->addWidget(mGrids, 1);
    body->addWidget(mChartView, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(body, 1);
    layout->addWidget(mSummary);

    connect(mSize, &QComboBox::currentIndexChanged, this, &CompareView::rebuild);
    connect(mK, &QSpinBox::valueChanged, this, &CompareView::rebuild);
    connect(mN, &QSlider::valueChanged, this, &CompareView::refill);
    // Built when first shown: its 12 name sets cost half a second the step-by-step tab need not wait for.
}

void CompareView::ensureBuilt() const
{
    if (!mClassic)
        const_cast<CompareView *>(this)->rebuild();
}

void CompareView::showEvent(QShowEvent *event)
{
    ensureBuilt();
    QWidget::showEvent(event);
}

void CompareView::setNames(int n)
{
    ensureBuilt();
    mN->setValue(n);
}

int CompareView::names() const
{
    ensureBuilt();
    return mN->value();
}

void CompareView::setPresentation(bool on)
{
    // The projector has room for the chart or the two bit arrays, one at a time (the button swaps).
    mPresentation = on;
    mBitsButton->setVisible(on);
    // The projector's one row: the size box shrinks and the slider's caption goes (German's longer
    // words pushed the row off the screen); the slider keeps its accessible name.
    mNamesCaption->setVisible(!on);
    mSize->setSizeAdjustPolicy(on ? QComboBox::AdjustToMinimumContentsLengthWithIcon
                                  : QComboBox::AdjustToContentsOnFirstShow);
    mSize->setMinimumContentsLength(on ? 6 : 0);
    // No room for a legend of seven entries: the summary's first line is the key.
    mChartView->chart()->legend()->setVisible(!on);
    mFprAxis->setTitleText(on ? tr("FPR") : tr("false-positive rate (none drawn below 1e-5)"));
    showBits(on && mBitsButton->isChecked());
    mSummary->setText(summary());
}

void CompareView::showBits(bool bits)
{
    mGrids->setVisible(!mPresentation || bits);
    mChartView->setVisible(!mPresentation || !bits);
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
    // The models (exact: each filter's fill varies, and its rate with it) ...
    // The one model of each kind, as the sandbox filter has it (the status line's and the lessons' too).
    const SandboxFilter classicEmpty = *SandboxFilter::classic(quint64(m), k),
                        blockedEmpty = *SandboxFilter::blocked(*g);
    QList<QPointF> classicModel, blockedModel;
    for (int i = 1; i <= 120; ++i) {
        const qint64 n = qint64(std::llround(maxN * i / 120.0));
        classicModel << QPointF(double(n), classicEmpty.modelFpr(n));
        blockedModel << QPointF(double(n), blockedEmpty.modelFpr(n));
    }
    mClassicModel->replace(abovefloor(classicModel));
    mBlockedModel->replace(abovefloor(blockedModel));
    // ... the spread of other sets of names: each filter's own rate, from its fill ...
    mSpreadN.clear();
    mSpreadSets.clear();
    for (int set = 0; set < SpreadSets; ++set)
        mSpreadSets << demoNames(maxN, 101 + quint32(set));
    for (auto &s : mSpread)
        s = QList<double>(SpreadPoints, 0.0);
    for (int i = 1; i <= SpreadPoints; ++i)
        mSpreadN << double(maxN * i / SpreadPoints);
    for (int set = 0; set < SpreadSets; ++set) {
        const QList<QByteArray> &names = mSpreadSets[set];
        auto c = SandboxFilter::classic(quint64(m), k);
        auto b = SandboxFilter::blocked(*g);
        int added = 0;
        for (int i = 0; i < SpreadPoints; ++i) {
            for (; added < int(mSpreadN[i]); ++added) {
                (void)c->add(names[added]);
                (void)b->add(names[added]);
            }
            const double rc = fillRate(*c), rb = fillRate(*b);
            mSpread[0][i] = set == 0 ? rc : std::min(mSpread[0][i], rc);
            mSpread[1][i] = set == 0 ? rc : std::max(mSpread[1][i], rc);
            mSpread[2][i] = set == 0 ? rb : std::min(mSpread[2][i], rb);
            mSpread[3][i] = set == 0 ? rb : std::max(mSpread[3][i], rb);
        }
    }
    const auto setBand = [this](QAreaSeries *a, int lo) {
        QList<QPointF> upper, lower;
        for (int i = 0; i < SpreadPoints; ++i)
            if (mSpread[size_t(lo + 1)][i] >= FprFloor) { // a band clipped at the floor, never drawn on it
                upper << QPointF(mSpreadN[i], mSpread[size_t(lo + 1)][i]);
                lower << QPointF(mSpreadN[i], std::max(FprFloor, mSpread[size_t(lo)][i]));
            }
        a->upperSeries()->replace(upper);
        a->lowerSeries()->replace(lower);
    };
    setBand(mClassicBand, 0);
    setBand(mBlockedBand, 2);
    // ... and this set measured by probing, every twelfth of the way.
    QList<QPointF> classicMeasured, blockedMeasured;
    auto classic = SandboxFilter::classic(quint64(m), k);
    auto blocked = SandboxFilter::blocked(*g);
    int added = 0;
    for (int step = 1; step <= 12; ++step) {
        const int upto = maxN * step / 12;
        for (; added < upto; ++added) {
            (void)classic->add(mNamePool[added]);
            (void)blocked->add(mNamePool[added]);
        }
        const double mc = classic->measuredFpr(MeasureProbes, 100 + quint32(step));
        const double mb = blocked->measuredFpr(MeasureProbes, 100 + quint32(step));
        if (mc > 0)
            classicMeasured << QPointF(upto, mc);
        if (mb > 0)
            blockedMeasured << QPointF(upto, mb);
    }
    mClassicMeasured->replace(abovefloor(classicMeasured));
    mBlockedMeasured->replace(abovefloor(blockedMeasured));
    const theme::NiceAxis x = theme::niceAxis(0, maxN, 4);
    mNAxis->setRange(0, x.max);
    mNAxis->setTickCount(x.tickCount());
    const QSignalBlocker block(mN);
    mN->setRange(0, maxN);
    // Start where the classic model gives the reference's 0.578%: about 10.7 bits a name.
    int start = 0;
    while (start < maxN && classicEmpty.modelFpr(start) < 0.00578)
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
    mNLabel->setText(n == 1 ? tr("n = 1") : tr("n = %1").arg(n));
    // Now: this set measured at n (not the model: those are the curves), labelled.
    mNow->clear();
    for (double r : {mRates[0], mRates[2]})
        if (r >= FprFloor)
            mNow->append(n, r);
    mNow->setName(tr("now (n = %1), measured").arg(n));
    mSummary->setText(summary());
    emit changed();
}

std::array<double, 4> CompareView::spreadAt(int n) const
{
    ensureBuilt();
    // The other sets at exactly this n (the summary said the nearest band checkpoint's, n = 398 beside 382).
    std::array<double, 4> out{};
    const Size sz = Sizes[qBound(0, mSize->currentIndex(), 2)];
    const auto g = Geometry::create(sz.chunkLog2, sz.bitsLog2, mK->value());
    for (qsizetype set = 0; set < mSpreadSets.size(); ++set) {
        auto c = SandboxFilter::classic(g->totalBits(), mK->value());
        auto b = SandboxFilter::blocked(*g);
        for (int i = 0; i < n && i < mSpreadSets[set].size(); ++i) {
            (void)c->add(mSpreadSets[set][i]);
            (void)b->add(mSpreadSets[set][i]);
        }
        const double rc = fillRate(*c), rb = fillRate(*b);
        out = set == 0 ? std::array<double, 4>{rc, rc, rb, rb}
                       : std::array<double, 4>{std::min(out[0], rc), std::max(out[1], rc), std::min(out[2], rb),
                                               std::max(out[3], rb)};
    }
    return out;
}

double CompareView::blockedFormula() const
{
    return mBlocked ? fpr::blocked(names(), mBlocked->geometry()) : 0;
}

QString CompareView::summary() const
{
    if (!mClassic)
        return {};
    const double m = double(mClassic->size());
    const QString numbers =
        tr("%1 names in %2 bits (%3 bits a name), k = %4. <b style='color:%5'>Classic</b>: measured %6, model %7. "
           "<b style='color:%8'>Blocked</b> (%9-bit chunks): measured %10, model %11.")
            .arg(QString::number(names()), QString::number(qint64(m)),
                 QString::number(names() ? m / names() : 0.0, 'f', 1), QString::number(mClassic->k()),
                 theme::textOn(ClassicColour, palette()), percent(mRates[0]), percent(mRates[1]),
                 theme::textOn(BlockedColour, palette()), QString::number(mBlocked->chunkBits()), percent(mRates[2]),
                 percent(mRates[3]));
    const auto spread = spreadAt(names());
    const QString band = tr(" At n = %1 the %2 other sets of names ran from %3 to %4 (classic) and %5 to %6 (blocked).")
                             .arg(QString::number(names()), QString::number(SpreadSets), percent(spread[0]),
                                  percent(spread[1]), percent(spread[2]), percent(spread[3]));
    if (mPresentation)
        return tr("Lines: the models; shaded: %1 other sets of names; dots: this set measured; <b style='color:%2'>"
                  "orange</b>: now.<br>")
                   .arg(QString::number(SpreadSets), theme::textOn(NowColour, palette())) +
               numbers + band;
    const double formula = blockedFormula();
    return numbers + band +
           tr(" Keeping a name in one chunk costs a little accuracy because chunks do not fill evenly; the bigger "
              "the chunk, the smaller the cost (the reference's 8,192-bit chunks: 0.585% against 0.578%). The "
              "models are exact for random names; the reference's formula, which puts every chunk at its expected "
              "fill, says %1 for the blocked filter here (%2%3%) - a chunk's fill varies, and its rate with it. "
              "The shaded bands are %4 other sets of names: one set's rate lies anywhere in them. The dots measure "
              "this set with %5 never-added names: a rate of 0.1% is about 4 hits, give or take 2.")
               .arg(percent(formula), formula < mRates[3] ? QStringLiteral("-") : QStringLiteral("+"),
                    QString::number(std::abs(100.0 * (formula / qMax(1e-12, mRates[3]) - 1.0)), 'f', 1),
                    QString::number(SpreadSets), QString::number(MeasureProbes));
}

} // namespace bloom
