// A swap under live traffic: 8 clients run the reference check on names that were added (any "free"
// is a false negative) and one signs names up through the reference's add, before the user row,
// while a rebuilt filter is swapped in. Prints where the swap's wall time goes, how long it held each
// lock, and the checks' p50/p99/max before and during it, side by side in one run.
// The checks run at CHECKS_A_SECOND in all (default 4,000; 0: as fast as they go, which on 2 cores
// records names faster than any drain takes them, and the swap refuses).
//   cmake --build build --target bench_swap && build/tests/bench/bench_swap [NAMES] [CHECKS_A_SECOND]
#include "local/localcluster.h"
#include "maintenance/rebuild.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filtersql.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

using namespace bloom;

namespace {

[[noreturn]] void die(const QString &why)
{
    std::fprintf(stderr, "bench_swap: %s\n", qPrintable(why));
    std::exit(1);
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[size_t(p * double(v.size() - 1))];
}

struct Sample {
    qint64 atNs; ///< since the start of the traffic
    double ms;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 names = argc > 1 ? QByteArray(argv[1]).toLongLong() : 2'000'000;
    const double rate = argc > 2 ? QByteArray(argv[2]).toDouble() : 4000;
    LocalCluster cluster;
    if (auto s = cluster.start(); !s)
        die(s.error().toString());
    (void)cluster.createDatabase(QStringLiteral("filter"));
    (void)cluster.exec(QStringLiteral("filter"), sqlResource(QStringLiteral("reference.sql")));
    (void)cluster.createDatabase(QStringLiteral("shard1"));
    (void)cluster.exec(QStringLiteral("shard1"),
                       QStringLiteral("create table users (id bigserial primary key, username text not null); "
                                      "insert into users (username) select 'user_' || md5(g::text) from "
                                      "generate_series(1, %1) g")
                           .arg(names));
    (void)cluster.exec(QStringLiteral("shard1"), QStringLiteral("vacuum analyze users"));
    const QString filterInfo = cluster.connectionString(QStringLiteral("filter"));
    const QString shardInfo = cluster.connectionString(QStringLiteral("shard1"));
    auto db = Database::open(*ConnectionSpec::parse(filterInfo));
    if (!db)
        die(db.error().toString());
    QByteArray all;
    {
        PgConn shard(shardInfo);
        (void)copyOut(shard.handle(), QStringLiteral("copy (select username from users) to stdout"),
                      [&all](QByteArrayView line) {
                          all.append(line.data(), line.size());
                          if (!all.endsWith('\n'))
                              all.append('\n');
                          return true;
                      });
        FilterStore live(**db, FilterRef{});
        if (auto s = live.attach(); !s)
            die(s.error().toString());
        QBuffer in(&all);
        in.open(QIODevice::ReadOnly);
        if (auto r = live.load(&in); !r)
            die(r.error().toString());
        (void)(*db)->exec(QStringLiteral("vacuum analyze username_filter"));
    }
    QList<QByteArray> added = all.split('\n');
    added.removeAll(QByteArray());
    if (added.size() != names)
        die(QStringLiteral("the shard holds %1 names, not %2").arg(added.size()).arg(names));
    RebuildOptions o;
    o.intoTable = QStringLiteral("username_filter_v2");
    o.geometry = *Geometry::fromCounts(262144, 8192, 7);
    o.sources = {*ConnectionSpec::parse(shardInfo)};
    o.graceSeconds = 0;
    QElapsedTimer t;
    t.start();
    if (auto r = Rebuilder(**db, o).run(); !r)
        die(r.error().toString());
    std::printf("bench_swap: %lld names, rebuilt into %s in %.1f s; now 8 clients check (%.0f a second in all), "
                "1 signs up (about 100 a second)\n\n",
                qlonglong(names), qPrintable(o.geometry.describe()), double(t.elapsed()) / 1000, rate);

