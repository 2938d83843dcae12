#include "shards/shardmap.h"

#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlQuery>

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
    r.shards = int(map.shards.size());
    r.at = QDateTime::currentDateTimeUtc();
    return r;
}

Status recordAudit(Database &db, const QString &filterTable, const AuditReport &r)
{
    if (auto s = db.exec(QStringLiteral(
            "create table if not exists bloomscope_audit (id bigserial primary key, filter_table text not null, "
            "at timestamptz not null default now(), shards int not null, sampled bigint not null, "
            "false_negatives jsonb not null, probes bigint not null, false_positives bigint not null, "
            "measured float8 not null, low95 float8 not null, high95 float8 not null, estimated float8 not null)"));
        !s)
        return s;
    QJsonArray fn;
    for (const QByteArray &n : r.falseNegatives)
        fn.append(QString::fromUtf8(n));
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("insert into bloomscope_audit (filter_table, at, shards, sampled, false_negatives, "
                             "probes, false_positives, measured, low95, high95, estimated) "
                             "values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant &v :
         {QVariant(filterTable), QVariant(r.at.isValid() ? r.at : QDateTime::currentDateTimeUtc()), QVariant(r.shards),
          QVariant(r.sampled), QVariant(QString::fromUtf8(QJsonDocument(fn).toJson(QJsonDocument::Compact))),
          QVariant(r.probes), QVariant(r.falsePositives), QVariant(r.measured), QVariant(r.low95), QVariant(r.high95),
          QVariant(r.estimated)})
        q.addBindValue(v);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("recording the audit in bloomscope_audit"));
    return success();
}

Result<std::optional<AuditReport>> lastAudit(Database &db, const QString &filterTable)
{
    QSqlQuery q(db.db());
    if (!q.exec(QStringLiteral("select to_regclass('bloomscope_audit') is not null")) || !q.next())
        return Database::queryError(q, QStringLiteral("looking for bloomscope_audit"));
    if (!q.value(0).toBool())
        return std::optional<AuditReport>{};
    q.prepare(QStringLiteral("select at, shards, sampled, false_negatives::text, probes, false_positives, measured, "
                             "low95, high95, estimated from bloomscope_audit where filter_table = ? "
                             "order by at desc, id desc limit 1"));
    q.addBindValue(filterTable);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the last audit"));
    if (!q.next())
        return std::optional<AuditReport>{};
    AuditReport r;
    r.at = q.value(0).toDateTime();
    r.shards = q.value(1).toInt();
    r.sampled = q.value(2).toLongLong();
    for (const QJsonValue &v : QJsonDocument::fromJson(q.value(3).toString().toUtf8()).array())
        r.falseNegatives.append(v.toString().toUtf8());
    r.probes = q.value(4).toLongLong();
    r.falsePositives = q.value(5).toLongLong();
    r.measured = q.value(6).toDouble();
    r.low95 = q.value(7).toDouble();
    r.high95 = q.value(8).toDouble();
    r.estimated = q.value(9).toDouble();
    return std::optional<AuditReport>{r};
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
    mLookupSql.clear();
    for (int i = 0; i < mMap.shards.size(); ++i) {
        auto c = std::make_unique<PgConn>(mMap.shards[i].toConninfo());
        if (!c->ok())
            return makeError(
                ErrorKind::Connection,
                QStringLiteral("shard %1 (%2): %3").arg(i).arg(mMap.shards[i].describe(), c->errorMessage()));
        // The tombstones of deleted accounts, where delete-user ever left one.
        auto has = c->column(QStringLiteral("select to_regclass('bloomscope_deleted_users') is not null"));
        if (!has)
            return makeError(ErrorKind::Connection, QStringLiteral("shard %1: %2").arg(i).arg(has.error().message));
        QString sql = QStringLiteral("select exists (select 1 from %1 where lower(%2) = lower($1))")
                          .arg(c->quoteIdentifier(mMap.table), c->quoteIdentifier(mMap.column));
        sql += has->value(0) == "t"
                   ? QStringLiteral(", exists (select 1 from bloomscope_deleted_users where lower_name = lower($1))")
                   : QStringLiteral(", false");
        mLookupSql.push_back(sql);
        mConns.push_back(std::move(c));
    }
    return success();
}

void ShardPool::cancel()
{
    for (const auto &c : mConns)
        c->cancel();
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
            auto r = c.rows(mLookupSql[i], {name});
            const double ms = double(t.nsecsElapsed()) / 1e6;
            std::lock_guard lock(mutex);
            ++answer.shardQueries;
            answer.slowestMs = qMax(answer.slowestMs, ms);
            if (!r)
                errors.append(r.error());
            else if (r->value(0).value(0) == "t") {
                answer.taken = true;
                answer.foundOnShard = int(i);
            } else if (r->value(0).value(1) == "t")
                answer.deleted = true;
        });
    for (auto &t : threads)
        t.join();
    answer.totalMs = double(wall.nsecsElapsed()) / 1e6;
    if (!errors.isEmpty())
        return errors.first();
    if (answer.taken)
        answer.deleted = false; // deleted once, signed up again
    return answer;
}

Result<qint64> deleteUser(const ShardMap &map, const QByteArray &name)
{
    qint64 deleted = 0;
    for (int i = 0; i < map.shards.size(); ++i) {
        PgConn conn(map.shards[i].toConninfo());
        if (!conn.ok())
            return makeError(ErrorKind::Connection, QStringLiteral("shard %1: %2").arg(i).arg(conn.errorMessage()));
        // Delete and leave the tombstone in one transaction: a lookup never sees the name nowhere.
        if (auto s = conn.exec(QStringLiteral(
                "begin; create table if not exists bloomscope_deleted_users "
                "(lower_name text not null, deleted_at timestamptz not null default now()); "
                "create index if not exists bloomscope_deleted_users_name on bloomscope_deleted_users (lower_name)"));
            !s)
            return makeError(ErrorKind::Server, QStringLiteral("shard %1: %2").arg(i).arg(s.error().message));
        auto r = conn.column(QStringLiteral("with d as (delete from %1 where lower(%2) = lower($1) returning 1), "
                                            "t as (insert into bloomscope_deleted_users (lower_name) "
                                            "select lower($1) where exists (select 1 from d) returning 1) "
                                            "select (select count(*) from d), (select count(*) from t)")
                                 .arg(conn.quoteIdentifier(map.table), conn.quoteIdentifier(map.column)),
                             {name});
        if (!r)
            return makeError(ErrorKind::Server, QStringLiteral("shard %1: %2").arg(i).arg(r.error().message));
        if (auto s = conn.exec(QStringLiteral("commit")); !s)
            return makeError(ErrorKind::Server, QStringLiteral("shard %1: %2").arg(i).arg(s.error().message));
        deleted += r->value(0).toLongLong();
    }
    return deleted;
}

Result<QList<QByteArray>> replayNames(const ShardMap &map, qint64 count, double takenShare, quint32 seed)
{
    QList<QByteArray> names;
    const qint64 taken = qBound<qint64>(0, qRound64(double(count) * takenShare), count);
    if (taken > 0) {
        PgConn shard0(map.shards.first().toConninfo());
        if (!shard0.ok())
            return makeError(ErrorKind::Connection, QStringLiteral("shard 0: %1").arg(shard0.errorMessage()));
        auto rows = shard0.column(QStringLiteral("select %1 from %2 order by random() limit $1")
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
