#include "shards/replaypanel.h"

#include "shards/shardsession.h"
#include "shards/shardstyle.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace bloom {

using shardstyle::ms;
using shardstyle::percentile;
using shardstyle::WithColour;
using shardstyle::WithoutColour;

namespace {

// Latency buckets of the histogram, upper edges in milliseconds.
const double Edges[] = {0.25, 0.5, 1, 2, 4, 8, 16};

QChartView *chartView(QChart *chart, QWidget *parent)
{
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    return view;
}

} // namespace

ReplayPanel::ReplayPanel(ShardSession *session, QWidget *parent)
    : QGroupBox(tr("Replay: type a list of names, with the filter and without"), parent)
    , mSession(session)
{
    mReplayNames = new QSpinBox(this);
    mReplayNames->setObjectName(QStringLiteral("replayNames"));
    mReplayNames->setRange(1, 100000);
    mReplayNames->setValue(1000);
    mReplayNames->setAccessibleName(tr("Names to replay"));
    mTakenPercent = new QSpinBox(this);
    mTakenPercent->setRange(0, 100);
    mTakenPercent->setValue(10);
    mTakenPercent->setSuffix(tr(" % taken"));
    mTakenPercent->setAccessibleName(tr("Share of replayed names already taken"));
    mTypingMs = new QSpinBox(this);
    mTypingMs->setRange(10, 2000);
    mTypingMs->setValue(150);
    mTypingMs->setObjectName(QStringLiteral("typingMs"));
    // The replay does not wait between keys: it runs as fast as the shards answer, on a simulated clock
    // where a key comes every N ms (which decides what the debounce skips). Say so where it is set.
    mTypingMs->setPrefix(tr("simulated clock: "));
    mTypingMs->setSuffix(tr(" ms a key"));
    mTypingMs->setAccessibleName(tr("Simulated time between keystrokes"));
    mTypingMs->setToolTip(tr("The replay runs as fast as the shards answer, not in real time; this is the time "
                             "between keys on its simulated clock, which decides which keystrokes the debounce "
                             "skips."));
    mReplayDebounce = new QSpinBox(this);
    mReplayDebounce->setObjectName(QStringLiteral("replayDebounce"));
    mReplayDebounce->setRange(0, 2000);
    mReplayDebounce->setSingleStep(50);
    mReplayDebounce->setSuffix(tr(" ms debounce"));
    mReplayDebounce->setSpecialValueText(tr("no debounce"));
    mReplayDebounce->setAccessibleName(tr("Debounce"));
    mReplayButton = new QPushButton(tr("Replay"), this);
    mReplayButton->setObjectName(QStringLiteral("replayButton"));
    mCancelButton = new QPushButton(tr("Cancel"), this);
    mCancelButton->setEnabled(false);
    mProgress = new QProgressBar(this);
    mProgress->setFormat(tr("%v of %m names"));
    connect(mReplayButton, &QPushButton::clicked, this, &ReplayPanel::startReplay);
    connect(mCancelButton, &QPushButton::clicked, mSession, &ShardSession::cancel);
    auto *settings = new QHBoxLayout;
    settings->addWidget(mReplayNames);
    settings->addWidget(new QLabel(tr("twelve-character names,"), this));
    settings->addWidget(mTakenPercent);
    settings->addWidget(mTypingMs);
    settings->addWidget(mReplayDebounce);
    settings->addStretch(1);
    auto *run = new QHBoxLayout;
    run->addWidget(mReplayButton);
    run->addWidget(mCancelButton);
    run->addWidget(mProgress, 1);

    auto *queries = new QChart;
    queries->setTitle(tr("Shard queries so far (log scale)"));
    mWithout = new QLineSeries(queries);
    mWithout->setName(tr("without the filter: every check asks every shard"));
    mWithout->setPen(QPen(WithoutColour, 2));
    mWith = new QLineSeries(queries);
    mWith->setName(tr("with the filter: only a \"maybe\" asks"));
    mWith->setPen(QPen(WithColour, 2));
    queries->addSeries(mWithout);
    queries->addSeries(mWith);
    mNamesAxis = new QValueAxis(queries);
    mNamesAxis->setTitleText(tr("names typed"));
    mNamesAxis->setLabelFormat(QStringLiteral("%.0f"));
    mNamesAxis->setRange(0, 1000);
    mQueriesAxis = new QLogValueAxis(queries);
    mQueriesAxis->setBase(10);
    mQueriesAxis->setLabelFormat(QStringLiteral("%g"));
    mQueriesAxis->setRange(1, 1e6);
    mQueriesAxis->setTitleText(tr("shard queries"));
    queries->addAxis(mNamesAxis, Qt::AlignBottom);
    queries->addAxis(mQueriesAxis, Qt::AlignLeft);
    for (QAbstractSeries *s : queries->series()) {
        s->attachAxis(mNamesAxis);
        s->attachAxis(mQueriesAxis);
    }

    auto *latency = new QChart;
    latency->setTitle(tr("Latency of a check (share of checks)"));
    mLatencyWith = new QBarSet(tr("with the filter (and shards on maybe)"));
    mLatencyWith->setColor(WithColour);
    mLatencyWithout = new QBarSet(tr("shards only"));
    mLatencyWithout->setColor(WithoutColour);
    auto *bars = new QBarSeries(latency);
    bars->append(mLatencyWith);
    bars->append(mLatencyWithout);
    latency->addSeries(bars);
    QStringList buckets;
    buckets << QStringLiteral("0-0.25"); // axis labels are rich text: no "<"
    for (size_t i = 1; i < std::size(Edges); ++i)
        buckets << QStringLiteral("%1-%2").arg(QString::number(Edges[i - 1]), QString::number(Edges[i]));
    buckets << QStringLiteral(">=%1").arg(Edges[std::size(Edges) - 1]);
    auto *bucketAxis = new QBarCategoryAxis(latency);
    bucketAxis->append(buckets);
    mLatencyAxis = new QValueAxis(latency);
    mLatencyAxis->setRange(0, 100);
    mLatencyAxis->setLabelFormat(QStringLiteral("%.0f%%"));
    bucketAxis->setTitleText(tr("milliseconds"));
    latency->addAxis(bucketAxis, Qt::AlignBottom);
    latency->addAxis(mLatencyAxis, Qt::AlignLeft);
    bars->attachAxis(bucketAxis);
    bars->attachAxis(mLatencyAxis);

    mReplayLine = new QLabel(tr("Replay types each name key by key; the shards count the same queries."), this);
    mReplayLine->setObjectName(QStringLiteral("replaySummary"));
    mReplayLine->setWordWrap(true);
    auto *replayLayout = new QVBoxLayout(this);
    replayLayout->addLayout(settings);
    replayLayout->addLayout(run);
    replayLayout->addWidget(chartView(queries, this), 1);
    replayLayout->addWidget(chartView(latency, this), 1);
    replayLayout->addWidget(mReplayLine);

    connect(mSession, &ShardSession::replayProgress, this, &ReplayPanel::onProgress);
    connect(mSession, &ShardSession::replayFinished, this, &ReplayPanel::onReplayFinished);
    connect(mSession, &ShardSession::failed, this, &ReplayPanel::onFailed);
}

