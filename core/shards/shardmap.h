#pragma once

#include "common/result.h"
#include "postgres/connectionspec.h"

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

} // namespace bloom
