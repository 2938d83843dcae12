// Issue 35, as a hurried DBA tried it: a window that never crashes and never shows a stale or made-up
// answer. Each case is the report's, written before its fix (docs/development.md "Tests" says how each failed).
#include "admin/adminactions.h"
#include "admin/oldfiltersdialog.h"
#include "admin/rebuilddialog.h"
#include "connect/connectdialog.h"
#include "fpr/fprview.h"
#include "fpr/historychart.h"
#include "guitest.h"
#include "heatmap/heatmapwidget.h"
#include "mainwindow.h"
#include "postgres/pgconn.h"
#include "session/filtersession.h"
#include "shards/replaypanel.h"
#include "shards/shardsession.h"
#include "shards/typingview.h"
#include "step/stepthroughview.h"
#include "style/theme.h"
#include "testcluster.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <memory>

using namespace bloom;

class TestGuiRobust : public QObject {
    Q_OBJECT
private:
    QTemporaryDir mConfig;
    QTemporaryDir mFiles;
    LocalCluster mCluster;
    std::unique_ptr<MainWindow> mWindow;

    QString db() const { return mCluster.connectionString(QStringLiteral("app")); }
    test::CtlRun bloomctl(const QStringList &args)
    {
        return test::runBloomctl(QStringList{QStringLiteral("--db"), db()} + args);
    }
    /** A menu action, by its objectName (not by text a translation changes). */
    QAction *action(const char *objectName) const { return mWindow->findChild<QAction *>(QLatin1String(objectName)); }
    /** Runs `act` on the next modal dialog of type T once it is up. */
    template<typename T, typename F> static void onNextDialog(F act)
    {
        QTimer::singleShot(10, qApp, [act] {
            auto *d = qobject_cast<T *>(QApplication::activeModalWidget());
            if (!d) {
                onNextDialog<T>(act);
                return;
            }
            act(d);
        });
    }
    QString namesFile(const QString &file, int count, const QByteArray &prefix)
    {
        const QString path = mFiles.filePath(file);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        for (int i = 0; i < count; ++i)
            f.write(prefix + QByteArray::number(i) + '\n');
        return path;
    }
    void openWindow()
    {
        mWindow = std::make_unique<MainWindow>();
        mWindow->setRefreshInterval(1);
        mWindow->show();
        QSignalSpy opened(mWindow->session(), &FilterSession::opened);
        mWindow->connectTo(*ConnectionSpec::parse(db()), FilterRef{});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->refreshCount() >= 1, 20000);
    }
    void adminMode()
    {
        test::answerNextBox(QMessageBox::Yes);
        action("actionAdminMode")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!mWindow->session()->summary().readOnly, 20000);
    }
    /** Admin > Load names from a file with `path`, confirmed with Write. */
    void startLoad(const QString &path)
    {
        // The file as the file dialog would give it (tst_gui_session drives that dialog): polling for a
        // QFileDialog here once missed it on a loaded machine and left it open.
        onNextDialog<QMessageBox>([](QMessageBox *box) {
            for (QAbstractButton *b : box->buttons())
                if (b->text() == QLatin1String("Write"))
                    b->click();
        });
        QMetaObject::invokeMethod(
            mWindow->adminActions(), [this, path] { mWindow->adminActions()->loadPath(path); }, Qt::QueuedConnection);
    }
    /** With BLOOMSCOPE_SHOT_DIR set, saves `w` there as `file` (to look at; README's pictures). */
    static void shoot(QWidget *w, const QString &file)
    {
        if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty() && w)
            w->grab().save(dir + QLatin1Char('/') + file);
    }
    /** Clicks the button of `role` in the modal box named `name` once it is up (text in *text). */
    static void answerWhenUp(const QString &name, QMessageBox::ButtonRole role, QString *text)
    {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || box->objectName() != name) {
            QTimer::singleShot(10, qApp, [name, role, text] { answerWhenUp(name, role, text); });
            return;
        }
        *text = box->text() + QLatin1Char('\n') + box->informativeText();
        for (QAbstractButton *b : box->buttons())
            if (box->buttonRole(b) == role) {
                b->click();
                return;
            }
    }
    /** The message box that comes up next: its text, after pressing OK (or Cancel). The box runs its
     *  own event loop inside whatever waits, so a timer answers it. */
    QString answerNextMessage(int timeoutMs = 20000)
    {
        QString text;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || !text.isEmpty())
                return;
            text = box->text();
            box->button(box->standardButtons() & QMessageBox::Ok ? QMessageBox::Ok : QMessageBox::Cancel)->click();
        });
        poll.start(20);
        QElapsedTimer t;
        t.start();
        while (text.isEmpty() && t.elapsed() < timeoutMs)
            QTest::qWait(20);
        return text;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(mConfig.isValid() && mFiles.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(mConfig.path()));
        QCoreApplication::setOrganizationName(QStringLiteral("BloomscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_robust"));
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("app")).ok());
        // A small filter: 1,024 chunks of the reference's 8,192 bits.
        auto r = bloomctl({QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = bloomctl({QStringLiteral("load"), namesFile(QStringLiteral("users.txt"), 5000, "user-")});
        QVERIFY2(r.code == 0, r.err.constData());
        openWindow();
        adminMode();
    }

    /** Report 1: a load that waits on a row lock, Cancel, OK on the report, then a load that works. */
    void aCancelledLoadThenALoad()
    {
        PgConn blocker(db());
        // The application holds every row (an add in flight for each chunk): the load's UPDATE waits.
        QVERIFY(blocker.exec(QStringLiteral("begin; update username_filter set bits = bits")).ok());
        QSignalSpy failed(mWindow->session(), &FilterSession::failed);
        startLoad(namesFile(QStringLiteral("first.txt"), 100, "first-"));
        QProgressDialog *progress = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((progress = mWindow->findChild<QProgressDialog *>()) && progress->isVisible(), 20000);
        QTest::qWait(300);                                                       // waiting on the lock
        QTest::mouseClick(progress->findChild<QPushButton *>(), Qt::LeftButton); // Cancel
        const QString report = answerNextMessage();
        QVERIFY2(!report.isEmpty(), "no report of the cancel");
        QVERIFY(blocker.exec(QStringLiteral("rollback")).ok());
        // The next load succeeds and is reported once.
        QSignalSpy loaded(mWindow->session(), &FilterSession::loaded);
        startLoad(namesFile(QStringLiteral("second.txt"), 100, "second-"));
        const QString done = answerNextMessage();
        QVERIFY2(done.startsWith(QLatin1String("Added 100 names")), qPrintable(done));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        QTest::qWait(200);
        QVERIFY(!QApplication::activeModalWidget());
        QVERIFY2(!report.contains(QLatin1String("failed")), qPrintable(report)); // the user's own Cancel
    }

    /** Report 1: a cancelled FPR sample, then a sample that finishes. */
    void aCancelledSampleThenASample()
    {
        onNextDialog<QInputDialog>([](QInputDialog *d) {
            d->setIntValue(2'000'000);
            d->accept();
        });
        QSignalSpy progressSeen(mWindow->session(), &FilterSession::sampleProgress);
        action("actionSampleFpr")->trigger();
        QProgressDialog *progress = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((progress = mWindow->findChild<QProgressDialog *>()) && progress->isVisible(), 60000);
        QTest::mouseClick(progress->findChild<QPushButton *>(), Qt::LeftButton); // Cancel
        const QString report = answerNextMessage(60000);
        onNextDialog<QInputDialog>([](QInputDialog *d) {
            d->setIntValue(20'000);
            d->accept();
        });
        QSignalSpy sampled(mWindow->session(), &FilterSession::sampled);
        action("actionSampleFpr")->trigger();
        const QString result = answerNextMessage(60000);
        QVERIFY2(result.startsWith(QLatin1String("Measured:")), qPrintable(result));
        QTRY_COMPARE(sampled.count(), 1);
        QTRY_COMPARE(mWindow->findChildren<QProgressDialog *>().size(), 0);
        QVERIFY2(!report.contains(QLatin1String("failed")), qPrintable(report));
    }

    /** Report 7: cancelling a sample of 10,000,000 returns within a second, and the heatmap goes on. */
    void aTenMillionSampleCancelsWithinASecond()
    {
        qint64 ms = -1;
        QElapsedTimer t;
        QObject scope;
        connect(mWindow->session(), &FilterSession::failed, &scope, [&](Operation op) {
            if (op == Operation::Sample && ms < 0 && t.isValid())
                ms = t.elapsed();
        });
        const int refreshes = mWindow->refreshCount();
        // 100,000,000: since the sample reads the filter once and answers from memory (issue 38), 10,000,000
        // probes of this 1 MiB filter finish in about a second, before the Cancel below.
        mWindow->adminActions()->sample(100'000'000);
        QProgressDialog *progress = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((progress = mWindow->findChild<QProgressDialog *>(QStringLiteral("sampleProgress"))) &&
                                     progress->isVisible(),
                                 10000);
        QTest::qWait(2500); // "Sampling 100,000,000..."
        QVERIFY2(mWindow->refreshCount() > refreshes, "the heatmap stopped refreshing while sampling");
        QVERIFY2(progress->value() > 0, "no progress shown");
        // Another request fails meanwhile (a chunk the filter does not have): the sample's dialog is not
        // its answer and stays (any failure closed it).
        mWindow->session()->chunk(999999);
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->chunkText().contains(QLatin1String("cannot be read")), 10000);
        QVERIFY(progress->isVisible());
        t.start();
        QTest::mouseClick(progress->findChild<QPushButton *>(), Qt::LeftButton); // Cancel
        const QString report = answerNextMessage(60000);
        qInfo("cancelled a 100M sample in %lld ms (the report: %s)", ms, qPrintable(report));
        QVERIFY2(ms >= 0 && ms < 1000, qPrintable(QString::number(ms)));
        QVERIFY2(report.startsWith(QLatin1String("Sample cancelled")), qPrintable(report));
    }

    /** Report 4: a pasted name over 65,536 characters, one that is in the filter. */
    void aLongPasteIsNeverAnsweredForTheCutName()
    {
        const QString name(100'000, QLatin1Char('q'));
        PgConn c(db());
        QVERIFY(c.column(QStringLiteral("update username_filter f set bits = f.bits | m.mask from username_bits($1) m "
                                        "where f.chunk = m.chunk returning 1"),
                         {name.toUtf8()})
                    .ok());
        mWindow->showView(QStringLiteral("step"));
        auto *field = mWindow->stepView()->findChild<QLineEdit *>(QStringLiteral("stepName"));
        field->clear();
        field->setFocus();
        QApplication::clipboard()->setText(name);
        QTest::keySequence(field, QKeySequence::Paste);
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->stepView()->text().contains(QLatin1String("cut")), 5000);
        QTest::qWait(1500); // whatever the database would answer has come
        QVERIFY2(mWindow->stepView()->verdictText().isEmpty(), qPrintable(mWindow->stepView()->verdictText()));
        QVERIFY2(mWindow->stepView()->text().contains(QLatin1String("100,000")),
                 qPrintable(mWindow->stepView()->text()));
        shoot(mWindow.get(), QStringLiteral("step-cut.png"));
    }

    /** Report 5: three snapshots 12 s apart, and 90 s of the window's own refreshes. */
    void aShortHistoryGivesNoForecast()
    {
        HistoryChart h;
        h.setFilter(Geometry(), 0.01);
        QList<Snapshot> three;
        const QDateTime t0 = QDateTime::currentDateTimeUtc().addSecs(-60);
        for (int i = 0; i < 3; ++i) {
            Snapshot s;
            s.id = i + 1;
            s.takenAt = t0.addSecs(12 * i);
            s.estimatedNames = 50e6 + 1.3e6 / 86400 * 12 * i;
            s.estimatedFpr = 1e-4;
            three << s;
        }
        h.setSnapshots(three);
        QVERIFY2(!h.fit().has_value(), qPrintable(h.forecastText()));
        // No interval, no date, no geometry; what is missing and how to record instead.
        QVERIFY2(!h.forecastText().contains(QLatin1String("95%:")), qPrintable(h.forecastText()));
        QVERIFY(!h.forecastText().contains(QLatin1String("crossed")));
        QVERIFY(h.recommendationText().isEmpty());
        QVERIFY(h.forecastSeries()->count() == 0);
        h.resize(900, 520);
        shoot(&h, QStringLiteral("history-short.png"));
        QVERIFY2(h.forecastText().contains(QLatin1String("3 snapshots over 24 seconds")) &&
                     h.forecastText().contains(QLatin1String("at least 6 over at least 12 hours")) &&
                     h.forecastText().contains(QLatin1String("Record a snapshot")),
                 qPrintable(h.forecastText()));
        HistoryChart refreshes;
        refreshes.setFilter(Geometry(), 0.01);
        for (int i = 0; i < 90; ++i)
            refreshes.addRefresh(t0.addSecs(i), 1e-4, 50e6 + 15.0 * i);
        QVERIFY2(!refreshes.fit().has_value(), qPrintable(refreshes.forecastText()));
        QVERIFY2(refreshes.forecastText().contains(QLatin1String("90 refreshes of this window over 89 seconds")) &&
                     refreshes.sourceText().contains(QLatin1String("bloomctl record")),
                 qPrintable(refreshes.forecastText()));
        // Six snapshots over half a day: a forecast, with its interval.
        QList<Snapshot> six;
        for (int i = 0; i < 6; ++i) {
            Snapshot s;
            s.id = i + 1;
            s.takenAt = t0.addSecs(-9000 * (5 - i));
            s.estimatedNames = 50e6 + 1e6 / 86400 * 9000 * i;
            s.estimatedFpr = 1e-4;
            six << s;
        }
        h.setSnapshots(six);
        QVERIFY2(h.fit().has_value() && h.forecastText().contains(QLatin1String("95%:")), qPrintable(h.forecastText()));
    }

    /** Report 2: closing the rebuild wizard while it rebuilds. */
    void closingTheWizardWhileItRebuilds()
    {
        action("actionRebuild")->trigger();
        RebuildDialog *wizard = nullptr;
        QTRY_VERIFY((wizard = mWindow->findChild<RebuildDialog *>()) != nullptr);
        wizard->findChild<QSpinBox *>(QStringLiteral("chunksLog2"))->setValue(11);
        wizard->setSources({}, mFiles.filePath(QStringLiteral("users.txt")));
        wizard->start();
        QTRY_VERIFY_WITH_TIMEOUT(wizard->stageText().contains(QLatin1String("grace")), 20000);
        QPointer<RebuildDialog> alive(wizard);
        QString asked;
        QTimer::singleShot(0, this, [&asked] { // cancel the rebuild and close
            answerWhenUp(QStringLiteral("closeWhileRebuilding"), QMessageBox::DestructiveRole, &asked);
        });
        wizard->close();
        QVERIFY2(asked.contains(QLatin1String("username_filter_v2")), qPrintable(asked));
        QVERIFY(alive); // it closes once the rebuild has put the live filter back
        QVERIFY(wizard->stageText().startsWith(QLatin1String("Cancelling")));
        QTRY_VERIFY_WITH_TIMEOUT(!alive, 30000);
        // Cancelled: nothing of the rebuild stays, the live function is the application's again.
        PgConn c(db());
        QTRY_COMPARE_WITH_TIMEOUT(
            c.column(QStringLiteral("select to_regclass('bloomscope_rebuild') is null"))->value(0), QByteArray("t"),
            10000);
        QTest::qWait(3000); // the rebuild's thread would have posted its end by now
    }

    /** Report 3: Ctrl+Q with a rebuilt, unswapped filter. */
    void quittingWithAWaitingRebuildAsks()
    {
        auto r = bloomctl({QStringLiteral("rebuild"), QStringLiteral("--yes"), QStringLiteral("--into"),
                           QStringLiteral("username_filter_v2"), QStringLiteral("--chunks"), QStringLiteral("2048"),
                           QStringLiteral("--grace"), QStringLiteral("0"), QStringLiteral("--file"),
                           mFiles.filePath(QStringLiteral("users.txt"))});
        QVERIFY2(r.code == 0, r.err.constData());
        mWindow->session()->refresh();
        QTest::qWait(1500);
        QString asked;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                asked = box->text() + QLatin1Char('\n') + box->informativeText();
                shoot(box, QStringLiteral("quit.png"));
                box->button(QMessageBox::Cancel)->click();
            }
        });
        poll.start(20);
        action("actionQuit")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!asked.isEmpty(), 3000);
        QVERIFY2(asked.contains(QLatin1String("username_filter_v2")), qPrintable(asked));
        QVERIFY(mWindow->isVisible());
    }

    /** Report 6: the swap pointed to "Admin > Drop old", which did not exist; old pairs piled up. */
    void oldPairsAreListedAndDroppedFromTheWindow()
    {
        // The rebuild the quit test left waiting is swapped in (by bloomctl): its old pair is kept. (It
        // read the users only, not the names the tests before loaded: fewer names, on purpose.)
        auto r = bloomctl({QStringLiteral("swap"), QStringLiteral("username_filter_v2"), QStringLiteral("--yes"),
                           QStringLiteral("--allow-fewer-names")});
        QVERIFY2(r.code == 0, r.err.constData());
        PgConn c(db());
        const QByteArray oldTable = c.column(QStringLiteral("select old_table from bloomscope_swapped"))->value(0);
        QVERIFY(oldTable.startsWith("username_filter_old_"));
        QTRY_COMPARE_WITH_TIMEOUT(mWindow->session()->summary().geometry.chunks(), 2048u, 20000); // followed
        mWindow->findChild<QAction *>(QStringLiteral("actionOldFilters"))->trigger();
        OldFiltersDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = mWindow->findChild<OldFiltersDialog *>()) != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->found().has_value(), 20000);
        // The pair, its size and its age; and the SQL that bloomctl drop-old runs.
        QCOMPARE(dialog->list()->topLevelItemCount(), 1);
        QTreeWidgetItem *item = dialog->list()->topLevelItem(0);
        QCOMPARE(item->text(0), QString::fromUtf8(oldTable));
        QVERIFY2(item->text(2).startsWith(QLatin1String("just now (")), qPrintable(item->text(2)));
        QVERIFY2(item->text(1).contains(QLatin1String("KiB")) || item->text(1).contains(QLatin1String("MiB")),
                 qPrintable(item->text(1)));
        QVERIFY(dialog->found()->pairs.first().bytes > 0);
        QVERIFY2(dialog->sqlText().contains(
                     QStringLiteral("drop table \"public\".\"%1\";").arg(QString::fromUtf8(oldTable))),
                 qPrintable(dialog->sqlText()));
        QVERIFY(dialog->summaryText().contains(QLatin1String("1 old pair")));
        shoot(dialog, QStringLiteral("old-filters.png"));
        const QString shownSql = dialog->sqlText();
        // Drop: the confirmation shows that SQL; Yes drops exactly it.
        QString detail;
        QTimer::singleShot(0, this, [&detail] {
            const auto answer = [&detail](const auto &self) -> void {
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                if (!box || box->objectName() != QLatin1String("confirmDropOld")) {
                    QTimer::singleShot(10, qApp, [self] { self(self); });
                    return;
                }
                detail = box->detailedText();
                box->button(QMessageBox::Yes)->click();
            };
            answer(answer);
        });
        QSignalSpy dropped(dialog, &OldFiltersDialog::dropped);
        QTest::mouseClick(dialog->dropButton(), Qt::LeftButton);
        QVERIFY(dropped.wait(20000));
        QCOMPARE(detail, shownSql); // what the confirmation showed is what ran
        QVERIFY2(detail.contains(QLatin1String("drop table")), qPrintable(detail));
        QCOMPARE(c.column(QStringLiteral("select to_regclass($1) is null"), {oldTable})->value(0), QByteArray("t"));
        QCOMPARE(c.column(QStringLiteral("select dropped_at is not null from bloomscope_swapped"))->value(0),
                 QByteArray("t"));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->found() && dialog->found()->pairs.isEmpty(), 20000);
        QVERIFY(!dialog->dropButton()->isEnabled());
        dialog->close();
    }

    /** Report 8: "Saved profile" was drawn in error red. */
    void aSavedProfileIsNotAnError()
    {
        ConnectDialog dialog(mWindow->session());
        dialog.show();
        dialog.findChild<QLineEdit *>(QStringLiteral("profileName"))->setText(QStringLiteral("saved-one"));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("saveButton")), Qt::LeftButton);
        auto *said = dialog.findChild<QLabel *>(QStringLiteral("connectError"));
        QVERIFY(said->text().startsWith(QLatin1String("Saved profile")));
        QVERIFY2(said->styleSheet() != theme::textStyle(theme::errorText(dialog.palette())),
                 qPrintable(said->styleSheet()));
    }

    /** Report 8 (and the structure): the step-through shows the SQL that runs, with --function's name. */
    void theStepThroughShowsTheSqlThatRuns()
    {
        mWindow->showView(QStringLiteral("step"));
        mWindow->stepView()->setStep(StepThroughView::Verdict);
        mWindow->stepView()->setName(QStringLiteral("ada"));
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->stepView()->hasResult(), 20000);
        const QString text = mWindow->stepView()->text();
        // The chunk is read as text (what runs), and the check names the filter's own function.
        QVERIFY2(text.contains(QLatin1String("select bits::text from \"public\".\"username_filter\" where chunk = $1")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("join \"public\".\"username_bits\"($1) using (chunk)")), qPrintable(text));
        QCOMPARE(mWindow->session()->summary().referenceCheckSql,
                 QStringLiteral("select bits & mask = mask from \"public\".\"username_filter\" join "
                                "\"public\".\"username_bits\"($1) using (chunk)"));
    }

    /** The structure: the SQL the step-through shows follows --table and --function, not the reference's. */
    void theStepThroughFollowsTheFunction()
    {
        const auto r =
            test::runBloomctl({QStringLiteral("--db"), db(), QStringLiteral("--table"), QStringLiteral("other_filter"),
                               QStringLiteral("--function"), QStringLiteral("other_bits"), QStringLiteral("init"),
                               QStringLiteral("--chunks"), QStringLiteral("64")});
        QVERIFY2(r.code == 0, r.err.constData());
        MainWindow w;
        w.setRemembersGeometry(false);
        QSignalSpy opened(w.session(), &FilterSession::opened);
        w.connectTo(*ConnectionSpec::parse(db()),
                    FilterRef{QStringLiteral("other_filter"), QStringLiteral("other_bits")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        w.showView(QStringLiteral("step"));
        w.stepView()->setStep(StepThroughView::Verdict);
        w.stepView()->setName(QStringLiteral("ada"));
        QTRY_VERIFY_WITH_TIMEOUT(w.stepView()->hasResult(), 20000);
        const QString text = w.stepView()->text();
        QVERIFY2(text.contains(QLatin1String("select bits::text from \"public\".\"other_filter\" where chunk = $1")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("join \"public\".\"other_bits\"($1) using (chunk)")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("username_")), qPrintable(text));
    }

    /** Report 8: "1 shards". One shard is said as one, in the audit's line and in the replay's summary. */
    void oneShardIsSaidAsOne()
    {
        AuditState audit;
        audit.known = true;
        audit.report.sampled = 10;
        audit.report.probes = 1000;
        audit.report.shards = 1;
        audit.report.at = QDateTime::currentDateTimeUtc();
        emit mWindow->shardSession()->auditRead(audit);
        const QString auditLine = mWindow->typingView()->auditText();
        QVERIFY2(auditLine.contains(QLatin1String("over 1 shard:")), qPrintable(auditLine));
        ReplayResult replay;
        replay.shards = 1;
        replay.report.names = 3;
        replay.report.checks = 30;
        replay.report.shardQueriesWithout = 30;
        replay.filterMs = replay.shardsMs = {0.1, 0.2, 0.3};
        emit mWindow->shardSession()->replayFinished(replay);
        const QString summary = mWindow->typingView()->replay()->replaySummary();
        QVERIFY2(summary.contains(QLatin1String("30 checks on 1 shard.")), qPrintable(summary));
        replay.shards = 3;
        emit mWindow->shardSession()->replayFinished(replay);
        QVERIFY2(mWindow->typingView()->replay()->replaySummary().contains(QLatin1String("on 3 shards.")),
                 qPrintable(mWindow->typingView()->replay()->replaySummary()));
    }

    /** Report 8, the other way in: a chunk past the last asked by number (--chunk 999999, or a caller)
     *  is refused as a typed one is; the box kept showing the last chunk (131071) beside the error. */
    void aChunkPastTheLastAskedIsRefused()
    {
        mWindow->showView(QStringLiteral("chunk"));
        auto *number = mWindow->findChild<QSpinBox *>(QStringLiteral("chunkNumber"));
        QVERIFY(number);
        mWindow->showChunk(12);
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->chunkText().contains(QLatin1String("bits set")), 20000);
        QSignalSpy failed(mWindow->session(), &FilterSession::failed);
        mWindow->showChunk(999999);
        QCOMPARE(number->value(), 12);
        // 1,024 chunks, or more once the cases above have rebuilt and swapped the filter.
        const QString refused = QStringLiteral("There is no chunk 999,999: this filter has %L1 chunks")
                                    .arg(mWindow->session()->summary().geometry.chunks());
        QVERIFY2(mWindow->chunkText().startsWith(refused), qPrintable(mWindow->chunkText()));
        QTest::qWait(300);
        QCOMPARE(failed.count(), 0); // nothing was asked of the server
        QVERIFY2(mWindow->chunkText().startsWith(QLatin1String("There is no chunk 999,999")),
                 qPrintable(mWindow->chunkText()));
    }

    /** Report 8: the heatmap PNG had no legend, scale or title. */
    void theHeatmapPictureHasItsTitleAndScale()
    {
        QTRY_VERIFY_WITH_TIMEOUT(!mWindow->heatmap()->result().heatmap.isNull(), 20000);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("heatmap.png"));
        QVERIFY(mWindow->exportHeatmapPng(path).ok());
        const QImage png(path);
        const FillResult &r = mWindow->heatmap()->result();
        const int scale = qMax(1, 1024 / r.heatmap.width());
        const int mapHeight = r.heatmap.height() * scale;
        // A title line above the map and the legend (caption, ramp, two-line labels) under it.
        QVERIFY2(png.height() >= mapHeight + 80,
                 qPrintable(QStringLiteral("%1 vs %2").arg(png.height()).arg(mapHeight)));
        const QColor window = mWindow->palette().color(QPalette::Window);
        QVERIFY(png.pixelColor(png.width() - 2, 2) == window); // the title's row, not the map
        bool ramp = false;                                     // the legend's ramp: viridis' yellow end under the map
        for (int y = mapHeight; y < png.height() && !ramp; ++y)
            for (int x = 0; x < png.width() && !ramp; ++x) {
                const QColor c = png.pixelColor(x, y);
                ramp = c.red() > 230 && c.green() > 210 && c.blue() < 80;
            }
        QVERIFY(ramp);
        if (const QString shots = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !shots.isEmpty())
            QFile::copy(path, shots + QStringLiteral("/heatmap-export.png"));
    }

    /** Report 8: the window remembers its size and position. */
    void theGeometryIsRestored()
    {
        MainWindow *w = new MainWindow;
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        w->resize(787, 543);
        QTest::qWait(50);
        w->close();
        delete w;
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), QSize(787, 543));
    }

    /** Issue 34, 4: admin mode was offered to a role that may not write (the wizard opened, the write
     *  failed at its end). Now it is disabled for such a role, and says why. */
    void adminModeIsOfferedOnlyToARoleThatMayWrite()
    {
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"),
                          QStringLiteral("create role looker login; grant select on username_filter to looker"))
                    .ok());
        MainWindow window;
        window.show();
        QSignalSpy opened(window.session(), &FilterSession::opened);
        window.connectTo(*ConnectionSpec::parse(db() + QStringLiteral(" user=looker")), FilterRef{});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        auto *admin = window.findChild<QAction *>(QStringLiteral("actionAdminMode"));
        QVERIFY(admin);
        QVERIFY(!admin->isEnabled());
        QVERIFY2(admin->toolTip().contains(QLatin1String("may not update")), qPrintable(admin->toolTip()));
        // The DBA's window (may update) keeps it.
        QVERIFY(action("actionAdminMode")->isEnabled());
    }

    void cleanupTestCase() { mWindow.reset(); }
};

QTEST_MAIN(TestGuiRobust)
#include "tst_gui_robust.moc"
