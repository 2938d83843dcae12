#include "shardmap.h"

#include "filterstore.h"
#include "pgconn.h"

#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <mutex>
#include <thread>

namespace bloom {

Result<ShardMap> ShardMap::parse(const QString &text, const QString &source)
{
    ShardMap map;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq < 0)
            return makeError(
                ErrorKind::BadInput,
                QStringLiteral("%1 line %2: expected 'key = value', got '%3'").arg(source).arg(i + 1).arg(line),
                QStringLiteral("use table = ..., column = ... or shard = CONNINFO"));
        const QString key = line.left(eq).trimmed();
        const QString value = line.mid(eq + 1).trimmed();
        if (key == QLatin1String("shard")) {
            auto spec = ConnectionSpec::parse(value);
            if (!spec)
                return makeError(ErrorKind::BadInput,
                                 QStringLiteral("%1 line %2: %3").arg(source).arg(i + 1).arg(spec.error().message));
            map.shards.append(*spec);
        } else if (key == QLatin1String("table")) {
            map.table = value;
        } else if (key == QLatin1String("column")) {
            map.column = value;
        } else {
            return makeError(ErrorKind::BadInput,
                             QStringLiteral("%1 line %2: unknown key '%3'").arg(source).arg(i + 1).arg(key),
                             QStringLiteral("the keys are table, column and shard"));
        }
    }
    if (map.shards.isEmpty())
        return makeError(ErrorKind::BadInput, QStringLiteral("%1 lists no shard").arg(source),
                         QStringLiteral("add one line 'shard = CONNINFO' per shard"));
    return map;
}

Result<ShardMap> ShardMap::load(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorKind::Io, QStringLiteral("cannot read the shard map %1: %2").arg(path, f.errorString()));
    return parse(QString::fromUtf8(f.readAll()), path);
}

QString ShardMap::toText() const
{
    QString out = QStringLiteral("# bloomscope shard map\ntable = %1\ncolumn = %2\n").arg(table, column);
    for (const ConnectionSpec &s : shards)
        out += QStringLiteral("shard = %1\n").arg(s.toConninfo());
    return out;
}

Result<AuditReport> audit(FilterStore &store, const ShardMap &map, qint64 perShard, qint64 probes)
{
    AuditReport r;
    QList<QByteArray> names;
    for (int i = 0; i < map.shards.size(); ++i) {
        PgConn c(map.shards[i].toConninfo());
        if (!c.ok())
            return makeError(ErrorKind::Connection, QStringLiteral("shard %1: %2").arg(i).arg(c.errorMessage()));
        auto rows = c.column(QStringLiteral("select %1 from %2 order by random() limit $1")
                                 .arg(c.quoteIdentifier(map.column), c.quoteIdentifier(map.table)),
                             {QByteArray::number(perShard)});
        if (!rows)
            return rows.error();
        for (const QByteArray &n : *rows)
            if (validateName(n).ok())
                names.append(n);
    }
    r.sampled = names.size();
    auto placed = store.place(names);
    if (!placed)
        return placed.error();
    auto verdicts = store.check(*placed);
    if (!verdicts)
        return verdicts.error();
    for (qsizetype i = 0; i < names.size(); ++i)
        if (!verdicts->at(i))
            r.falseNegatives.append(names[i]);
    auto sample = store.sampleFpr(probes);
    if (!sample)
        return sample.error();
    r.probes = sample->probes;
    r.falsePositives = sample->falsePositives;
    r.measured = sample->measured;
    r.low95 = sample->low95;
    r.high95 = sample->high95;
    r.estimated = sample->estimated;
    return r;
}

Result<ExactAnswer> exactLookup(const ShardMap &map, const QByteArray &name)
{
    ShardPool pool(map);
    if (auto s = pool.connect(); !s)
        return s.error(); // an unanswered shard could hold the name: never guess "free"
    return pool.lookup(name);
}

ShardPool::ShardPool(const ShardMap &map)
    : mMap(map)
{
}

ShardPool::~ShardPool() = default;

Status ShardPool::connect()
{
    mConns.clear();
    for (int i = 0; i < mMap.shards.size(); ++i) {
        auto c = std::make_unique<PgConn>(mMap.shards[i].toConninfo());
        if (!c->ok())
            return makeError(
                ErrorKind::Connection,
                QStringLiteral("shard %1 (%2): %3").arg(i).arg(mMap.shards[i].describe(), c->errorMessage()));
        mConns.push_back(std::move(c));
    }
    return success();
}

Result<ExactAnswer> ShardPool::lookup(const QByteArray &name)
{
    ExactAnswer answer;
    std::mutex mutex;
    QList<Error> errors;
    QElapsedTimer wall;
    wall.start();
    std::vector<std::thread> threads;
    for (size_t i = 0; i < mConns.size(); ++i)
        threads.emplace_back([&, i] {
            QElapsedTimer t;
            t.start();
            PgConn &c = *mConns[i];
            auto r = c.column(QStringLiteral("select exists (select 1 from %1 where lower(%2) = lower($1))")
                                  .arg(c.quoteIdentifier(mMap.table), c.quoteIdentifier(mMap.column)),
                              {name});
            const double ms = double(t.nsecsElapsed()) / 1e6;
            std::lock_guard lock(mutex);
            ++answer.shardQueries;
            answer.slowestMs = qMax(answer.slowestMs, ms);
            if (!r)
                errors.append(r.error());
            else if (r->value(0) == "t") {
                answer.taken = true;
                answer.foundOnShard = int(i);
            }
        });
    for (auto &t : threads)
        t.join();
    answer.totalMs = double(wall.nsecsElapsed()) / 1e6;
    if (!errors.isEmpty())
        return errors.first();
    return answer;
}

Result<SimulationReport> simulate(FilterStore &store, ShardPool &shards, const QList<QByteArray> &names,
                                  const SimulationOptions &options)
{
    SimulationReport r;
    std::vector<double> filterMs, shardMs;
    for (const QByteArray &name : names) {
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
            QElapsedTimer t;
            t.start();
            auto placed = store.place({prefix});
            if (!placed)
                return placed.error();
            auto v = store.check(*placed);
            if (!v)
                return v.error();
            if (v->first()) {
                ++r.filterMaybes;
                auto exact = shards.lookup(prefix);
                if (!exact)
                    return exact.error();
                r.shardQueriesWithFilter += exact->shardQueries;
            }
            filterMs.push_back(double(t.nsecsElapsed()) / 1e6);
            auto alone = shards.lookup(prefix);
            if (!alone)
                return alone.error();
            r.shardQueriesWithout += alone->shardQueries;
            shardMs.push_back(alone->totalMs);
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
