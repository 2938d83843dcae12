// Logical replication (docs/operations.md "Logical replication"): the publications that carry a table Bloomscope
// creates or swaps to subscribers, the SQL those subscribers run first, and the publication steps of a
// rebuild and a swap.
#pragma once

#include "common/result.h"
#include "maintenance/helpers.h"
#include "model/geometry.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace bloom::maintenance {

/** A publication of the filter's database that reaches the filter's table or its schema. */
struct Publication {
    QString name;
    bool allTables = false;  ///< FOR ALL TABLES: every table, also one created later
    bool inSchema = false;   ///< FOR TABLES IN SCHEMA of the filter's schema (PostgreSQL 15)
    bool listsTable = false; ///< FOR TABLE the filter's table
    QString columns;         ///< its column list for the table ("chunk, bits"), or empty
    QString rowFilter;       ///< its row filter for the table, or empty
    QString owner;
    bool mayAlter = false; ///< the current role is its owner, a member of the owner, or a superuser

    /** Whether a table created in the filter's schema joins it at once. */
    bool takesNewTables() const { return allTables || inSchema; }
    /** "pub" (FOR ALL TABLES), "pub" (FOR TABLES IN SCHEMA public), "pub" (FOR TABLE public.t) */
    QString describe(const QualifiedName &table) const;
    /** What ALTER PUBLICATION ... ADD TABLE needs after the table's name: its column list and row filter. */
    QString membership() const;
};

/** The publications that reach a filter's table, and the logical slots that stream from this database. */
struct Publications {
    QualifiedName table; ///< resolved
    QList<Publication> list;
    QStringList slotNames; ///< logical (pgoutput) slots of this database: a subscription's, unless it chose another

    bool isEmpty() const { return list.isEmpty(); }
    bool takeNewTables() const;
    bool listTable() const;
    /** The described publications, joined ("\"a\" (FOR ALL TABLES) and \"b\" (FOR TABLE ...)"). */
    QString describe(bool takingNewTables, bool listingTable) const;
    /** ALTER SUBSCRIPTION ... REFRESH PUBLICATION, naming the slots this server knows of. */
    QString refreshStep() const;
};

/** The publications of `db` that reach `table` (resolved) or every new table of its schema. */
Result<Publications> publicationsOf(Database &db, const QualifiedName &table);

/** The consent that overrides a refusal of this file: `--publication-ok` in bloomctl. */
inline const QString PublicationConsent = QStringLiteral("publication-ok");

/**
 * Refused (ErrorKind::Refused, consent "publication-ok") when a publication would send the new table
 * `created` (what is created, e.g. "public.bloomscope_history") to subscribers that lack it; the fix is
 * `subscriberSql`, the exact SQL each subscriber runs first, then the refresh. Success when `consent`
 * or when no publication takes new tables of `table`'s schema.
 */
Status guardNewTable(Database &db, const QualifiedName &table, const QString &created, const QString &subscriberSql,
                     bool consent);

/** The swap's record of old pairs (bloomscope_swapped), created if missing; nothing for PUBLIC. */
QString swappedTableSql(const QString &quotedTable);

/**
 * A rebuild on a publisher: refused unless `consent` when a publication would send the rebuild's new
 * tables to subscribers that lack them (FOR ALL TABLES, FOR TABLES IN SCHEMA), or lists the live table
 * (the rebuild adds the new table and bloomscope_swapped to it, so that subscribers copy the new table
 * under its own name before the swap and follow the swap in its transaction). The fix is the SQL each
 * subscriber runs first. Refused whatever the consent when such a listing publication is not ours to
 * alter.
 */
Status checkRebuild(Database &db, const FilterRef &live, const QString &intoTable, const QString &intoFunction,
                    const Geometry &geometry, bool consent);

/**
 * After a rebuild's write: bloomscope_swapped exists, and every publication that lists the live table
 * lists the new table too (its column list and row filter) and bloomscope_swapped. Returns what each
 * subscriber runs now, before the swap (empty when nothing is published).
 */
Result<QString> publishRebuilt(Database &db, const FilterRef &live, const QString &intoTable,
                               const QString &intoFunction);

/** What a swap does about the publications that reach the live table. */
struct PublicationCarry {
    QString onNew;                   ///< inside the swap, before the renames: ALTER PUBLICATION ...
    QStringList carried, notCarried; ///< as the carry-over lists them
    QStringList publications;        ///< every publication that reaches the filter (described)
    QString subscriberCheck;         ///< what each subscriber must show before the swap
    QString subscriberAfter;         ///< what each subscriber runs once it has applied the swap ("<OLD_TABLE>")
};

/** The publication part of a swap of `next` and its function `nextFunction` in for the live pair of `h`. */
Result<PublicationCarry> planPublicationCarry(Database &db, const Helpers &h, const QualifiedName &next,
                                              const QualifiedName &nextFunction);

} // namespace bloom::maintenance
