// MainWindow's history: the recorded snapshots in the FPR tab, the heatmap's "written since a
// snapshot", and Admin > Record a snapshot now. Every read runs on the session's worker.
#include "mainwindow.h"
#include "style/statuslabel.h"

#include "fpr/fprview.h"
#include "fpr/historychart.h"
#include "heatmap/heatmapwidget.h"
#include "session/filtersession.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>

namespace bloom {

namespace {

/** How often the window looks for snapshots recorded elsewhere (a tiny indexed read); while it has
 *  none (no table yet, a schedule just set up, a demo starting) it looks at every refresh. */
constexpr qint64 HistoryEveryMs = 10'000;
constexpr qint64 HistoryWhileNoneMs = 2'000;

} // namespace

QWidget *MainWindow::makeSinceChooser(QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    mSince = new QComboBox(box);
    mSince->setObjectName(QStringLiteral("changedSince"));
    mSince->addItem(tr("the last refresh"), qint64(0));
    mSince->setToolTip(tr("Which writes the map shows: those the last refresh found, or every chunk written since a "
                          "recorded snapshot (the others are greyed)"));
    mSince->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mSince->setMinimumContentsLength(22);
    mSince->view()->setAccessibleName(tr("Recorded snapshots"));
    auto *label = new QLabel(tr("writ&ten since:"), box);
    label->setBuddy(mSince);
    row->addWidget(label);
    row->addWidget(mSince);
    connect(mSince, &QComboBox::activated, this, [this] {
        const qint64 id = mSince->currentData().toLongLong();
        if (id == 0) {
            mHeatmap->clearChangedSince();
            return;
        }
        for (const Snapshot &s : mFpr->history()->snapshots())
            if (s.id == id) {
                mStatus->setText(tr("Reading which chunks were written since the snapshot of %1...")
                                     .arg(QLocale().toString(s.takenAt.toLocalTime(), QLocale::ShortFormat)));
                mSession->changedSince(s);
                return;
            }
    });
    connect(mSession, &FilterSession::historyReady, this, &MainWindow::onHistory);
    connect(mSession, &FilterSession::changedSinceReady, this, &MainWindow::onChangedSince);
    connect(mSession, &FilterSession::recorded, this, [this](const Snapshot &s) {
        mStatus->setText(tr("Recorded a snapshot of %1 at %2: about %L3 names, estimated FPR %4")
                             .arg(s.table, QLocale().toString(s.takenAt.toLocalTime(), QLocale::ShortFormat))
                             .arg(qRound64(s.estimatedNames))
                             .arg(s.estimatedFpr, 0, 'g', 3));
        reloadHistory();
    });
    return box;
}

void MainWindow::historyOpened()
{
    // Another filter (or the same after a swap): its history is read whole, the chooser starts over.
    mHeatmap->clearChangedSince();
    mSince->clear();
    mSince->addItem(tr("the last refresh"), qint64(0));
    reloadHistory();
}

void MainWindow::reloadHistory()
{
    mHistoryAskedAtMs = QDateTime::currentMSecsSinceEpoch();
    mSession->history(0);
}

void MainWindow::historyRefreshed(const FillResult &r)
{
    // Snapshots recorded elsewhere (a timer, pg_cron, the demo) come in with the refreshes.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 every = mFpr->history()->snapshots().isEmpty() ? HistoryWhileNoneMs : HistoryEveryMs;
    if (now - mHistoryAskedAtMs >= every) {
        // After the newest known id; with none known yet, all of it (a table may have appeared).
        if (mSession->history(mFpr->history()->lastId()))
            mHistoryAskedAtMs = now;
    }
    // A read that found writes adds to "written since" too.
    if (const auto &since = mHeatmap->changedSince(); since && !r.unchanged && !r.throttled)
        mSession->changedSince(since->snapshot);
}

void MainWindow::onHistory(const HistoryResult &r)
{
    if (!r.available) {
        mFpr->setSnapshots({});
        mFpr->setHistoryNote(tr("No history table (bloomscope_history) beside %1").arg(mSession->summary().ref.table));
    } else if (r.append) {
        mFpr->appendSnapshots(r.snapshots);
    } else {
        mFpr->setSnapshots(r.snapshots);
    }
    // The chooser lists the snapshots that know where they stood (newest first, at most 200).
    const qint64 chosen = mSince->currentData().toLongLong();
    const QSignalBlocker block(mSince);
    mSince->clear();
    mSince->addItem(tr("the last refresh"), qint64(0));
    const QList<Snapshot> &all = mFpr->history()->snapshots();
    int listed = 0;
    for (auto it = all.crbegin(); it != all.crend() && listed < 200; ++it) {
        if (it->position.isEmpty())
            continue;
        mSince->addItem(tr("snapshot of %1").arg(QLocale().toString(it->takenAt.toLocalTime(), QLocale::ShortFormat)),
                        it->id);
        ++listed;
    }
    const int at = mSince->findData(chosen);
    mSince->setCurrentIndex(at >= 0 ? at : 0);
    if (at < 0)
        mHeatmap->clearChangedSince(); // thinned away meanwhile
}

void MainWindow::onChangedSince(const ChangedSince &r)
{
    if (mSince->currentData().toLongLong() != r.snapshot.id)
        return; // chosen away meanwhile
    mHeatmap->setChangedSince(r);
    QString text = tr("%L1 of %L2 chunks written since the snapshot of %3 (the others greyed; read in %4 ms)")
                       .arg(qint64(r.chunks.size()))
                       .arg(mSession->summary().geometry.chunks())
                       .arg(QLocale().toString(r.snapshot.takenAt.toLocalTime(), QLocale::ShortFormat))
                       .arg(r.elapsedMs);
    if (!r.complete)
        text += tr(" \u2014 partial: %1").arg(r.why);
    mStatus->setText(text);
}

void MainWindow::recordSnapshot()
{
    if (!mSession->isOpen() || mSession->summary().readOnly) {
        QMessageBox::information(this, tr("Record a snapshot"),
                                 tr("Recording writes a row into bloomscope_history: switch on admin mode first."));
        return;
    }
    mStatus->setText(tr("Recording a snapshot of %1...").arg(mSession->summary().ref.table));
    mSession->record();
}

} // namespace bloom
