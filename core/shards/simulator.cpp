#include "shards/simulator.h"

#include "model/name.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "shards/shardpool.h"

#include <QElapsedTimer>
#include <QRandomGenerator>

#include <algorithm>

namespace bloom {

Result<QList<QByteArray>> replayNames(const ShardMap &map, qint64 count, double takenShare, quint32 seed)
{
    QList<QByteArray> names;
    const qint64 taken = qBound<qint64>(0, qRound64(double(count) * takenShare), count);
    if (taken > 0) {
        PgConn shard0(map.shards.first().toConninfo(), PgConn::SearchPath::CatalogFirst);
        if (!shard0.ok())
            return makeError(ErrorKind::Connection, QStringLiteral("shard 0: %1").arg(shard0.errorMessage()));
        auto rows = shard0.column(QStringLiteral("select %1 from %2 order by pg_catalog.random() limit $1")
                                      .arg(shard0.quoteIdentifier(map.column), shard0.quoteIdentifier(map.table)),
                                  {QByteArray::number(taken)});
        if (!rows)
            return rows.error();
        names += *rows;
    }
    QRandomGenerator rng(seed);
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    while (names.size() < count) {
        QByteArray n(12, Qt::Uninitialized);
        n[0] = letters[rng.bounded(26)];
        for (qsizetype i = 1; i < n.size(); ++i)
            n[i] = letters[rng.bounded(36)];
        names.append(n);
    }
    std::shuffle(names.begin(), names.end(), rng);
    return names;
}

Result<KeystrokeCheck> checkKeystroke(FilterStore &store, ShardPool &shards, const QByteArray &text, bool compare)
{
    KeystrokeCheck k;
    k.text = text;
    QElapsedTimer t;
    t.start();
    auto placed = store.place({text});
    if (!placed)
        return placed.error();
    auto v = store.check(*placed);
    if (!v)
        return v.error();
    k.maybe = v->first();
    if (k.maybe) {
        auto exact = shards.lookup(text);
        if (!exact)
            return exact.error();
        k.taken = exact->taken;
        k.deleted = exact->deleted;
        k.queriesWithFilter = exact->shardQueries;
    }
    k.filterPathMs = double(t.nsecsElapsed()) / 1e6;
    if (compare) {
        auto alone = shards.lookup(text);
        if (!alone)
            return alone.error();
        k.queriesWithout = alone->shardQueries;
        k.shardsOnlyMs = alone->totalMs;
    }
    return k;
}

Result<SimulationReport> simulate(FilterStore &store, ShardPool &shards, const QList<QByteArray> &names,
                                  const SimulationOptions &options, const SimulationObserver &observer)
{
    SimulationReport r;
    std::vector<double> filterMs, shardMs;
    for (qsizetype n = 0; n < names.size(); ++n) {
        const QByteArray &name = names[n];
        ++r.names;
        for (qsizetype len = 1; len <= name.size(); ++len) {
            ++r.keystrokes;
            // With a steady typist, a debounce longer than the gap between keys lets only the last
            // keystroke of the name fire a check.
            const bool last = len == name.size();
            if (options.debounceMs > 0 && options.debounceMs >= options.typingMs && !last)
                continue;
            const QByteArray prefix = name.left(len);
            if (!validateName(prefix).ok())
                continue;
            ++r.checks;
            auto k = checkKeystroke(store, shards, prefix);
            if (!k)
                return k.error();
            if (k->maybe)
                ++r.filterMaybes;
            if (k->deleted)
                ++r.deletedScatterGathers;
            r.shardQueriesWithFilter += k->queriesWithFilter;
            r.shardQueriesWithout += k->queriesWithout;
            filterMs.push_back(k->filterPathMs);
            shardMs.push_back(k->shardsOnlyMs);
            if (observer && !observer(n, *k))
                return makeError(ErrorKind::Cancelled, QStringLiteral("the replay was cancelled"));
        }
    }
    const auto pct = [](std::vector<double> v, double p) {
        if (v.empty())
            return 0.0;
        std::sort(v.begin(), v.end());
        return v[size_t(p * double(v.size() - 1))];
    };
    r.filterP50Ms = pct(filterMs, 0.5);
    r.filterP99Ms = pct(filterMs, 0.99);
    r.shardsP50Ms = pct(shardMs, 0.5);
    r.shardsP99Ms = pct(shardMs, 0.99);
    return r;
}

} // namespace bloom
