// MD5 + placement throughput on one core, against the reference username_bits() on the server.
//   build/tests/bench/bench_placement [NAMES]
#include "local/localcluster.h"
#include "model/placement.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include <cstdio>

using namespace bloom;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qsizetype count = argc > 1 ? QByteArray(argv[1]).toLongLong() : 10'000'000;

    // Twelve-character names (the reference's typing example), generated up front.
    QList<QByteArray> names;
    names.reserve(count);
    for (qsizetype i = 0; i < count; ++i)
        names.append(QByteArray("User") + QByteArray::number(i).rightJustified(8, '0'));

    const Geometry g;
    QElapsedTimer t;
    t.start();
    quint64 checksum = 0;
    for (const QByteArray &n : names) {
        const Placement p = placeAscii(g, n);
        checksum += p.chunk + p.positions[6];
    }
    const double coreSeconds = double(t.nsecsElapsed()) / 1e9;
    const double coreRate = double(count) / coreSeconds;
    std::printf("core: MD5 + placement, one core: %.2f M names/s (%lld names in %.3f s, checksum %llu)\n",
                coreRate / 1e6, qlonglong(count), coreSeconds, qulonglong(checksum));

    LocalCluster cluster;
    if (auto s = cluster.start(); !s) {
        std::fprintf(stderr, "%s\n", qPrintable(s.error().toString()));
        return 1;
    }
    (void)cluster.exec(QStringLiteral("postgres"), sqlResource(QStringLiteral("reference.sql")));
    PgConn conn(cluster.connectionString());
    const int serverNames = 200'000;
    t.restart();
    auto r = conn.column(QStringLiteral("select sum((b).chunk) from (select username_bits('User' || lpad(i::text, "
                                        "8, '0')) b from generate_series(0, $1 - 1) i) s"),
                         {QByteArray::number(serverNames)});
    const double serverSeconds = double(t.nsecsElapsed()) / 1e9;
    if (!r) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error().message));
        return 1;
    }
    const double serverRate = serverNames / serverSeconds;
    std::printf("reference: username_bits() on the server: %.3f M names/s (%d names in %.3f s)\n", serverRate / 1e6,
                serverNames, serverSeconds);
    std::printf("ratio: core is %.1fx the server function\n", coreRate / serverRate);
    return 0;
}
