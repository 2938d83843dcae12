#include "fpr/historycontroller.h"

#include "fpr/fprview.h"
#include "fpr/historychart.h"
#include "heatmap/heatmapwidget.h"
#include "session/filtersession.h"
#include "style/statuslabel.h"

#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>

namespace bloom {

namespace {

/** How often the window looks for snapshots recorded elsewhere (a tiny indexed read); while it has
 *  none (no table yet, a schedule just set up, a demo starting) it looks at every refresh. */
constexpr qint64 HistoryEveryMs = 10'000;
constexpr qint64 HistoryWhileNoneMs = 2'000;

} // namespace

HistoryController::HistoryController(FilterSession *session, FprView *fpr, HeatmapWidget *heatmap, StatusLabel *status,
                                     QWidget *window)
    : QObject(window)
    , mSession(session)
    , mFpr(fpr)
    , mHeatmap(heatmap)
    , mStatus(status)
    , mWindow(window)
{
    mRecord = new QAction(tr("Record a sna&pshot now"), this);
    mRecord->setObjectName(QStringLiteral("actionRecordSnapshot"));
    connect(mRecord, &QAction::triggered, this, &HistoryController::recordSnapshot);
    connect(mSession, &FilterSession::historyReady, this, &HistoryController::onHistory);
    connect(mSession, &FilterSession::changedSinceReady, this, &HistoryController::onChangedSince);
    connect(mSession, &FilterSession::recorded, this, [this](int, const Snapshot &s) {
        mStatus->setText(tr("Recorded a snapshot of %1 at %2: about %L3 names, estimated FPR %4")
                             .arg(s.table, QLocale().toString(s.takenAt.toLocalTime(), QLocale::ShortFormat),
                                  QLocale().toString(qRound64(s.estimatedNames)),
                                  QString::number(s.estimatedFpr, 'g', 3)));
        reload();
    });
    connect(mSession, &FilterSession::failed, this, [this](Operation op, int token, const Error &e, bool lost) {
        if (lost)
            return;                     // the window's status line says the connection is gone
        if (op == Operation::History) { // the FPR tab says it; the window's own refreshes are plotted
            mFpr->setHistoryNote(tr("The history cannot be read (%1)").arg(e.message));
        } else if (op == Operation::ChangedSince) {
            mStatus->setText(tr("Which chunks were written since the snapshot cannot be read: %1").arg(e.toString()));
        } else if (op == Operation::Record && token == mRecordToken) {
            mStatus->setText(tr("Recording a snapshot failed: %1").arg(e.toString()));
            if (e.consent == QLatin1String("publication-ok")) {
                // A publication would send the new history table to subscribers: the same refusal and
                // SQL as bloomctl's, and its --publication-ok as a button.
                QMessageBox box(QMessageBox::Warning, tr("Bloomscope"), tr("record refused:\n\n%1").arg(e.message),
                                QMessageBox::Cancel, mWindow);
                box.setObjectName(QStringLiteral("publicationRefusal"));
                box.setInformativeText(tr("Fix: %1").arg(e.fix));
                box.setTextInteractionFlags(Qt::TextSelectableByMouse);
                QPushButton *ahead =
                    box.addButton(tr("The subscribers ran it: &record anyway"), QMessageBox::AcceptRole);
                box.setDefaultButton(QMessageBox::Cancel);
                box.exec();
                if (box.clickedButton() == ahead)
                    record(true);
            } else {
                QMessageBox::warning(mWindow, tr("Record a snapshot"),
                                     tr("Recording a snapshot failed:\n\n%1").arg(e.toString()));
            }
        }
    });
}

QWidget *HistoryController::makeSinceChooser(QWidget *parent)
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
    return box;
}

void HistoryController::opened()
{
    mHeatmap->clearChangedSince();
    mSince->clear();
    mSince->addItem(tr("the last refresh"), qint64(0));
    reload();
}

void HistoryController::reload()
{
    mAskedAtMs = QDateTime::currentMSecsSinceEpoch();
    mSession->history(0);
}

void HistoryController::refreshed(const FillResult &r)
{
    // Snapshots recorded elsewhere (a timer, pg_cron, the demo) come in with the refreshes.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 every = mFpr->history()->snapshots().isEmpty() ? HistoryWhileNoneMs : HistoryEveryMs;
    if (now - mAskedAtMs >= every) {
        // After the newest known id; with none known yet, all of it (a table may have appeared).
        if (mSession->history(mFpr->history()->lastId()))
            mAskedAtMs = now;
    }
    // A read that found writes adds to "written since" too.
    if (const auto &since = mHeatmap->changedSince(); since && !r.unchanged && !r.throttled)
        mSession->changedSince(since->snapshot);
}

void HistoryController::onHistory(const HistoryResult &r)
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

void HistoryController::onChangedSince(const ChangedSince &r)
{
    if (mSince->currentData().toLongLong() != r.snapshot.id)
        return; // chosen away meanwhile
    mHeatmap->setChangedSince(r);
    QString text =
        tr("%L1 of %L2 chunks written since the snapshot of %3 (the others greyed; read in %4 ms)")
            .arg(QLocale().toString(qint64(r.chunks.size())), QLocale().toString(mSession->summary().geometry.chunks()),
                 QLocale().toString(r.snapshot.takenAt.toLocalTime(), QLocale::ShortFormat),
                 QString::number(r.elapsedMs));
    if (!r.complete)
        text += tr(" \u2014 partial: %1").arg(r.why);
    mStatus->setText(text);
}

void HistoryController::recordSnapshot()
{
    if (!mSession->isOpen() || mSession->summary().readOnly) {
        QMessageBox::information(mWindow, tr("Record a snapshot"),
                                 tr("Recording writes a row into bloomscope_history: switch on admin mode first."));
        return;
    }
    record(false);
}

void HistoryController::record(bool publicationOk)
{
    mStatus->setText(tr("Recording a snapshot of %1...").arg(mSession->summary().ref.table));
    mRecordToken = mSession->record(publicationOk);
}

} // namespace bloom
