#pragma once

#include "postgres/filterstore.h"
#include "shards/audit.h"
#include "shards/shardmap.h"
#include "shards/simulator.h"

#include <QList>
#include <QMetaType>

#include <vector>

namespace bloom {

/** What the shard worker was doing when something failed. */
enum class ShardTask { Check, Replay, Audit, LastAudit };

/** Words for a message: "check", "replay", "audit", "reading the last audit". */
QString shardTaskName(ShardTask task);

/** What the replay types: generated names, a share of them taken, at a typing speed. */
struct ReplayRequest {
    qint64 names = 1000;
    double takenShare = 0.1;
    SimulationOptions options;
    quint32 seed = 7;
};

/** The replay so far: shard queries summed over the names typed, with and without the filter. */
struct ReplayPoint {
    qint64 namesDone = 0, total = 0;
    qint64 queriesWith = 0, queriesWithout = 0;
};

/** The whole replay: the core report and what the charts need. */
struct ReplayResult {
    SimulationReport report;
    int shards = 0;
    std::vector<double> filterMs, shardsMs; ///< every check's latency, both paths
    /** Shard queries without the filter for the longest free name (twelve characters). */
    qint64 freeNameWithout = 0, freeNameWith = 0;
};

/** The last audit on record, and this session's, if any. */
struct AuditState {
    bool known = false;
    AuditReport report;
    QString recordError; ///< why this session's audit was not kept, if it was not
};

} // namespace bloom

Q_DECLARE_METATYPE(bloom::ShardMap)
Q_DECLARE_METATYPE(bloom::KeystrokeCheck)
Q_DECLARE_METATYPE(bloom::ReplayRequest)
Q_DECLARE_METATYPE(bloom::ReplayPoint)
Q_DECLARE_METATYPE(bloom::ReplayResult)
Q_DECLARE_METATYPE(bloom::AuditState)
Q_DECLARE_METATYPE(bloom::ShardTask)
