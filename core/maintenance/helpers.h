// Where a rebuild's helper objects live, and whether to trust them (also the other side tables kept
// beside a filter: bloomscope_history, bloomscope_audit).
#pragma once

#include "common/result.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"

#include <QString>

#include <optional>

namespace bloom::maintenance {

/** The helper objects of a rebuild: all in the live table's schema, quoted. */
struct Helpers {
    QualifiedName liveTable;    ///< resolved
    QualifiedName liveFunction; ///< resolved
    QString schema;             ///< quoted schema
    QString state;              ///< schema.bloomscope_rebuild
    QString pending;            ///< schema.bloomscope_pending
    QString record;             ///< schema.bloomscope_record(text): the live function's recorder
    QString recordNames;        ///< schema.bloomscope_record_names(regclass, text[]): the write path's (FilterWriter)
    QString swapped;            ///< schema.bloomscope_swapped: the old pairs swaps kept, for drop-old
    QString quoted(const QString &name) const { return schema + QLatin1Char('.') + quoteIdent(name); }
};

Result<Helpers> helpers(Database &db, const FilterRef &live);

/**
 * Whether the helper table `quotedTable` (if it exists) may be believed: its owner must be the
 * current user, a role the current user is a member of, the live table's owner, or a superuser.
 * Anything else was planted by another role and is refused with its owner's name. Returns false
 * when the table does not exist.
 */
Result<bool> trustedHelperExists(Database &db, const Helpers &h, const QString &quotedTable);

/** The live filter's helpers when the helper table `table` (&Helpers::state, &Helpers::swapped, ...)
 *  exists and may be believed (trustedHelperExists); nullopt when it does not exist. */
Result<std::optional<Helpers>> helpersWith(Database &db, const FilterRef &live, QString Helpers::*table);

/** Runs exactly one statement with the extended protocol (no second statement can ride along). */
Status execOne(Database &db, const QString &sql, const QString &what);
/** Runs several statements as one implicit transaction (the simple query protocol): all or nothing. */
Status execScript(Database &db, const QString &sql, const QString &what);

/** `name` + `suffix`, with `name` cut at a UTF-8 character boundary so that the whole stays within
 *  63 bytes (NAMEDATALEN - 1). */
QString suffixed(const QString &name, const QString &suffix);

} // namespace bloom::maintenance
