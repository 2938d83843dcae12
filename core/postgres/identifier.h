#pragma once

#include "common/result.h"

#include <QString>

namespace bloom {

/**
 * Quotes one identifier: wrapped in double quotes, every double quote doubled. This is exactly what
 * libpq's PQescapeIdentifier produces, done without a connection so that SQL can be rendered offline;
 * it is the one way Bloomscope quotes a name (tst_security checks it against the server). A name from
 * the catalog is a single part: never split it on '.'.
 */
QString quoteIdent(const QString &part);

/** Escapes a LIKE pattern's wildcards and escape character ('\\' is the escape). */
QString likeEscape(const QString &text);

/**
 * A table or function as a user names it (--table, --function, --into, a profile): `name` or
 * `schema.name`. Each part is used as given (case kept) and quoted; a part may not contain a double
 * quote, a dot, a control character or surrounding blanks, and is at most 63 bytes (NAMEDATALEN - 1).
 */
struct QualifiedName {
    QString schema; ///< empty: resolved by the session's original search_path
    QString name;

    /** Parses `text`; a bad value is a usage error naming `what` (e.g. "--table"). */
    static Result<QualifiedName> parse(const QString &text, const QString &what);
    /** "schema"."name", or "name" when the schema is empty. */
    QString quoted() const;
    /** The quoted name alone (the target of ALTER ... RENAME TO, which takes no schema). */
    QString quotedName() const { return quoteIdent(name); }
    QString quotedSchema() const { return quoteIdent(schema); }
    QString text() const { return schema.isEmpty() ? name : schema + QLatin1Char('.') + name; }
    QualifiedName withName(const QString &n) const { return QualifiedName{schema, n}; }
};

} // namespace bloom
