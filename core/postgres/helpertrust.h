// The one decision of where a filter's helper objects live and which of them Bloomscope may believe or call.
#pragma once

#include "common/result.h"

#include <QString>

typedef struct pg_conn PGconn;

namespace bloom {

/** Names of a rebuild's helper objects in the helper schema (maintenance::Helpers quotes them all). */
inline constexpr char RebuildStateName[] = "bloomscope_rebuild";
inline constexpr char NameRecorderName[] = "bloomscope_record_names";

/** The schema of Bloomscope's helper objects for filters in `schema` when that schema may not be
 *  trusted (docs/operations.md "Privileges"): bloomscope for public, bloomscope_<schema> for any other (cut at a
 *  character boundary to 63 bytes). */
QString helperSchemaFor(const QString &schema);

/**
 * A CTE `trusted(roleid)` of the roles whose objects Bloomscope may believe: the owner of the table named
 * by parameter $1 and the roles that are explicit members of it (they may act as the owner anyway), the
 * superusers, and pg_database_owner when the database's owner is one of those. The session's own roles
 * are not in it: a role the session merely shares (a group role) may be anybody's. The same set for
 * every role that asks, so a writer, a viewer and the DBA decide alike. Also `owner(roleid)`, the
 * table's owner alone. Ends with a space: a select follows.
 */
const char *trustedRolesCte();

/**
 * What the catalog says of a filter's helpers, decided in one query (decideHelperTrust): the writer's
 * guard, the drain, the swap, the rebuild and the window all go by it.
 *
 * The helper schema is the dedicated one (helperSchemaFor) when it exists, else the filter's own schema
 * when it may be trusted, else the dedicated one (to be created). A schema may be trusted when a trusted
 * role owns it and no other role may create in it. Nothing outside the helper schema is ever looked at by
 * name, and nothing in it is believed unless the schema may be trusted.
 */
struct HelperTrust {
    quint32 tableOid = 0;   ///< the table the name resolves to now (0: none)
    QString tableName;      ///< its name (unquoted, without schema), as the state table records it
    QString schema;         ///< the helper schema (unquoted)
    bool dedicated = false; ///< the helper schema is helperSchemaFor(), not the filter's own
    bool schemaExists = false;
    bool schemaTrusted = false;
    QString schemaOwner; ///< the helper schema's owner
    QString creators;    ///< untrusted roles that may CREATE in it ("PUBLIC", ...), comma-separated
    /** A rebuild of this table is prepared, running or waiting for its swap: the trusted state table in
     *  the helper schema has its row (or exists and this role may not read it: then it is assumed). */
    bool rebuild = false;
    /** The recorder bloomscope_record_names(regclass, text[]) in the trusted helper schema, owned by the
     *  filter's owner or a superuser, while a rebuild is recorded; else 0. The only one ever called. */
    quint32 recorder = 0;
    /** The owner of a recorder in the helper schema that may not be called (another role's, or in a
     *  schema that may not be trusted), if there is one. */
    QString untrustedRecorder;

    /** The quoted recorder (schema.bloomscope_record_names). */
    QString quotedRecorder() const;
    /** Why the helper schema may not be trusted (when it exists and is not). */
    QString refusal(const QString &liveTable) const;
};

/**
 * Decides, from the catalog, where the helpers of the filter `quotedTable` (schema-qualified, quoted) in
 * schema `tableSchema` (unquoted) live and which of them may be believed or called. A role with no
 * privilege on the helpers may ask. On `pg`, in the caller's transaction if one is open.
 */
Result<HelperTrust> decideHelperTrust(PGconn *pg, const QString &quotedTable, const QString &tableSchema);

} // namespace bloom
