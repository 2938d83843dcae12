#include "shards/shardpool.h"

#include "model/name.h"
#include "postgres/pgconn.h"

#include <QElapsedTimer>

#include <mutex>
#include <thread>

namespace bloom {

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
        auto c = std::make_unique<PgConn>(mMap.shards[i].toConninfo(), PgConn::SearchPath::CatalogFirst);
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
        PgConn conn(map.shards[i].toConninfo(), PgConn::SearchPath::CatalogFirst);
        if (!conn.ok())
            return makeError(ErrorKind::Connection, QStringLiteral("shard %1: %2").arg(i).arg(conn.errorMessage()));
        // The tombstones live beside the users table (the session's search_path starts at pg_catalog).
        auto schema =
            conn.column(QStringLiteral("select n.nspname from pg_catalog.pg_class c join pg_catalog.pg_namespace n "
                                       "on n.oid = c.relnamespace where c.oid = pg_catalog.to_regclass($1)"),
                        {conn.quoteIdentifier(map.table).toUtf8()});
        if (!schema || schema->isEmpty())
            return makeError(ErrorKind::Server, QStringLiteral("shard %1: there is no table %2").arg(i).arg(map.table));
        const QString tombstones =
            conn.quoteIdentifier(QString::fromUtf8(schema->first())) + QStringLiteral(".bloomscope_deleted_users");
        // Delete and leave the tombstone in one transaction: a lookup never sees the name nowhere.
        if (auto s =
                conn.exec(QStringLiteral("begin; create table if not exists %1 "
                                         "(lower_name text not null, deleted_at timestamptz not null default now()); "
                                         "create index if not exists bloomscope_deleted_users_name on %1 (lower_name)")
                              .arg(tombstones));
            !s)
            return makeError(ErrorKind::Server, QStringLiteral("shard %1: %2").arg(i).arg(s.error().message));
        auto r = conn.column(QStringLiteral("with d as (delete from %1 where lower(%2) = lower($1) returning 1), "
                                            "t as (insert into %3 (lower_name) "
                                            "select lower($1) where exists (select 1 from d) returning 1) "
                                            "select (select count(*) from d), (select count(*) from t)")
                                 .arg(conn.quoteIdentifier(map.table), conn.quoteIdentifier(map.column), tombstones),
                             {name});
        if (!r)
            return makeError(ErrorKind::Server, QStringLiteral("shard %1: %2").arg(i).arg(r.error().message));
        if (auto s = conn.exec(QStringLiteral("commit")); !s)
            return makeError(ErrorKind::Server, QStringLiteral("shard %1: %2").arg(i).arg(s.error().message));
        deleted += r->value(0).toLongLong();
    }
    return deleted;
}

} // namespace bloom
