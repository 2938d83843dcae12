#include "admin/adminactions.h"
#include "admin/offthread.h"
#include "maintenance/rebuild.h"

#include "admin/oldfiltersdialog.h"
#include "admin/rebuilddialog.h"
#include "admin/swapdialog.h"
#include "model/placement.h"
#include "session/filtersession.h"
#include "style/statuslabel.h"

#include <climits>
#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QInputDialog>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QStatusBar>

namespace bloom {

namespace {

/** A progress dialog for one request: hidden, not deleted, when closed (its Cancel cancels the
 *  request, whose answer then deletes it); its handlers live in it. */
QProgressDialog *progressFor(QWidget *window, const QString &name, const QString &title, const QString &label,
                             int maximum)
{
    auto *progress = new QProgressDialog(label, AdminActions::tr("Cancel"), 0, maximum, window);
    progress->setObjectName(name);
    progress->setWindowTitle(title);
    progress->setAccessibleName(title);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setMinimumDuration(0);
    return progress;
}

/** Ends a request's progress dialog and the handlers it holds (after the current event). */
void finish(QProgressDialog *progress)
{
    progress->blockSignals(true); // hiding must not "cancel" a request that has answered
    progress->hide();
    progress->deleteLater();
}

} // namespace

AdminActions::AdminActions(FilterSession *session, QMainWindow *window, StatusLabel *status)
    : QObject(window)
    , mSession(session)
    , mWindow(window)
    , mStatus(status)
{
}

void AdminActions::populate(QMenu *admin, QAction *record)
{
    admin->setToolTipsVisible(true); // a disabled admin mode says why
    mAdminAction = admin->addAction(tr("Admin &mode (allow writes)"));
    mAdminAction->setObjectName(QStringLiteral("actionAdminMode"));
    mAdminAction->setCheckable(true);
    connect(mAdminAction, &QAction::toggled, this, &AdminActions::setAdminMode);
    admin->addSeparator();
    const auto add = [&](const QString &text, const char *name, void (AdminActions::*slot)(), bool writes) {
        QAction *a = admin->addAction(text, this, slot);
        a->setObjectName(QLatin1String(name));
        if (writes)
            mWriteActions << a;
        return a;
    };
    add(tr("&Add a name..."), "actionAddName", &AdminActions::addName, true);
    add(tr("&Load names from a file..."), "actionLoadNames", &AdminActions::loadFile, true);
    mSampleAction = add(tr("&Sample the measured FPR..."), "actionSampleFpr", &AdminActions::sampleFpr, false);
    admin->addSeparator();
    admin->addAction(record);
    mWriteActions << record;
    admin->addSeparator();
    add(tr("&Rebuild with more chunks..."), "actionRebuild", &AdminActions::openRebuild, true);
    add(tr("S&wap in the rebuilt filter..."), "actionSwap", &AdminActions::openSwap, true);
    add(tr("A&bort the rebuild..."), "actionAbortRebuild", &AdminActions::abortRebuild, true);
    add(tr("&Old filters..."), "actionOldFilters", &AdminActions::openOldFilters, true);
    for (QAction *a : mWriteActions)
        a->setEnabled(false);
}

void AdminActions::sessionOpened(const FilterSummary &s)
{
    {
        const QSignalBlocker block(mAdminAction);
        mAdminAction->setChecked(!s.readOnly);
    }
    // Admin mode is offered only where a write can succeed: not on a standby, not to a role that may
    // not update the table (the wizard used to open and the write fail at its end). The tooltip says why.
    const bool writable = !s.standby && s.mayUpdate;
    mAdminAction->setEnabled(writable || !s.readOnly);
    mAdminAction->setToolTip(
        s.standby      ? tr("This server is a standby (read-only replica): connect to the primary to write")
        : !s.mayUpdate ? tr("Role %1 may not update %2: ask its owner for UPDATE (docs/operations.md, \"Privileges\")")
                             .arg(s.where.section(QLatin1Char('@'), 0, 0), s.ref.table)
                       : QString());
    mAdmin = !s.readOnly;
    for (QAction *a : mWriteActions)
        a->setEnabled(!s.readOnly);
}

void AdminActions::sessionKept(bool readOnly)
{
    // Admin mode asked for a read-write session it did not get: the menu says what the session is.
    const QSignalBlocker block(mAdminAction);
    mAdminAction->setChecked(!readOnly);
    mAdmin = !readOnly;
}

void AdminActions::setLastRefresh(double estimatedNames, const RebuildState &rebuild)
{
    mLastNames = estimatedNames;
    mRebuild = rebuild;
}

bool AdminActions::confirmWrite(const QString &what, const QString &sql)
{
    QMessageBox box(QMessageBox::Warning, tr("Confirm a write"),
                    tr("%1\n\nTable: %2 on %3").arg(what, mSession->summary().ref.table, mSession->summary().where),
                    QMessageBox::Cancel, mWindow);
    box.setObjectName(QStringLiteral("confirmWrite"));
    box.setDetailedText(sql);
    box.setInformativeText(tr("The exact SQL is under \"Show Details\". It runs in one transaction per batch."));
    QPushButton *run = box.addButton(tr("Write"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == static_cast<QAbstractButton *>(run);
}

void AdminActions::reportFailure(const QString &what, const Error &e)
{
    if (e.kind == ErrorKind::Cancelled) {
        // The user's own Cancel: what happened, not a failure.
        mStatus->setText(tr("%1 cancelled: %2").arg(what, e.message));
        QMessageBox box(QMessageBox::Information, tr("%1 cancelled").arg(what),
                        tr("%1 cancelled, as asked.\n\n%2").arg(what, e.message), QMessageBox::Ok, mWindow);
        box.setObjectName(QStringLiteral("cancelledReport"));
        box.setTextFormat(Qt::PlainText);
        box.exec();
        return;
    }
    mStatus->setText(tr("%1 failed: %2").arg(what, e.toString()));
    QMessageBox box(QMessageBox::Warning, tr("%1 failed").arg(what), tr("%1 failed:\n\n%2").arg(what, e.toString()),
                    QMessageBox::Ok, mWindow);
    box.setObjectName(QStringLiteral("failureReport"));
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

void AdminActions::setAdminMode(bool on)
{
    if (on == mAdmin)
        return;
    if (on && mSession->isOpen()) {
        const auto answer = QMessageBox::question(
            mWindow, tr("Admin mode"),
            tr("Admin mode reconnects to %1 without default_transaction_read_only, so that names can be added. "
               "Every write still asks first.\n\nSwitch to admin mode?")
                .arg(mSession->summary().where));
        if (answer != QMessageBox::Yes) {
            const QSignalBlocker block(mAdminAction);
            mAdminAction->setChecked(false);
            return;
        }
    }
    mAdmin = on;
    for (QAction *a : mWriteActions)
        a->setEnabled(on);
    if (mSession->isOpen())
        mSession->open(mSession->spec(), mSession->summary().ref, !on);
}

void AdminActions::addName()
{
    bool ok = false;
    const QString name = QInputDialog::getText(mWindow, tr("Add a name"), tr("Name to add to the filter:"),
                                               QLineEdit::Normal, QString(), &ok);
    if (!ok)
        return;
    if (auto s = validateName(name.toUtf8()); !s) {
        QMessageBox::warning(mWindow, tr("Add a name"), s.error().toString());
        return;
    }
    const Geometry &g = mSession->summary().geometry;
    const bool ascii = isAscii(name.toUtf8());
    const Placement shown = ascii ? placeAscii(g, name.toUtf8()) : Placement{};
    QString sql = mSession->summary().addSql;
    if (ascii) {
        QStringList bits;
        for (int b : shown.setBits())
            bits << QString::number(b);
        sql += tr("\n\nwith $1 = {%1} (the chunk) and $2 = {a mask of bits %2}")
                   .arg(QString::number(shown.chunk), bits.join(QLatin1Char(',')));
    } else {
        sql = mSession->summary().lowerSql + QStringLiteral(";  -- the database lowercases non-ASCII names\n") + sql;
    }
    if (!confirmWrite(tr("Add \"%1\": one transaction that updates one row (and, while a rebuild runs, records "
                         "the name for it).")
                          .arg(name),
                      sql))
        return;
    mStatus->setText(tr("Adding \"%1\"...").arg(name));
    const int token = mSession->add({name});
    // The handlers live as long as the request: the first answer with this token ends them.
    auto *request = new QObject(this);
    connect(mSession, &FilterSession::added, request, [this, request, token, name, shown, ascii](int t) {
        if (t != token)
            return;
        request->deleteLater();
        // A message that stays 15 s over the refresh line, which the refresh would overwrite at once.
        mWindow->statusBar()->showMessage(ascii
                                              ? tr("Added \"%1\" to chunk %2.").arg(name, QString::number(shown.chunk))
                                              : tr("Added \"%1\".").arg(name),
                                          15000);
        emit nameAdded(name);
        mSession->refresh();
    });
    connect(mSession, &FilterSession::failed, request, [this, request, token](Operation, int t, const Error &e) {
        if (t != token)
            return;
        request->deleteLater();
        reportFailure(tr("Add"), e);
    });
}

void AdminActions::loadFile()
{
    const QString path = QFileDialog::getOpenFileName(mWindow, tr("Load names (one per line, UTF-8)"));
    if (!path.isEmpty())
        loadPath(path);
}

void AdminActions::loadPath(const QString &path)
{
    const QString table = mSession->summary().ref.table;
    const QString sql = tr("-- one OR-mask of bit(%1) per touched chunk, the chunks in order, a slice of them a "
                           "statement, in each transaction of the load:\n%2")
                            .arg(QString::number(mSession->summary().geometry.chunkBits()), mSession->summary().addSql);
    if (!confirmWrite(tr("Load every name of %1 (bad lines are reported and skipped): each touched chunk is "
                         "updated once; a load that touches much of the table writes it in %2 committed steps, "
                         "chunks in order, on %3 connections, and VACUUMs each step on one more while the next "
                         "is written.")
                          .arg(path, QString::number(FilterStore::LoadSteps),
                               QString::number(FilterStore::DefaultLoadConnections)),
                      sql))
        return;
    const int token = mSession->load(path);
    QProgressDialog *progress =
        progressFor(mWindow, QStringLiteral("loadProgress"), tr("Load names"), tr("Loading %1...").arg(path), 0);
    // Cancel (its button, Escape, the dialog's X) cancels this load and no other request; the answer,
    // a Cancelled failure, then ends the dialog.
    connect(progress, &QProgressDialog::canceled, progress, [this, token] {
        mStatus->setText(tr("Cancelling the load..."));
        mSession->cancel(token);
    });
    connect(mSession, &FilterSession::loadProgress, progress, [token, progress](int t, const LoadProgress &p) {
        if (t == token)
            progress->setLabelText(tr("%L1 lines read, %L2 names, %L3 bad lines")
                                       .arg(QLocale().toString(p.linesRead), QLocale().toString(p.namesAdded),
                                            QLocale().toString(p.badLines)));
    });
    connect(mSession, &FilterSession::loaded, progress, [this, token, progress, table](int t, const LoadReport &r) {
        if (t != token)
            return;
        finish(progress);
        QString text =
            tr("Added %L1 names from %L2 lines in %3 s (%L4 chunk updates in %5 on %6).")
                .arg(QLocale().toString(r.namesAdded), QLocale().toString(r.lines), QString::number(r.seconds, 'f', 1),
                     QLocale().toString(r.chunksUpdated), tr("%Ln committed step(s)", nullptr, int(r.batches)),
                     tr("%Ln connection(s)", nullptr, int(r.connections)));
        // What bloomctl says as "note:" lines (a second connection refused, a step the role could not
        // vacuum): a DBA who loaded from the window must learn it too.
        for (const QString &note : r.notes(table))
            text += QStringLiteral("\n\n") + tr("Note: %1.").arg(note);
        if (!r.bad.isEmpty()) {
            text += QStringLiteral("\n\n") + tr("%Ln bad line(s) skipped:", nullptr, int(r.badCount));
            for (qsizetype i = 0; i < qMin<qsizetype>(20, r.bad.size()); ++i)
                text += QStringLiteral("\n") + tr("line %1: %2").arg(QString::number(r.bad[i].line), r.bad[i].reason);
        }
        mStatus->setText(tr("Loaded %L1 names into %2.").arg(QLocale().toString(r.namesAdded), table));
        mSession->refresh();
        QMessageBox box(QMessageBox::Information, tr("Load finished"), text, QMessageBox::Ok, mWindow);
        box.setObjectName(QStringLiteral("loadReport"));
        box.setTextFormat(Qt::PlainText); // a bad line's reason quotes the file
        box.exec();
    });
    connect(mSession, &FilterSession::failed, progress,
            [this, token, progress](Operation, int t, const Error &e, bool) {
                if (t != token)
                    return;
                finish(progress);
                mSession->refresh(); // a load that failed after committed steps changed the table
                reportFailure(tr("Load"), e);
            });
}

void AdminActions::sampleFpr()
{
    bool ok = false;
    const int probes =
        QInputDialog::getInt(mWindow, tr("Sample the FPR"), tr("Check this many random names that were never added:"),
                             100000, 100, 10'000'000, 1000, &ok);
    if (ok)
        sample(probes);
}

void AdminActions::sample(qint64 probes)
{
    mStatus->setText(tr("Sampling %L1 random names (on a connection of its own: the heatmap goes on)...").arg(probes));
    const int token = mSession->sample(probes);
    mSampleAction->setEnabled(false); // one sample at a time
    QProgressDialog *progress = progressFor(mWindow, QStringLiteral("sampleProgress"), tr("Sample the FPR"),
                                            tr("Checking %L1 names that were never added...").arg(probes), 1000);
    connect(progress, &QProgressDialog::destroyed, this, [this] { mSampleAction->setEnabled(true); });
    connect(progress, &QProgressDialog::canceled, progress, [this, token] {
        mStatus->setText(tr("Cancelling the sample..."));
        mSession->cancel(token);
    });
    connect(mSession, &FilterSession::sampleProgress, progress,
            [this, token, progress](int t, const SampleProgress &p) {
                if (t != token)
                    return;
                progress->setValue(int(1000.0 * double(p.done) / double(qMax<qint64>(1, p.total))));
                const QString text =
                    tr("Checked %L1 of %L2 never-added names: %3 so far")
                        .arg(QLocale().toString(p.done), QLocale().toString(p.total),
                             tr("%Ln false positive(s)", nullptr, int(qMin<qint64>(p.falsePositives, INT_MAX))));
                progress->setLabelText(text + QStringLiteral("..."));
                mStatus->setText(tr("Sampling: %1.").arg(text));
            });
    connect(mSession, &FilterSession::failed, progress,
            [this, token, progress](Operation, int t, const Error &e, bool) {
                if (t != token)
                    return;
                finish(progress);
                reportFailure(tr("Sample"), e);
            });
    connect(mSession, &FilterSession::sampled, progress, [this, token, progress](int t, const FprSample &s) {
        if (t != token)
            return;
        finish(progress);
        mStatus->setText(
            tr("Measured FPR %1 on %L2 probes").arg(QString::number(s.measured, 'g', 4), QLocale().toString(s.probes)));
        QMessageBox box(
            QMessageBox::Information, tr("Measured FPR"),
            tr("Measured: %1 (%L2 of %L3 probes; 95% interval %4 .. %5)\nEstimated from the fill: %6\nModel: %7\n\n"
               "Probes are 'bloomscope-fpr-probe-' plus a random UUID: none was ever added.")
                .arg(QString::number(s.measured, 'g', 4), QLocale().toString(s.falsePositives),
                     QLocale().toString(s.probes),
                     s.low95 == 0 ? QStringLiteral("0") : QString::number(s.low95, 'g', 3),
                     QString::number(s.high95, 'g', 3), QString::number(s.estimated, 'g', 4),
                     QString::number(s.model, 'g', 4)),
            QMessageBox::Ok, mWindow);
        box.setObjectName(QStringLiteral("sampleReport"));
        box.exec();
    });
}

void AdminActions::openRebuild()
{
    auto *dialog = new RebuildDialog(mSession->spec(), mSession->summary(), mLastNames, mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RebuildDialog::finished, this, [this](const QString &table) {
        mStatus->setText(tr("Rebuilt %1: swap it in with Admin > Swap.").arg(table));
        emit rebuilt(table);
    });
    connect(dialog, &RebuildDialog::swapRequested, this, &AdminActions::openSwap);
    dialog->show();
}

void AdminActions::openSwap()
{
    auto *dialog = new SwapDialog(mSession->spec(), mSession->summary().ref, mWindow);
    dialog->setProduction(mProduction);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SwapDialog::swapped, this, [this] {
        // The live pair changed: attach again so the geometry and the pictures follow.
        mSession->open(mSession->spec(), mSession->summary().ref, !mAdmin);
        emit swapped();
    });
    dialog->show();
}

void AdminActions::abortRebuild()
{
    // As bloomctl rebuild --abort: the live function restored, the half-built pair and its pending names
    // dropped, in one transaction, its lock asked for by the lock policy (Cancel stops the wait).
    if (!mRebuild.exists) {
        mStatus->setText(tr("There is no rebuild to abort (at the last refresh)."));
        return;
    }
    if (!confirmWrite(tr("Abort the rebuild into %1: restore the live function and drop the half-built pair and "
                         "its %2 pending names?")
                          .arg(mRebuild.newTable, QLocale().toString(mRebuild.pending)),
                      tr("In one transaction: lock the live table in SHARE mode (by the lock policy), restore the "
                         "live function's recorded definition, drop %1, its function, bloomscope_rebuild, "
                         "bloomscope_pending and the recorders.")
                          .arg(mRebuild.newTable)))
        return;
    auto *progress = progressFor(mWindow, QStringLiteral("abortProgress"), tr("Abort the rebuild"),
                                 tr("Aborting the rebuild into %1...").arg(mRebuild.newTable), 0);
    auto *job = new OffThread(progress);
    connect(progress, &QProgressDialog::canceled, job, &OffThread::cancel);
    const ConnectionSpec spec = mSession->spec();
    const FilterRef ref = mSession->summary().ref;
    job->run<Status>(
        [spec, ref, job, progress]() -> Status {
            auto db = Database::open(spec);
            if (!db)
                return db.error();
            job->setConnection((*db)->cancelHandle());
            maintenance::LockPolicy lock = maintenance::LockPolicy::fromEnvironment();
            lock.cancel = job->cancelFlag();
            lock.onWait = [job, progress](const maintenance::LockWait &w) {
                job->post([progress, text = w.describe()] {
                    progress->setLabelText(tr("Waiting for the lock, sign-ups go on: %1").arg(text));
                });
            };
            return Rebuilder::abort(**db, ref, lock);
        },
        [this, progress](Status s) {
            finish(progress);
            if (!s) {
                reportFailure(tr("Abort the rebuild"), s.error());
                return;
            }
            mStatus->setText(tr("Rebuild aborted: the live function is restored and the rebuild's tables are gone."));
            mSession->refresh();
        });
}

void AdminActions::openOldFilters()
{
    auto *dialog = new OldFiltersDialog(mSession->spec(), mSession->summary().ref, mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &OldFiltersDialog::dropped, this, [this](const QStringList &what) {
        mStatus->setText(tr("Dropped %1.").arg(what.join(QStringLiteral(", "))));
    });
    dialog->show();
}

bool AdminActions::confirmQuit()
{
    QStringList stops, stays;
    const QList<RebuildDialog *> wizards = mWindow->findChildren<RebuildDialog *>();
    const QList<SwapDialog *> swaps = mWindow->findChildren<SwapDialog *>();
    QString building;
    for (RebuildDialog *w : wizards)
        if (w->isRunning()) {
            building = w->buildingTable();
            stops << tr("the rebuild into %1: it is cancelled, the live function restored and the partial rebuild "
                        "removed")
                         .arg(building);
        }
    for (SwapDialog *s : swaps)
        if (s->isSwapping())
            stops << tr("the swap: its transaction rolls back, nothing changes");
    for (int token : mSession->pendingTokens()) {
        switch (mSession->pendingOperation(token)) {
        case Operation::Load:
            stops << tr("the load: the steps it committed stay; load the same file again to complete it");
            break;
        case Operation::Add:
            stops << tr("an add that has not answered yet");
            break;
        case Operation::Sample:
            stops << tr("the sample of the measured FPR");
            break;
        case Operation::Record:
            stops << tr("a snapshot being recorded");
            break;
        default:
            break;
        }
    }
    if (mRebuild.exists && mRebuild.newTable != building) {
        if (mRebuild.stage == QLatin1String("ready"))
            stays << tr("%1 is rebuilt and waits for its swap. Until it is swapped in (Admin > Swap) or aborted "
                        "(bloomctl rebuild --abort), the live function records every name it places, checks "
                        "included, in bloomscope_pending (%L2 pending at the last refresh).")
                         .arg(mRebuild.newTable, QLocale().toString(mRebuild.pending));
        else if (!mRebuild.running)
            stays << (mRebuild.newTableWritten()
                          ? tr("The rebuild into %1 was interrupted (stage %2): the live function records every name "
                               "it places in bloomscope_pending (%3 pending) until it is finished with Admin > Swap "
                               "or undone with bloomctl rebuild --abort.")
                          : tr("The rebuild into %1 was interrupted (stage %2) before its table was written: the live "
                               "function records every name it places in bloomscope_pending (%3 pending) until it is "
                               "undone with bloomctl rebuild --abort."))
                         .arg(mRebuild.newTable, mRebuild.stage, QLocale().toString(mRebuild.pending));
    }
    if (stops.isEmpty() && stays.isEmpty())
        return true;
    QString text;
    if (!stops.isEmpty())
        text += tr("Quitting now stops:") + QStringLiteral("\n\u2022 ") + stops.join(QStringLiteral("\n\u2022 "));
    if (!stays.isEmpty()) {
        if (!text.isEmpty())
            text += QStringLiteral("\n\n");
        text += tr("What stays behind:") + QStringLiteral("\n") + stays.join(QStringLiteral("\n"));
    }
    QMessageBox box(QMessageBox::Warning, tr("Quit Bloomscope?"), text, QMessageBox::Cancel, mWindow);
    box.setObjectName(QStringLiteral("confirmQuit"));
    box.setTextFormat(Qt::PlainText);
    QPushButton *quit = box.addButton(tr("&Quit"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.setEscapeButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() != static_cast<QAbstractButton *>(quit))
        return false;
    // Stop what was said, and wait for it: a rebuild puts the live function back before we go.
    QApplication::setOverrideCursor(Qt::WaitCursor);
    for (RebuildDialog *w : wizards)
        w->cancelAndWait();
    for (int token : mSession->pendingTokens())
        mSession->cancel(token);
    QApplication::restoreOverrideCursor();
    return true;
}

} // namespace bloom
