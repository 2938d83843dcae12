// Where a rebuild's helper objects live, and whether to trust them (also the other side tables kept
// beside a filter: bloomscope_history, bloomscope_audit).
#pragma once

#include "common/result.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/helpertrust.h"

#include <QString>

#include <optional>

namespace bloom::maintenance {

/**
 * Bloomscope's helper objects of a filter, quoted, all in one schema, the helper schema. That schema
 * must be one only trusted roles may create in: a role that owns a schema can drop and re-create
 * anything in it, so a security definer function or a DBA's session that used a helper planted there
 * would run that role's code (docs/operations.md "Privileges"). Trusted: the live table's owner and its
 * members, superusers, and the database's owner when it is one of these (pg_database_owner owns `public`
 * in PostgreSQL 15); never a role merely because the session is a member of it (trustedRolesCte). Where
 * they live is decided once, by decideHelperTrust, which the write path's guard takes too.
 */
struct Helpers {
    QualifiedName liveTable;    ///< resolved
    QualifiedName liveFunction; ///< resolved
    QString schema;             ///< quoted schema of the live pair (where a rebuilt pair is built and renamed)
    QString helperSchemaName;   ///< the helper schema, unquoted
    QString helperSchema;       ///< the helper schema, quoted
    QString state;              ///< helper schema.bloomscope_rebuild
    QString pending;            ///< helper schema.bloomscope_pending
    QString record;             ///< helper schema.bloomscope_record(text): the live function's recorder
    QString recordNames;        ///< helper schema.bloomscope_record_names(regclass, text[]): the write path's
    QString swapped;            ///< helper schema.bloomscope_swapped: the old pairs swaps kept, for drop-old
    QString history;            ///< helper schema.bloomscope_history
    QString audit;              ///< helper schema.bloomscope_audit
    HelperTrust trust;          ///< the decision they were placed by (helpersFor), when it was read
    /** `name` in the live pair's schema. */
    QString quoted(const QString &name) const { return schema + QLatin1Char('.') + quoteIdent(name); }
    /** `name` in the helper schema. */
    QString helper(const QString &name) const { return helperSchema + QLatin1Char('.') + quoteIdent(name); }
    /** The helpers are in a schema of their own (bloomscope), not beside the filter. */
    bool dedicated() const { return helperSchemaName != liveTable.schema; }
};

/** The names of the helpers of the filter `table` / `function` (resolved) in schema `helperSchema`
 *  (unquoted): no look at the database. */
Helpers helpersIn(const QualifiedName &table, const QualifiedName &function, const QString &helperSchema);

/**
 * The filter's helpers where they live: the dedicated schema (bloom::helperSchemaFor, `bloomscope` for
 * filters in public) when it exists (refused when it may not be trusted); else the live table's own
 * schema when it may be trusted (the common case, and where an older Bloomscope kept them); else the
 * dedicated schema, which a write creates (ensureHelperSchema).
 */
Result<Helpers> helpers(Database &db, const FilterRef &live);
/** helpers() of a filter whose names are resolved. */
Result<Helpers> helpersFor(Database &db, const QualifiedName &table, const QualifiedName &function);

/**
 * Creates the dedicated helper schema when the helpers go there and it is missing: owned by the live
 * table's owner, CREATE revoked from PUBLIC, USAGE granted to the roles that may read or update the
 * live table. Refused with the SQL to run when this role may not create it (CREATE on the database,
 * and being the owner, a member of it or a superuser). Nothing to do when the helpers live beside the
 * filter (that schema is trusted, or helpers() would not have chosen it).
 */
Status ensureHelperSchema(Database &db, const Helpers &h);
/** The statements ensureHelperSchema() runs (empty when there is nothing to create), for a DBA to
 *  run when this role may not. */
Result<QString> helperSchemaSql(Database &db, const Helpers &h);

/**
 * How a maintenance transaction makes objects that must be the live table's owner's (the helper
 * objects, a rebuild's security definer recorders): the one decision, from the catalog.
 *  - this session is the owner, or may not act as it and is no superuser: as itself (empty prologue);
 *  - it may act as the owner (a member, or a superuser) and the owner may CREATE in every schema of
 *    `schemas`: as the owner (`set local role OWNER`);
 *  - the owner may not, and this session is a superuser: as itself, then handed to the owner
 *    (handOver: epilogue() alters each object's owner), as Bloomscope did before it acted as the owner;
 *  - the owner may not, and this session is no superuser: refused (ErrorKind::Refused) naming the owner
 *    and the exact GRANT (a swap would also need it: the new pair is handed to the owner).
 * `schemas` are unquoted; `what` says what is being done ("rebuild public.username_filter").
 */
struct OwnerAct {
    QString prologue;      ///< "set local role OWNER;\n", or empty
    QString owner;         ///< the owner, quoted
    bool handOver = false; ///< created as this superuser session: epilogue() hands them over
    /** "alter table T owner to OWNER;\n" for each table and "alter function F owner to ..." for each
     *  function signature (quoted, with its argument types), when handOver; empty otherwise. */
    QString epilogue(const QStringList &tables, const QStringList &functions) const;
};
Result<OwnerAct> ownerAct(Database &db, const Helpers &h, const QStringList &schemas, const QString &what);

/** The roles (quoted, "public" for PUBLIC) that hold `privilege` (SELECT, UPDATE) on the live table,
 *  on the table itself or on its bits column, its owner included. */
Result<QStringList> granteesOf(Database &db, const Helpers &h, const QString &privilege);

/** The grants that let the filter's readers read helper table `table` (and USAGE on the helper
 *  schema), as statements; `columns` limits the SELECT (e.g. the pending table's, never the names). */
Result<QString> readerGrants(Database &db, const Helpers &h, const QString &table, const QString &columns = {});

/**
 * Whether the helper table `name` (unquoted, in the helper schema) exists and may be believed: its
 * owner must be trusted (see Helpers). Anything else was planted by another role and is refused with
 * its owner's name. False when it does not exist. Read from the catalog: no privilege on the schema
 * is needed to ask.
 */
Result<bool> trustedHelperExists(Database &db, const Helpers &h, const QString &name);

/** The live filter's helpers when helper table `name` exists and may be believed; nullopt when not. */
Result<std::optional<Helpers>> helpersWith(Database &db, const FilterRef &live, const QString &name);

/** Runs exactly one statement with the extended protocol (no second statement can ride along). */
Status execOne(Database &db, const QString &sql, const QString &what);
/** Runs several statements as one implicit transaction (the simple query protocol): all or nothing. */
Status execScript(Database &db, const QString &sql, const QString &what);

/** `name` + `suffix`, with `name` cut at a UTF-8 character boundary so that the whole stays within
 *  63 bytes (NAMEDATALEN - 1). */
QString suffixed(const QString &name, const QString &suffix);

} // namespace bloom::maintenance
