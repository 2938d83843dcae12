#pragma once

#include "connectionspec.h"
#include "result.h"

#include <QList>
#include <QString>

namespace bloom {

/**
 * The shards that hold the users, read from a small text file shared by bloomctl and the GUI:
 *
 *     # comments and blank lines are ignored
 *     table = users                 # the users table on every shard (default users)
 *     column = username             # its name column (default username)
 *     shard = host=db1 dbname=users_0
 *     shard = service=users_1
 *
 * A shard is any libpq connection string or URI. Users are placed on shard (id mod shards).
 */
struct ShardMap {
    QString table = QStringLiteral("users");
    QString column = QStringLiteral("username");
    QList<ConnectionSpec> shards;

    static Result<ShardMap> parse(const QString &text, const QString &source = QStringLiteral("shard map"));
    static Result<ShardMap> load(const QString &path);
    QString toText() const;
};

/** The exact answer over every shard, and what it cost. */
struct ExactAnswer {
    bool taken = false;
    int shardQueries = 0; ///< queries sent (one per shard)
    double slowestMs = 0; ///< the slowest shard's round trip
    double totalMs = 0;   ///< wall time of the scatter-gather
    int foundOnShard = -1;
};

/** `audit`: real usernames sampled from every shard must all check "maybe"; random non-members
 *  give the measured FPR. */
struct AuditReport {
    qint64 sampled = 0;
    QList<QByteArray> falseNegatives; ///< users the filter calls free: must be empty
    qint64 probes = 0, falsePositives = 0;
    double measured = 0, low95 = 0, high95 = 0, estimated = 0;
};

class FilterStore;
/** Samples up to `perShard` users of every shard (random order) and `probes` never-added names. */
Result<AuditReport> audit(FilterStore &store, const ShardMap &map, qint64 perShard, qint64 probes);

/** Asks every shard at once whether a user with this name exists (lower() on both sides). */
Result<ExactAnswer> exactLookup(const ShardMap &map, const QByteArray &name);

} // namespace bloom
