#pragma once

#include "common/result.h"
#include "shards/shardmap.h"

#include <QByteArray>
#include <QString>

#include <memory>
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
