#include "maintenance/helpers.h"

#include "postgres/pgerror.h"

#include <QSqlQuery>

#include <libpq-fe.h>

#include <memory>

namespace bloom::maintenance {

Result<Helpers> helpers(Database &db, const FilterRef &live)
{
    auto table = db.resolve(live.table, QStringLiteral("--table"), Database::ObjectKind::Table);
    if (!table)
        return table.error();
    auto function = db.resolve(live.function, QStringLiteral("--function"), Database::ObjectKind::TextFunction);
    if (!function)
        return function.error();
    if (function->schema != table->schema)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("the filter's table %1 and function %2 are in different schemas")
                             .arg(table->text(), function->text()),
                         QStringLiteral("rebuild and swap keep the pair in one schema; give --function %1.%2")
                             .arg(table->schema, function->name));
    Helpers h;
    h.liveTable = *table;
    h.liveFunction = *function;
    h.schema = quoteIdent(table->schema);
    h.state = h.quoted(QString::fromLatin1(RebuildStateName));
    h.pending = h.schema + QStringLiteral(".bloomscope_pending");
    h.record = h.schema + QStringLiteral(".bloomscope_record");
    h.recordNames = h.quoted(QString::fromLatin1(NameRecorderName));
    h.swapped = h.schema + QStringLiteral(".bloomscope_swapped");
    return h;
}

Result<bool> trustedHelperExists(Database &db, const Helpers &h, const QString &quotedTable)
{
    QSqlQuery q(db.db());
    // Explicit memberships only: pg_has_role() is true for a superuser and every role, so a DBA who
    // is a superuser would trust anything.
    q.prepare(QStringLiteral(
        "with recursive mine(roleid) as (select r.oid from pg_catalog.pg_roles r where r.rolname = current_user "
        "  union select a.roleid from pg_catalog.pg_auth_members a join mine on a.member = mine.roleid) "
        "select c.relowner::regrole::text, "
        "  c.relowner = (select l.relowner from pg_class l where l.oid = pg_catalog.to_regclass(?)) "
        "  or c.relowner in (select roleid from mine) "
        "  or (select r.rolsuper from pg_roles r where r.oid = c.relowner) "
        "from pg_class c where c.oid = pg_catalog.to_regclass(?)"));
    q.addBindValue(h.liveTable.quoted());
    q.addBindValue(quotedTable);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("looking for %1").arg(quotedTable));
    if (!q.next())
        return false;
    if (!q.value(1).toBool())
        return makeError(ErrorKind::Refused,
                         QStringLiteral("refusing to use %1: it is owned by role %2, which is neither you, a role "
                                        "of yours, the owner of %3 nor a superuser (another role created it)")
                             .arg(quotedTable, q.value(0).toString(), h.liveTable.text()),
                         QStringLiteral("inspect it, drop it as its owner or a superuser, and run again"));
    return true;
}

Result<std::optional<Helpers>> helpersWith(Database &db, const FilterRef &live, QString Helpers::*table)
{
    auto h = helpers(db, live);
    if (!h)
        return h.error();
    auto exists = trustedHelperExists(db, *h, (*h).*table);
    if (!exists)
        return exists.error();
    return *exists ? std::optional<Helpers>{std::move(*h)} : std::nullopt;
}

Status execOne(Database &db, const QString &sql, const QString &what)
{
    return pg::one(db.pgconn(), sql, what);
}

Status execScript(Database &db, const QString &sql, const QString &what)
{
    return pg::script(db.pgconn(), sql, what);
}

QString suffixed(const QString &name, const QString &suffix)
{
    // Cut in bytes, as PostgreSQL counts NAMEDATALEN, and back to the first byte of a character: never
    // inside one (a QChar count would split a 4-byte character into a lone surrogate).
    QByteArray base = name.toUtf8();
    const qsizetype room = qMax<qsizetype>(0, 63 - suffix.toUtf8().size());
    if (base.size() > room) {
        qsizetype cut = room;
        while (cut > 0 && (uchar(base.at(cut)) & 0xC0) == 0x80)
            --cut;
        base.truncate(cut);
    }
    return QString::fromUtf8(base) + suffix;
}

} // namespace bloom::maintenance
