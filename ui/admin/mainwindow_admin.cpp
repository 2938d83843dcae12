// MainWindow's admin actions: admin mode, add a name, load a file, sample the FPR. Every write is
// confirmed with the table, the rows and the exact SQL it runs.
#include "mainwindow.h"
#include "style/statuslabel.h"

#include "admin/rebuilddialog.h"
#include "admin/swapdialog.h"
#include "model/placement.h"
#include "session/filtersession.h"

#include <QAction>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QStatusBar>

namespace bloom {

bool MainWindow::confirmWrite(const QString &what, const QString &sql)
{
    QMessageBox box(QMessageBox::Warning, tr("Confirm a write"),
                    tr("%1\n\nTable: %2 on %3").arg(what, mSession->summary().ref.table, mSession->summary().where),
                    QMessageBox::Cancel, this);
    box.setDetailedText(sql);
    box.setInformativeText(tr("The exact SQL is under \"Show Details\". It runs in one transaction per batch."));
    QPushButton *run = box.addButton(tr("Write"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == static_cast<QAbstractButton *>(run);
}

void MainWindow::setAdminMode(bool on)
{
    if (on == mAdmin)
        return;
    if (on && mSession->isOpen()) {
        const auto answer = QMessageBox::question(
            this, tr("Admin mode"),
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

void MainWindow::addName()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Add a name"), tr("Name to add to the filter:"),
                                               QLineEdit::Normal, QString(), &ok);
    if (!ok)
        return;
    if (auto s = validateName(name.toUtf8()); !s) {
        QMessageBox::warning(this, tr("Add a name"), s.error().toString());
        return;
    }
    const Geometry &g = mSession->summary().geometry;
    QString sql = mSession->summary().addSql;
    if (isAscii(name.toUtf8())) {
        const Placement p = placeAscii(g, name.toUtf8());
        QStringList bits;
        for (int b : p.setBits())
            bits << QString::number(b);
        sql += tr("\n\nwith $1 = {%1} (the chunk) and $2 = {a mask of bits %2}")
                   .arg(p.chunk)
                   .arg(bits.join(QLatin1Char(',')));
    } else {
        sql = QStringLiteral("select lower($1);  -- the database lowercases non-ASCII names\n") + sql;
    }
    if (!confirmWrite(tr("Add \"%1\": one transaction that updates one row (and, while a rebuild runs, records "
                         "the name for it).")
                          .arg(name),
                      sql))
        return;
    const Placement shown = isAscii(name.toUtf8()) ? placeAscii(g, name.toUtf8()) : Placement{};
    const bool ascii = isAscii(name.toUtf8());
    connect(
        mSession, &FilterSession::added, this,
        [this, name, shown, ascii] {
            // A message that stays 15 s over the refresh line, which the refresh would overwrite at once.
            statusBar()->showMessage(ascii ? tr("Added \"%1\" to chunk %2.").arg(name).arg(shown.chunk)
                                           : tr("Added \"%1\".").arg(name),
                                     15000);
            emit nameAdded(name);
            mSession->refresh();
        },
        Qt::SingleShotConnection);
    mStatus->setText(tr("Adding \"%1\"...").arg(name));
    mSession->add({name});
}

void MainWindow::loadFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Load names (one per line, UTF-8)"));
    if (path.isEmpty())
        return;
    const QString table = mSession->summary().ref.table;
    const QString sql = tr("-- one OR-mask of bit(%1) per touched chunk, the chunks in order, a slice of them a "
                           "statement, in each transaction of the load:\n%2")
                            .arg(mSession->summary().geometry.chunkBits())
                            .arg(mSession->summary().addSql);
    if (!confirmWrite(tr("Load every name of %1 (bad lines are reported and skipped): each touched chunk is "
                         "updated once; a load that touches much of the table writes it in %2 committed steps, "
                         "chunks in order, on %3 connections, and VACUUMs each step on one more while the next "
                         "is written.")
                          .arg(path)
                          .arg(FilterStore::LoadSteps)
                          .arg(FilterStore::DefaultLoadConnections),
                      sql))
        return;
    auto *progress = new QProgressDialog(tr("Loading %1...").arg(path), tr("Cancel"), 0, 0, this);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setMinimumDuration(0);
    connect(progress, &QProgressDialog::canceled, mSession, &FilterSession::cancel);
    auto progressConn = connect(mSession, &FilterSession::loadProgress, progress, [progress](const LoadProgress &p) {
        progress->setLabelText(
            tr("%L1 lines read, %L2 names, %L3 bad lines").arg(p.linesRead).arg(p.namesAdded).arg(p.badLines));
    });
    connect(
        mSession, &FilterSession::loaded, this,
        [this, progress, progressConn, table](const LoadReport &r) {
            disconnect(progressConn);
            progress->close();
            QString text = tr("Added %L1 names from %L2 lines in %3 s (%L4 chunk updates in %5 committed step(s) on "
                              "%6 connection(s)).")
                               .arg(r.namesAdded)
                               .arg(r.lines)
                               .arg(r.seconds, 0, 'f', 1)
                               .arg(r.chunksUpdated)
                               .arg(r.batches)
                               .arg(r.connections);
            // What bloomctl says as "note:" lines (a second connection refused, a step the role could not
            // vacuum): a DBA who loaded from the window must learn it too.
            for (const QString &note : r.notes(table))
                text += QStringLiteral("\n\n") + tr("Note: %1.").arg(note);
            if (!r.bad.isEmpty()) {
                text += QStringLiteral("\n\n") + tr("%1 bad line(s) skipped:").arg(r.badCount);
                for (qsizetype i = 0; i < qMin<qsizetype>(20, r.bad.size()); ++i)
                    text += QStringLiteral("\n") + tr("line %1: %2").arg(r.bad[i].line).arg(r.bad[i].reason);
            }
            QMessageBox box(QMessageBox::Information, tr("Load finished"), text, QMessageBox::Ok, this);
            box.setTextFormat(Qt::PlainText); // a bad line's reason quotes the file
            box.exec();
            mSession->refresh();
        },
        Qt::SingleShotConnection);
    connect(mSession, &FilterSession::failed, progress, &QWidget::close, Qt::SingleShotConnection);
    mSession->load(path);
}

void MainWindow::sampleFpr()
{
    bool ok = false;
    const int probes =
        QInputDialog::getInt(this, tr("Sample the FPR"), tr("Check this many random names that were never added:"),
                             100000, 100, 10'000'000, 1000, &ok);
    if (!ok)
        return;
    mStatus->setText(tr("Sampling %L1 random names...").arg(probes));
    auto *progress =
        new QProgressDialog(tr("Checking %L1 names that were never added...").arg(probes), tr("Cancel"), 0, 1000, this);
    progress->setWindowTitle(tr("Sample the FPR"));
    progress->setObjectName(QStringLiteral("sampleProgress"));
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setMinimumDuration(300);
    connect(progress, &QProgressDialog::canceled, mSession, &FilterSession::cancel);
    const auto progressConn =
        connect(mSession, &FilterSession::sampleProgress, progress, [progress](qint64 done, qint64 total) {
            progress->setValue(int(1000.0 * double(done) / double(qMax<qint64>(1, total))));
            progress->setLabelText(tr("Checked %L1 of %L2 never-added names...").arg(done).arg(total));
        });
    connect(mSession, &FilterSession::failed, progress, &QWidget::close, Qt::SingleShotConnection);
    connect(
        mSession, &FilterSession::sampled, this,
        [this, progress, progressConn](const FprSample &s) {
            disconnect(progressConn);
            progress->close();
            mStatus->setText(tr("Measured FPR %1 on %L2 probes").arg(s.measured, 0, 'g', 4).arg(s.probes));
            QMessageBox::information(
                this, tr("Measured FPR"),
                tr("Measured: %1 (%L2 of %L3 probes; 95% interval %4 .. %5)\nEstimated from the fill: %6\nModel: %7\n\n"
                   "Probes are 'bloomscope-fpr-probe-' plus a random UUID: none was ever added.")
                    .arg(s.measured, 0, 'g', 4)
                    .arg(s.falsePositives)
                    .arg(s.probes)
                    .arg(s.low95, 0, 'g', 3)
                    .arg(s.high95, 0, 'g', 3)
                    .arg(s.estimated, 0, 'g', 4)
                    .arg(s.model, 0, 'g', 4));
        },
        Qt::SingleShotConnection);
    mSession->sample(probes);
}

void MainWindow::openRebuild()
{
    auto *dialog = new RebuildDialog(mSession->spec(), mSession->summary(), mLastNames, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RebuildDialog::finished, this, [this](const QString &table) {
        mStatus->setText(tr("Rebuilt %1: swap it in with Admin > Swap.").arg(table));
    });
    connect(dialog, &RebuildDialog::swapRequested, this, &MainWindow::openSwap);
    dialog->show();
}

void MainWindow::openSwap()
{
    auto *dialog = new SwapDialog(mSession->spec(), mSession->summary().ref, this);
    dialog->setProduction(mProfile.environment == QLatin1String("production"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SwapDialog::swapped, this, [this] {
        // The live pair changed: attach again so the geometry and the pictures follow.
        mSession->open(mSession->spec(), mSession->summary().ref, !mAdmin);
    });
    dialog->show();
}

} // namespace bloom
