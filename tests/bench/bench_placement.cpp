// MD5 + placement throughput on one core, against the reference username_bits() on the server.
//   build/tests/bench/bench_placement [NAMES]
#include "local/localcluster.h"
#include "model/placement.h"
#include "model/sharedbits.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include <cstdio>
#include <thread>
#include <vector>

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

    // The same names eight at a time (md5lanes), one core.
    std::vector<QByteArrayView> views(names.cbegin(), names.cend());
    std::vector<Placement> placed(views.size());
    t.restart();
    placeAsciiMany(g, views.data(), qsizetype(views.size()), placed.data());
    const double manySeconds = double(t.nsecsElapsed()) / 1e9;
    quint64 manyChecksum = 0;
    for (const Placement &p : placed)
        manyChecksum += p.chunk + p.positions[6];
    std::printf("core: eight at a time (placeAsciiMany), one core: %.2f M names/s (%.2fx one at a time%s)\n",
                double(count) / manySeconds / 1e6, coreSeconds / manySeconds,
                manyChecksum == checksum ? "" : ", CHECKSUM DIFFERS");
    placed = {};

    // Placing and ORing into a rebuild's array (2^31 bits, 256 MiB) from every core, as the rebuild's
    // hashers and the load's placers do: the cost of SharedBits on top of the hashing, by the names a
    // writer gathers before it ORs a range in.
    {
        const Geometry big = *Geometry::fromCounts(262144, 8192, 7);
        std::vector<std::uint8_t> bits(size_t(big.totalBytes()));
        std::fill(bits.begin(), bits.end(), 0); // touched up front: page faults are not the writer's cost
        SharedBits shared(big, bits.data());
        const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
        for (const qsizetype buffer :
             {qsizetype(16384), qsizetype(65536), qsizetype(262144), qsizetype(1) << 20, qsizetype(1) << 21}) {
            t.restart();
            std::vector<std::thread> pool;
            for (int i = 0; i < threads; ++i)
                pool.emplace_back([&, i] {
                    SharedBits::Writer w(shared, buffer);
                    const size_t from = views.size() * size_t(i) / size_t(threads),
                                 to = views.size() * size_t(i + 1) / size_t(threads);
                    w.addAscii(views.data() + from, qsizetype(to - from));
                });
            for (auto &th : pool)
                th.join();
            const double fillSeconds = double(t.nsecsElapsed()) / 1e9;
            std::printf("core: place and OR into a 256 MiB array, %d threads, %lld names a writer (%.1f MiB): "
                        "%.2f M names/s (%.3f s)\n",
                        threads, static_cast<long long>(buffer),
                        double(SharedBits::Writer::bufferBytes(big, buffer)) / 1048576.0,
                        double(count) / fillSeconds / 1e6, fillSeconds);
        }
    }

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
