// The history kept beside a filter, recorded on a schedule: bloomscope_record() computes on the server
// what bloomctl record computes on the client; pg_cron (Debian's postgresql-15-cron, loaded by this
// test's own cluster) runs it; a history table from before read_position is carried forward.
#include "local/localcluster.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace bloom;

class TestHistory : public QObject {
    Q_OBJECT
private:
    using Run = test::CtlRun;
    LocalCluster mCluster;
    QString mDb;

    Run bloomctl(const QStringList &args, const QString &db = {})
    {
        return test::runBloomctl(QStringList{QStringLiteral("--db"), db.isEmpty() ? mDb : db} + args);
    }
    /** The newest history row of the filter, as bloomctl history --json gives it. */
    QJsonObject newest(const QString &db = {})
    {
        const Run r = bloomctl({QStringLiteral("--json"), QStringLiteral("history")}, db);
        const QJsonArray all = QJsonDocument::fromJson(r.out).array();
        return all.isEmpty() ? QJsonObject{} : all.last().toObject();
    }
    qint64 count(const QString &sql)
    {
        PgConn c(mDb);
        return c.column(sql)->value(0).toLongLong();
    }

private slots:
    void initTestCase()
    {
        LocalCluster::Options o;
        // Jobs in background workers: pg_cron's default, a libpq connection to localhost, would need a
        // password over TCP.
        o.settings = {QStringLiteral("shared_preload_libraries=pg_cron"), QStringLiteral("cron.database_name=app"),
                      QStringLiteral("cron.use_background_workers=on"), QStringLiteral("max_worker_processes=16")};
        auto s = mCluster.start(o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        QVERIFY(mCluster.createDatabase(QStringLiteral("app")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("app"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        mDb = mCluster.connectionString(QStringLiteral("app"));
        // 30,000 names through the reference's own add, so that the fill has something to count.
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"),
                          QStringLiteral("update username_filter f set bits = f.bits | m.mask from (select chunk, "
                                         "bit_or(mask) as mask from generate_series(1, 30000) i, "
                                         "username_bits('user' || i) group by chunk) m where f.chunk = m.chunk"))
                    .ok());
    }

    void serverRecordsWhatTheClientRecords()
    {
        Run r = bloomctl({QStringLiteral("record")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject client = newest();
        r = bloomctl({QStringLiteral("record"), QStringLiteral("--install-function")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("select cron.schedule('bloomscope-record public.username_filter', '*/15 * * * *'"),
                 r.out.constData());
        QVERIFY(r.out.contains("bloomscope_record('\"public\".\"username_filter\"'::regclass"));
        const QJsonObject server = newest();
        QVERIFY(server.value(QStringLiteral("taken_at")) != client.value(QStringLiteral("taken_at")));
        for (const char *field :
             {"table", "chunks", "chunk_bits", "k", "set_bits", "fullest_chunk", "fullest_set_bits", "histogram"})
            QVERIFY2(server.value(QLatin1String(field)) == client.value(QLatin1String(field)), field);
        const double names = client.value(QStringLiteral("estimated_names")).toDouble();
        QVERIFY2(std::abs(server.value(QStringLiteral("estimated_names")).toDouble() - names) <= 1,
                 qPrintable(QString::number(names)));
        QVERIFY(names > 29'000 && names < 31'000);
        const double fpr = client.value(QStringLiteral("estimated_fpr")).toDouble();
        QVERIFY(std::abs(server.value(QStringLiteral("estimated_fpr")).toDouble() - fpr) <= fpr * 1e-9);
        // Nothing for PUBLIC: the function runs with its caller's rights, and only its owner may call it.
        QCOMPARE(count(QStringLiteral("select count(*) from information_schema.routine_privileges where "
                                      "routine_name = 'bloomscope_record' and grantee = 'PUBLIC'")),
                 qint64(0));
        QCOMPARE(count(QStringLiteral("select count(*) from pg_proc where proname = 'bloomscope_record' and "
                                      "not prosecdef and proconfig @> array['search_path=pg_catalog, pg_temp']")),
                 qint64(1));
    }

    void aRoleThatMayNotCreateIsToldWhatToRun()
    {
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"),
                          QStringLiteral("create role monitor login; grant select on username_filter to monitor; "
                                         "grant execute on function username_bits(text) to monitor; "
                                         "revoke create on schema public from public"))
                    .ok());
        const QString asMonitor = mDb + QStringLiteral(" user=monitor");
        QCOMPARE(count(QStringLiteral("select count(*) from pg_proc where proname = 'bloomscope_record'")), qint64(1));
        QVERIFY(mCluster.exec(QStringLiteral("app"), QStringLiteral("drop function bloomscope_record")).ok());
        const Run r = bloomctl({QStringLiteral("record"), QStringLiteral("--install-function")}, asMonitor);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("cannot install bloomscope_record") && r.err.contains("--print-sql --install-function"),
                 r.err.constData());
        // What its DBA runs instead: the printed SQL, as is.
        const Run sql =
            bloomctl({QStringLiteral("record"), QStringLiteral("--print-sql"), QStringLiteral("--install-function")});
        QCOMPARE(sql.code, 0);
        QVERIFY(mCluster.exec(QStringLiteral("app"), QString::fromUtf8(sql.out)).ok());
        QCOMPARE(count(QStringLiteral("select count(*) from pg_proc where proname = 'bloomscope_record'")), qint64(1));
    }

    void pgCronRecordsOnSchedule()
    {
        // pg_cron 1.4 ticks by the minute: a job every minute is seen within about 70 s.
        QVERIFY(mCluster.exec(QStringLiteral("app"), QStringLiteral("create extension if not exists pg_cron")).ok());
        const qint64 before = count(QStringLiteral("select count(*) from bloomscope_history"));
        const Run r = bloomctl({QStringLiteral("record"), QStringLiteral("--install-function")});
        QVERIFY2(r.code == 0, r.err.constData());
        QString schedule;
        for (const QByteArray &line : r.out.split('\n'))
            if (line.trimmed().startsWith("select cron.schedule("))
                schedule = QString::fromUtf8(line.trimmed());
        QVERIFY(!schedule.isEmpty());
        schedule.replace(QStringLiteral("'*/15 * * * *'"), QStringLiteral("'* * * * *'"));
        QVERIFY(mCluster.exec(QStringLiteral("app"), schedule).ok());
        QElapsedTimer t;
        t.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(QStringLiteral("select count(*) from cron.job_run_details where status = "
                                                      "'succeeded'")) > 0,
                                 90000);
        qInfo("pg_cron's first run came after %lld s", t.elapsed() / 1000);
        QVERIFY(count(QStringLiteral("select count(*) from bloomscope_history")) > before + 1);
        QCOMPARE(count(QStringLiteral("select count(*) from cron.job_run_details where status <> 'succeeded'")),
                 qint64(0));
        QVERIFY(
            mCluster.exec(QStringLiteral("app"), QStringLiteral("select cron.unschedule(jobid) from cron.job")).ok());
        // health sees the schedule's snapshots.
        const Run health =
            bloomctl({QStringLiteral("health"), QStringLiteral("--max-snapshot-age"), QStringLiteral("5m")});
        QVERIFY2(health.code == 0, health.out.constData());
    }

    void recordsAsTheTimerDoes()
    {
        // The unit's own environment, read from packaging/systemd: a libpq service file and a password
        // file handed over as a credential (0400, the service user's), over TCP with SCRAM.
        QFile unit(QStringLiteral(BLOOM_SOURCE_DIR "/packaging/systemd/bloomscope-record@.service"));
        QVERIFY(unit.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(unit.readAll());
        QVERIFY(!text.contains(QLatin1String("password="), Qt::CaseInsensitive));
        QString environment, exec;
        for (const QString &line : text.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1String("Environment=")))
                environment = line.mid(12);
            if (line.startsWith(QLatin1String("ExecStart=")))
                exec = line.mid(10);
        }
        QVERIFY(environment.contains(QLatin1String("PGSERVICE=%i")));
        QVERIFY(exec.startsWith(QLatin1String("/usr/bin/bloomctl $BLOOMCTL_OPTIONS record --thin")));
        QTemporaryDir etc, credentials;
        QCOMPARE(bloomctl({QStringLiteral("record")}).code, 0); // the table, made by its DBA
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"), QStringLiteral("create role recorder_svc login password "
                                                                "'tim3r-s3cret'; grant select on username_filter, "
                                                                "bloomscope_history to recorder_svc; grant insert, "
                                                                "delete on bloomscope_history to recorder_svc; "
                                                                "grant usage on sequence bloomscope_history_id_seq "
                                                                "to recorder_svc; grant execute on function "
                                                                "username_bits(text) to recorder_svc"))
                    .ok());
        QFile service(etc.filePath(QStringLiteral("pg_service.conf")));
        QVERIFY(service.open(QIODevice::WriteOnly));
        service.write(QStringLiteral("[filter]\nhost=127.0.0.1\nport=%1\ndbname=app\nuser=recorder_svc\n"
                                     "sslmode=disable\n")
                          .arg(mCluster.port())
                          .toUtf8());
        service.close();
        QFile pgpass(credentials.filePath(QStringLiteral("pgpass")));
        QVERIFY(pgpass.open(QIODevice::WriteOnly));
        pgpass.write("127.0.0.1:*:app:recorder_svc:tim3r-s3cret\n");
        pgpass.close();
        QVERIFY(pgpass.setPermissions(QFileDevice::ReadOwner));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &assignment : environment.split(QLatin1Char(' '))) {
            QString value = assignment.section(QLatin1Char('='), 1);
            value.replace(QLatin1String("%i"), QLatin1String("filter"))
                .replace(QLatin1String("%d"), credentials.path())
                .replace(QLatin1String("/etc/bloomscope"), etc.path());
            env.insert(assignment.section(QLatin1Char('='), 0, 0), value);
        }
        const qint64 before = count(QStringLiteral("select count(*) from bloomscope_history"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(BLOOMCTL_PATH), {QStringLiteral("record"), QStringLiteral("--thin")});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY(p.readAllStandardOutput().startsWith("recorded public.username_filter"));
        QCOMPARE(count(QStringLiteral("select count(*) from bloomscope_history")), before + 1);
    }

    void aHistoryTableFromBeforeReadPositionsIsCarriedForward()
    {
        // The table as the first version made it (no read_position), in a database of its own.
        QVERIFY(mCluster.createDatabase(QStringLiteral("old")).ok());
        QVERIFY(mCluster
                    .exec(QStringLiteral("old"),
                          test::sqlResource(QStringLiteral("reference.sql")) +
                              QStringLiteral(
                                  ";\ncreate table bloomscope_history (id bigserial primary key, taken_at timestamptz "
                                  "not null default now(), filter_table text not null, chunks int not null, "
                                  "chunk_bits int not null, k int not null, set_bits bigint not null, "
                                  "estimated_names double precision not null, estimated_fpr double precision not "
                                  "null, fullest_chunk int not null, fullest_set_bits int not null, histogram "
                                  "bigint[] not null, cost_ms double precision not null);\n"
                                  "insert into bloomscope_history (filter_table, chunks, chunk_bits, k, set_bits, "
                                  "estimated_names, estimated_fpr, fullest_chunk, fullest_set_bits, histogram, "
                                  "cost_ms) values ('public.username_filter', 131072, 8192, 7, 0, 0, 0, 0, 0, "
                                  "'{131072,0,0,0,0,0,0,0,0,0}', 1);\n"
                                  "create role recorder login; grant select on username_filter to recorder; grant "
                                  "execute on function username_bits(text) to recorder; grant select, insert on "
                                  "bloomscope_history to recorder; grant usage on sequence bloomscope_history_id_seq "
                                  "to recorder; grant recorder to current_user"))
                    .ok());
        const QString old = mCluster.connectionString(QStringLiteral("old"));
        // A role that does not own it records without the column; history reads both rows.
        Run r = bloomctl({QStringLiteral("record")}, old + QStringLiteral(" user=recorder"));
        QVERIFY2(r.code == 0, r.err.constData());
        r = bloomctl({QStringLiteral("--json"), QStringLiteral("history")}, old + QStringLiteral(" user=recorder"));
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 2);
        // Its owner's next record adds the column and keeps where the read stood.
        r = bloomctl({QStringLiteral("record")}, old);
        QVERIFY2(r.code == 0, r.err.constData());
        PgConn c(old);
        QCOMPARE(c.column(QStringLiteral("select count(read_position) from bloomscope_history"))->value(0),
                 QByteArray("1"));
    }
};

QTEST_GUILESS_MAIN(TestHistory)
#include "tst_history.moc"
