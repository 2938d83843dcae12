// What a window's refresh costs with 0, 0.1%, 1% and 100% of the chunks written since its last read,
// against a full read of the fill (one bit_count scan sending every row, what every refresh did
// before), side by side on the same table in one run. The refresh is what FilterWorker does: the
// stats' write counter, and then nothing (counter unchanged) or the rows written since (fillSince).
//   cmake --build build --target bench_refresh && build/tests/bench/bench_refresh [NAMES] [ROUNDS]
#include "local/demo.h"
#include "local/localcluster.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filtersql.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace bloom;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

template<typename F> double timedMs(F &&f)
{
    QElapsedTimer t;
    t.start();
    f();
    return double(t.nsecsElapsed()) / 1e6;
}

[[noreturn]] void die(const Error &e)
{
    std::fprintf(stderr, "%s\n", qPrintable(e.toString()));
    std::exit(1);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 names = argc > 1 ? QByteArray(argv[1]).toLongLong() : 1'000'000;
    const int rounds = argc > 2 ? qMax(3, atoi(argv[2])) : 11;
    LocalCluster cluster;
    if (auto s = cluster.start(); !s)
        die(s.error());
    (void)cluster.createDatabase(QStringLiteral("app"));
    (void)cluster.exec(QStringLiteral("app"), sqlResource(QStringLiteral("reference.sql")));
    const QString conninfo = cluster.connectionString(QStringLiteral("app"));
    auto db = Database::open(*ConnectionSpec::parse(conninfo));
    if (!db)
        die(db.error());
    FilterStore store(**db, FilterRef{});
    if (auto s = store.attach(); !s)
        die(s.error());
    {
        QByteArray file = demoNames(names).join('\n');
        QBuffer in(&file);
        in.open(QIODevice::ReadOnly);
        if (auto r = store.load(&in); !r)
            die(r.error());
    }
    PgConn writer(conninfo); // the application, signing names up
    (void)writer.exec(QStringLiteral("vacuum analyze username_filter"));
    const qint64 chunks = store.geometry().chunks();
    std::printf("bench_refresh: %lld names in the reference filter (%lld chunks), %d rounds a row, medians\n\n", names,
                chunks, rounds);
    std::printf("| chunks written since the last read | full read (every row) | the refresh | of which the counter "
                "| rows read | refresh / full read |\n|---|---|---|---|---|---|\n");
    for (double fraction : {0.0, 0.001, 0.01, 1.0}) {
        const qint64 changed = qint64(double(chunks) * fraction);
        std::vector<double> full, refresh, counterMs;
        qint64 rowsRead = 0;
        for (int round = 0; round < rounds; ++round) {
            // The window's last read, then the sign-ups since: `changed` chunks rewritten (bits | 0).
            auto last = store.fill();
            auto counterBefore = store.writeCounter();
            if (!last || !counterBefore)
                die(!last ? last.error() : counterBefore.error());
            if (changed == chunks)
                (void)writer.exec(QStringLiteral("update username_filter set bits = bits"));
            else if (changed > 0)
                (void)writer.exec(QStringLiteral("update username_filter set bits = bits where chunk in (select "
                                                 "(random() * %1)::int from generate_series(1, %2))")
                                      .arg(chunks - 1)
                                      .arg(changed));
            // The writer's stats are flushed when it goes idle (pg_stat_force_next_flush: now, not within ten
            // seconds); the window sees the counter move then.
            (void)writer.exec(QStringLiteral("select pg_stat_force_next_flush()"));
            if (changed > 0)
                for (int i = 0; i < 50; ++i) {
                    auto c = store.writeCounter();
                    if (c && *c != *counterBefore)
                        break;
                    (void)(*db)->exec(QStringLiteral("select pg_stat_clear_snapshot()"));
                    QThread::msleep(50);
                }
            // The refresh and a full read of the same state, in alternating order.
            const auto doRefresh = [&] {
                double counterTime = 0;
                std::optional<FilterStore::WriteCounter> c;
                refresh.push_back(timedMs([&] {
                    counterTime = timedMs([&] {
                        if (auto r = store.writeCounter())
                            c = *r;
                    });
                    if (c && *counterBefore &&
                        c->writes - (*counterBefore)->writes >= chunks / 4) { // as FilterWorker: most rows written
                        auto f = store.fill();
                        if (!f)
                            die(f.error());
                        rowsRead = f->rowsRead;
                    } else if (c != *counterBefore) {
                        auto since = store.fillSince(*last);
                        if (!since)
                            die(since.error());
                        rowsRead = since->rowsRead;
                    } else {
                        rowsRead = 0;
                    }
                }));
                counterMs.push_back(counterTime);
            };
            const auto doFull = [&] {
                full.push_back(timedMs([&] {
                    if (auto f = store.fill(); !f)
                        die(f.error());
                }));
            };
            if (round % 2) {
                doFull();
                doRefresh();
            } else {
                doRefresh();
                doFull();
            }
            if (changed == chunks)
                (void)writer.exec(QStringLiteral("vacuum username_filter"));
        }
        std::printf("| %s%% (%lld) | %.2f ms | %.2f ms | %.2f ms | %lld | %.3fx |\n",
                    qPrintable(QString::number(fraction * 100, 'g', 3)), changed, median(full), median(refresh),
                    median(counterMs), rowsRead, median(refresh) / median(full));
        std::fflush(stdout);
    }
    (void)cluster.stop();
    return 0;
}