void ReplayPanel::setControlsEnabled(bool on)
{
    for (QWidget *w :
         std::initializer_list<QWidget *>{mReplayButton, mReplayNames, mTakenPercent, mTypingMs, mReplayDebounce})
        w->setEnabled(on);
}

void ReplayPanel::setReplaySize(int names)
{
    mReplayNames->setValue(names);
}

void ReplayPanel::startReplay()
{
    if (!mSession->isOpen() || mSession->busy())
        return;
    mReplayDone = false;
    mWith->clear();
    mWithout->clear();
    mWith->append(0, 1);
    mWithout->append(0, 1);
    mNamesAxis->setRange(0, mReplayNames->value());
    mProgress->setRange(0, mReplayNames->value());
    mProgress->setValue(0);
    mReplayButton->setEnabled(false);
    mCancelButton->setEnabled(true);
    mReplayLine->setText(tr("Typing %1 names...").arg(mReplayNames->value()));
    ReplayRequest r;
    r.names = mReplayNames->value();
    r.takenShare = mTakenPercent->value() / 100.0;
    r.options.typingMs = mTypingMs->value();
    r.options.debounceMs = mReplayDebounce->value();
    mSession->replay(r);
}

void ReplayPanel::onProgress(const ReplayPoint &p)
{
    mProgress->setValue(int(p.namesDone));
    mWith->append(double(p.namesDone), double(qMax<qint64>(1, p.queriesWith)));
    mWithout->append(double(p.namesDone), double(qMax<qint64>(1, p.queriesWithout)));
    double top = 10;
    while (top < double(p.queriesWithout))
        top *= 10;
    mQueriesAxis->setRange(1, top);
}

