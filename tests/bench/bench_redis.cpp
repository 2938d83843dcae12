// bench_redis: the Redis bitmap filter, core against the reference's way, side by side in one run
// on a private redis-server.
//   cmake --build build --target benchmarks && build/tests/bench/bench_redis [names]
//
// The reference (UsernameBloomFilter.js) sends a name's two GETBITs (or SETBITs) together and
// waits: one round trip a name. Core pipelines many names per round trip. The fill is compared
// with the one-call alternative the GUI must not use: GET of the whole key.
#include "local/demo.h"
#include "local/localredis.h"
#include "redis/redisstore.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

using namespace bloom;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 count = argc > 1 ? QByteArray(argv[1]).toLongLong() : 100000;
    LocalRedis redis;
    if (auto s = redis.start(); !s) {
        std::fprintf(stderr, "%s\n", qPrintable(s.error().toString()));
        return 1;
    }
    auto conn = RedisConn::open(redis.target());
    RedisFilter f(**conn);
    const QList<QByteArray> names = demoNames(count, 17);
    const auto ms = [](const QElapsedTimer &t) { return double(t.nsecsElapsed()) / 1e6; };

    QElapsedTimer t;
    t.start();
    for (const QByteArray &n : names) { // the reference's add: two SETBITs, then wait
        const auto p = redisbloom::positions(n);
        (void)(*conn)->pipelineIntegers({{"SETBIT", "reference_key", QByteArray::number(p.sha256), "1"},
                                         {"SETBIT", "reference_key", QByteArray::number(p.fnv), "1"}});
    }
    const double refAdd = ms(t);
    t.restart();
    (void)f.add(names);
    const double coreAdd = ms(t);

    RedisFilter ref(**conn, "reference_key");
    t.restart();
    qint64 refMaybe = 0;
    for (const QByteArray &n : names) { // the reference's has: two GETBITs, then wait
        const auto p = redisbloom::positions(n);
        auto bits = (*conn)->pipelineIntegers({{"GETBIT", "reference_key", QByteArray::number(p.sha256)},
                                               {"GETBIT", "reference_key", QByteArray::number(p.fnv)}});
        refMaybe += (bits && (*bits)[0] && (*bits)[1]) ? 1 : 0;
    }
    const double refCheck = ms(t);
    t.restart();
    auto v = f.check(names);
    const double coreCheck = ms(t);

    t.restart();
    auto fill = f.fill();
    const double fillMs = ms(t);
    t.restart();
    auto whole = (*conn)->bytes({"GET", redisbloom::ReferenceKey});
    const double getMs = ms(t);

    std::printf("bench_redis: %lld names, m = 10,000,000, one local redis-server\n", count);
    std::printf("  add    reference (one round trip a name) %8.1f ms   core (pipelined) %8.1f ms   %5.1fx\n", refAdd,
                coreAdd, refAdd / coreAdd);
    std::printf("  check  reference (one round trip a name) %8.1f ms   core (pipelined) %8.1f ms   %5.1fx  (%lld / "
                "%lld maybe)\n",
                refCheck, coreCheck, refCheck / coreCheck, refMaybe, qint64(v ? v->count(true) : -1));
    std::printf(
        "  fill   BITCOUNT per block + lattice in 64 KiB GETRANGEs %6.1f ms (%zu blocks); GET of the whole key %.1f ms "
        "(%lld bytes in one reply, then counted on the client)\n",
        fillMs, fill ? fill->setBits.size() : size_t(0), getMs, qint64(whole ? whole->size() : 0));
    return 0;
}
