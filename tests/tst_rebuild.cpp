#include "local/demo.h"
#include "local/localcluster.h"
#include "localpgbouncer.h"
#include "maintenance/rebuild.h"
#include "model/fprmodel.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryFile>
#include <QTest>

#include <libpq-fe.h>

#include <algorithm>
#include <mutex>
#include <signal.h>
#include <thread>

using namespace bloom;

namespace {

std::unique_ptr<Database> openDb(const QString &conninfo)
{
    auto db = Database::open(*ConnectionSpec::parse(conninfo));
    if (!db)
        qFatal("%s", qPrintable(db.error().toString()));
    return std::move(db).value();
}

} // namespace

/**
 * Rebuild and swap with no name ever lost: from four shard databases and a file, with sign-ups and
 * checks running throughout, through cancel, kill -9 and a terminated connection.
 */
class TestRebuild : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    QList<QByteArray> mShardNames; // every name in a shard
    QList<QByteArray> mFileNames;
    QTemporaryFile mFile;

    QString filterDb() const { return mCluster.connectionString(QStringLiteral("filter")); }
    QString shard(int i) const { return mCluster.connectionString(QStringLiteral("shard%1").arg(i)); }

    /** How many of `names` the reference check statement calls free (must be 0). */
    qint64 referenceFree(const QList<QByteArray> &names) { return test::referenceFree(filterDb(), names); }

    QString bloomctlRun(const QStringList &args, int *code, const QMap<QString, QString> &env = {})
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (auto it = env.begin(); it != env.end(); ++it)
            e.insert(it.key(), it.value());
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--db"), filterDb()} + args);
        p.waitForFinished(120000);
        *code = p.exitCode();
        return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    }

    QStringList rebuildArgs(const QString &into)
    {
        QStringList a{
            QStringLiteral("rebuild"),  QStringLiteral("--yes"),  QStringLiteral("--into"),  into,
            QStringLiteral("--chunks"), QStringLiteral("262144"), QStringLiteral("--grace"), QStringLiteral("0"),
            QStringLiteral("--file"),   mFile.fileName()};
        for (int i = 1; i <= 4; ++i)
            a << QStringLiteral("--source") << shard(i);
        return a;
    }

    void expectCleanAndUnchanged()
    {
        // The live filter is the application's: the original function, every earlier name maybe.
        PgConn c(filterDb());
        auto def = c.column(QStringLiteral("select pg_get_functiondef('username_bits(text)'::regprocedure)"));
        QVERIFY(!def->value(0).contains("bloomscope_record"));
        auto left = c.column(QStringLiteral("select count(*) from pg_class where relname like 'bloomscope%' "
                                            "or relname like 'killed%'"));
        QCOMPARE(left->value(0), QByteArray("0"));
        auto rows = c.column(QStringLiteral("select count(*) from username_filter"));
        QCOMPARE(rows->value(0), QByteArray("131072"));
        QCOMPARE(referenceFree(mShardNames.mid(0, 3000)), 0);
    }