void ReplayPanel::onReplayFinished(const ReplayResult &r)
{
    mLastReplay = r;
    mReplayDone = true;
    mReplayButton->setEnabled(true);
    mCancelButton->setEnabled(false);
    const auto histogram = [](const std::vector<double> &v, QBarSet *set) {
        QList<qreal> counts(int(std::size(Edges)) + 1, 0);
        for (double x : v)
            ++counts[int(std::upper_bound(std::begin(Edges), std::end(Edges), x) - std::begin(Edges))];
        set->remove(0, set->count());
        for (qreal c : counts)
            set->append(v.empty() ? 0 : 100.0 * c / double(v.size()));
    };
    histogram(r.filterMs, mLatencyWith);
    histogram(r.shardsMs, mLatencyWithout);
    mReplayLine->setText(replaySummary());
    emit replayFinished();
}

QPair<int, int> ReplayPanel::chartPoints() const
{
    return {int(mWith->count()), int(mWithout->count())};
}

QString ReplayPanel::replaySummary() const
{
    const SimulationReport &s = mLastReplay.report;
    if (!mReplayDone || s.names == 0)
        return {};
    const double n = double(s.names);
    return tr("%1 names, %2 checks on %3. Without the filter: %4 shard queries (%5 a name; one "
              "twelve-character free name: %6), p50 %7 ms, p99 %8 ms. With it: %9 (%10 a name; that name: %11), "
              "p50 %12 ms, p99 %13 ms. %14 checks said maybe, %15 of them deleted accounts' names.")
        .arg(QString::number(s.names), QString::number(s.checks), shardstyle::shardCount(mLastReplay.shards),
             QString::number(s.shardQueriesWithout), QString::number(double(s.shardQueriesWithout) / n, 'f', 1),
             QString::number(mLastReplay.freeNameWithout), ms(percentile(mLastReplay.shardsMs, 0.5)),
             ms(percentile(mLastReplay.shardsMs, 0.99)), QString::number(s.shardQueriesWithFilter),
             QString::number(double(s.shardQueriesWithFilter) / n, 'f', 1), QString::number(mLastReplay.freeNameWith),
             ms(percentile(mLastReplay.filterMs, 0.5)), ms(percentile(mLastReplay.filterMs, 0.99)),
             QString::number(s.filterMaybes), QString::number(s.deletedScatterGathers));
}

void ReplayPanel::onFailed(ShardTask task, const Error &e)
{
    mReplayButton->setEnabled(mSession->isOpen());
    mCancelButton->setEnabled(false);
    if (task != ShardTask::Replay)
        return;
    const QString what = shardTaskName(task);
    mReplayLine->setText(e.kind == ErrorKind::Cancelled ? tr("The %1 was cancelled.").arg(what)
                                                        : tr("The %1 failed: %2").arg(what, e.toString()));
}

} // namespace bloom
