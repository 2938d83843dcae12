// Bloomscope behind a connection pooler (issue 34, items 1 and 2), Debian's PgBouncer started by the test.
// Session mode with a pool of 2 server connections: the load's extra connections (a second for its
// steps, a third for VACUUM) are accepted by PgBouncer at once and queued until a server connection is
// free: the load used to wait in that queue for query_wait_timeout (120 s) and say nothing. It now goes
// on with what it has within a few seconds, and says so.
// Transaction mode: a server connection serves any client between transactions. With a pool of 1 every
// client lands on the server connection the previous one used, so whatever session state bloomctl or
// the window left there (search_path, default_transaction_read_only, prepared statements) is what the
// application meets next; with a pool of 2 kept busy by another client, consecutive transactions of one
// client land on different server connections, so a statement prepared in one is gone in the next.
#include "localpgbouncer.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "testcluster.h"

#include <atomic>
#include <thread>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace bloom;

class TestPgBouncer : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    test::LocalPgBouncer mBouncer;
    test::LocalPgBouncer mTxnOne; ///< transaction mode, one server connection
    test::LocalPgBouncer mTxnTwo; ///< transaction mode, two server connections
    QTemporaryDir mTemp;
    static constexpr auto Password = "pooled-s3cret";

    /** `count` names "prefix-i", one a line, in a file of the test's directory. */
    QString namesFile(const QString &prefix, int count, QList<QByteArray> *sample)
    {
        const QString path = mTemp.filePath(prefix + QStringLiteral(".txt"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        QByteArray block;
        for (int i = 0; i < count; ++i) {
            const QByteArray n = prefix.toUtf8() + '-' + QByteArray::number(i);
            block += n + '\n';
            if (i % 997 == 0)
                sample->append(n);
            if (block.size() > (1 << 20)) {
                f.write(block);
                block.clear();
            }
        }
        f.write(block);
        return path;
    }
    struct Loaded {
        test::CtlRun run;
        QJsonObject report;
        qint64 ms = 0;
    };
    static Loaded load(const QString &conninfo, const QString &file)
    {
        Loaded l;
        QElapsedTimer t;
        t.start();
        l.run = test::runBloomctl(
            {QStringLiteral("--db"), conninfo, QStringLiteral("--json"), QStringLiteral("load"), file});
        l.ms = t.elapsed();
        l.report = QJsonDocument::fromJson(l.run.out).object();
        return l;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(mTemp.isValid());
        QVERIFY(test::startCluster(mCluster));
        for (const QString &db : {QStringLiteral("direct"), QStringLiteral("pooled"), QStringLiteral("txn")}) {
            QVERIFY(mCluster.createDatabase(db).ok());
            QVERIFY(mCluster.exec(db, test::sqlResource(QStringLiteral("reference.sql"))).ok());
            QVERIFY(mCluster.exec(db, QStringLiteral("vacuum analyze username_filter")).ok());
        }
        test::LocalPgBouncer::Options o;
        o.user = mCluster.superuser(); // owns the filter: the load vacuums between its steps
        o.password = QString::fromLatin1(Password);
        auto s = mBouncer.start(mCluster, o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        o.poolMode = QStringLiteral("transaction");
        o.poolSize = 1;
        s = mTxnOne.start(mCluster, o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        o.poolSize = 2;
        s = mTxnTwo.start(mCluster, o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
    }

    /** What the application meets on the pool's server connection after a Bloomscope client: the server's
     *  own search_path and read-write default, no prepared statement, and its reference add and check. */
    void applicationWorksThrough(const test::LocalPgBouncer &pool, const QByteArray &name)
    {
        PgConn app(pool.conninfo(QStringLiteral("txn"))); // the application's own settings
        QVERIFY2(app.ok(), qPrintable(app.errorMessage()));
        auto state = app.rows(QStringLiteral("select current_setting('search_path'), "
                                             "current_setting('default_transaction_read_only'), "
                                             "(select count(*) from pg_prepared_statements)"));
        QVERIFY2(state.ok(), qPrintable(state.ok() ? QString() : state.error().message));
        QCOMPARE(QString::fromUtf8(state->value(0).value(0)), QStringLiteral("\"$user\", public"));
        QCOMPARE(state->value(0).value(1), QByteArray("off"));
        QCOMPARE(state->value(0).value(2), QByteArray("0"));
        auto add = app.rows(QStringLiteral("update username_filter f set bits = f.bits | b.mask "
                                           "from username_bits($1) b where f.chunk = b.chunk"),
                            {name});
        QVERIFY2(add.ok(), qPrintable(add.ok() ? QString() : add.error().message));
        QCOMPARE(test::referenceFree(pool.conninfo(QStringLiteral("txn")), {name}), 0);
    }

    /** What a bloomctl run said, for a failure message. */
    static QByteArray said(const test::CtlRun &r)
    {
        return "exit " + QByteArray::number(r.code) + ": " + r.out + r.err;
    }

    /** 1,000,000 names through a session pool of 2: the load's session and its second connection take
     *  both server connections; the VACUUMs' connection would wait in the queue (123 s before). */
    void aLoadThroughASessionPoolOfTwo()
    {
        QList<QByteArray> sample;
        const QString file = namesFile(QStringLiteral("pooler"), 1'000'000, &sample);
        QVERIFY(!file.isEmpty());
        // The same load straight to the server first: its normal time on this machine now.
        const Loaded direct = load(mCluster.connectionString(QStringLiteral("direct")), file);
        QVERIFY2(direct.run.code == 0, direct.run.err.constData());
        QCOMPARE(direct.report.value(QStringLiteral("connections")).toInt(), 2);
        QVERIFY(direct.report.value(QStringLiteral("vacuum_connection")).toBool());

        const Loaded pooled = load(mBouncer.conninfo(QStringLiteral("pooled")), file);
        qInfo("1,000,000 names: %lld ms straight to the server, %lld ms through PgBouncer (session mode, pool of 2)",
              direct.ms, pooled.ms);
        QVERIFY2(pooled.run.code == 0, qPrintable(QStringLiteral("exit %1 after %2 ms: %3\n%4")
                                                      .arg(pooled.run.code)
                                                      .arg(pooled.ms)
                                                      .arg(QString::fromUtf8(pooled.run.err), mBouncer.log())));
        QCOMPARE(pooled.report.value(QStringLiteral("added")).toInteger(), 1'000'000);
        QCOMPARE(pooled.report.value(QStringLiteral("batches")).toInt(), FilterStore::LoadSteps);
        QCOMPARE(pooled.report.value(QStringLiteral("connections")).toInt(), 2);
        QVERIFY(!pooled.report.value(QStringLiteral("vacuum_connection")).toBool());
        // It says how it wrote: the VACUUMs on its own connection, and why.
        QVERIFY2(pooled.run.err.contains(
                     "{\"note\":{\"message\":\"the VACUUMs between the load's steps ran 15 of them on the "
                     "load's own "
                     "connection"),
                 pooled.run.err.constData());
        // (Given up when no longer needed, or after its 3 s when the load takes longer on a busy machine.)
        QVERIFY2(pooled.run.err.contains("connection 3 was refused (no answer") &&
                     pooled.run.err.contains("a connection pooler such as PgBouncer"),
                 pooled.run.err.constData());
        // About its normal time: never a pooler's query_wait_timeout.
        QVERIFY2(pooled.ms <= direct.ms * 2 + 3000, qPrintable(QString::number(pooled.ms)));
        QCOMPARE(test::referenceFree(mCluster.connectionString(QStringLiteral("pooled")), sample), 0);
    }

    /** Another client holds one of the pool's two server connections: the load's second connection gets
     *  none within 3 s, and the steps are written on the load's session alone. */
    void aFullPoolLeavesTheLoadItsOwnConnection()
    {
        PgConn other(mBouncer.conninfo(QStringLiteral("pooled")), PgConn::SearchPath::Pinned);
        QVERIFY2(other.ok(), qPrintable(other.errorMessage())); // its first statement took a server connection
        QList<QByteArray> sample;
        const QString file = namesFile(QStringLiteral("crowded"), 300'000, &sample);
        const Loaded pooled = load(mBouncer.conninfo(QStringLiteral("pooled")), file);
        qInfo("300,000 names through a pool whose other server connection is taken: %lld ms", pooled.ms);
        QVERIFY2(pooled.run.code == 0, pooled.run.err.constData());
        QCOMPARE(pooled.report.value(QStringLiteral("connections")).toInt(), 1);
        QVERIFY2(pooled.run.err.contains("{\"note\":{\"message\":\"the load's steps were written on 1 connection(s): "
                                         "connection 2 was "
                                         "refused (no answer within 3 s"),
                 pooled.run.err.constData());
        QVERIFY2(pooled.ms <= 30000, qPrintable(QString::number(pooled.ms)));
        QCOMPARE(test::referenceFree(mCluster.connectionString(QStringLiteral("pooled")), sample), 0);
        QVERIFY(other.exec(QStringLiteral("select 1")).ok()); // the other client still has its session
    }

    /** bloomctl info, check and add and the window's read-only session through a transaction pool of one
     *  server connection: the application's next transaction there meets nothing of theirs (it used to
     *  meet search_path = pg_catalog, pg_temp, default_transaction_read_only = on and QPSQL's statements). */
    void aTransactionPoolKeepsNoSessionState_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("info") << QStringList{QStringLiteral("info")};
        QTest::newRow("check") << QStringList{QStringLiteral("check"), QStringLiteral("ada")};
        QTest::newRow("add") << QStringList{QStringLiteral("add"), QStringLiteral("grace")};
        // health and metrics read the history and the server's labels too (issue 37): a monitoring host's view.
        QTest::newRow("health") << QStringList{QStringLiteral("health"), QStringLiteral("-w"),
                                               QStringLiteral("fpr=0.005")};
        QTest::newRow("metrics") << QStringList{QStringLiteral("metrics")};
        QTest::newRow("the window, read-only") << QStringList{};
    }
    void aTransactionPoolKeepsNoSessionState()
    {
        QFETCH(QStringList, args);
        const QString pool = mTxnOne.conninfo(QStringLiteral("txn"));
        if (args.isEmpty()) { // what the window's read-only session does at open and on each refresh
            Database::Options o;
            o.readOnly = true;
            auto db = Database::open(ConnectionSpec::parse(pool).value(), o);
            QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().toString()));
            FilterStore store(**db, FilterRef{});
            auto a = store.attach();
            QVERIFY2(a.ok(), qPrintable(a.ok() ? QString() : a.error().toString()));
            auto fill = store.fill();
            QVERIFY2(fill.ok(), qPrintable(fill.ok() ? QString() : fill.error().toString()));
            auto counter = store.writeCounter();
            QVERIFY2(counter.ok(), qPrintable(counter.ok() ? QString() : counter.error().toString()));
            auto health = store.health();
            QVERIFY2(health.ok(), qPrintable(health.ok() ? QString() : health.error().toString()));
            // The session itself stays read-only, transaction by transaction.
            auto write = store.add({QByteArrayLiteral("window-write")});
            QVERIFY(!write.ok());
        } else {
            const test::CtlRun r = test::runBloomctl(QStringList{QStringLiteral("--db"), pool} + args);
            QVERIFY2(r.code == 0, said(r).constData());
            if (args.first() == QLatin1String("metrics"))
                QVERIFY2(r.out.contains("bloomscope_up{") && r.out.contains("} 1\n"), r.out.constData());
            if (args.first() == QLatin1String("health"))
                QVERIFY2(r.out.startsWith("BLOOMSCOPE OK - "), r.out.constData());
        }
        applicationWorksThrough(mTxnOne, QByteArrayLiteral("app-") + QTest::currentDataTag());
    }

    /** Another client keeps a transaction pool of two busy, so bloomctl's transactions hop between the two
     *  server connections: no command may fail with a prepared statement that is not there (it used to:
     *  'prepared statement "qpsqlpstmt_1" does not exist', 'syntax error at or near "("'). */
    void aBusyTransactionPool()
    {
        const QString pool = mTxnTwo.conninfo(QStringLiteral("txn"));
        std::atomic<bool> stop{false};
        std::atomic<int> theirs{0};
        std::thread other([&] {
            PgConn c(pool);
            while (c.ok() && !stop.load())
                if (c.exec(QStringLiteral("select pg_sleep(0.002)")).ok())
                    ++theirs;
        });
        QStringList failures;
        QElapsedTimer t;
        t.start();
        int runs = 0;
        for (int round = 0; round < 4; ++round)
            for (const QStringList &args :
                 {QStringList{QStringLiteral("info")}, QStringList{QStringLiteral("check"), QStringLiteral("ada")},
                  QStringList{QStringLiteral("add"), QStringLiteral("busy-%1").arg(round)}}) {
                const test::CtlRun r = test::runBloomctl(QStringList{QStringLiteral("--db"), pool} + args);
                ++runs;
                if (r.code != 0)
                    failures << QString::fromUtf8(said(r));
            }
        stop = true;
        other.join();
        qInfo("%d bloomctl runs through a busy transaction pool of 2 in %lld ms (the other client: %d statements)",
              runs, t.elapsed(), theirs.load());
        QVERIFY2(theirs > 0, "the other client never got a server connection");
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
        applicationWorksThrough(mTxnTwo, QByteArrayLiteral("app-busy"));
    }

    /** Bloomscope says it is behind a transaction pool, and refuses what needs a session of its own (a
     *  rebuild holds an advisory lock across many transactions) with the fix. */
    void aTransactionPoolIsNamedAndSessionWorkRefused()
    {
        const QString pool = mTxnOne.conninfo(QStringLiteral("txn"));
        // What finding the pooler costs an open: bloomctl check, medians of 5, straight and through each pool.
        const auto median = [](const QString &conninfo) {
            QList<qint64> ms;
            for (int i = 0; i < 5; ++i) {
                QElapsedTimer t;
                t.start();
                (void)test::runBloomctl(
                    {QStringLiteral("--db"), conninfo, QStringLiteral("check"), QStringLiteral("ada")});
                ms << t.elapsed();
            }
            std::sort(ms.begin(), ms.end());
            return ms[2];
        };
        qInfo("bloomctl check, median of 5: %lld ms straight to the server, %lld ms through a session pool, %lld ms "
              "through a transaction pool",
              median(mCluster.connectionString(QStringLiteral("txn"))),
              median(mBouncer.conninfo(QStringLiteral("txn"))), median(pool));
        const test::CtlRun info = test::runBloomctl({QStringLiteral("--db"), pool, QStringLiteral("info")});
        QVERIFY2(info.code == 0, said(info).constData());
        QVERIFY2(info.out.contains("transaction pool"), info.out.constData());
        const test::CtlRun direct = test::runBloomctl(
            {QStringLiteral("--db"), mCluster.connectionString(QStringLiteral("txn")), QStringLiteral("info")});
        QVERIFY2(direct.code == 0 && !direct.out.contains("pool"), said(direct).constData());
        const test::CtlRun session = test::runBloomctl(
            {QStringLiteral("--db"), mBouncer.conninfo(QStringLiteral("txn")), QStringLiteral("info")});
        QVERIFY2(session.code == 0 && session.out.contains("session pool"), said(session).constData());

        const test::CtlRun rebuild =
            test::runBloomctl({QStringLiteral("--db"), pool, QStringLiteral("rebuild"), QStringLiteral("--yes"),
                               QStringLiteral("--into"), QStringLiteral("username_filter2")});
        QCOMPARE(rebuild.code, 8);
        QVERIFY2(rebuild.err.contains("transaction pool") && rebuild.err.contains("session pool") &&
                     rebuild.err.contains("directly"),
                 rebuild.err.constData());
        applicationWorksThrough(mTxnOne, QByteArrayLiteral("app-after-rebuild"));
    }
};

QTEST_GUILESS_MAIN(TestPgBouncer)
#include "tst_pgbouncer.moc"
