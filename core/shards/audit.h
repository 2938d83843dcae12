#pragma once

#include "common/result.h"
#include "postgres/identifier.h"
#include "shards/shardmap.h"

#include <QDateTime>
#include <QList>

#include <optional>

namespace bloom {

class Database;
class FilterStore;

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
/** Keeps the report in bloomscope_audit beside the filter, so the GUI (anywhere) shows the last one. A
 *  new audit table that a publication would send to subscribers lacking it is refused unless
 *  `publicationOk` (docs/operations.md "Logical replication"). */
Status recordAudit(Database &db, const QualifiedName &filterTable, const AuditReport &report,
                   bool publicationOk = false);
/** The last recorded audit of this filter; an empty optional when none was ever recorded. */
Result<std::optional<AuditReport>> lastAudit(Database &db, const QualifiedName &filterTable);

/** Samples up to `perShard` users of every shard (random order) and `probes` never-added names. */
class FilterStore;
Result<AuditReport> audit(FilterStore &store, const ShardMap &map, qint64 perShard, qint64 probes);

} // namespace bloom
