// What an open Bloomscope window costs production: 8 clients run the reference check in a loop, with
// and without a window's session refreshing every second, in alternating phases of one run; the p50
// and p99 of the clients' latency are compared. Twice: with check traffic alone (the filter does not
// change, a refresh reads no row), and with sign-ups adding 100 names a second as well (every refresh
// reads the rows written since the last read).
//   cmake --build build --target bench_gui_cost && build/tests/bench/bench_gui_cost [SECONDS_A_PHASE]
#include "local/localcluster.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"
#include "session/filtersession.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTimer>

#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

using namespace bloom;

namespace {

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[size_t(p * double(v.size() - 1))];
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int phaseSeconds = argc > 1 ? qMax(2, atoi(argv[1])) : 10;
    constexpr int Clients = 8;
    LocalCluster cluster;
    if (auto s = cluster.start(); !s) {
        std::fprintf(stderr, "%s\n", qPrintable(s.error().toString()));
        return 1;
    }
    (void)cluster.createDatabase(QStringLiteral("app"));
    (void)cluster.exec(QStringLiteral("app"), sqlResource(QStringLiteral("reference.sql")));
    const QString conninfo = cluster.connectionString(QStringLiteral("app"));
    {
        PgConn c(conninfo);
        (void)c.exec(QStringLiteral("update username_filter f set bits = f.bits | b.mask from (select (username_bits("
                                    "'seed' || g)).* from generate_series(1, 200000) g) b where f.chunk = b.chunk"));
        (void)c.exec(QStringLiteral("vacuum analyze username_filter"));
    }

    // The clients: each its own connection, the reference's check statement, prepared.
    std::atomic<bool> stop{false};
    std::atomic<int> phase{0}; // even: no window; odd: the window refreshing
    std::atomic<int> flush{0}, collected{0};
    std::mutex lock;
    std::vector<double> latencies[2];
    std::vector<std::thread> clients;
    for (int c = 0; c < Clients; ++c)
        clients.emplace_back([&, c] {
            PgConn conn(conninfo);
            PQclear(PQprepare(conn.handle(), "check",
                              "select bits & mask = mask as maybe_taken from username_filter join username_bits($1) "
                              "using (chunk)",
                              1, nullptr));
            std::vector<double> mine[2];
            int flushed = 0;
            for (int i = 0; !stop.load(); ++i) {
                if (flush.load() > flushed) {
                    flushed = flush.load();
                    {
                        const std::lock_guard<std::mutex> g(lock);
                        for (int p = 0; p < 2; ++p)
                            latencies[p].insert(latencies[p].end(), mine[p].begin(), mine[p].end());
                    }
                    mine[0].clear();
                    mine[1].clear();
                    ++collected;
                    while (!stop.load() && flush.load() == flushed && phase.load() != 0)
                        std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
                const QByteArray name = "client-" + QByteArray::number(c) + '-' + QByteArray::number(i);
                const char *v = name.constData();
                const int p = phase.load() % 2;
                QElapsedTimer t;
                t.start();
                PQclear(PQexecPrepared(conn.handle(), "check", 1, &v, nullptr, nullptr, 0));
                const double us = double(t.nsecsElapsed()) / 1e3;
                if (phase.load() % 2 == p) // not across a phase change
                    mine[p].push_back(us);
            }
        });

    // The window's session: its own worker thread and connection, a refresh every second, as the
    // window does at its shortest interval.
    FilterSession session;
    QSignalSpy opened(&session, &FilterSession::opened);
    session.open(*ConnectionSpec::parse(conninfo), FilterRef{}, true);
    if (!opened.wait(20000))
        return 1;
    int fullReads = 0, changeReads = 0, skipped = 0;
    double refreshMs = 0;
    QObject::connect(&session, &FilterSession::refreshed, &session, [&](const FillResult &r) {
        if (r.unchanged || r.throttled) {
            ++skipped;
            return;
        }
        ++(r.incremental ? changeReads : fullReads);
        refreshMs += double(r.fill.elapsedMs);
    });
    QTimer tick;
    tick.setInterval(1000);
    QObject::connect(&tick, &QTimer::timeout, &session, [&] {
        if (phase.load() % 2)
            session.refresh();
    });
    tick.start();
    constexpr int Phases = 6; // off, on, off, on, off, on
    std::atomic<bool> signUps{false};
    std::thread adder([&] {
        PgConn conn(conninfo);
        PQclear(PQprepare(conn.handle(), "add",
                          "update username_filter f set bits = f.bits | b.mask from username_bits($1) b where "
                          "f.chunk = b.chunk",
                          1, nullptr));
        for (int i = 0; !stop.load(); ++i) {
            if (signUps.load()) {
                const QByteArray name = "signup-" + QByteArray::number(i);
                const char *v = name.constData();
                PQclear(PQexecPrepared(conn.handle(), "add", 1, &v, nullptr, nullptr, 0));
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    for (int round = 0; round < 2; ++round) {
        signUps.store(round == 1);
        fullReads = skipped = 0;
        refreshMs = 0;
        {
            const std::lock_guard<std::mutex> g(lock);
            latencies[0].clear();
            latencies[1].clear();
        }
        collected.store(0);
        for (int p = 0; p < Phases; ++p) {
            phase.store(p);
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < phaseSeconds * 1000)
                QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        // Each client hands over what it measured in this round.
        flush.store(round + 1);
        while (collected.load() < Clients)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const double offP50 = percentile(latencies[0], 0.5), offP99 = percentile(latencies[0], 0.99);
        const double onP50 = percentile(latencies[1], 0.5), onP99 = percentile(latencies[1], 0.99);
        std::printf("%s: %d clients running the reference check, %d phases of %d s each way, alternating\n",
                    round == 0 ? "checks only" : "checks and 100 sign-ups a second", Clients, Phases / 2, phaseSeconds);
        std::printf("  no window:                          %zu checks, p50 %.0f us, p99 %.0f us\n", latencies[0].size(),
                    offP50, offP99);
        std::printf(
            "  a window refreshing every second:   %zu checks, p50 %.0f us, p99 %.0f us (%d reads of "
            "%.0f ms (of the changed rows or all), %d of them full, %d refreshes that read no row (unchanged, or "
            "throttled to 10x a read's cost))\n",
            latencies[1].size(), onP50, onP99, fullReads + changeReads,
            fullReads + changeReads ? refreshMs / (fullReads + changeReads) : 0.0, fullReads, skipped);
        std::printf("  ratio with the window: p50 %.2fx, p99 %.2fx, throughput %.2fx\n\n", onP50 / offP50,
                    onP99 / offP99, double(latencies[1].size()) / double(qMax<size_t>(1, latencies[0].size())));
    }
    stop.store(true);
    for (std::thread &t : clients)
        t.join();
    adder.join();
    return 0;
}
