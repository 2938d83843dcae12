#pragma once

#include "common/result.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"

#include <QDateTime>
#include <QList>

#include <optional>

namespace bloom {

/** One recorded look at a filter: a row of bloomscope_history beside the filter's table. */
struct Snapshot {
    qint64 id = 0;
    QDateTime takenAt;
    QString table; ///< the filter table it was taken of, as attached
    Geometry geometry;
    quint64 setBits = 0;
    double estimatedNames = 0;
    double estimatedFpr = 0;
    quint32 fullestChunk = 0;
    quint32 fullestSetBits = 0;
    QList<qint64> histogram; ///< chunks per tenth of the chunk's bits set (10 buckets)
    double costMs = 0;       ///< what reading the fill took
};

/**
 * The filter over time, kept in `bloomscope_history` in the filter table's schema: one row per
 * snapshot, created on first use (owner: the recording role; nothing granted to PUBLIC).
 */
class History {
public:
    /** The SQL that creates the table, for a DBA to run (or grant) when the recording role may not. */
    static QString createSql(const QString &quotedSchema);
    /** createSql() for the schema of `store`'s table. */
    static Result<QString> createSqlFor(Database &db, FilterStore &store);

    /** Reads the fill of `store` and records it; creates the table if it is missing. */
    static Result<Snapshot> record(Database &db, FilterStore &store);
    /** The snapshots of `store`'s table taken at or after `since` (all when invalid), oldest first. */
    static Result<QList<Snapshot>> list(Database &db, FilterStore &store, const QDateTime &since = {});
    /** The newest snapshot of `store`'s table, if any (none also when there is no history table). */
    static Result<std::optional<Snapshot>> newest(Database &db, FilterStore &store);
    /**
     * Thins the history of `store`'s table: every snapshot of the last `keepAllDays`, the first of each
     * hour up to `hourlyDays`, the first of each day after that. One DELETE; returns the rows deleted.
     */
    static Result<qint64> thin(Database &db, FilterStore &store, int keepAllDays = 7, int hourlyDays = 90);
};

} // namespace bloom
