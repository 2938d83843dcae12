#pragma once

#include "common/result.h"
#include "shards/shardmap.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <utility>
#include <vector>

namespace bloom {

class PgConn;

/** The exact answer over every shard, and what it cost. */
struct ExactAnswer {
    bool taken = false;
    int shardQueries = 0; ///< queries sent (one per shard)
    double slowestMs = 0; ///< the slowest shard's round trip
    double totalMs = 0;   ///< wall time of the scatter-gather
    int foundOnShard = -1;
    /** Not taken, but a deleted account's name (a tombstone on some shard): the filter keeps its
     *  bits, so it costs a scatter-gather each time. */
    bool deleted = false;
};

/** `column` (or pg_catalog.lower() of it, when `lowerColumn`) equal to the lowercased parameter $1,
 *  with every call and operator in pg_catalog (a planted public.lower(varchar) is never run). */
QString sameLowerName(const QString &column, bool lowerColumn = true);

/**
 * The tombstone table beside the users table `usersTable` on `shard`, quoted and schema-qualified,
 * and whether it exists. One owned by a role that is not this session's, one of its roles, the users
 * table's owner or a superuser, or that is not a plain table, is refused: reading or writing it could
 * run that role's code (a view's functions, a trigger) as this session.
 */
Result<std::pair<QString, bool>> tombstones(PgConn &shard, const QString &usersTable);

/** Asks every shard at once whether a user with this name exists (lower() on both sides). */
Result<ExactAnswer> exactLookup(const ShardMap &map, const QByteArray &name);

/**
 * Deletes the user on every shard and leaves a tombstone (table bloomscope_deleted_users, created on
 * first use) in the same transaction, so later checks can tell a deleted name from a false positive.
 * The filter keeps the name's bits. Returns the number of users deleted.
 */
Result<qint64> deleteUser(const ShardMap &map, const QByteArray &name);

/** One open connection per shard, for many exact lookups (the typing simulator). */
class ShardPool {
public:
    explicit ShardPool(const ShardMap &map);
    ~ShardPool();
    Status connect();
    /** The scatter-gather: one query per shard, all at once. */
    Result<ExactAnswer> lookup(const QByteArray &name);
    int size() const { return int(mConns.size()); }
    /** Cancels the statements in flight on every shard (thread-safe). */
    void cancel();

private:
    ShardMap mMap;
    std::vector<std::unique_ptr<PgConn>> mConns;
    std::vector<QString> mLookupSql; ///< per shard: with the tombstone lookup where the table exists
};

} // namespace bloom
