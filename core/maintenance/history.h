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
    /** Where the read stood in the server's history (FillSnapshot::position, a 64-bit xid): the chunks
     *  written since are the rows with a newer xmin (FilterStore::writtenSince). Empty for a snapshot
     *  recorded before the column existed, or by the server-side function. */
    QString position;
};

/**
 * The filter over time, kept in `bloomscope_history` in the filter table's schema: one row per
 * snapshot, created on first use (owner: the recording role; nothing granted to PUBLIC).
 */
class History {
public:
    /** The SQL that creates the table, for a DBA to run (or grant) when the recording role may not. */
    static QString createSql(const QString &quotedSchema);
    /** The server-side bloomscope_record(table, function, thin) that pg_cron calls (bloomscope_history's
     *  snapshot computed on the server); nothing granted to PUBLIC. */
    static QString functionSql(const QString &quotedSchema);
    /** Creates bloomscope_record (and the table, when missing) in `store`'s schema, in one transaction;
     *  returns recordCall(). A table a publication would send to subscribers that lack it is refused
     *  unless `publicationOk` (docs/operations.md "Logical replication"). */
    static Result<QString> installFunction(Database &db, FilterStore &store, bool publicationOk = false);
    /** The statement that records a thinned snapshot of `store` on the server (what pg_cron runs). */
    static Result<QString> recordCall(Database &db, FilterStore &store);
    /** createSql() for the schema of `store`'s table. */
    static Result<QString> createSqlFor(Database &db, FilterStore &store);

    /** Reads the fill of `store` and records it; creates the table if it is missing (refused, as for
     *  installFunction(), when a publication would send it to subscribers, unless `publicationOk`). `at`
     *  overrides the time recorded (the demo's accelerated clock); invalid: the server's now(). */
    static Result<Snapshot> record(Database &db, FilterStore &store, const QDateTime &at = {},
                                   bool publicationOk = false);
    /** The snapshots of `store`'s table taken at or after `since` (all when invalid) with an id above
     *  `afterId`, oldest first. */
    static Result<QList<Snapshot>> list(Database &db, FilterStore &store, const QDateTime &since = {},
                                        qint64 afterId = 0);
    /** Whether `store`'s schema has a history table (one this role may trust). */
    static Result<bool> exists(Database &db, FilterStore &store);
    /** The newest snapshot of `store`'s table, if any (none also when there is no history table). */
    static Result<std::optional<Snapshot>> newest(Database &db, FilterStore &store);
    /**
     * Thins the history of `store`'s table: every snapshot of the last `keepAllDays`, the first of each
     * hour up to `hourlyDays`, the first of each day after that. One DELETE; returns the rows deleted.
     */
    static Result<qint64> thin(Database &db, FilterStore &store, int keepAllDays = 7, int hourlyDays = 90);
};

} // namespace bloom
