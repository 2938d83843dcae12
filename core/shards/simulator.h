#pragma once

#include "common/result.h"
#include "shards/shardmap.h"

#include <QByteArray>
#include <QList>

#include <functional>

namespace bloom {

class FilterStore;
class ShardPool;

/** The replay's names: `count` names, a `takenShare` of them real users sampled from the shards and
 *  the rest random twelve-character names (free), shuffled. Deterministic for a seed. */
Result<QList<QByteArray>> replayNames(const ShardMap &map, qint64 count, double takenShare, quint32 seed = 7);

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
