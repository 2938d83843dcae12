#include "admin/rebuilddialog.h"
#include "admin/swapdialog.h"
#include "connect/connectdialog.h"
#include "fpr/fprview.h"
#include "fpr/historychart.h"
#include "heatmap/chunkgridwidget.h"
#include "heatmap/heatmapwidget.h"
#include "local/demo.h"
#include "local/localcluster.h"
#include "local/localredis.h"
#include "mainwindow.h"
#include "postgres/pgconn.h"
#include "redis/rediswindow.h"
#include "session/filtersession.h"
#include "shards/replaypanel.h"
#include "shards/shardmap.h"
#include "shards/shardpool.h"
#include "shards/shardsession.h"
#include "shards/simulator.h"
#include "shards/typingview.h"
#include "step/stepthroughview.h"
#include "testcluster.h"

#include <QAction>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <csignal>
#include <QTimer>

#include <thread>

using namespace bloom;

/** The real window under QT_QPA_PLATFORM=offscreen, against a LocalCluster with the reference filter. */
class TestGui : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    std::unique_ptr<PgConn> mRaw;
    std::unique_ptr<MainWindow> mWindow;

    void waitForRefreshes(int count) { QTRY_VERIFY_WITH_TIMEOUT(mWindow->refreshCount() >= count, 30000); }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("app")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("app"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        mRaw = std::make_unique<PgConn>(mCluster.connectionString(QStringLiteral("app")));
        // A known full chunk (5) next to a known empty one (6).
        QVERIFY(mRaw->exec(QStringLiteral("update username_filter set bits = ~0::bit(8192) where chunk = 5")).ok());
        mWindow = std::make_unique<MainWindow>();
        mWindow->setRefreshInterval(1);
        mWindow->show();
        mWindow->connectTo(*ConnectionSpec::parse(mCluster.connectionString(QStringLiteral("app"))), FilterRef{});
        waitForRefreshes(1);
    }

    void titleSaysWhereAndReadOnly()
    {
        QVERIFY2(mWindow->windowTitle().contains(QLatin1String("username_filter")), qPrintable(mWindow->windowTitle()));
        QVERIFY(mWindow->windowTitle().contains(QLatin1String("bloomscope_demo")) ||
                mWindow->windowTitle().contains(QLatin1String("/app")));
        QVERIFY(mWindow->windowTitle().contains(QLatin1String("read-only")));
        QVERIFY(mWindow->session()->summary().readOnly);
    }

    void heatmapHasOneCellPerChunk()
    {
        const FillResult &r = mWindow->heatmap()->result();
        QCOMPARE(qint64(r.heatmap.width()) * r.heatmap.height(), 131072);
        QCOMPARE(r.fill.setBits.size(), size_t(131072));
        const QRgb full = r.heatmap.pixel(5 % r.imageColumns, 5 / r.imageColumns);
        const QRgb empty = r.heatmap.pixel(6 % r.imageColumns, 6 / r.imageColumns);
        QVERIFY(full != empty);
        QCOMPARE(full, fillColour(8192, r.scaleMax));
        QCOMPARE(empty, fillColour(0, r.scaleMax));
        // Every cell maps back to its chunk.
        for (quint32 c : {0u, 5u, 511u, 512u, 71962u, 131071u})
            QCOMPARE(mWindow->heatmap()->chunkAt(mWindow->heatmap()->cellRect(c).center()), qint64(c));
        QVERIFY(mWindow->heatmap()->describeChunk(5).contains(QLatin1String("8192 of 8192")));
    }

    void refreshRunsOffTheGuiThread()
    {
        QVERIFY(mWindow->heatmap()->result().onWorkerThread);
        // Hold an exclusive lock so the next refresh waits on the server; the window keeps running.
        // (A write first, seen in the statistics: with nothing written a refresh would read no row.)
        PgConn locker(mCluster.connectionString(QStringLiteral("app")));
        const auto updates = [&locker] {
            return locker.column(QStringLiteral("select pg_stat_get_tuples_updated('username_filter'::regclass)"))
                ->value(0)
                .toLongLong();
        };
        const qint64 updatesBefore = updates();
        QVERIFY(locker.exec(QStringLiteral("update username_filter set bits = bits where chunk = 5")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(
            ((void)locker.exec(QStringLiteral("select pg_stat_clear_snapshot()")), updates() > updatesBefore), 20000);
        QVERIFY(locker.exec(QStringLiteral("begin; lock table username_filter in access exclusive mode")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->session()->refreshing(), 5000);
        // A refresh that had read its rows before the lock may still end: wait for one the lock holds.
        QTest::qWait(1200);
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->session()->refreshing(), 5000);
        const int before = mWindow->refreshCount();
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(50);
        QTest::qWait(1500); // the GUI thread processes events while the refresh is blocked
        QVERIFY2(ticks >= 10,
                 qPrintable(QString::number(ticks))); // 30 expected; 10 leaves room for a loaded CI machine
        QCOMPARE(mWindow->refreshCount(), before);
        QVERIFY(mWindow->session()->refreshing());
        QVERIFY(locker.exec(QStringLiteral("rollback")).ok());
        waitForRefreshes(before + 1);
    }

    void aRefreshAskedForWhileOneRunsFollowsIt()
    {
        // An Add's, a load's or a scale change's refresh asked for while the timer's is running used to
        // be dropped, so the window showed the state from before the write until the next tick (on CI
        // the interrupted-rebuild banner stayed up 11 s after the abort). It now runs once the other ends.
        FilterSession session;
        auto spec = ConnectionSpec::parse(mCluster.connectionString(QStringLiteral("app")));
        QVERIFY(spec.ok());
        session.open(*spec, FilterRef(), true);
        QTRY_VERIFY_WITH_TIMEOUT(session.isOpen(), 15000);
        QSignalSpy refreshed(&session, &FilterSession::refreshed);
        PgConn locker(mCluster.connectionString(QStringLiteral("app")));
        QVERIFY(locker.exec(QStringLiteral("begin; lock table username_filter in access exclusive mode")).ok());
        QVERIFY(session.refresh());                             // waits on the lock
        QVERIFY(!session.refresh(FilterSession::IfBusy::Skip)); // a timer's tick: nothing queued
        QVERIFY(!session.refresh());                            // a write's: one more after it
        QVERIFY(!session.refresh());                            // ... one, however often asked
        QTest::qWait(300);
        QCOMPARE(refreshed.count(), 0);
        QVERIFY(locker.exec(QStringLiteral("rollback")).ok());
        QTRY_COMPARE_WITH_TIMEOUT(refreshed.count(), 2, 20000);
        QTest::qWait(500);
        QCOMPARE(refreshed.count(), 2);
        QVERIFY(!session.refreshing());
    }

    void stepThroughAda()
    {
        StepThroughView *step = mWindow->stepView();
        mWindow->showView(QStringLiteral("step"));
        step->setName(QString());
        QTest::keyClicks(step->findChild<QLineEdit *>(QStringLiteral("stepName")), QStringLiteral("ada"));
        QTRY_VERIFY_WITH_TIMEOUT(step->hasResult(), 10000);
        QCOMPARE(step->result().explanation.placement.chunk, 71962u);
        QCOMPARE(step->result().explanation.setBits(), (QList<int>{619, 1835, 3259, 3422, 5396, 5977, 6900}));
        QCOMPARE(step->verdictText(), QStringLiteral("definitely free"));
        QVERIFY(step->text().contains(QLatin1String("71962")));
        QVERIFY(step->text().contains(QLatin1String("{619,1835,3259,3422,5396,5977,6900}")));
        QVERIFY(step->text().contains(QLatin1String("definitely free")));
        // Walk back and forth with the buttons.
        auto *back = step->findChild<QPushButton *>(QStringLiteral("stepBack"));
        QTest::mouseClick(back, Qt::LeftButton);
        QCOMPARE(step->step(), int(StepThroughView::AndMask));
        QVERIFY(step->findChild<QLabel *>(QStringLiteral("verdict"))->text().isEmpty());
        QTest::mouseClick(step->findChild<QPushButton *>(QStringLiteral("stepNext")), Qt::LeftButton);
        QCOMPARE(step->step(), int(StepThroughView::Verdict));

        // The application adds ada with the reference statement: the step-through now says maybe.
        QVERIFY(mRaw->exec(QStringLiteral("update username_filter f set bits = f.bits | b.mask "
                                          "from username_bits('ada') b where f.chunk = b.chunk"))
                    .ok());
        step->setName(QString());
        QTest::keyClicks(step->findChild<QLineEdit *>(QStringLiteral("stepName")), QStringLiteral("Ada"));
        QTRY_COMPARE_WITH_TIMEOUT(step->verdictText(), QStringLiteral("maybe taken"), 10000);
        QCOMPARE(step->result().explanation.placement.chunk, 71962u);
    }

    void nonAsciiStepUsesServerLower()
    {
        StepThroughView *step = mWindow->stepView();
        step->setName(QStringLiteral("İstanbul"));
        QTRY_VERIFY_WITH_TIMEOUT(step->hasResult(), 10000);
        QCOMPARE(step->result().explanation.lowering, Lowering::Server);
        QCOMPARE(step->result().explanation.normalized, QStringLiteral("istanbul"));
    }

    void fprChartHasModelAndMeasuredPoints()
    {
        waitForRefreshes(mWindow->refreshCount() + 2);
        FprView *fpr = mWindow->fprView();
        QVERIFY(fpr->modelSeries()->count() >= 100);
        QVERIFY(fpr->history()->namesSeries()->count() >= 2); // no history table: the refreshes
        QCOMPARE(fpr->referencePoints()->count(), 3);         // 1 in 170, 1 in 27, 1 in 9
        QVERIFY(fpr->capacityText().contains(QLatin1String("capacity left")));
        fpr->setTarget(0.05);
        QVERIFY(fpr->capacityText().contains(QLatin1String("5%")));
        fpr->setTarget(0.01);
    }

    void clickingAChunkShowsItsBits()
    {
        mWindow->showView(QStringLiteral("heatmap"));
        HeatmapWidget *h = mWindow->heatmap();
        QTest::mouseClick(h, Qt::LeftButton, {}, h->cellRect(71962).center().toPoint());
        QTRY_COMPARE_WITH_TIMEOUT(mWindow->chunkView()->chunk(), 71962u, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(mWindow->chunkView()->bits().size(), 8192, 10000);
        QCOMPARE(mWindow->chunkView()->bits().at(619), '1');
    }

    void rebuildWizardAndSwapDialog()
    {
        // Shards: one database with users; the wizard sizes, previews, rebuilds; the swap dialog compares and swaps.
        QVERIFY(mCluster.createDatabase(QStringLiteral("shard")).ok());
        PgConn shard(mCluster.connectionString(QStringLiteral("shard")));
        QVERIFY(shard
                    .exec(QStringLiteral("create table users (id int primary key, username text); insert into users "
                                         "select g, 'wizard' || g from generate_series(1, 5000) g"))
                    .ok());
        const ConnectionSpec spec = *ConnectionSpec::parse(mCluster.connectionString(QStringLiteral("app")));
        RebuildDialog wizard(spec, mWindow->session()->summary(), 10e6);
        wizard.show();
        QVERIFY(wizard.previewText().contains(QLatin1String("Now")));
        QVERIFY(wizard.previewText().contains(QLatin1String("After")));
        // It starts from the live filter: its k and chunk size, twice its chunks; nothing smaller to confirm.
        QCOMPARE(wizard.options().geometry.chunks(), 262144u);
        QCOMPARE(wizard.options().geometry.chunkBits(), 8192u);
        QCOMPARE(wizard.options().geometry.k(), 7);
        QVERIFY(!wizard.allowSmaller()->isVisibleTo(&wizard));
        // A smaller filter than the live one needs its own confirmation, which says what it costs.
        auto *chunks = wizard.findChild<QSpinBox *>(QStringLiteral("chunksLog2"));
        chunks->setValue(16);
        QVERIFY(wizard.allowSmaller()->isVisibleTo(&wizard));
        QVERIFY(wizard.allowSmaller()->text().contains(QLatin1String("FPR would be")));
        QVERIFY(!wizard.startButton()->isEnabled());
        wizard.allowSmaller()->setChecked(true);
        QVERIFY(wizard.startButton()->isEnabled());
        wizard.allowSmaller()->setChecked(false);
        // Typed as a DBA says it: "2^18", or the count itself, both mean 262,144 chunks.
        for (const QString &typed : {QStringLiteral("2^20"), QStringLiteral("524288"), QStringLiteral("2^18")}) {
            chunks->selectAll();
            QTest::keyClicks(chunks, typed);
            QTest::keyClick(chunks, Qt::Key_Tab);
        }
        QCOMPARE(wizard.options().geometry.chunks(), 262144u);
        chunks->setValue(18);
        QVERIFY(wizard.startButton()->isEnabled());
        // Start without a source: the message says why, and goes as soon as the input changes.
        wizard.start();
        QVERIFY(wizard.stageText().contains(QLatin1String("at least one shard")));
        wizard.setSources({mCluster.connectionString(QStringLiteral("shard"))}, QString());
        QVERIFY(wizard.stageText().isEmpty());
        wizard.start();
        QTRY_VERIFY_WITH_TIMEOUT(!wizard.rebuiltTable().isEmpty(), 60000);
        QCOMPARE(wizard.startButton()->text(), QStringLiteral("Swap now..."));
        QVERIFY(wizard.startButton()->isEnabled());
        if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty())
            wizard.grab().save(dir + QStringLiteral("/rebuild.png"));
        SwapDialog swap(spec, FilterRef{});
        QSignalSpy checked(&swap, &SwapDialog::checked);
        swap.show();
        QVERIFY(checked.wait(30000));
        QVERIFY(swap.comparisonText().contains(QLatin1String("username_filter_v2")));
        QVERIFY(swap.comparisonText().contains(QLatin1String("131072 chunks")));
        // The shard holds 5,000 of the live filter's names: the guard refuses, with both counts.
        QVERIFY2(swap.verdictText().contains(QLatin1String("Refused")), qPrintable(swap.verdictText()));
        QVERIFY2(swap.verdictText().contains(QLatin1String("read 5,000 names from 1 source")),
                 qPrintable(swap.verdictText()));
        QVERIFY(swap.comparisonText().contains(QLatin1String("5,000")));
        QVERIFY(!swap.readyToSwap());
        QVERIFY(swap.allowFewerNames()->isVisible());
        // The confirmation defaults to Cancel and shows the SQL.
        {
            std::unique_ptr<QMessageBox> box(swap.confirmation());
            QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel));
            QVERIFY(box->detailedText().contains(QLatin1String("rename to")));
        }
        swap.allowFewerNames()->setChecked(true); // the DBA says the names were deleted
        QVERIFY(swap.readyToSwap());
        // On a production profile the table's name must be typed first (as GitHub asks before a delete).
        swap.setProduction(true);
        QVERIFY(!swap.readyToSwap());
        swap.typedName()->setText(QStringLiteral("username_filte"));
        QVERIFY(!swap.readyToSwap());
        swap.typedName()->setText(QStringLiteral("username_filter"));
        QVERIFY(swap.readyToSwap());
        if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty())
            swap.grab().save(dir + QStringLiteral("/swap.png"));
        { // Issue 43, 2: a transaction holds the live table: the dialog says whom the swap waits for (sign-ups go
          // on meanwhile), and Cancel gives up with nothing swapped.
            PgConn holder(mCluster.connectionString(QStringLiteral("app")));
            QVERIFY(holder.exec(QStringLiteral("begin")).ok());
            QVERIFY(holder.exec(QStringLiteral("lock table username_filter in row exclusive mode")).ok());
            const QString pid = QString::fromLatin1(holder.column(QStringLiteral("select pg_backend_pid()"))->value(0));
            QTest::qWait(800);
            auto *cancel = swap.findChild<QPushButton *>(QStringLiteral("cancelSwapButton"));
            QVERIFY(cancel && !cancel->accessibleName().isEmpty());
            swap.swapNow();
            QTRY_VERIFY_WITH_TIMEOUT(swap.resultText().contains(QStringLiteral("blocked by pid %1").arg(pid)), 60000);
            QVERIFY2(swap.resultText().startsWith(QLatin1String("Waiting for the lock")),
                     qPrintable(swap.resultText()));
            if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty())
                swap.grab().save(dir + QStringLiteral("/swap-blocked.png"));
            QVERIFY(cancel->isVisible());
            QTest::mouseClick(cancel, Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(swap.resultText().contains(QLatin1String("cancelled")), 30000);
            QVERIFY(!cancel->isVisible());
            QVERIFY(holder.exec(QStringLiteral("rollback")).ok());
            PgConn c(mCluster.connectionString(QStringLiteral("app")));
            QCOMPARE(c.column(QStringLiteral("select to_regclass('username_filter_v2') is not null"))->value(0),
                     QByteArray("t"));
        }
        swap.swapNow();
        QTRY_VERIFY_WITH_TIMEOUT(swap.resultText().startsWith(QLatin1String("Swapped")), 60000);
        PgConn c(mCluster.connectionString(QStringLiteral("app")));
        auto maybe = c.column(QStringLiteral("select bits & mask = mask from username_filter join "
                                             "username_bits('wizard77') using (chunk)"));
        QCOMPARE(maybe->value(0), QByteArray("t"));
        // As Admin > Swap does: the window attaches again to the new live pair.
        const int before = mWindow->refreshCount();
        mWindow->session()->open(mWindow->session()->spec(), mWindow->session()->summary().ref, true);
        waitForRefreshes(before + 1);
    }

    void interruptedRebuildIsShownLoudly()
    {
        // A rebuild whose process dies: the window says so on its next refresh, loudly.
        const QString db = mCluster.connectionString(QStringLiteral("app"));
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("BLOOMSCOPE_TEST_PAUSE_AT"), QStringLiteral("export"));
        p.setProcessEnvironment(e);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(BLOOMCTL_PATH),
                {QStringLiteral("--db"), db, QStringLiteral("rebuild"), QStringLiteral("--yes"),
                 QStringLiteral("--into"), QStringLiteral("dying"), QStringLiteral("--source"),
                 mCluster.connectionString(QStringLiteral("shard")), QStringLiteral("--grace"), QStringLiteral("0")});
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += p.readAll()).contains("paused at export"), 60000);
        auto *banner = mWindow->findChild<QLabel *>(QStringLiteral("rebuildBanner"));
        QVERIFY(banner);
        int before = mWindow->refreshCount();
        mWindow->session()->refresh();
        waitForRefreshes(before + 1);
        QVERIFY2(banner->isVisible() && banner->text().contains(QLatin1String("is running")),
                 qPrintable(banner->text()));
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(
            (mWindow->session()->refresh(), banner->text().contains(QLatin1String("REBUILD INTERRUPTED into dying"))),
            20000);
        QVERIFY(banner->isVisible());
        // Cut in its export, its table was never written: the advice is to abort (the window offers it),
        // never to swap (issue 43, 4).
        QVERIFY2(banner->text().contains(QLatin1String("never written")) &&
                     banner->text().contains(QLatin1String("Admin > Abort the rebuild")) &&
                     !banner->text().contains(QLatin1String("Swap")),
                 qPrintable(banner->text()));
        auto *abortAction = mWindow->findChild<QAction *>(QStringLiteral("actionAbortRebuild"));
        QVERIFY(abortAction && !abortAction->text().isEmpty());
        // The monitoring plugin says so too: WARNING, naming the rebuild and the way out.
        QProcess health;
        health.start(QStringLiteral(BLOOMCTL_PATH), {QStringLiteral("--db"), db, QStringLiteral("health")});
        QVERIFY(health.waitForFinished(30000));
        const QByteArray line = health.readAllStandardOutput();
        QCOMPARE(health.exitCode(), 1);
        QVERIFY2(line.startsWith("BLOOMSCOPE WARNING - rebuild into dying interrupted"), line.constData());
        QVERIFY(line.contains("rebuild --abort"));
        QVERIFY2(!line.contains("finish it with swap"), line.constData());
        QProcess abort;
        abort.start(QStringLiteral(BLOOMCTL_PATH), {QStringLiteral("--db"), db, QStringLiteral("rebuild"),
                                                    QStringLiteral("--abort"), QStringLiteral("--yes")});
        QVERIFY(abort.waitForFinished(30000));
        QCOMPARE(abort.exitCode(), 0);
        before = mWindow->refreshCount();
        mWindow->session()->refresh(); // runs after the timer's refresh if one is on its way
        waitForRefreshes(before + 1);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 20000);
    }

    void lostConnectionIsShownAndRetried()
    {
        const int before = mWindow->refreshCount();
        mRaw = std::make_unique<PgConn>(mCluster.connectionString(QStringLiteral("app")));
        QVERIFY(mRaw->exec(QStringLiteral("select pg_terminate_backend(pid) from pg_stat_activity "
                                          "where application_name = 'bloomscope' and pid <> pg_backend_pid()"))
                    .ok());
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->statusText().contains(QLatin1String("Connection lost")), 15000);
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->refreshCount() > before, 15000); // reconnected on a later tick
    }

    void connectionErrorShowsInTheDialog()
    {
        FilterSession session;
        ConnectDialog dialog(&session);
        dialog.show();
        dialog.findChild<QLineEdit *>(QStringLiteral("host"))->setText(QStringLiteral("127.0.0.1"));
        dialog.findChild<QSpinBox *>(QStringLiteral("port"))->setValue(1);
        dialog.findChild<QLineEdit *>(QStringLiteral("database"))->setText(QStringLiteral("nowhere"));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("connectButton")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog.errorText().contains(QLatin1String("cannot reach the server")), 15000);
        QVERIFY(dialog.isVisible()); // not closed, not crashed
        QVERIFY(!session.isOpen());
    }

    void dialogConnectsToAGoodProfile()
    {
        FilterSession session;
        ConnectDialog dialog(&session);
        Profile p;
        p.host = mCluster.socketDir();
        p.port = mCluster.port();
        p.database = QStringLiteral("app");
        p.user = mCluster.superuser();
        p.sslmode = QStringLiteral("disable");
        dialog.setProfile(p);
        dialog.show();
        dialog.connectNow();
        QTRY_VERIFY_WITH_TIMEOUT(session.isOpen(), 15000);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(session.summary().geometry.chunks() >= 1); // whichever filter the wizard test swapped in
    }

    void shardsViewTypesChecksAndReplays()
    {
        auto mapPath = startShardedDemo(mCluster, 3000, 3);
        QVERIFY2(mapPath.ok(), mapPath.ok() ? "" : qPrintable(mapPath.error().toString()));
        MainWindow w;
        w.show();
        QVERIFY(w.setShardMap(*mapPath));
        w.connectTo(*ConnectionSpec::parse(mCluster.connectionString(QStringLiteral("bloomscope_demo"))), FilterRef{});
        QVERIFY(w.showView(QStringLiteral("shards")));
        QTRY_VERIFY_WITH_TIMEOUT(w.shardSession()->isOpen(), 30000);
        QCOMPARE(w.shardSession()->shards(), 3);
        TypingView *t = w.typingView();
        auto *input = t->findChild<QLineEdit *>(QStringLiteral("typingInput"));
        QVERIFY(input && input->isEnabled());

        // A free name: one check a keystroke, the shards asked only without the filter.
        QTest::keyClicks(input, QStringLiteral("zz-nobody"));
        QTRY_COMPARE_WITH_TIMEOUT(t->loggedChecks(), 9, 10000);
        QCOMPARE(t->nameTotals().keystrokes, 9);
        QCOMPARE(t->nameTotals().queriesWithout, 27);
        QCOMPARE(t->logCell(8, 0), QStringLiteral("zz-nobody"));
        QCOMPARE(t->logCell(8, 1), QStringLiteral("definitely free"));
        QCOMPARE(t->logCell(8, 3), QStringLiteral("0"));

        // A user: the filter says maybe and the shards find it.
        const QByteArray user = demoNames(3000).at(42);
        const auto retype = [&](const QString &text) {
            input->selectAll();
            QTest::keyClick(input, Qt::Key_Backspace);
            const qint64 before = t->totals().checks;
            QTest::keyClicks(input, text);
            QTRY_COMPARE_WITH_TIMEOUT(t->totals().checks, before + text.size(), 10000);
        };
        retype(QString::fromUtf8(user));
        const int last = t->loggedChecks() - 1;
        QCOMPARE(t->logCell(last, 1), QStringLiteral("maybe"));
        QCOMPARE(t->logCell(last, 2), QStringLiteral("taken"));
        QCOMPARE(t->logCell(last, 3), QStringLiteral("3"));

        // Deleted, the name still costs a scatter-gather, and the view counts it.
        auto map = ShardMap::load(*mapPath);
        QVERIFY(map.ok());
        auto deleted = deleteUser(*map, user);
        QVERIFY2(deleted.ok(), deleted.ok() ? "" : qPrintable(deleted.error().toString()));
        QCOMPARE(*deleted, 1);
        QVERIFY(w.setShardMap(*mapPath)); // reconnect: the tombstone table is new
        QTRY_VERIFY_WITH_TIMEOUT(w.shardSession()->isOpen(), 30000);
        retype(QString::fromUtf8(user));
        QCOMPARE(t->logCell(t->loggedChecks() - 1, 2), QStringLiteral("free: deleted account"));
        QCOMPARE(t->totals().deletedScatterGathers, 1);
        QCOMPARE(t->totals().deletedQueries, 3);

        // With a debounce, a burst of keys fires one check.
        t->findChild<QSpinBox *>(QStringLiteral("typingDebounce"))->setValue(300);
        input->selectAll();
        QTest::keyClick(input, Qt::Key_Backspace);
        const qint64 before = t->totals().checks;
        QTest::keyClicks(input, QStringLiteral("burst-of-keys"));
        QTest::qWait(800);
        QCOMPARE(t->totals().checks, before + 1);

        // The replay: charts and a summary in the reference's terms.
        t->replay()->setReplaySize(20);
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(20);
        QElapsedTimer replayTime;
        replayTime.start();
        t->replay()->startReplay();
        QTRY_VERIFY_WITH_TIMEOUT(t->replay()->replayDone(), 60000);
        // The replay ran on the worker: the GUI thread kept ticking meanwhile (1 in 3 leaves room).
        QVERIFY2(ticks >= replayTime.elapsed() / 60,
                 qPrintable(QStringLiteral("%1 ticks in %2 ms").arg(ticks).arg(replayTime.elapsed())));
        const SimulationReport &r = t->replay()->lastReplay().report;
        QCOMPARE(r.names, 20);
        QVERIFY(r.shardQueriesWithout >= 18 * 12 * 3);
        QVERIFY(r.shardQueriesWithFilter < r.shardQueriesWithout / 3);
        QCOMPARE(t->replay()->lastReplay().freeNameWithout, 36); // twelve keystrokes on three shards
        QVERIFY(t->replay()->replaySummary().contains(QLatin1String("20 names")));
        QVERIFY(t->replay()->chartPoints().first >= 1 && t->replay()->chartPoints().second >= 1);

        // The audit, shown in the view (read-only: shown, not recorded).
        t->runAudit();
        QTRY_VERIFY_WITH_TIMEOUT(t->auditText().contains(QLatin1String("no false negative")), 30000);
        QVERIFY(t->auditText().contains(QLatin1String("not recorded")));
        if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty())
            w.grab().save(dir + QStringLiteral("/shards-test.png"));
    }

    void redisFilterHeatmapFprAndStep()
    {
        LocalRedis redis;
        QVERIFY(redis.start().ok());
        {
            auto conn = RedisConn::open(redis.target());
            RedisFilter f(**conn);
            QVERIFY(f.add({"ada", "grace"}).ok());
        }
        RedisWindow w;
        w.show();
        w.setStepName(QStringLiteral("ada"));
        QVERIFY(w.showView(QStringLiteral("step")));
        w.open(redis.target(), redisbloom::ReferenceKey, redisbloom::ReferenceBits);
        QTRY_VERIFY_WITH_TIMEOUT(w.hasFill(), 20000);
        QCOMPARE(w.fill().setBits.size(), size_t(1221));
        QCOMPARE(w.fill().totalSet, quint64(4));
        QVERIFY2(w.summaryText().contains(QLatin1String("78,125")), qPrintable(w.summaryText()));
        QTRY_VERIFY_WITH_TIMEOUT(w.hasStep(), 10000);
        QVERIFY2(w.stepText().contains(QLatin1String("bit 9,811,072")), qPrintable(w.stepText()));
        QVERIFY(w.stepText().contains(QLatin1String("bit 3,263,164")));
        QVERIFY(w.stepText().contains(QLatin1String("maybe")));
        w.setStepName(QStringLiteral("alan"));
        QTRY_VERIFY_WITH_TIMEOUT(w.hasStep() && w.stepText().contains(QLatin1String("alan")), 10000);
        QVERIFY(w.stepText().contains(QLatin1String("definitely free")));
    }

    void cleanupTestCase()
    {
        mWindow.reset();
        mRaw.reset();
        QVERIFY(mCluster.stop().ok());
    }
};

QTEST_MAIN(TestGui)
#include "tst_gui.moc"
