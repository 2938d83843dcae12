#include "heatmap/heatmaptab.h"

#include "heatmap/heatmapwidget.h"
#include "heatmap/skewchart.h"
#include "model/fprmodel.h"
#include "session/filtersession.h"
#include "style/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace bloom {

HeatmapTab::HeatmapTab(FilterSession *session, QWidget *parent)
    : QWidget(parent)
    , mSession(session)
{
    mHeatmap = new HeatmapWidget(this);
    mLegend = new HeatmapLegend(this);
    mSummary = new QLabel(this);
    mSummary->setObjectName(QStringLiteral("heatmapSummary"));
    mSummary->setWordWrap(true);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mHover = new QLabel(tr("Hover over a chunk; click it to see its bits. Wheel zooms, drag pans, double click fits."),
                        this);
    mHover->setWordWrap(true);
    mSkew = new SkewChart(this);
    auto *split = new QSplitter(Qt::Horizontal, this);
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(mHeatmap, 1);
    auto *scaleRow = new QHBoxLayout;
    auto *scaleLabel = new QLabel(tr("Colour &scale:"), left);
    mScaleMode = new QComboBox(left);
    mScaleMode->setObjectName(QStringLiteral("heatScale"));
    mScaleMode->addItem(tr("Automatic (relative when the fill is even)"), int(HeatScale::Auto));
    mScaleMode->addItem(tr("Absolute: 0 to the fullest chunk"), int(HeatScale::Absolute));
    mScaleMode->addItem(tr("Relative: the emptiest to the fullest chunk"), int(HeatScale::Relative));
    scaleLabel->setBuddy(mScaleMode);
    connect(mScaleMode, &QComboBox::currentIndexChanged, this, [this] {
        mSession->setHeatScale(HeatScale(mScaleMode->currentData().toInt()));
        if (mSession->isOpen())
            mSession->refresh();
    });
    scaleRow->addWidget(scaleLabel);
    scaleRow->addWidget(mScaleMode);
    scaleRow->addStretch(1);
    auto *markChanges = new QCheckBox(tr("&Mark changed chunks"), left);
    markChanges->setObjectName(QStringLiteral("markChanges"));
    markChanges->setToolTip(tr("Rings the chunks that the last refresh which found a write read as changed"));
    connect(markChanges, &QCheckBox::toggled, mHeatmap, &HeatmapWidget::setMarkChanges);
    markChanges->setChecked(true);
    mChangesRow = new QHBoxLayout;
    mChangesRow->addWidget(markChanges);
    mChangesRow->addStretch(1);
    leftLayout->addWidget(mLegend);
    leftLayout->addLayout(scaleRow);
    leftLayout->addLayout(mChangesRow);
    leftLayout->addWidget(mHover);
    split->addWidget(left);
    split->addWidget(mSkew);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    mSkew->setMinimumWidth(240);
    split->setSizes({820, 420});
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mSummary);
    layout->addWidget(split, 1);

    connect(mHeatmap, &HeatmapWidget::hovered, this, [this](qint64 c) {
        if (c >= 0)
            mHover->setText(mHeatmap->describeChunk(quint32(c)));
    });
    connect(mHeatmap, &HeatmapWidget::chunkClicked, this, &HeatmapTab::chunkClicked);
}

void HeatmapTab::addSinceChooser(QWidget *chooser)
{
    chooser->setParent(mLegend->parentWidget());
    mChangesRow->insertWidget(1, chooser);
}

void HeatmapTab::opened(const FilterSummary &s)
{
    mHeatmap->setLoading(s.geometry);
    mLegend->setLoading();
    mSummary->setText(
        tr("Loading the fill of %1 (%L2 chunks)...").arg(s.ref.table, QLocale().toString(s.geometry.chunks())));
}

void HeatmapTab::notConnected()
{
    mLegend->setNotConnected(); // it said "loading..." under a filter that never came
}

void HeatmapTab::refreshed(const FillResult &r)
{
    mHeatmap->setResult(r);
    mLegend->setScale(r.scaleMin, r.scaleMax, r.fill.geometry.chunkBits(), r.fill.geometry.k(), r.scale);
    mSkew->setReport(r.skew);
    std::vector<quint32> order(r.fill.setBits.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = quint32(i);
    const size_t top = qMin<size_t>(5, order.size());
    std::partial_sort(order.begin(), order.begin() + qsizetype(top), order.end(),
                      [&r](quint32 a, quint32 b) { return r.fill.setBits[a] > r.fill.setBits[b]; });
    QStringList fullest;
    for (size_t i = 0; i < top; ++i)
        fullest << tr("%1 (%2)").arg(QString::number(order[i]), QString::number(r.fill.setBits[order[i]]));
    const double fpr = r.fill.estimatedFpr();
    const ChunkDamage &damage = r.fill.damage;
    mSummary->setText(
        (damage.empty() ? QString()
                        : tr("<b style='color:%1'>%Ln damaged chunk(s), counted below as empty</b> &middot; ", nullptr,
                             int(damage.count()))
                              .arg(theme::textOn(theme::errorText(palette()), palette()))) +
        tr("<b>%L1</b> chunks &middot; mean fill <b>%2%</b> (min %3, max %4 of %5 bits) &middot; estimated "
           "FPR <b>%6</b> (%7) &middot; about <b>%L8</b> names &middot; fullest chunks: %9 &middot; "
           "%10")
            .arg(QLocale().toString(r.fill.setBits.size()), QString::number(r.fill.meanFill() * 100, 'f', 3),
                 QString::number(r.fill.minSetBits()), QString::number(r.fill.maxSetBits()),
                 QString::number(r.fill.geometry.chunkBits()), QString::number(fpr, 'g', 3), fpr::oneIn(fpr),
                 QLocale().toString(qRound64(r.fill.estimatedNames())), fullest.join(QStringLiteral(", ")),
                 tr("%Ln outlier(s)", nullptr, int(r.skew.outlierCount))));
}

} // namespace bloom
