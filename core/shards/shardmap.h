#pragma once

#include "common/result.h"
#include "postgres/connectionspec.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

#include <memory>
#include <vector>

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
    /** Not taken, but a deleted account's name (a tombstone on some shard): the filter keeps its
     *  bits, so it costs a scatter-gather each time. */
    bool deleted = false;
};

/** `audit`: real usernames sampled from every shard must all check "maybe"; random non-members
 *  give the measured FPR. */
struct AuditReport {
    qint64 sampled = 0;
    QList<QByteArray> falseNegatives; ///< users the filter calls free: must be empty
    qint64 probes = 0, falsePositives = 0;
    double measured = 0, low95 = 0, high95 = 0, estimated = 0;
    int shards = 0;
    QDateTime at; ///< when it ran
};

class Database;
/** Keeps the report in bloomscope_audit beside the filter, so the GUI (anywhere) shows the last one. */
Status recordAudit(Database &db, const QString &filterTable, const AuditReport &report);
/** The last recorded audit of this filter; an empty optional when none was ever recorded. */
Result<std::optional<AuditReport>> lastAudit(Database &db, const QString &filterTable);

/** Samples up to `perShard` users of every shard (random order) and `probes` never-added names. */
class FilterStore;
Result<AuditReport> audit(FilterStore &store, const ShardMap &map, qint64 perShard, qint64 probes);

/** Asks every shard at once whether a user with this name exists (lower() on both sides). */
Result<ExactAnswer> exactLookup(const ShardMap &map, const QByteArray &name);

/**
 * Deletes the user on every shard and leaves a tombstone (table bloomscope_deleted_users, created on
 * first use) in the same transaction, so later checks can tell a deleted name from a false positive.
 * The filter keeps the name's bits. Returns the number of users deleted.
 */
Result<qint64> deleteUser(const ShardMap &map, const QByteArray &name);

/** The replay's names: `count` names, a `takenShare` of them real users sampled from the shards and
 *  the rest random twelve-character names (free), shuffled. Deterministic for a seed. */
Result<QList<QByteArray>> replayNames(const ShardMap &map, qint64 count, double takenShare, quint32 seed = 7);

class PgConn;

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

/** How the typing simulator types and when it checks. */
struct SimulationOptions {
    int typingMs = 150; ///< time between keystrokes
    int debounceMs = 0; ///< a check fires only after this long without a key (0: every keystroke)
};

/** One check of the typed text: the filter's path (and the shards on "maybe") and, for comparison,
 *  the shards alone. */
struct KeystrokeCheck {
    QByteArray text;
    bool maybe = false;        ///< the filter's verdict; false = definitely free, shards not asked
    bool taken = false;        ///< the exact answer
    bool deleted = false;      ///< a "maybe" that was a deleted account's name
    int queriesWithFilter = 0; ///< shard queries the filter's path sent
    int queriesWithout = 0;    ///< shard queries without a filter (one per shard)
    double filterPathMs = 0;   ///< filter check, plus the scatter-gather on "maybe"
    double shardsOnlyMs = 0;   ///< the scatter-gather alone
};

/** Checks `text` both ways; `compare` = false skips the shards-alone path. */
Result<KeystrokeCheck> checkKeystroke(FilterStore &store, ShardPool &shards, const QByteArray &text,
                                      bool compare = true);

/** Queries and latency with the filter in front of the shards, and without it. */
struct SimulationReport {
    qint64 names = 0, keystrokes = 0, checks = 0;
    qint64 deletedScatterGathers = 0;        ///< "maybe"s that were deleted accounts' names
    qint64 filterMaybes = 0;                 ///< checks the filter could not rule out
    qint64 shardQueriesWithFilter = 0;       ///< one per shard per "maybe"
    qint64 shardQueriesWithout = 0;          ///< one per shard per check
    double filterP50Ms = 0, filterP99Ms = 0; ///< a check through the filter, including any fallback
    double shardsP50Ms = 0, shardsP99Ms = 0; ///< a scatter-gather over every shard
};

/** Called after every check with the index of the name being typed; return false to stop. */
using SimulationObserver = std::function<bool(qsizetype nameIndex, const KeystrokeCheck &check)>;

/** Types each name key by key; at every check asks the filter (then the shards on "maybe") and,
 *  for comparison, the shards alone. */
Result<SimulationReport> simulate(FilterStore &store, ShardPool &shards, const QList<QByteArray> &names,
                                  const SimulationOptions &options, const SimulationObserver &observer = {});

} // namespace bloom
