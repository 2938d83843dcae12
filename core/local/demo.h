#pragma once

#include "common/result.h"
#include "local/localcluster.h"
#include "postgres/filterstore.h"

#include <QByteArray>
#include <QList>

#include <functional>

namespace bloom {

/** Generated, plausible usernames ("grace_hopper42"), deterministic for a seed. */
QList<QByteArray> demoNames(qint64 count, quint32 seed = 20260419);

/**
 * The demo database: a private LocalCluster with the reference filter installed verbatim and
 * `names` generated names loaded. Returns the connection string of the filter's database.
 */
Result<QString> startDemo(LocalCluster &cluster, qint64 names,
                          const std::function<void(qint64 done, qint64 total)> &progress = {},
                          const std::atomic<bool> *cancel = nullptr);

/**
 * The demo with shards: `shards` databases users_0.. with a users table (id bigint, username), the
 * names spread by id (id mod shards), every name also in the filter. Returns the shard map.
 */
Result<QString> startShardedDemo(LocalCluster &cluster, qint64 names, int shards,
                                 const std::function<void(qint64 done, qint64 total)> &progress = {},
                                 const std::atomic<bool> *cancel = nullptr);

} // namespace bloom
