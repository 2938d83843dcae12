#include "postgres/helpertrust.h"

#include "postgres/identifier.h"
#include "postgres/pgerror.h"

#include <libpq-fe.h>

#include <memory>

namespace bloom {

namespace {

using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

} // namespace

QString helperSchemaFor(const QString &schema)
{
    if (schema == QLatin1String("public") || schema.isEmpty())
        return QStringLiteral("bloomscope");
    QString tail = schema; // cut a character at a time, never inside one, to fit NAMEDATALEN - 1
    while (!tail.isEmpty() && (QStringLiteral("bloomscope_") + tail).toUtf8().size() > 63)
        tail.chop(tail.size() > 1 && tail.at(tail.size() - 1).isLowSurrogate() ? 2 : 1);
    return QStringLiteral("bloomscope_") + tail;
}

const char *trustedRolesCte()
{
    return "with recursive tableowner(roleid) as (select c.relowner from pg_catalog.pg_class c "
           "  where c.oid = pg_catalog.to_regclass($1)), "
           "owners(roleid) as (select roleid from tableowner "
           "  union select a.member from pg_catalog.pg_auth_members a join owners on a.roleid = owners.roleid), "
           "base(roleid) as (select roleid from owners "
           "  union select r.oid from pg_catalog.pg_roles r where r.rolsuper), "
           "trusted(roleid) as (select roleid from base "
           "  union select r.oid from pg_catalog.pg_roles r where r.rolname = 'pg_database_owner' "
           "  and (select d.datdba from pg_catalog.pg_database d where d.datname = pg_catalog.current_database()) "
           "      in (select roleid from base)) ";
}

QString HelperTrust::quotedRecorder() const
{
    return quoteIdent(schema) + QLatin1Char('.') + quoteIdent(QString::fromLatin1(NameRecorderName));
}

QString HelperTrust::refusal(const QString &liveTable) const
{
    if (!creators.isEmpty())
        return QStringLiteral("%1 may create objects in schema %2").arg(creators, quoteIdent(schema));
    return QStringLiteral("schema %1 is owned by role %2, which is neither the owner of %3, a member of "
                          "that owner, the database's owner when it is one of those, nor a superuser")
        .arg(quoteIdent(schema), schemaOwner, liveTable);
}

Result<HelperTrust> decideHelperTrust(PGconn *pg, const QString &quotedTable, const QString &tableSchema)
{
    // $1 the table, $2 its schema, $3 the dedicated helper schema. A recorder is believed only when the
    // filter's owner or a superuser owns it (never a member of some role the session shares).
    const QByteArray sql =
        QByteArray(trustedRolesCte()) +
        ", schemas as (select n.oid, n.nspname, n.nspowner::regrole::text as owner, "
        "    n.nspowner in (select roleid from trusted) as owned, "
        "    (select pg_catalog.string_agg(case when a.grantee = 0 then 'PUBLIC' else a.grantee::regrole::text end, "
        "       ', ') from pg_catalog.aclexplode(n.nspacl) a where a.privilege_type = 'CREATE' "
        "       and a.grantee not in (select roleid from trusted)) as creators "
        "  from pg_catalog.pg_namespace n where n.nspname in ($2, $3)), "
        "choice(name) as (select case when exists (select from schemas where nspname = $3) then $3 "
        "  when exists (select from schemas where nspname = $2 and owned and creators is null) then $2 "
        "  else $3 end), "
        "chosen as (select s.* from schemas s, choice where s.nspname = choice.name), "
        "recorders as (select p.oid, p.proowner, "
        "    (p.proowner in (select roleid from tableowner) "
        "     or p.proowner in (select r.oid from pg_catalog.pg_roles r where r.rolsuper)) "
        "    and (select owned and creators is null from chosen) as ok "
        "  from pg_catalog.pg_proc p join chosen s on s.oid = p.pronamespace "
        "  where p.proname = 'bloomscope_record_names' and p.proargtypes = '2205 1009'::pg_catalog.oidvector), "
        "state as (select c.oid from pg_catalog.pg_class c join chosen s on s.oid = c.relnamespace "
        "  where c.relname = 'bloomscope_rebuild' and c.relkind = 'r' and s.owned and s.creators is null "
        "  and c.relowner in (select roleid from trusted)) "
        "select coalesce(pg_catalog.to_regclass($1)::oid, 0), "
        "  (select c.relname from pg_catalog.pg_class c where c.oid = pg_catalog.to_regclass($1)), "
        "  (select name from choice), exists (select from chosen), "
        "  coalesce((select owned and creators is null from chosen), false), "
        "  (select owner from chosen), (select creators from chosen), "
        "  (select oid from state), "
        "  coalesce((select pg_catalog.has_table_privilege(oid, 'SELECT') from state), false), "
        "  coalesce((select oid from recorders where ok), 0), "
        "  (select proowner::regrole::text from recorders where not ok limit 1)";
    const QByteArray table = quotedTable.toUtf8(), live = tableSchema.toUtf8(),
                     dedicated = helperSchemaFor(tableSchema).toUtf8();
    const char *values[3] = {table.constData(), live.constData(), dedicated.constData()};
    const QString what = QStringLiteral("looking for the helpers of %1").arg(quotedTable);
    ResultPtr r(PQexecParams(pg, sql.constData(), 3, nullptr, values, nullptr, nullptr, 0), &PQclear);
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1)
        return pg::errorOf(pg, r.get(), what);
    const auto text = [&](int column) { return QString::fromUtf8(PQgetvalue(r.get(), 0, column)); };
    const auto flag = [&](int column) { return PQgetvalue(r.get(), 0, column)[0] == 't'; };
    HelperTrust t;
    t.tableOid = QByteArray(PQgetvalue(r.get(), 0, 0)).toUInt();
    t.tableName = text(1);
    t.schema = text(2);
    t.dedicated = t.schema != tableSchema;
    t.schemaExists = flag(3);
    t.schemaTrusted = flag(4);
    t.schemaOwner = text(5);
    t.creators = text(6);
    const bool state = !PQgetisnull(r.get(), 0, 7), readable = flag(8);
    const quint32 recorder = QByteArray(PQgetvalue(r.get(), 0, 9)).toUInt();
    if (!PQgetisnull(r.get(), 0, 10))
        t.untrustedRecorder = text(10);
    if (state && readable) {
        // The state table's row for this table: the rebuild is prepared, running or waiting for its swap.
        const QByteArray rows = QStringLiteral("select exists (select from %1.%2 where live_table = $1)")
                                    .arg(quoteIdent(t.schema), quoteIdent(QString::fromLatin1(RebuildStateName)))
                                    .toUtf8();
        const QByteArray name = t.tableName.toUtf8();
        const char *param[1] = {name.constData()};
        ResultPtr s(PQexecParams(pg, rows.constData(), 1, nullptr, param, nullptr, nullptr, 0), &PQclear);
        if (PQresultStatus(s.get()) != PGRES_TUPLES_OK || PQntuples(s.get()) != 1)
            return pg::errorOf(pg, s.get(), what);
        t.rebuild = PQgetvalue(s.get(), 0, 0)[0] == 't';
    } else {
        t.rebuild = state; // a role that may not read it: a rebuild is assumed (its names are recorded)
    }
    t.recorder = t.rebuild ? recorder : 0;
    return t;
}

} // namespace bloom
