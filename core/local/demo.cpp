#include "local/demo.h"

#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"
#include "shards/shardmap.h"

#include <QBuffer>
#include <QFile>
#include <QRandomGenerator>

namespace bloom {

QList<QByteArray> demoNames(qint64 count, quint32 seed)
{
    static const char *const first[] = {"ada",       "grace",  "alan",   "edsger",    "barbara", "donald",   "frances",
                                        "ken",       "dennis", "bjarne", "guido",     "linus",   "margaret", "john",
                                        "radia",     "sophie", "tim",    "anita",     "leslie",  "niklaus",  "hedy",
                                        "katherine", "shafi",  "tony",   "whitfield", "martin",  "yukihiro", "james"};
    static const char *const last[] = {"lovelace", "hopper",   "turing",    "dijkstra",   "liskov",     "knuth",
                                       "allen",    "thompson", "ritchie",   "stroustrup", "rossum",     "torvalds",
                                       "hamilton", "mccarthy", "perlman",   "wilson",     "lee",        "borg",
                                       "lamport",  "wirth",    "lamarr",    "johnson",    "goldwasser", "hoare",
                                       "diffie",   "fowler",   "matsumoto", "gosling"};
    static const char *const sep[] = {"", "_", ".", "-"};
    QRandomGenerator rng(seed);
    QList<QByteArray> out;
    out.reserve(count);
    for (qint64 i = 0; i < count; ++i) {
        QByteArray n = first[rng.bounded(int(std::size(first)))];
        n += sep[rng.bounded(4)];
        n += last[rng.bounded(int(std::size(last)))];
        n += QByteArray::number(i); // unique
        if (rng.bounded(5) == 0)
            n[0] = char(n[0] - 32); // some capitals: the filter lowercases
        out.append(std::move(n));
    }
    return out;
}

Result<QString> startDemo(LocalCluster &cluster, qint64 names, const std::function<void(qint64, qint64)> &progress,
                          const std::atomic<bool> *cancel)
{
    if (!cluster.isRunning())
        if (auto s = cluster.start(); !s)
            return s.error();
    const QString dbName = QStringLiteral("bloomscope_demo");
    if (auto s = cluster.createDatabase(dbName); !s)
        return s.error();
    if (auto s = cluster.exec(dbName, sqlResource(QStringLiteral("reference.sql"))); !s)
        return s.error();
    const QString conninfo = cluster.connectionString(dbName);
    auto db = Database::open(*ConnectionSpec::parse(conninfo));
    if (!db)
        return db.error();
    FilterStore store(**db, FilterRef{});
    store.setCancelFlag(cancel);
    if (auto s = store.attach(); !s)
        return s.error();
    QByteArray file = demoNames(names).join('\n');
    QBuffer in(&file);
    in.open(QIODevice::ReadOnly);
    auto report = store.load(&in, [&](const LoadProgress &p) {
        if (progress)
            progress(p.namesAdded, names);
    });
    if (!report)
        return report.error();
    (void)(*db)->exec(QStringLiteral("vacuum analyze username_filter"));
    return conninfo;
}

Result<QString> startShardedDemo(LocalCluster &cluster, qint64 names, int shards,
                                 const std::function<void(qint64, qint64)> &progress, const std::atomic<bool> *cancel)
{
    auto conninfo = startDemo(cluster, names, progress, cancel);
    if (!conninfo)
        return conninfo.error();
    const QList<QByteArray> all = demoNames(names); // the same names the filter holds
    ShardMap map;
    for (int i = 0; i < shards; ++i) {
        const QString db = QStringLiteral("users_%1").arg(i);
        if (auto s = cluster.createDatabase(db); !s)
            return s.error();
        PgConn c(cluster.connectionString(db)); // our own private cluster
        if (auto s = c.exec(QStringLiteral("create table users (id bigint primary key, username text not null)")); !s)
            return s.error();
        QByteArray rows;
        for (qint64 id = i; id < all.size(); id += shards)
            rows += QByteArray::number(id) + '\t' + all[id] + '\n';
        auto copied = copyIn(c.handle(), QStringLiteral("copy users from stdin"), [&rows](const CopySink &sink) {
            return sink(rows.constData(), rows.size()) ? qint64(1) : qint64(-1);
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
