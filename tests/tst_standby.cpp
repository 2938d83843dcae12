// A hot standby as a first-class target (issue 34, item 3): a private primary and a streaming standby
// made from its base backup (pg_basebackup -R). bloomctl's info and metrics say the server's role and
// that the standby's statistics are its own; every write there says to connect to the primary; the
// window watching the standby shows a write on the primary within a refresh interval of its replay.
#include "guitest.h"
#include "heatmap/heatmapwidget.h"
#include "mainwindow.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "session/filtersession.h"
#include "testcluster.h"
#include <QRegularExpression>
#include <signal.h>

#include <QCheckBox>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace bloom;

class TestStandby : public QObject {
    Q_OBJECT
private:
    LocalCluster mPrimary, mStandby;
    QTemporaryDir mTemp;
    static constexpr auto StandbyWrite = "this server is a standby (read-only replica): connect to the primary";

    QString primaryDb() const { return mPrimary.connectionString(QStringLiteral("app")); }
    QString standbyDb() const { return mStandby.connectionString(QStringLiteral("app")); }

    /** Waits (bounded) until the standby has replayed everything the primary has written so far; returns
     *  how long that took, or -1. */
    qint64 waitForReplay(int timeoutMs = 30000)
    {
        PgConn primary(mPrimary.connectionString());
        auto lsn = primary.column(QStringLiteral("select pg_current_wal_lsn()::text"));
        if (!lsn)
            return -1;
        PgConn standby(mStandby.connectionString());
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            auto done = standby.column(QStringLiteral("select pg_last_wal_replay_lsn() >= $1::pg_lsn"), {lsn->first()});
            if (done && done->value(0) == "t")
                return t.elapsed();
            QThread::msleep(10);
        }
        return -1;
    }
    static qint64 setBitsOf(const QString &conninfo)
    {
        PgConn c(conninfo);
        auto r = c.column(QStringLiteral("select sum(bit_count(bits))::int8 from username_filter"));
        return r ? r->value(0).toLongLong() : -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(mTemp.isValid());
        QVERIFY(test::startCluster(mPrimary));
        QVERIFY(mPrimary.createDatabase(QStringLiteral("app")).ok());
        QVERIFY(mPrimary.exec(QStringLiteral("app"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        QVERIFY(mPrimary.exec(QStringLiteral("app"), QStringLiteral("vacuum analyze username_filter")).ok());
        LocalCluster::Options o;
        o.standbyOf = mPrimary.connectionString();
        auto s = mStandby.start(o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        QVERIFY(waitForReplay() >= 0);
        PgConn standby(standbyDb());
        QVERIFY2(standby.ok(), qPrintable(standby.errorMessage()));
        QCOMPARE(standby.column(QStringLiteral("select pg_is_in_recovery()::text"))->value(0), QByteArray("true"));
    }

    /** Core knows the role at connect, and a 25006 on a session in recovery is the standby's, not the
     *  session's (the classifier said "switch to admin mode to write"). */
    void theSessionKnowsItIsOnAStandby()
    {
        auto db = Database::open(ConnectionSpec::parse(standbyDb()).value());
        QVERIFY(db.ok());
        QVERIFY((*db)->inRecovery());
        auto role = (*db)->readRole();
        QVERIFY(role.ok());
        QVERIFY(role->inRecovery);
        QVERIFY(role->replayLsnBytes > 0);
        QVERIFY2(role->describe().startsWith(QLatin1String("standby (read-only replica)")),
                 qPrintable(role->describe()));
        // The server's own refusal, classified: no up-front check on this path.
        auto e = (*db)->exec(QStringLiteral("update public.username_filter set bits = bits where chunk = 0"));
        QVERIFY(!e.ok());
        QCOMPARE(e.error().sqlState, QStringLiteral("25006"));
        QVERIFY2(e.error().fix.contains(QLatin1String(StandbyWrite)), qPrintable(e.error().toString()));
        QVERIFY2(!e.error().toString().contains(QLatin1String("admin mode")), qPrintable(e.error().toString()));
        auto primary = Database::open(ConnectionSpec::parse(primaryDb()).value());
        QVERIFY(primary.ok());
        QVERIFY(!(*primary)->inRecovery());
        QCOMPARE((*primary)->readRole()->describe(), QStringLiteral("primary"));
    }

    /** info and metrics label the role and do not pass the standby's empty statistics off as the
     *  table's health; reads follow replay. */
    void infoAndMetricsSayStandby()
    {
        QVERIFY(test::runBloomctl({QStringLiteral("--db"), primaryDb(), QStringLiteral("add"), QStringLiteral("ada")})
                    .code == 0);
        QVERIFY(waitForReplay() >= 0);
        auto check =
            test::runBloomctl({QStringLiteral("--db"), standbyDb(), QStringLiteral("check"), QStringLiteral("ada")});
        QCOMPARE(check.code, 0);
        QVERIFY2(check.out.contains("ada\tmaybe"), check.out.constData());

        auto info = test::runBloomctl({QStringLiteral("--db"), standbyDb(), QStringLiteral("info")});
        QCOMPARE(info.code, 0);
        QVERIFY2(info.out.contains("server          standby (read-only replica), replay lag "), info.out.constData());
        QVERIFY2(info.out.contains("this standby's own statistics"), info.out.constData());
        QVERIFY2(!info.out.contains("vacuum          last"), info.out.constData());
        auto json =
            test::runBloomctl({QStringLiteral("--db"), standbyDb(), QStringLiteral("--json"), QStringLiteral("info")});
        QCOMPARE(json.code, 0);
        QVERIFY2(json.out.contains("\"server_role\": \"standby\""), json.out.constData());
        QVERIFY2(json.out.contains("\"statistics_of\": \"this standby\""), json.out.constData());
        auto primaryInfo = test::runBloomctl({QStringLiteral("--db"), primaryDb(), QStringLiteral("info")});
        QVERIFY2(primaryInfo.out.contains("server          primary\n"), primaryInfo.out.constData());
        QVERIFY2(primaryInfo.out.contains("vacuum          last"), primaryInfo.out.constData());

        auto metrics = test::runBloomctl({QStringLiteral("--db"), standbyDb(), QStringLiteral("metrics")});
        QCOMPARE(metrics.code, 0);
        QVERIFY2(test::hasSample(metrics.out, QStringLiteral("bloomscope_server_in_recovery"),
                                 QStringLiteral("table=\"public.username_filter\""), QStringLiteral("1")),
                 metrics.out.constData());
        QVERIFY2(metrics.out.contains("bloomscope_replay_lag_seconds{"), metrics.out.constData());
        QVERIFY2(metrics.out.contains("bloomscope_replay_pending_bytes{"), metrics.out.constData());
        QVERIFY2(!metrics.out.contains("bloomscope_filter_dead_tuples"), metrics.out.constData());
        auto primaryMetrics = test::runBloomctl({QStringLiteral("--db"), primaryDb(), QStringLiteral("metrics")});
        QVERIFY2(test::hasSample(primaryMetrics.out, QStringLiteral("bloomscope_server_in_recovery"),
                                 QStringLiteral("table=\"public.username_filter\""), QStringLiteral("0")),
                 primaryMetrics.out.constData());
        QVERIFY(!primaryMetrics.out.contains("bloomscope_replay_lag_seconds"));
        QVERIFY(primaryMetrics.out.contains("bloomscope_filter_dead_tuples"));
        // Prometheus' own checker accepts both.
        for (const QByteArray &text : {metrics.out, primaryMetrics.out}) {
            QProcess promtool;
            promtool.start(QStringLiteral(PROMTOOL_PATH), {QStringLiteral("check"), QStringLiteral("metrics")});
            QVERIFY2(promtool.waitForStarted(), "promtool (packaging/setup unpacks it into build/tools)");
            promtool.write(text);
            promtool.closeWriteChannel();
            QVERIFY(promtool.waitForFinished(30000));
            QVERIFY2(promtool.exitCode() == 0, promtool.readAllStandardError().constData());
        }
    }

    /** Every write on the standby says so, with the fix: the primary (add said "switch to admin mode",
     *  record "grant create on schema public" to a superuser, rebuild a syntax error). */
    /**
     * Issue 43, 3: a rebuild's state reads the same on the standby as on the primary, from the state
     * table's heartbeat (a standby sees none of the primary's sessions or advisory locks). Running on the
     * primary: never "interrupted" on the standby (it was: WARNING, "undo it with rebuild --abort"). Killed:
     * interrupted on both, with the advice its stage allows. Rebuilt and waiting for its swap: a state of
     * its own in info, health (WARNING after --max-swap-wait) and metrics.
     */
    void aRebuildReadsTheSameOnTheStandby()
    {
        const QHash<QString, QString> stale{{QStringLiteral("BLOOMSCOPE_HEARTBEAT_STALE"), QStringLiteral("4")}};
        const auto onStandby = [&](const QStringList &args) {
            return test::runBloomctl(QStringList{QStringLiteral("--db"), standbyDb()} + args, {}, {}, stale);
        };
        const auto gauge = [](const QByteArray &metrics, const char *name) {
            const QRegularExpression re(QStringLiteral("\\n%1\\{[^}]*\\} ([0-9.e+-]+)").arg(QLatin1String(name)));
            return re.match(QString::fromUtf8(metrics)).captured(1);
        };
        const QStringList rebuild{QStringLiteral("--db"),     primaryDb(),
                                  QStringLiteral("rebuild"),  QStringLiteral("--yes"),
                                  QStringLiteral("--into"),   QStringLiteral("standby_v2"),
                                  QStringLiteral("--source"), primaryDb(),
                                  QStringLiteral("--query"),  QStringLiteral("select 'ada'"),
                                  QStringLiteral("--grace"),  QStringLiteral("0")};
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("BLOOMSCOPE_TEST_PAUSE_AT"), QStringLiteral("export"));
        p.setProcessEnvironment(e);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(BLOOMCTL_PATH), rebuild);
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += p.readAll()).contains("paused at export"), 60000);
        // Running on the primary, with sign-ups there: the standby has replayed heartbeats and sign-ups.
        for (int i = 0; i < 8; ++i) {
            QVERIFY(test::runBloomctl({QStringLiteral("--db"), primaryDb(), QStringLiteral("add"),
                                       QStringLiteral("standby-signup-%1").arg(i)})
                        .code == 0);
            QThread::msleep(500);
        }
        QVERIFY(waitForReplay() >= 0);
        auto health = onStandby({QStringLiteral("health")});
        QVERIFY2(health.code == 0 && !health.out.contains("interrupted"), health.out.constData());
        auto metrics = onStandby({QStringLiteral("metrics")});
        QCOMPARE(gauge(metrics.out, "bloomscope_rebuild_in_progress"), QStringLiteral("1"));
        QCOMPARE(gauge(metrics.out, "bloomscope_rebuild_interrupted"), QStringLiteral("0"));
        auto info = onStandby({QStringLiteral("info")});
        QVERIFY2(info.out.contains("running on the primary into standby_v2") && !info.out.contains("INTERRUPTED"),
                 info.out.constData());

        // Killed: interrupted on the primary at once, on the standby once the primary's commits pass its
        // last heartbeat; cut in its export, it is told to abort, not to swap.
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(test::runBloomctl({QStringLiteral("--db"), primaryDb(), QStringLiteral("info")})
                                     .out.contains("REBUILD INTERRUPTED into standby_v2"),
                                 20000);
        info = test::runBloomctl({QStringLiteral("--db"), primaryDb(), QStringLiteral("info")});
        QVERIFY2(info.out.contains("never written (cut in stage export)") && info.out.contains("rebuild --abort") &&
                     !info.out.contains("bloomctl swap"),
                 info.out.constData());
        QElapsedTimer t;
        t.start();
        for (;;) {
            QVERIFY(test::runBloomctl(
                        {QStringLiteral("--db"), primaryDb(), QStringLiteral("add"), QStringLiteral("after-the-kill")})
                        .code == 0);
            QVERIFY(waitForReplay() >= 0);
            health = onStandby({QStringLiteral("health")});
            if (health.out.contains("interrupted") || t.elapsed() > 30000)
                break;
            QThread::msleep(500);
        }
        QVERIFY2(health.code == 1 && health.out.contains("rebuild into standby_v2 interrupted in stage export") &&
                     health.out.contains("rebuild --abort") && !health.out.contains("finish it with swap"),
                 health.out.constData());
        QCOMPARE(gauge(onStandby({QStringLiteral("metrics")}).out, "bloomscope_rebuild_interrupted"),
                 QStringLiteral("1"));
        QCOMPARE(test::runBloomctl({QStringLiteral("--db"), primaryDb(), QStringLiteral("rebuild"),
                                    QStringLiteral("--abort"), QStringLiteral("--yes")})
                     .code,
                 0);

        // Rebuilt, its process gone: waiting for its swap, a state of its own everywhere.
        auto done = test::runBloomctl(rebuild);
        QVERIFY2(done.code == 0, done.err.constData());
        QVERIFY(waitForReplay() >= 0);
        health = onStandby({QStringLiteral("health")});
        QVERIFY2(health.code == 0, health.out.constData()); // younger than a day
        health = onStandby({QStringLiteral("health"), QStringLiteral("--max-swap-wait"), QStringLiteral("0")});
        QVERIFY2(health.code == 1 && health.out.contains("rebuilt standby_v2 has waited") &&
                     health.out.contains("for its swap"),
                 health.out.constData());
        metrics = onStandby({QStringLiteral("metrics")});
        QCOMPARE(gauge(metrics.out, "bloomscope_rebuild_waiting_for_swap"), QStringLiteral("1"));
        QCOMPARE(gauge(metrics.out, "bloomscope_rebuild_interrupted"), QStringLiteral("0"));
        QCOMPARE(gauge(metrics.out, "bloomscope_rebuild_in_progress"), QStringLiteral("0"));
        QVERIFY(!gauge(metrics.out, "bloomscope_rebuild_waiting_for_swap_seconds").isEmpty());
        info = onStandby({QStringLiteral("info")});
        QVERIFY2(info.out.contains("standby_v2 is rebuilt and waits for its swap"), info.out.constData());
        QCOMPARE(test::runBloomctl({QStringLiteral("--db"), primaryDb(), QStringLiteral("rebuild"),
                                    QStringLiteral("--abort"), QStringLiteral("--yes")})
                     .code,
                 0);
    }

    void everyWriteSaysConnectToThePrimary_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("input");
        QTest::newRow("add") << QStringList{QStringLiteral("add"), QStringLiteral("grace")} << QByteArray();
        QTest::newRow("add -") << QStringList{QStringLiteral("add"), QStringLiteral("-")} << QByteArray("grace\n");
        QTest::newRow("load -") << QStringList{QStringLiteral("load"), QStringLiteral("-")} << QByteArray("grace\n");
        QTest::newRow("record") << QStringList{QStringLiteral("record")} << QByteArray();
        QTest::newRow("record --install-function")
            << QStringList{QStringLiteral("record"), QStringLiteral("--install-function")} << QByteArray();
        QTest::newRow("init") << QStringList{QStringLiteral("--table"), QStringLiteral("other"), QStringLiteral("init")}
                              << QByteArray();
        QTest::newRow("rebuild") << QStringList{QStringLiteral("rebuild"),  QStringLiteral("--yes"),
                                                QStringLiteral("--into"),   QStringLiteral("username_filter_v2"),
                                                QStringLiteral("--source"), primaryDb(),
                                                QStringLiteral("--query"),  QStringLiteral("select 'ada'")}
                                 << QByteArray();
        QTest::newRow("swap") << QStringList{QStringLiteral("swap"), QStringLiteral("username_filter_v2"),
                                             QStringLiteral("--yes")}
                              << QByteArray();
        QTest::newRow("drop-old") << QStringList{QStringLiteral("drop-old"), QStringLiteral("--yes")} << QByteArray();
    }
    void everyWriteSaysConnectToThePrimary()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, input);
        const auto r = test::runBloomctl(QStringList{QStringLiteral("--db"), standbyDb()} + args, input);
        QVERIFY2(r.code == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
        QVERIFY2(r.err.contains(StandbyWrite), r.err.constData());
        for (const char *wrong : {"admin mode", "grant create", "syntax error"})
            QVERIFY2(!r.err.contains(wrong), r.err.constData());
        QCOMPARE(setBitsOf(standbyDb()), setBitsOf(primaryDb())); // nothing written anywhere
    }

    /** The window on the standby: the banner, title and status say standby with the replay lag, and a
     *  write on the primary shows within a refresh interval of its replay (the stats never moved: it
     *  showed 274-299 s later, saying "no write since ..."). */
    void theWindowFollowsThePrimary()
    {
        MainWindow w;
        for (QCheckBox *c : w.findChildren<QCheckBox *>())
            if (c->text() == QLatin1String("Slow down &when idle"))
                c->setChecked(false);
        w.setRefreshInterval(1);
        w.show();
        w.connectTo(ConnectionSpec::parse(standbyDb()).value(), FilterRef{});
        QTRY_VERIFY_WITH_TIMEOUT(w.refreshCount() >= 1, 30000);
        QVERIFY2(w.bannerText().contains(QLatin1String("STANDBY: standby (read-only replica), ")),
                 qPrintable(w.bannerText()));
        QVERIFY2(w.bannerText().contains(QLatin1String("writes go to the primary")), qPrintable(w.bannerText()));
        QVERIFY2(w.windowTitle().contains(QLatin1String("STANDBY")), qPrintable(w.windowTitle()));
        QVERIFY2(w.statusText().contains(QLatin1String("a standby (read-only replica), ")), qPrintable(w.statusText()));
        // Nothing written: the refreshes read no row, and say what they watched.
        QTRY_VERIFY_WITH_TIMEOUT(w.heatmap()->result().unchanged, 15000);
        QVERIFY2(w.statusText().contains(QLatin1String("nothing replayed since")), qPrintable(w.statusText()));

        // 300 names added on the primary; the window's own timer (every 1 s) must show them. A window open
        // for a while: its last read is older than its limit of one read every ten times that read's cost
        // (the first full read of a cold standby took 637 ms here, so 6.4 s).
        const FillSnapshot &last = w.heatmap()->result().fill;
        const qint64 throttle = QDateTime::currentDateTimeUtc().msecsTo(last.takenAt.addMSecs(10 * last.elapsedMs));
        if (throttle > 0)
            QTest::qWait(int(throttle));
        QList<QByteArray> names;
        for (int i = 0; i < 300; ++i)
            names << QByteArray("standby-") + QByteArray::number(i);
        {
            auto db = Database::open(ConnectionSpec::parse(primaryDb()).value());
            QVERIFY(db.ok());
            FilterStore store(**db, FilterRef{});
            QVERIFY(store.attach().ok());
            QVERIFY(store.add(names).ok());
        }
        QElapsedTimer sinceCommit;
        sinceCommit.start();
        const qint64 replayMs = waitForReplay();
        QVERIFY(replayMs >= 0);
        const qint64 replayedAt = sinceCommit.elapsed();
        const qint64 expected = setBitsOf(primaryDb());
        QTRY_VERIFY_WITH_TIMEOUT(qint64(w.heatmap()->result().fill.totalSetBits()) == expected, 30000);
        const qint64 shownAt = sinceCommit.elapsed();
        const FillResult &r = w.heatmap()->result();
        QVERIFY2(r.incremental, qPrintable(w.statusText())); // the changed rows, not the whole table
        QVERIFY(r.fill.rowsRead > 0 && r.fill.rowsRead <= 300);
        qInfo("replayed %lld ms after the commit, shown %lld ms after the commit (%lld ms after the replay; "
              "refresh interval 1000 ms), %lld rows read",
              replayedAt, shownAt, shownAt - replayedAt, r.fill.rowsRead);
        // Within one interval of the replay, plus a refresh's own time on a loaded machine.
        QVERIFY2(shownAt - replayedAt <= 3000, qPrintable(QString::number(shownAt - replayedAt)));

        // A row deleted on the primary: a standby counts no delete, so its reads count the rows.
        QVERIFY(
            mPrimary.exec(QStringLiteral("app"), QStringLiteral("delete from username_filter where chunk = 7")).ok());
        QVERIFY(waitForReplay() >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(w.damageText().contains(QLatin1String("chunk 7")), 15000);
        QVERIFY(mPrimary
                    .exec(QStringLiteral("app"),
                          QStringLiteral("insert into username_filter values (7, repeat('0', 8192)::bit(8192))"))
                    .ok());
        QVERIFY(waitForReplay() >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(w.damageText().isEmpty(), 15000);

        // A write from the window says where writes go.
        QSignalSpy failed(w.session(), &FilterSession::failed);
        test::answerNextBox(QMessageBox::Ok);
        w.session()->add({QStringLiteral("from-the-window")});
        QVERIFY(failed.wait(15000));
        const Error e = failed.first().at(2).value<Error>(); // failed(Operation, token, Error, lost)
        QVERIFY2(e.toString().contains(QLatin1String(StandbyWrite)), qPrintable(e.toString()));
    }
};

QTEST_MAIN(TestStandby)
#include "tst_standby.moc"