    std::atomic<bool> stop{false};
    std::atomic<qint64> falseNegatives{0}, failures{0}, signedUp{0};
    std::mutex lock;
    std::vector<Sample> checks, signups;
    QList<QByteArray> newNames;
    QElapsedTimer clock;
    clock.start();
    std::vector<std::thread> clients;
    for (int c = 0; c < 8; ++c)
        clients.emplace_back([&, c] {
            PgConn conn(filterInfo);
            PQclear(PQprepare(conn.handle(), "check",
                              "select bits & mask = mask as maybe_taken from username_filter join username_bits($1) "
                              "using (chunk)",
                              1, nullptr));
            std::vector<Sample> mine;
            for (qint64 i = c; !stop.load(); i += 8) {
                const QByteArray &name = added[i % added.size()];
                const char *v = name.constData();
                const qint64 at = clock.nsecsElapsed();
                PGresult *r = PQexecPrepared(conn.handle(), "check", 1, &v, nullptr, nullptr, 0);
                mine.push_back({at, double(clock.nsecsElapsed() - at) / 1e6});
                if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
                    ++failures;
                else if (PQgetvalue(r, 0, 0)[0] != 't')
                    ++falseNegatives;
                PQclear(r);
                if (rate > 0) { // this client's share of the rate, on schedule
                    const qint64 due = qint64(double(mine.size()) * 8e9 / rate);
                    const qint64 ahead = due - (clock.nsecsElapsed() - mine.front().atNs);
                    if (ahead > 0)
                        std::this_thread::sleep_for(std::chrono::nanoseconds(ahead));
                }
            }
            std::lock_guard g(lock);
            checks.insert(checks.end(), mine.begin(), mine.end());
        });
    std::thread signer([&] {
        PgConn filter(filterInfo), shard(shardInfo);
        for (qint64 i = 0; !stop.load(); ++i) {
            const QByteArray name = "signup_" + QByteArray::number(i);
            const qint64 at = clock.nsecsElapsed();
            // The reference's order: the filter first, then the user row.
            auto a = filter.column(QStringLiteral("update username_filter set bits = bits | mask from "
                                                  "username_bits($1) b where username_filter.chunk = b.chunk "
                                                  "returning 1"),
                                   {name});
            if (!a) {
                ++failures;
                continue;
            }
            (void)shard.column(QStringLiteral("insert into users (username) values ($1) returning 1"), {name});
            {
                std::lock_guard g(lock);
                signups.push_back({at, double(clock.nsecsElapsed() - at) / 1e6});
                newNames.append(name);
            }
            ++signedUp;
            QThread::msleep(10);
        }
    });

    QThread::sleep(3); // before the swap
    SwapOptions so;
    so.auditSample = 10000;
    const qint64 swapStart = clock.nsecsElapsed();
    auto swapped = Rebuilder::swap(**db, o.intoTable, so);
    const qint64 swapEnd = clock.nsecsElapsed();
    if (!swapped)
        die(swapped.error().toString());
    QThread::sleep(3); // after
    stop = true;
    for (auto &th : clients)
        th.join();
    signer.join();

    const auto window = [](const std::vector<Sample> &v, qint64 from, qint64 to) {
        std::vector<double> out;
        for (const Sample &s : v)
            if (s.atNs >= from && s.atNs < to)
                out.push_back(s.ms);
        return out;
    };
    const SwapReport &r = *swapped;
    std::printf("swap     %.0f ms wall: early drain %.0f, guard (fills, audit of 10,000 users) %.0f, verify drained "
                "%.0f, plan %.0f, catch up (%d drain passes) %.0f, wait for EXCLUSIVE %.0f, under it (final drain, "
                "counts) %.0f, renames + commit %.0f\n",
                double(swapEnd - swapStart) / 1e6, r.earlyDrainMs, r.guardMs, r.verifyMs, r.planMs, r.catchUpPasses,
                r.catchUpMs, r.lockWaitMs, r.underLockMs, r.renameMs);
    std::printf("locks    adds blocked (EXCLUSIVE to commit) %.0f ms; checks blocked (ACCESS EXCLUSIVE to commit) %.1f "
                "ms (target <= 1000 ms)\n\n",
                r.lockMs, r.exclusiveMs);
    std::printf("| reference checks | count | p50 | p99 | max |\n|---|---|---|---|---|\n");
    const auto row = [](const char *what, const std::vector<double> &v) {
        std::printf("| %s | %zu | %.3f ms | %.3f ms | %.1f ms |\n", what, v.size(), percentile(v, 0.5),
                    percentile(v, 0.99), v.empty() ? 0 : *std::max_element(v.begin(), v.end()));
    };
    row("before the swap (3 s)", window(checks, 0, swapStart));
    row("during the swap", window(checks, swapStart, swapEnd));
    row("after the swap (3 s)", window(checks, swapEnd, clock.nsecsElapsed()));
    row("sign-ups during the swap", window(signups, swapStart, swapEnd));
    // Every name signed up, before, during or after the swap, is "maybe" in the live filter now.
    PgConn check(filterInfo);
    auto free = check.column(QStringLiteral("select count(*) from unnest(string_to_array($1, ',')) n where not "
                                            "(select bits & mask = mask from username_filter join username_bits(n) "
                                            "using (chunk))"),
                             {newNames.join(',')});
    std::printf("\nchecks that failed: %lld; false negatives during the traffic: %lld; of %lld names signed up, %s "
                "check free in the swapped-in filter\n",
                qlonglong(failures.load()), qlonglong(falseNegatives.load()), qlonglong(signedUp.load()),
                free ? free->value(0).constData() : "?");
    (void)cluster.stop();
    return failures.load() == 0 && falseNegatives.load() == 0 && free && free->value(0) == "0" ? 0 : 1;
}
