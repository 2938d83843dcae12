#include "local/demo.h"

#include "model/chunkbitmap.h"
#include "model/parallelfill.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"
#include "shards/shardmap.h"

#include <QElapsedTimer>
#include <QFile>

namespace bloom {

namespace {

const char *const First[] = {"ada",       "grace",  "alan",   "edsger",    "barbara", "donald",   "frances",
                             "ken",       "dennis", "bjarne", "guido",     "linus",   "margaret", "john",
                             "radia",     "sophie", "tim",    "anita",     "leslie",  "niklaus",  "hedy",
                             "katherine", "shafi",  "tony",   "whitfield", "martin",  "yukihiro", "james"};
const char *const Last[] = {"lovelace", "hopper",     "turing",     "dijkstra", "liskov",   "knuth",     "allen",
                            "thompson", "ritchie",    "stroustrup", "rossum",   "torvalds", "hamilton",  "mccarthy",
                            "perlman",  "wilson",     "lee",        "borg",     "lamport",  "wirth",     "lamarr",
                            "johnson",  "goldwasser", "hoare",      "diffie",   "fowler",   "matsumoto", "gosling"};
const char *const Sep[] = {"", "_", ".", "-"};

std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

char *append(char *at, const char *text)
{
    while (*text)
        *at++ = *text++;
    return at;
}

} // namespace

int demoName(qint64 i, quint32 seed, char *out)
{
    const std::uint64_t h = splitmix64(std::uint64_t(i) ^ (std::uint64_t(seed) << 32));
    char *at = out;
    at = append(at, First[h % std::size(First)]);
    at = append(at, Sep[(h >> 8) % std::size(Sep)]);
    at = append(at, Last[(h >> 16) % std::size(Last)]);
    char digits[24];
    int n = 0;
    std::uint64_t v = std::uint64_t(i);
    do {
        digits[n++] = char('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *at++ = digits[--n]; // the number makes every name unique
    if ((h >> 32) % 5 == 0)
        out[0] = char(out[0] - 32); // some capitals: the filter lowercases
    return int(at - out);
}

QList<QByteArray> demoNames(qint64 count, quint32 seed)
{
    QList<QByteArray> out;
    out.reserve(count);
    char name[DemoNameMax];
    for (qint64 i = 0; i < count; ++i)
        out.append(QByteArray(name, demoName(i, seed, name)));
    return out;
}

Result<QString> startDemo(LocalCluster &cluster, qint64 names, const std::function<void(qint64, qint64)> &progress,
                          const std::atomic<bool> *cancel, DemoTimings *timings)
{
    DemoTimings local;
    DemoTimings &times = timings ? *timings : local;
    QElapsedTimer stage;
    stage.start();
    const auto lap = [&stage] { return double(stage.restart()) / 1000.0; };
    if (!cluster.isRunning())
        if (auto s = cluster.start(); !s)
            return s.error();
    const QString dbName = QStringLiteral("bloomscope_demo");
    if (auto s = cluster.createDatabase(dbName); !s)
        return s.error();
    const QString conninfo = cluster.connectionString(dbName);
    times.serverSeconds = lap();
    const Geometry g; // the reference filter, as reference.sql made it
    ChunkBitmap bits(g);
    const auto name = [](qint64 i, char *out) { return demoName(i, DemoSeed, out); };
    if (!fillBitmap(bits, names, name, DemoNameMax, progress, cancel))
        return makeError(ErrorKind::Cancelled, QStringLiteral("the demo was cancelled"));
    bits.touchAll(); // the table is written whole, from empty
    times.hashSeconds = lap();
    // One transaction: the reference's table and function as its text writes them, and instead of its
    // 131,072 rows of zeros, the rows with the names' bits in one binary COPY. FREEZE: the table was
    // made in this transaction, so the rows go in frozen and all-visible (no VACUUM needed later).
    PgConn c(conninfo, PgConn::SearchPath::AsConfigured); // our own private cluster, as the application
    if (!c.ok())
        return makeError(ErrorKind::Connection, c.errorMessage());
    QString reference = sqlResource(QStringLiteral("reference.sql"));
    const qsizetype insert = reference.indexOf(QLatin1String("insert into username_filter"));
    if (insert < 0)
        return makeError(ErrorKind::Cluster, QStringLiteral("reference.sql has no insert of the zero rows"));
    reference.remove(insert, reference.indexOf(QLatin1Char(';'), insert) + 1 - insert);
    if (auto s = c.exec(QStringLiteral("begin;\n") + reference); !s)
        return s.error();
    auto copied = copyIn(c.handle(),
                         QStringLiteral("copy public.username_filter (chunk, bits) from stdin (format binary, freeze)"),
                         [&bits](const ByteSink &sink) { return bits.writeRows(sink); });
    if (!copied)
        return copied.error();
    if (auto s = c.exec(QStringLiteral("commit")); !s)
        return s.error();
    times.copySeconds = lap();
    if (progress)
        progress(names, names);
    (void)c.exec(QStringLiteral("analyze public.username_filter"));
    times.analyzeSeconds = lap();
    return conninfo;
}

Result<QString> startShardedDemo(LocalCluster &cluster, qint64 names, int shards,
                                 const std::function<void(qint64, qint64)> &progress, const std::atomic<bool> *cancel)
{
    auto conninfo = startDemo(cluster, names, progress, cancel);
    if (!conninfo)
        return conninfo.error();
    ShardMap map;
    for (int i = 0; i < shards; ++i) {
        const QString db = QStringLiteral("users_%1").arg(i);
        if (auto s = cluster.createDatabase(db); !s)
            return s.error();
        PgConn c(cluster.connectionString(db)); // our own private cluster
        if (auto s = c.exec(QStringLiteral("create table users (id bigint primary key, username text not null)")); !s)
            return s.error();
        // The same names the filter holds: user `id` is demo name `id`, on shard id mod shards.
        auto copied = copyIn(c.handle(), QStringLiteral("copy users from stdin"), [&](const ByteSink &sink) {
            QByteArray rows;
            char name[DemoNameMax];
            qint64 sent = 0;
            for (qint64 id = i; id < names; id += shards, ++sent) {
                rows += QByteArray::number(id);
                rows += '\t';
                rows.append(name, demoName(id, DemoSeed, name));
                rows += '\n';
                if (rows.size() >= (1 << 20) || id + shards >= names) {
                    if (!sink(rows.constData(), rows.size()))
                        return qint64(-1);
                    rows.clear();
                }
            }
            return sent;
        });
        if (!copied)
            return copied.error();
        if (auto s = c.exec(QStringLiteral("create index on users (lower(username)); analyze users")); !s)
            return s.error();
        map.shards.append(*ConnectionSpec::parse(cluster.connectionString(db)));
    }
    const QString path = cluster.socketDir() + QStringLiteral("/shards.map");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorKind::Io, QStringLiteral("cannot write %1").arg(path));
    f.write(map.toText().toUtf8());
    return path;
}

} // namespace bloom
