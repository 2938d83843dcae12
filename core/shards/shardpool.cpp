#include "shards/shardpool.h"

#include "model/name.h"
#include "postgres/pgconn.h"

#include <QElapsedTimer>

#include <mutex>
#include <thread>

namespace bloom {

QString sameLowerName(const QString &column, bool lowerColumn)
{
    return QStringLiteral("%1 operator(pg_catalog.=) pg_catalog.lower($1::text)")
        .arg(lowerColumn ? QStringLiteral("pg_catalog.lower(%1::text)").arg(column) : column);
}

Result<std::pair<QString, bool>> tombstones(PgConn &shard, const QString &usersTable)
{
    // Explicit memberships only (pg_has_role() is true for a superuser and every role). A view, or a
    // table with another role's triggers, would run that role's code as this session.
    auto r = shard.rows(
        QStringLiteral(
            "with recursive mine(roleid) as (select r.oid from pg_catalog.pg_roles r where r.rolname = current_user "
            "  union select a.roleid from pg_catalog.pg_auth_members a join mine on a.member = mine.roleid), "
            "users as (select c.relnamespace, c.relowner from pg_catalog.pg_class c "
            "  where c.oid = pg_catalog.to_regclass($1)) "
            "select n.nspname, t.oid is not null, t.relkind::text, t.relowner::regrole::text, "
            "  t.relowner = u.relowner or t.relowner in (select roleid from mine) "
            "  or (select r.rolsuper from pg_catalog.pg_roles r where r.oid = t.relowner) "
            "from users u join pg_catalog.pg_namespace n on n.oid = u.relnamespace "
            "left join pg_catalog.pg_class t on t.relnamespace = u.relnamespace "
            "  and t.relname = 'bloomscope_deleted_users'"),
        {shard.quoteIdentifier(usersTable).toUtf8()});
    if (!r)
        return r.error();
    if (r->isEmpty())
        return makeError(ErrorKind::Server, QStringLiteral("there is no table %1").arg(usersTable));
    const QList<QByteArray> &row = r->first();
    const QString table =
        shard.quoteIdentifier(QString::fromUtf8(row.value(0))) + QStringLiteral(".bloomscope_deleted_users");
    const bool exists = row.value(1) == "t";
    if (exists && (row.value(2) != "r" || row.value(4) != "t"))
        return makeError(
            ErrorKind::Refused,
            QStringLiteral("refusing to use %1: it is %2 owned by role %3, which is neither you, a role of "
                           "yours, the owner of %4 nor a superuser (another role created it)")
                .arg(table, row.value(2) == "r" ? QStringLiteral("a table") : QStringLiteral("not a plain table"),
                     QString::fromUtf8(row.value(3)), usersTable),
            QStringLiteral("inspect it, drop it as its owner or a superuser, and run again"));
    return std::pair{table, exists};
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
        auto c = std::make_unique<PgConn>(mMap.shards[i].toConninfo(), PgConn::SearchPath::CatalogFirst);
        if (!c->ok())
            return makeError(ErrorKind::Connection,
                             QStringLiteral("shard %1 (%2): %3")
                                 .arg(QString::number(i), mMap.shards[i].describe(), c->errorMessage()));
        // The tombstones of deleted accounts, where delete-user ever left one.
        auto graves = tombstones(*c, mMap.table);
        if (!graves)
            return makeError(graves.error().kind,
                             QStringLiteral("shard %1: %2").arg(QString::number(i), graves.error().message),
                             graves.error().fix);
        // Every call and operator names pg_catalog: with a varchar column, a public.lower(varchar) of
        // another role's would be an exact match and beat pg_catalog.lower(text) on any search_path.
        QString sql = QStringLiteral("select exists (select 1 from %1 where %2)")
                          .arg(c->quoteIdentifier(mMap.table), sameLowerName(c->quoteIdentifier(mMap.column)));
        sql += graves->second ? QStringLiteral(", exists (select 1 from %1 where %2)")
                                    .arg(graves->first, sameLowerName(QStringLiteral("lower_name"), false))
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
            return makeError(ErrorKind::Connection,
                             QStringLiteral("shard %1: %2").arg(QString::number(i), conn.errorMessage()));
        // The tombstones live beside the users table (the session's search_path starts at pg_catalog).
        auto graves = tombstones(conn, map.table);
        if (!graves)
            return makeError(graves.error().kind,
                             QStringLiteral("shard %1: %2").arg(QString::number(i), graves.error().message),
                             graves.error().fix);
        const QString tombstones = graves->first;
        // Delete and leave the tombstone in one transaction: a lookup never sees the name nowhere.
        if (auto s = conn.exec(
                QStringLiteral("begin; create table if not exists %1 "
                               "(lower_name text not null, deleted_at timestamptz not null default pg_catalog.now()); "
                               "create index if not exists bloomscope_deleted_users_name on %1 (lower_name)")
                    .arg(tombstones));
            !s)
            return makeError(ErrorKind::Server,
                             QStringLiteral("shard %1: %2").arg(QString::number(i), s.error().message));
        auto r = conn.column(
            QStringLiteral("with d as (delete from %1 where %2 returning 1), "
                           "t as (insert into %3 (lower_name) select pg_catalog.lower($1::text) "
                           "where exists (select 1 from d) returning 1) "
                           "select (select pg_catalog.count(*) from d), "
                           "(select pg_catalog.count(*) from t)")
                .arg(conn.quoteIdentifier(map.table), sameLowerName(conn.quoteIdentifier(map.column)), tombstones),
            {name});
        if (!r)
            return makeError(ErrorKind::Server,
                             QStringLiteral("shard %1: %2").arg(QString::number(i), r.error().message));
        if (auto s = conn.exec(QStringLiteral("commit")); !s)
            return makeError(ErrorKind::Server,
                             QStringLiteral("shard %1: %2").arg(QString::number(i), s.error().message));
        deleted += r->value(0).toLongLong();
    }
    return deleted;
}

} // namespace bloom