private slots:
    void init()
    {
        // Each case starts with no rebuild around, whatever the previous one left.
        if (mCluster.isRunning()) {
            auto db = openDb(filterDb());
            if (auto st = Rebuilder::state(*db); st && st->exists)
                (void)Rebuilder::abort(*db);
        }
    }

    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("filter")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("filter"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        // Four shards of users, spread by id, and a file; some names are not ASCII.
        const QList<QByteArray> all = demoNames(24000, 7);
        for (int i = 1; i <= 4; ++i) {
            QVERIFY(mCluster.createDatabase(QStringLiteral("shard%1").arg(i)).ok());
            PgConn s(shard(i));
            QVERIFY(s.exec(QStringLiteral("create table users (id bigint primary key, username text not null unique)"))
                        .ok());
            QList<QByteArray> mine;
            for (qsizetype j = i - 1; j < 20000; j += 4)
                mine.append(all[j]);
            if (i == 1)
                mine << QStringLiteral("Straße").toUtf8() << QStringLiteral("İstanbul").toUtf8()
                     << QStringLiteral("ÅSA\u00e9").toUtf8();
            QVERIFY(s.column(QStringLiteral("insert into users select row_number() over () * 4 + %1, n from "
                                            "unnest(string_to_array($1, E'\\n')) n returning 1")
                                 .arg(i),
                             {mine.join('\n')})
                        .ok());
            mShardNames += mine;
        }
        mFileNames = all.mid(20000);
        QVERIFY(mFile.open());
        mFile.write(mFileNames.join('\n'));
        mFile.close();
        // The live filter holds every name, loaded the reference way (filter first).
        auto db = openDb(filterDb());
        FilterStore live(*db, FilterRef{});
        QVERIFY(live.attach().ok());
        QVERIFY(live.add(mShardNames + mFileNames).ok());
        QCOMPARE(referenceFree(mShardNames + mFileNames), 0);
    }

    void cancelLeavesTheLiveFilterUntouched_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<int>("grace");
        QTest::newRow("while writing") << QStringLiteral("write") << 0;
        // the new array is being faulted in on every core during the grace wait
        QTest::newRow("in the grace wait") << QStringLiteral("grace") << 5;
    }

    void cancelLeavesTheLiveFilterUntouched()
    {
        QFETCH(QString, stage);
        QFETCH(int, grace);
        auto db = openDb(filterDb());
        RebuildOptions o;
        o.intoTable = QStringLiteral("cancelled");
        o.geometry = *Geometry::fromCounts(262144, 8192, 7);
        o.sources = {*ConnectionSpec::parse(shard(1))};
        o.graceSeconds = grace;
        std::atomic<bool> cancel{false};
        Rebuilder r(*db, o);
        r.setCancelFlag(&cancel);
        r.setProgress([&cancel, stage](const RebuildProgress &p) {
            if (p.stage == stage)
                cancel.store(true);
        });
        QElapsedTimer took;
        took.start();
        auto result = r.run();
        if (grace > 0) // the cancel ends the wait (and the prefault it runs), not the wait's end
            QVERIFY2(took.elapsed() < grace * 1000, qPrintable(QStringLiteral("%1 ms").arg(took.elapsed())));
        QVERIFY(!result.ok());
        QCOMPARE(result.error().kind, ErrorKind::Cancelled);
        // The rebuild cleaned up after itself: the live function is the application's again.
        QVERIFY2(result.error().message.contains(QLatin1String("live function was restored")),
                 qPrintable(result.error().message));
        auto st = Rebuilder::state(*db);
        QVERIFY(!st->exists);
        QCOMPARE(referenceFree(mShardNames.mid(0, 3000)), 0);
        expectCleanAndUnchanged();
    }

    void killMinus9InEachStage_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::newRow("export") << QStringLiteral("export");
        QTest::newRow("inside the write transaction") << QStringLiteral("index");
        QTest::newRow("drain") << QStringLiteral("drain");
    }
    void killMinus9InEachStage()
    {
        QFETCH(QString, stage);
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("BLOOMSCOPE_TEST_PAUSE_AT"), stage);
        p.setProcessEnvironment(e);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(BLOOMCTL_PATH),
                QStringList{QStringLiteral("--db"), filterDb()} + rebuildArgs(QStringLiteral("killed")));
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT(
            (out += p.readAll()).contains("paused at " + stage.toUtf8()) || p.state() == QProcess::NotRunning, 60000);
        QVERIFY2(p.state() == QProcess::Running, out.constData());
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        // The live filter still answers every earlier name, and info names the leftovers.
        QCOMPARE(referenceFree(mShardNames.mid(0, 3000)), 0);
        int code = -1;
        QString info;
        // The killed process's backend goes once the server reads the closed socket: then info says
        // the rebuild is interrupted, loudly.
        QTRY_VERIFY_WITH_TIMEOUT((info = bloomctlRun({QStringLiteral("info")}, &code))
                                     .contains(QLatin1String("REBUILD INTERRUPTED into killed")),
                                 10000);
        QCOMPARE(code, 0);
        const QString aborted =
            bloomctlRun({QStringLiteral("rebuild"), QStringLiteral("--abort"), QStringLiteral("--yes")}, &code);
        QVERIFY2(code == 0 && aborted.contains(QLatin1String("rebuild aborted")), qPrintable(aborted));
        expectCleanAndUnchanged();
    }

    void terminatedConnectionLeavesTheLiveFilterUntouched()
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("BLOOMSCOPE_TEST_PAUSE_AT"), QStringLiteral("index"));
        e.insert(QStringLiteral("BLOOMSCOPE_TEST_PAUSE_SECONDS"), QStringLiteral("3"));
        p.setProcessEnvironment(e);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(BLOOMCTL_PATH),
                QStringList{QStringLiteral("--db"), filterDb()} + rebuildArgs(QStringLiteral("killed")));
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += p.readAll()).contains("paused at index") || p.state() == QProcess::NotRunning,
                                 60000);
        QVERIFY2(p.state() == QProcess::Running, out.constData());
        PgConn admin(filterDb());
        QVERIFY(admin
                    .exec(QStringLiteral("select pg_terminate_backend(pid) from pg_stat_activity "
                                         "where application_name = 'bloomscope' and pid <> pg_backend_pid()"))
                    .ok());
        QVERIFY(p.waitForFinished(30000));
        QVERIFY(p.exitCode() != 0);
        QCOMPARE(referenceFree(mShardNames.mid(0, 3000)), 0);
        int code = -1;
        bloomctlRun({QStringLiteral("rebuild"), QStringLiteral("--abort"), QStringLiteral("--yes")}, &code);
        QCOMPARE(code, 0);
        expectCleanAndUnchanged();
    }

    void swapRefusesAMismatchedOrIncompleteFilter()
    {
        auto db = openDb(filterDb());
        RebuildOptions o;
        o.intoTable = QStringLiteral("refused");
        o.geometry = *Geometry::fromCounts(262144, 8192, 7);
        o.sources = {*ConnectionSpec::parse(shard(2))};
        o.graceSeconds = 0;
        // A sign-up during the rebuild, through the live function: it gets drained into the new filter.
        Rebuilder r(*db, o);
        r.setProgress([this](const RebuildProgress &p) {
            if (p.stage == QLatin1String("write")) {
                PgConn app(filterDb());
                (void)app.exec(QStringLiteral("update username_filter f set bits = f.bits | b.mask "
                                              "from username_bits('drained-name') b where f.chunk = b.chunk"));
            }
        });
        QVERIFY(r.run().ok());
        PgConn c(filterDb());
        // Names recorded faster than drained (here: any drain is too slow) would block sign-ups under
        // the swap's lock for as long: refused, nothing swapped, and the drained name is still in.
        SwapOptions hurried;
        hurried.allowFewerNames = true;
        hurried.auditSample = 0;
        hurried.maxAddBlockMs = -1;
        auto busy = Rebuilder::swap(*db, QStringLiteral("refused"), hurried);
        QVERIFY(!busy.ok());
        QCOMPARE(busy.error().kind, ErrorKind::Refused);
        QVERIFY2(busy.error().message.contains(QLatin1String("recorded about as fast as they are drained")),
                 qPrintable(busy.error().message));
        QCOMPARE(c.column(QStringLiteral("select count(*) from username_filter"))->value(0), QByteArray("131072"));
        QCOMPARE(c.column(QStringLiteral("select count(*) from refused"))->value(0), QByteArray("262144"));
        { // (read with the client's placement: a check through the live function would record it again)
            FilterStore next(*db, FilterRef{QStringLiteral("refused"), QStringLiteral("refused_bits")});
            QVERIFY(next.attach().ok());
            auto placed = next.place({"drained-name"});
            QVERIFY(placed.ok());
            auto in = next.check(*placed);
            QVERIFY(in.ok());
            QVERIFY(in->at(0));
        }
        // Lose the drained name's bits in the new table: swap must refuse.
        const Placement p = placeAscii(*Geometry::fromCounts(262144, 8192, 7), "drained-name");
        QVERIFY(c.exec(QStringLiteral("update refused set bits = 0::bit(8192) where chunk = %1").arg(p.chunk)).ok());
        SwapOptions lenient; // this test is about the drained names, not the guard's counts
        lenient.allowFewerNames = true;
        lenient.auditSample = 0;
        auto s = Rebuilder::swap(*db, QStringLiteral("refused"), lenient);
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.contains(QLatin1String("drained from the pending table")),
                 qPrintable(s.error().message));
        // A function that does not fit the table: swap must refuse.
        QVERIFY(c.exec(QStringLiteral(
                           "create or replace function refused_bits(name text, out chunk int, out mask bit(8192)) "
                           "language sql as $$ select 0, 0::bit(8192) $$"))
                    .ok());
        s = Rebuilder::swap(*db, QStringLiteral("refused"), lenient);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind, ErrorKind::ForeignFilter);
        QVERIFY(Rebuilder::abort(*db).ok());
        expectCleanAndUnchanged();
    }

    void rebuildAndSwapWhileSigningUp()
    {
        // Sign-ups (filter first, then the user row on a shard) and filter-only adds, plain and
        // prepared, and checks, plain and prepared, run all through the rebuild and the swap.
        std::atomic<bool> stop{false};
        std::atomic<bool> recording{false};
        std::atomic<int> failures{0};
        std::mutex mutex;
        QList<QByteArray> added;
        QStringList errors;
        const auto worker = [&](int id, bool prepared, bool signup, bool waitForRecording) {
            PgConn app(filterDb());
            std::unique_ptr<PgConn> shardConn;
            if (signup)
                shardConn = std::make_unique<PgConn>(shard(1 + id % 4));
            if (prepared) {
                PQclear(PQprepare(app.handle(), "add",
                                  "update username_filter f set bits = f.bits | b.mask from username_bits($1) b "
                                  "where f.chunk = b.chunk",
                                  1, nullptr));
            }
            while (waitForRecording && !recording.load() && !stop.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            for (int i = 0; !stop.load(); ++i) {
                const QByteArray name = "signup-" + QByteArray::number(id) + "-" + QByteArray::number(i);
                PGresult *res;
                if (prepared) {
                    const char *v[1] = {name.constData()};
                    res = PQexecPrepared(app.handle(), "add", 1, v, nullptr, nullptr, 0);
                } else {
                    const QByteArray sql = "update username_filter f set bits = f.bits | b.mask from username_bits('" +
                                           name + "') b where f.chunk = b.chunk";
                    res = PQexec(app.handle(), sql.constData());
                }
                const bool ok = PQresultStatus(res) == PGRES_COMMAND_OK && QByteArray(PQcmdTuples(res)) == "1";
                if (!ok) {
                    std::lock_guard lock(mutex);
                    errors << QString::fromUtf8(PQresultErrorMessage(res)) + QString::fromUtf8(PQcmdTuples(res));
                    ++failures;
                }
                PQclear(res);
                if (ok && signup)
                    (void)shardConn->column(QStringLiteral("insert into users values ((random() * 1e15)::bigint, $1) "
                                                           "returning 1"),
                                            {name});
                if (ok) {
                    std::lock_guard lock(mutex);
                    added.append(name);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
        };
        const auto checker = [&](bool prepared) {
            PgConn app(filterDb());
            PQclear(PQprepare(app.handle(), "check",
                              "select bits & mask = mask as maybe_taken from username_filter join username_bits($1) "
                              "using (chunk)",
                              1, nullptr));
            for (int i = 0; !stop.load(); ++i) {
                const QByteArray name = i % 2 ? mShardNames[i % mShardNames.size()] : "probe-" + QByteArray::number(i);
                PGresult *res;
                if (prepared) {
                    const char *v[1] = {name.constData()};
                    res = PQexecPrepared(app.handle(), "check", 1, v, nullptr, nullptr, 0);
                } else {
                    const char *v[1] = {name.constData()};
                    res = PQexecParams(app.handle(),
                                       "select bits & mask = mask as maybe_taken from username_filter "
                                       "join username_bits($1) using (chunk)",
                                       1, nullptr, v, nullptr, nullptr, 0);
                }
                const bool ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
                // A name in a shard must never be "free".
                const bool falseNegative = ok && i % 2 && QByteArray(PQgetvalue(res, 0, 0)) != "t";
                if (!ok || falseNegative) {
                    std::lock_guard lock(mutex);
                    errors << (falseNegative ? QStringLiteral("false negative: ") + QString::fromUtf8(name)
                                             : QString::fromUtf8(PQresultErrorMessage(res)));
                    ++failures;
                }
                PQclear(res);
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        };
        std::vector<std::thread> threads;
        threads.emplace_back(worker, 0, false, true, false);
        threads.emplace_back(worker, 1, true, true, false);
        threads.emplace_back(worker, 2, false, false, true); // filter only: the pending table alone covers these
        threads.emplace_back(worker, 3, true, false, true);
        threads.emplace_back(checker, false);
        threads.emplace_back(checker, true);
        QTest::qWait(300);

        auto db = openDb(filterDb());
        RebuildOptions o;
        o.intoTable = QStringLiteral("username_filter_v2");
        o.geometry = *Geometry::fromCounts(262144, 8192, 7);
        for (int i = 1; i <= 4; ++i)
            o.sources.append(*ConnectionSpec::parse(shard(i)));
        o.files = {mFile.fileName()};
        o.graceSeconds = 1;
        Rebuilder r(*db, o);
        r.setProgress([&](const RebuildProgress &p) {
            if (p.stage == QLatin1String("grace"))
                recording.store(true);
        });
        auto report = r.run();
        QVERIFY2(report.ok(), qPrintable(report.ok() ? QString() : report.error().toString()));
        QVERIFY(report->exported >= mShardNames.size() + mFileNames.size());
        QTest::qWait(500); // more sign-ups after the rebuild, before the swap
        // The filter-only writers ran before recording began too: those names are in no source (like
        // sign-ups whose user row never came), so the new filter rightly holds fewer, by a share the
        // guard cannot tell from a missing shard.
        SwapOptions lenient;
        lenient.allowFewerNames = true;
        auto swapped = Rebuilder::swap(*db, QStringLiteral("username_filter_v2"), lenient);
        QVERIFY2(swapped.ok(), qPrintable(swapped.ok() ? QString() : swapped.error().toString()));
        qInfo("swap: checks blocked %.1f ms, adds blocked %.1f ms, %lld names drained inside the swap",
              swapped->exclusiveMs, swapped->lockMs, qlonglong(swapped->drainedInSwap));
        QTest::qWait(500); // and after the swap, into the new filter
        stop.store(true);
        for (auto &t : threads)
            t.join();
        QVERIFY2(failures.load() == 0, qPrintable(errors.mid(0, 5).join(QLatin1String("; "))));
        QVERIFY(added.size() > 100);

        // The new pair is live: the reference statements see 262,144 chunks, and nothing was lost.
        PgConn c(filterDb());
        QCOMPARE(c.column(QStringLiteral("select count(*) from username_filter"))->value(0), QByteArray("262144"));
        QCOMPARE(referenceFree(mShardNames), 0);
        QCOMPARE(referenceFree(mFileNames), 0);
        QCOMPARE(referenceFree(added), 0);

        // Its FPR is what the model predicts for its names (the estimate from the fill against the model).
        FilterStore live(*db, FilterRef{});
        QVERIFY(live.attach().ok());
        auto fill = live.fill();
        const double n = mShardNames.size() + mFileNames.size() + added.size();
        QVERIFY2(std::abs(fill->estimatedNames() - n) / n < 0.05, qPrintable(QString::number(fill->estimatedNames())));
        const double model = fpr::blocked(fill->estimatedNames(), live.geometry());
        QVERIFY2(std::abs(fill->estimatedFpr() - model) / model < 0.5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(fill->estimatedFpr()).arg(model)));
        auto dropped = Rebuilder::dropOld(*db, FilterRef{});
        QVERIFY(dropped.ok());
        QCOMPARE(dropped->size(), 2);
        // When the filter was last rebuilt outlives drop-old (monitoring asks it); a second drop-old
        // finds nothing left to drop.
        auto swappedAt = Rebuilder::lastSwap(*db);
        QVERIFY(swappedAt.ok() && swappedAt->has_value());
        QVERIFY(qAbs((*swappedAt)->secsTo(QDateTime::currentDateTimeUtc())) < 600);
        auto again = Rebuilder::dropOld(*db, FilterRef{});
        QVERIFY(again.ok() && again->isEmpty());
    }

    void sampledFprOfASmallRebuildMatchesTheModel()
    {
        // Measurable rates need a full filter: 4,096 chunks of 512 bits, 200,000 names.
        QVERIFY(mCluster.createDatabase(QStringLiteral("small")).ok());
        const QString conninfo = mCluster.connectionString(QStringLiteral("small"));
        QVERIFY(mCluster.exec(QStringLiteral("small"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        QTemporaryFile names;
        QVERIFY(names.open());
        names.write(demoNames(200000, 11).join('\n'));
        names.close();
        auto db = openDb(conninfo);
        RebuildOptions o;
        o.intoTable = QStringLiteral("small_v2");
        o.geometry = *Geometry::fromCounts(4096, 512, 7);
        o.files = {names.fileName()};
        o.graceSeconds = 0;
        o.allowSmaller = true; // a small filter on purpose: its rates are measurable
        Rebuilder r(*db, o);
        auto run = r.run();
        QVERIFY2(run.ok(), qPrintable(run.ok() ? QString() : run.error().toString()));
        FilterStore s(*db, FilterRef{QStringLiteral("small_v2"), QStringLiteral("small_v2_bits")});
        QVERIFY(s.attach().ok());
        auto sample = s.sampleFpr(200000);
        QVERIFY(sample.ok());
        const double model = fpr::blocked(200000, s.geometry());
        qInfo("measured %.5f [%.5f, %.5f], model %.5f", sample->measured, sample->low95, sample->high95, model);
        QVERIFY(sample->low95 * 0.9 <= model && model <= sample->high95 * 1.1);
        QVERIFY(Rebuilder::abort(*db).ok());
    }

    /** Issue 43, 5: a destructive command with standard input from /dev/null (a cron job, a pipeline)
     *  and no --yes refuses, exit 2, saying what it would do; nothing changes. */
    void destructiveCommandsRefuseOffATerminal()
    {
        const auto offTerminal = [this](const QStringList &args) {
            QProcess p;
            p.setStandardInputFile(QProcess::nullDevice());
            p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--db"), filterDb()} + args);
            p.waitForFinished(120000);
            return std::pair{p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
        };
        QStringList rebuild = rebuildArgs(QStringLiteral("unconfirmed_v2"));
        rebuild.removeAll(QStringLiteral("--yes"));
        auto [code, err] = offTerminal(rebuild);
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(QLatin1String("Rebuild username_filter into unconfirmed_v2")) &&
                     err.contains(QLatin1String("records every name")) &&
                     err.contains(QLatin1String("not confirmed: add --yes")),
                 qPrintable(err));
        {
            PgConn c(filterDb());
            QCOMPARE(c.column(QStringLiteral("select to_regclass('unconfirmed_v2') is null and not exists (select "
                                             "from pg_class where relname = 'bloomscope_rebuild') and "
                                             "pg_get_functiondef('username_bits(text)'::regprocedure) not like "
                                             "'%bloomscope_record%'"))
                         ->value(0),
                     QByteArray("t"));
        }
        // The others that change production: a rebuild to abort, a swap, the old pairs to drop.
        int built = -1;
        const QString out = bloomctlRun(rebuildArgs(QStringLiteral("unconfirmed_v2")), &built);
        QVERIFY2(built == 0, qPrintable(out));
        std::tie(code, err) = offTerminal({QStringLiteral("rebuild"), QStringLiteral("--abort")});
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(QLatin1String("Abort the rebuild")), qPrintable(err));
        std::tie(code, err) =
            offTerminal({QStringLiteral("swap"), QStringLiteral("unconfirmed_v2"), QStringLiteral("--audit-sample"),
                         QStringLiteral("0"), QStringLiteral("--allow-fewer-names")});
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(QLatin1String("Swap ")) && err.contains(QLatin1String("not confirmed")), qPrintable(err));
        PgConn c(filterDb());
        QCOMPARE(c.column(QStringLiteral("select to_regclass('unconfirmed_v2') is not null and exists (select from "
                                         "pg_class where relname = 'bloomscope_rebuild')"))
                     ->value(0),
                 QByteArray("t"));
    }

    /**
     * Issue 43, 2: one ordinary transaction open on the filter (a slow batch, an application session idle
     * in its transaction) while the application signs up through PgBouncer in transaction mode. rebuild and swap
     * neither queue a lock request the sign-ups would wait behind nor wait for it forever: they say who blocks (pid,
     * role, application, state, how long its transaction is open) while they wait, and give up after
     * --lock-wait with that list, exit 8, nothing changed. Sign-ups go on at their rate meanwhile (before:
     * a 30 s lock_timeout request stopped every one of them).
     */
    void aBlockedLockKeepsSignUpsGoing()
    {
        QElapsedTimer clock;
        clock.start();
        std::atomic<bool> stop{false};
        std::mutex mutex;
        std::vector<qint64> committedAt; // ms on `clock` of each committed sign-up
        QStringList errors;
        // The application signs up through PgBouncer in transaction mode, as the report's deployment did.
        test::LocalPgBouncer pool;
        test::LocalPgBouncer::Options o;
        o.poolMode = QStringLiteral("transaction");
        o.poolSize = 4;
        o.user = mCluster.superuser();
        o.password = QStringLiteral("sign-up-s3cret");
        const auto started = pool.start(mCluster, o);
        QVERIFY2(started.ok(), qPrintable(started.ok() ? QString() : started.error().toString()));
        const QString application = pool.conninfo(QStringLiteral("filter"));
        const auto writer = [&](int id) {
            PgConn app(application);
            for (int i = 0; !stop.load(); ++i) {
                const QByteArray name = "lock-policy-" + QByteArray::number(id) + "-" + QByteArray::number(i);
                const char *v[1] = {name.constData()};
                PGresult *res = PQexecParams(app.handle(),
                                             "update username_filter f set bits = f.bits | b.mask from "
                                             "username_bits($1) b where f.chunk = b.chunk",
                                             1, nullptr, v, nullptr, nullptr, 0);
                {
                    std::lock_guard lock(mutex);
                    if (PQresultStatus(res) == PGRES_COMMAND_OK)
                        committedAt.push_back(clock.elapsed());
                    else
                        errors << QString::fromUtf8(PQresultErrorMessage(res));
                }
                PQclear(res);
                std::this_thread::sleep_for(std::chrono::milliseconds(10)); // a sign-up form's pace, per writer
            }
        };
        const auto rate = [&](qint64 from, qint64 to) {
            std::lock_guard lock(mutex);
            const auto n =
                std::count_if(committedAt.begin(), committedAt.end(), [&](qint64 t) { return t >= from && t < to; });
            return double(n) * 1000.0 / double(qMax<qint64>(1, to - from));
        };
        // Runs bloomctl; returns its exit code, stderr, and when it first said whom it waits for.
        struct Blocked {
            int code = -1;
            QByteArray err;
            qint64 firstWait = -1, end = -1;
        };
        const auto runBlocked = [&](const QStringList &args) {
            Blocked b;
            QProcess p;
            p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--db"), filterDb()} + args);
            while (p.state() != QProcess::NotRunning || p.bytesAvailable() > 0) {
                p.waitForFinished(100);
                b.err += p.readAllStandardError();
                if (b.firstWait < 0 && (b.err.contains("blocked by pid") || b.err.contains("\"lock_wait\"")))
                    b.firstWait = clock.elapsed();
                if (clock.elapsed() > 600000)
                    break;
            }
            b.end = clock.elapsed();
            b.err += p.readAllStandardError();
            b.code = p.exitCode();
            return b;
        };
        std::vector<std::thread> threads;
        for (int i = 0; i < 4; ++i)
            threads.emplace_back(writer, i);
        QTest::qWait(3000);
        const double baseline = rate(500, clock.elapsed());

        // The holder: a transaction that took ROW EXCLUSIVE on the filter and stays open.
        PgConn holder(filterDb());
        QVERIFY(holder.exec(QStringLiteral("set application_name = 'forgotten batch'")).ok());
        QVERIFY(holder.exec(QStringLiteral("begin")).ok());
        QVERIFY(holder.exec(QStringLiteral("lock table username_filter in row exclusive mode")).ok());
        const QByteArray pid = holder.column(QStringLiteral("select pg_backend_pid()"))->value(0);
        QTest::qWait(1500); // its transaction is older than half an attempt

        const Blocked rebuild =
            runBlocked(rebuildArgs(QStringLiteral("lock_v2")) +
                       QStringList{QStringLiteral("--yes"), QStringLiteral("--lock-wait"), QStringLiteral("4s")});
        QCOMPARE(rebuild.code, 8);
        QVERIFY2(rebuild.err.contains("waiting") && rebuild.err.contains("for SHARE on public.username_filter"),
                 rebuild.err.constData());
        QVERIFY2(rebuild.err.contains("gave up after"), rebuild.err.constData());
        QVERIFY2(rebuild.err.contains("blocked by pid " + pid + " (role ") &&
                     rebuild.err.contains("application forgotten batch, idle in transaction, transaction open"),
                 rebuild.err.constData());
        QVERIFY2(rebuild.err.contains("pg_terminate_backend(" + pid + ")"), rebuild.err.constData());
        const double duringRebuild = rate(rebuild.firstWait, rebuild.end);
        {
            PgConn c(filterDb());
            QCOMPARE(c.column(QStringLiteral("select to_regclass('lock_v2') is null and not exists (select from "
                                             "pg_class where relname = 'bloomscope_rebuild')"))
                         ->value(0),
                     QByteArray("t"));
        }

        // The holder ends; the rebuild goes ahead. A new holder; the swap waits and gives up the same way,
        // its waits as JSON objects under --json.
        QVERIFY(holder.exec(QStringLiteral("commit")).ok());
        int code = -1;
        const QString built =
            bloomctlRun(rebuildArgs(QStringLiteral("lock_v2")) + QStringList{QStringLiteral("--yes")}, &code);
        QVERIFY2(code == 0, qPrintable(built));
        QVERIFY(holder.exec(QStringLiteral("begin")).ok());
        QVERIFY(holder.exec(QStringLiteral("lock table username_filter in row exclusive mode")).ok());
        QTest::qWait(1500);
        const Blocked swap =
            runBlocked({QStringLiteral("--json"), QStringLiteral("swap"), QStringLiteral("lock_v2"),
                        QStringLiteral("--yes"), QStringLiteral("--audit-sample"), QStringLiteral("0"),
                        QStringLiteral("--allow-fewer-names"), QStringLiteral("--lock-wait"), QStringLiteral("5s")});
        QCOMPARE(swap.code, 8);
        QVERIFY2(swap.err.contains("\"lock_wait\""), swap.err.constData());
        QVERIFY2(swap.err.contains("\"pid\":" + pid), swap.err.constData());
        QVERIFY2(swap.err.contains("\"application_name\":\"forgotten batch\""), swap.err.constData());
        QVERIFY2(swap.err.contains("\"mode\":\"EXCLUSIVE\""), swap.err.constData());
        const double duringSwap = rate(swap.firstWait, swap.end);
        QVERIFY(holder.exec(QStringLiteral("rollback")).ok());
        stop.store(true);
        for (auto &t : threads)
            t.join();
        qInfo("sign-ups a second: %.1f before, %.1f while the rebuild waited (%.1f s), %.1f while the swap waited "
              "(%.1f s)",
              baseline, duringRebuild, (rebuild.end - rebuild.firstWait) / 1000.0, duringSwap,
              (swap.end - swap.firstWait) / 1000.0);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.mid(0, 3).join(QLatin1String("; "))));
        QVERIFY(rebuild.firstWait > 0 && swap.firstWait > 0);
        QVERIFY2(duringRebuild >= 0.9 * baseline, qPrintable(QString::number(duringRebuild)));
        QVERIFY2(duringSwap >= 0.9 * baseline, qPrintable(QString::number(duringSwap)));
        PgConn c(filterDb()); // nothing swapped: the rebuilt table waits under its own name
        QVERIFY(c.column(QStringLiteral("select to_regclass('lock_v2') is not null"))->value(0) == "t");
    }

    void cleanupTestCase() { QVERIFY(mCluster.stop().ok()); }
};

QTEST_GUILESS_MAIN(TestRebuild)
#include "tst_rebuild.moc"
