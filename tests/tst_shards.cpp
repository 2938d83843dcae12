#include "local/localcluster.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "shards/audit.h"
#include "shards/shardmap.h"
#include "shards/shardpool.h"
#include "shards/simulator.h"
#include "testcluster.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>
#include <QTest>

#include <signal.h>

using namespace bloom;

/** The shards behind the filter: exact answers, the sign-up order, deleted users, query counts. */
class TestShards : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    QTemporaryFile mMapFile;
    ShardMap mMap;

    QString filterDb() const { return mCluster.connectionString(QStringLiteral("filter")); }

    int bloomctl(const QStringList &args, QByteArray *out = nullptr, bool crash = false)
    {
        QProcess p;
        if (crash) {
            QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
            e.insert(QStringLiteral("BLOOMSCOPE_TEST_CRASH_AFTER_FILTER"), QStringLiteral("1"));
            p.setProcessEnvironment(e);
        }
        // --shards only for the commands that take it (bloomctl refuses another command's option).
        const bool shardCommand = !args.isEmpty() && args.first() != QLatin1String("metrics");
        p.start(QStringLiteral(BLOOMCTL_PATH),
                QStringList{QStringLiteral("--db"), filterDb()} +
                    (shardCommand ? QStringList{QStringLiteral("--shards"), mMapFile.fileName()} : QStringList{}) +
                    args);
        p.waitForFinished(60000);
        if (out)
            *out = p.readAllStandardOutput() + p.readAllStandardError();
        return p.exitCode();
    }

    /** What a direct query of every shard says. */
    bool directlyTaken(const QByteArray &name)
    {
        for (const ConnectionSpec &s : mMap.shards) {
            PgConn c(s.toConninfo());
            if (c.column(QStringLiteral("select count(*) from users where lower(username) = lower($1)"), {name})
                    ->value(0) != "0")
                return true;
        }
        return false;
    }

    /** Sequential scans of users on every shard so far (the lookups' server-side count). */
    qint64 shardScans()
    {
        QTest::qWait(1200); // statistics are flushed at most once a second
        qint64 total = 0;
        for (const ConnectionSpec &s : mMap.shards) {
            PgConn c(s.toConninfo());
            total += c.column(QStringLiteral("select coalesce(seq_scan, 0) "
                                             "from pg_stat_user_tables where relname = 'users'"))
                         ->value(0)
                         .toLongLong();
        }
        return total;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("filter")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("filter"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        for (int i = 0; i < 3; ++i) {
            const QString db = QStringLiteral("users_%1").arg(i);
            QVERIFY(mCluster.createDatabase(db).ok());
            QVERIFY(mCluster
                        .exec(db, QStringLiteral("create table users (id bigint primary key, username text not null); "
                                                 "insert into users select g, 'member' || g from "
                                                 "generate_series(%1, 3000, 3) g")
                                      .arg(i == 0 ? 3 : i))
                        .ok());
            mMap.shards.append(*ConnectionSpec::parse(mCluster.connectionString(db)));
        }
        QVERIFY(mMapFile.open());
        mMapFile.write(mMap.toText().toUtf8());
        mMapFile.close();
        auto parsed = ShardMap::load(mMapFile.fileName());
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->shards.size(), 3);
        // The filter holds every member, and one name that was added but never became a user.
        auto db = Database::open(*ConnectionSpec::parse(filterDb()));
        FilterStore store(**db, FilterRef{});
        QVERIFY(store.attach().ok());
        QList<QByteArray> members;
        for (int g = 1; g <= 3000; ++g)
            members.append("member" + QByteArray::number(g));
        members.append("ghost");
        QVERIFY(store.add(members).ok());
    }

    void badShardMaps()
    {
        QCOMPARE(ShardMap::parse(QStringLiteral("shard = host=x\nnonsense\n")).error().kind, ErrorKind::BadInput);
        QVERIFY(ShardMap::parse(QStringLiteral("shard = host=x\nnonsense\n"))
                    .error()
                    .message.contains(QLatin1String("line 2")));
        QVERIFY(ShardMap::parse(QStringLiteral("# empty\n")).error().message.contains(QLatin1String("no shard")));
        QVERIFY(!ShardMap::parse(QStringLiteral("colour = red\nshard = host=x")).ok());
    }

    void exactAnswersMatchTheShards_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("verdict");
        QTest::addColumn<QByteArray>("by");
        QTest::newRow("free") << QByteArray("nobody-at-all") << QByteArray("free") << QByteArray("filter");
        QTest::newRow("taken") << QByteArray("Member77") << QByteArray("taken") << QByteArray("shards");
        QTest::newRow("false positive (added, never a user)")
            << QByteArray("ghost") << QByteArray("free") << QByteArray("shards");
    }
    void exactAnswersMatchTheShards()
    {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, verdict);
        QFETCH(QByteArray, by);
        const qint64 before = shardScans();
        QByteArray out;
        QCOMPARE(bloomctl({QStringLiteral("check"), QStringLiteral("--exact"), QString::fromUtf8(name)}, &out), 0);
        const QList<QByteArray> fields = out.split('\t');
        QCOMPARE(fields.value(1), verdict);
        QCOMPARE(fields.value(2), by);
        // One query per shard when the filter says maybe, none when it rules the name out.
        QCOMPARE(shardScans() - before, by == "shards" ? 3 : 0);
        QCOMPARE(directlyTaken(name), verdict == "taken");
    }

    void signupAndDeletedUsers()
    {
        QByteArray out;
        QCOMPARE(bloomctl({QStringLiteral("signup"), QStringLiteral("grace_h")}, &out), 0);
        QVERIFY(directlyTaken("grace_h"));
        QCOMPARE(bloomctl({QStringLiteral("signup"), QStringLiteral("GRACE_H")}, &out), 6); // taken
        QCOMPARE(bloomctl({QStringLiteral("delete-user"), QStringLiteral("--yes"), QStringLiteral("grace_h")}, &out),
                 0);
        QVERIFY(!directlyTaken("grace_h"));
        // A deleted user stays in the filter: maybe, then the shards say free.
        QCOMPARE(bloomctl({QStringLiteral("check"), QStringLiteral("--exact"), QStringLiteral("grace_h")}, &out), 0);
        QVERIFY2(out.startsWith("grace_h\tfree\tshards (a deleted account's name)"), out.constData());
        // A false positive is not mistaken for a deleted account.
        QCOMPARE(bloomctl({QStringLiteral("check"), QStringLiteral("--exact"), QStringLiteral("ghost")}, &out), 0);
        QCOMPARE(out.split('\t').value(2), QByteArray("shards"));
        // The simulator counts what deleted names cost.
        auto db = Database::open(*ConnectionSpec::parse(filterDb()));
        FilterStore store(**db, FilterRef{});
        QVERIFY(store.attach().ok());
        ShardPool pool(mMap);
        QVERIFY(pool.connect().ok());
        int observed = 0;
        auto report = simulate(store, pool, {"grace_h", "nobody-here"}, SimulationOptions{150, 300},
                               [&](qsizetype, const KeystrokeCheck &k) {
                                   observed += k.deleted ? 1 : 0;
                                   return true;
                               });
        QVERIFY(report.ok());
        QCOMPARE(report->checks, 2);
        QCOMPARE(report->deletedScatterGathers, 1);
        QCOMPARE(observed, 1);
        // Signed up again, the name is taken and no longer counted as deleted.
        QCOMPARE(bloomctl({QStringLiteral("signup"), QStringLiteral("grace_h")}, &out), 0);
        auto again = exactLookup(mMap, "grace_h");
        QVERIFY(again->taken && !again->deleted);
        QCOMPARE(bloomctl({QStringLiteral("delete-user"), QStringLiteral("--yes"), QStringLiteral("grace_h")}, &out),
                 0);
    }

    void crashBetweenTheWritesLeavesNoFalseNegative()
    {
        QByteArray out;
        QCOMPARE(bloomctl({QStringLiteral("signup"), QStringLiteral("crashed-signup")}, &out, /*crash=*/true), 9);
        // The filter has the name (a false positive at worst); no user row; never "definitely free".
        QCOMPARE(bloomctl({QStringLiteral("check"), QStringLiteral("crashed-signup")}, &out), 0);
        QCOMPARE(out, QByteArray("crashed-signup\tmaybe\n"));
        QVERIFY(!directlyTaken("crashed-signup"));
        QCOMPARE(bloomctl({QStringLiteral("signup"), QStringLiteral("crashed-signup")}, &out), 0); // free to retry
    }

    void auditFindsNoFalseNegativeAndThenOne()
    {
        QByteArray out;
        QCOMPARE(bloomctl({QStringLiteral("audit"), QStringLiteral("--sample"), QStringLiteral("500")}, &out), 0);
        QVERIFY2(out.contains("no false negative"), out.constData());
        QVERIFY(out.contains("measured FPR"));
        // The report is kept beside the filter for the GUI.
        auto db = Database::open(*ConnectionSpec::parse(filterDb()));
        auto last = lastAudit(**db, QualifiedName{QStringLiteral("public"), QStringLiteral("username_filter")});
        QVERIFY(last.ok() && last->has_value());
        QCOMPARE((*last)->sampled, 1500);
        QCOMPARE((*last)->shards, 3);
        QVERIFY((*last)->falseNegatives.isEmpty());
        QVERIFY((*last)->probes >= 10000);
        QCOMPARE(bloomctl({QStringLiteral("metrics")}, &out), 0);
        QVERIFY2(test::hasSample(out, QStringLiteral("bloomscope_audit_false_negatives"),
                                 QStringLiteral("table=\"public.username_filter\""), QStringLiteral("0")),
                 out.constData());
        QVERIFY(test::hasSample(out, QStringLiteral("bloomscope_audit_sampled_users"),
                                QStringLiteral("table=\"public.username_filter\""), QStringLiteral("1500")));
        // A user created behind the filter's back: the audit raises the alarm with its name.
        PgConn shard(mMap.shards[0].toConninfo());
        QVERIFY(shard.exec(QStringLiteral("insert into users values (999999, 'sneaked-in')")).ok());
        QCOMPARE(bloomctl({QStringLiteral("audit"), QStringLiteral("--sample"), QStringLiteral("5000")}, &out), 7);
        QVERIFY2(out.contains("FALSE NEGATIVES") && out.contains("sneaked-in"), out.constData());
        last = lastAudit(**db, QualifiedName{QStringLiteral("public"), QStringLiteral("username_filter")});
        QCOMPARE((*last)->falseNegatives, QList<QByteArray>{"sneaked-in"});
        QCOMPARE(bloomctl({QStringLiteral("metrics")}, &out), 0); // what Prometheus alerts on
        QVERIFY2(test::hasSample(out, QStringLiteral("bloomscope_audit_false_negatives"),
                                 QStringLiteral("table=\"public.username_filter\""), QStringLiteral("1")),
                 out.constData());
        QVERIFY(shard.exec(QStringLiteral("delete from users where id = 999999")).ok());
    }

    void simulatorCountsMatchTheServer()
    {
        const qint64 before = shardScans();
        QByteArray out;
        QCOMPARE(bloomctl({QStringLiteral("--json"), QStringLiteral("simulate"), QStringLiteral("--generate"),
                           QStringLiteral("20"), QStringLiteral("--taken-share"), QStringLiteral("0.25")},
                          &out),
                 0);
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        const qint64 without = o.value(QLatin1String("shard_queries_without_filter")).toInteger();
        const qint64 with = o.value(QLatin1String("shard_queries_with_filter")).toInteger();
        // Every keystroke of a twelve-character free name asks every shard without the filter.
        QVERIFY(without >= 15 * 12 * 3);
        QVERIFY(with < without / 3);
        // The shards counted exactly the queries the simulator says it sent (plus the taken sample).
        QCOMPARE(shardScans() - before, without + with + 1);
        // Debounced, a steady typist fires one check a name.
        QCOMPARE(bloomctl({QStringLiteral("--json"), QStringLiteral("simulate"), QStringLiteral("--generate"),
                           QStringLiteral("10"), QStringLiteral("--taken-share"), QStringLiteral("0"),
                           QStringLiteral("--debounce-ms"), QStringLiteral("300")},
                          &out),
                 0);
        QCOMPARE(QJsonDocument::fromJson(out).object().value(QLatin1String("checks")).toInt(), 10);
    }

    void anUnreachableShardIsAnErrorNotFree()
    {
        ShardMap broken = mMap;
        broken.shards.append(
            *ConnectionSpec::parse(QStringLiteral("host=127.0.0.1 port=1 dbname=x connect_timeout=2")));
        auto r = exactLookup(broken, "member1");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::Connection);
    }

    void demoWithShards()
    {
        QProcess demo;
        demo.start(QStringLiteral(BLOOMCTL_PATH),
                   {QStringLiteral("demo"), QStringLiteral("--shards"), QStringLiteral("2"),
                    QStringLiteral("--generate"), QStringLiteral("2000")});
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += demo.readAllStandardOutput()).contains("press Ctrl-C"), 60000);
        const QByteArray db = out.mid(out.indexOf("--db \"") + 6).split('"').value(0);
        const QByteArray map = out.mid(out.indexOf("--shards ") + 9).split('\n').value(0);
        auto parsed = ShardMap::load(QString::fromUtf8(map));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->shards.size(), 2);
        PgConn shard(parsed->shards[1].toConninfo());
        const QByteArray someone = shard.column(QStringLiteral("select username from users limit 1"))->value(0);
        QProcess check;
        check.start(QStringLiteral(BLOOMCTL_PATH),
                    {QStringLiteral("--db"), QString::fromUtf8(db), QStringLiteral("--shards"), QString::fromUtf8(map),
                     QStringLiteral("check"), QStringLiteral("--exact"), QString::fromUtf8(someone)});
        QVERIFY(check.waitForFinished(30000));
        QVERIFY2(check.readAllStandardOutput().contains("\ttaken\tshards"), someone.constData());
        ::kill(pid_t(demo.processId()), SIGINT);
        QVERIFY(demo.waitForFinished(30000));
        QCOMPARE(demo.exitCode(), 0);
    }

    void cleanupTestCase() { QVERIFY(mCluster.stop().ok()); }
};

QTEST_GUILESS_MAIN(TestShards)
#include "tst_shards.moc"
