#pragma once

#include "common/result.h"
#include "local/localcluster.h"
#include "postgres/filterstore.h"

#include <QByteArray>
#include <QList>

#include <functional>

namespace bloom {

/** Generated name number `i` ("grace_hopper42", some capitalised; unique by its number), written into
 *  `out` (at least DemoNameMax bytes) with no allocation; returns its length. Deterministic for a seed. */
constexpr int DemoNameMax = 48;
int demoName(qint64 i, quint32 seed, char *out);
/** Names 0..count-1 of demoName() as a list (for small demos: the Redis filter, teaching). */
QList<QByteArray> demoNames(qint64 count, quint32 seed = 20260419);
/** The seed of the demo database's names. */
constexpr quint32 DemoSeed = 20260419;

/**
 * The demo database: a private LocalCluster with the reference filter installed verbatim and
 * `names` generated names (demoName 0..names-1) in it. The names are never held: they are made, hashed
 * and ORed into one in-memory copy of the filter on every core, which goes in with one binary COPY
 * (100M names: about 128 MiB of client memory). Returns the connection string of the filter's database.
 */
struct DemoTimings {
    double serverSeconds = 0;  ///< initdb, start, the database and the reference SQL
    double hashSeconds = 0;    ///< names made and placed into the bit array
    double copySeconds = 0;    ///< the table emptied and written with one COPY
    double analyzeSeconds = 0; ///< ANALYZE
};
Result<QString> startDemo(LocalCluster &cluster, qint64 names,
                          const std::function<void(qint64 done, qint64 total)> &progress = {},
                          const std::atomic<bool> *cancel = nullptr, DemoTimings *timings = nullptr);

/**
 * The demo with shards: `shards` databases users_0.. with a users table (id bigint, username), the
 * names spread by id (id mod shards), every name also in the filter. Returns the shard map.
 */
Result<QString> startShardedDemo(LocalCluster &cluster, qint64 names, int shards,
                                 const std::function<void(qint64 done, qint64 total)> &progress = {},
                                 const std::atomic<bool> *cancel = nullptr);

} // namespace bloom
