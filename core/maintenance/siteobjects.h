// Internal to maintenance/: the indexes and triggers a site made on the live table, read from the
// catalog as their parts and composed again on another table (the swap's carry-over).
#pragma once

#include "common/result.h"
#include "postgres/database.h"

#include <QList>
#include <QString>

#include <utility>

namespace bloom::maintenance {

/** One column of an index: a table column or an expression, and how it is indexed. */
struct IndexColumn {
    QString column;     ///< the table's column, or empty for an expression
    QString expression; ///< the server's deparse of the stored expression (pinned search_path)
    QString opclassSchema, opclass;
    QList<std::pair<QString, QString>> opclassOptions;
    QString collationSchema, collation; ///< empty: none (a type without collation)
    int sort = 0;                       ///< pg_index.indoption: 1 DESC, 2 NULLS FIRST
    int statistics = -1;                ///< ALTER INDEX ... SET STATISTICS, -1 when not set
};

/** An index of the live table, as pg_index, pg_class, pg_am, pg_opclass and pg_collation hold it. */
struct SiteIndex {
    QString name, method, predicate, tablespace, comment;
    bool primary = false, constraint = false, valid = true, canOrder = false, unique = false, nullsNotDistinct = false,
         clustered = false, replicaIdentity = false;
    int keyColumns = 0;
    QList<IndexColumn> columns; ///< the key columns, then the INCLUDE columns
    QList<std::pair<QString, QString>> options;
    bool hasExpressions() const;
    /** CREATE INDEX under this index's name on `quotedTable`: every identifier quoted by quoteIdent,
     *  every value a literal quoted by libpq. */
    QString createSql(const Database &db, const QString &quotedTable) const;
};

/** A trigger of the live table, as pg_trigger holds it. */
struct SiteTrigger {
    QString name, functionSchema, function, oldTable, newTable, enabled, comment;
    int type = 0;
    bool constraint = false, hasWhen = false;
    QStringList arguments, updateColumns;
    /** CREATE TRIGGER under this trigger's name on `quotedTable`, then its enabled state. */
    QString createSql(const Database &db, const QString &quotedTable) const;
};

/** The indexes of `quotedTable` (resources/sql/carryover_indexes.sql), by name. */
Result<QList<SiteIndex>> siteIndexes(Database &db, const QString &quotedTable);
/** The triggers of `quotedTable` that are not internal (resources/sql/carryover_triggers.sql). */
Result<QList<SiteTrigger>> siteTriggers(Database &db, const QString &quotedTable);

} // namespace bloom::maintenance
