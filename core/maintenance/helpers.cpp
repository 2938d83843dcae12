#include "maintenance/helpers.h"

#include "postgres/pgarray.h"
#include "postgres/pgerror.h"

#include <QSqlQuery>

#include <libpq-fe.h>

#include <memory>

namespace bloom::maintenance {

namespace {

using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

Result<ResultPtr> rowsOf(Database &db, const QByteArray &sql, const QList<QByteArray> &params, const QString &what)
{
    std::vector<const char *> values;
    for (const QByteArray &p : params)
        values.push_back(p.constData());
    ResultPtr r(
        PQexecParams(db.pgconn(), sql.constData(), int(values.size()), nullptr, values.data(), nullptr, nullptr, 0),
        &PQclear);
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK)
        return pg::errorOf(db.pgconn(), r.get(), what);
    return r;
}

} // namespace

Helpers helpersIn(const QualifiedName &table, const QualifiedName &function, const QString &helperSchema)
{
    Helpers h;
    h.liveTable = table;
    h.liveFunction = function;
    h.schema = quoteIdent(table.schema);
    h.helperSchemaName = helperSchema;
    h.helperSchema = quoteIdent(helperSchema);
    h.state = h.helper(QString::fromLatin1(RebuildStateName));
    h.pending = h.helper(QStringLiteral("bloomscope_pending"));
    h.record = h.helper(QStringLiteral("bloomscope_record"));
    h.recordNames = h.helper(QString::fromLatin1(NameRecorderName));
    h.swapped = h.helper(QStringLiteral("bloomscope_swapped"));
    h.history = h.helper(QStringLiteral("bloomscope_history"));
    h.audit = h.helper(QStringLiteral("bloomscope_audit"));
    return h;
}

Result<Helpers> helpersFor(Database &db, const QualifiedName &table, const QualifiedName &function)
{
    // The one decision (decideHelperTrust), the same the write path's guard takes.
    auto trust = decideHelperTrust(db.pgconn(), table.quoted(), table.schema);
    if (!trust)
        return trust.error();
    if (trust->schemaExists && !trust->schemaTrusted)
        return makeError(
            ErrorKind::Refused,
            QStringLiteral("refusing to use Bloomscope's helper schema: %1").arg(trust->refusal(table.text())),
            QStringLiteral("have the owner of %1 or a superuser look at schema %2, then make it the "
                           "owner's (alter schema %2 owner to ...) with CREATE for nobody else, or "
                           "drop it")
                .arg(table.text(), quoteIdent(trust->schema)));
    Helpers h = helpersIn(table, function, trust->schema);
    h.trust = *trust;
    return h;
}

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
    return helpersFor(db, *table, *function);
}

Result<QStringList> granteesOf(Database &db, const Helpers &h, const QString &privilege)
{
    const QByteArray sql =
        "select distinct case when a.grantee = 0 then 'public' else pg_catalog.quote_ident(r.rolname) end from ("
        "  select (pg_catalog.aclexplode(coalesce(c.relacl, pg_catalog.acldefault('r', c.relowner)))).* "
        "  from pg_catalog.pg_class c where c.oid = pg_catalog.to_regclass($1) "
        "  union all select (pg_catalog.aclexplode(t.attacl)).* from pg_catalog.pg_attribute t "
        "  where t.attrelid = pg_catalog.to_regclass($1) and t.attname = 'bits' and t.attacl is not null) a "
        "left join pg_catalog.pg_roles r on r.oid = a.grantee where a.privilege_type = $2 order by 1";
    auto r = rowsOf(db, sql, {h.liveTable.quoted().toUtf8(), privilege.toUtf8()},
                    QStringLiteral("reading who may %1 %2").arg(privilege.toLower(), h.liveTable.text()));
    if (!r)
        return r.error();
    QStringList out;
    for (int i = 0; i < PQntuples(r->get()); ++i)
        out << QString::fromUtf8(PQgetvalue(r->get(), i, 0));
    return out;
}

QString OwnerAct::epilogue(const QStringList &tables, const QStringList &functions) const
{
    if (!handOver)
        return QString();
    QString sql;
    for (const QString &t : tables)
        sql += QStringLiteral("alter table %1 owner to %2;\n").arg(t, owner);
    for (const QString &f : functions)
        sql += QStringLiteral("alter function %1 owner to %2;\n").arg(f, owner);
    return sql;
}

Result<OwnerAct> ownerAct(Database &db, const Helpers &h, const QStringList &schemas, const QString &what)
{
    // One row: whether this session is the owner, may act as it, is a superuser; the owner (quoted);
    // the first schema of $2 the owner may not create in (null when none).
    const QByteArray sql =
        "select c.relowner = r.oid, pg_catalog.pg_has_role(r.oid, c.relowner, 'MEMBER') or r.rolsuper, r.rolsuper, "
        "  pg_catalog.quote_ident(o.rolname), "
        "  (select pg_catalog.quote_ident(s) from pg_catalog.unnest($2::text[]) with ordinality u(s, i) "
        "   where not o.rolsuper and not pg_catalog.has_schema_privilege(o.oid, "
        "     (select n.oid from pg_catalog.pg_namespace n where n.nspname = u.s), 'CREATE') "
        "   order by i limit 1) "
        "from pg_catalog.pg_class c, pg_catalog.pg_roles r, pg_catalog.pg_roles o "
        "where c.oid = pg_catalog.to_regclass($1) and r.rolname = current_user and o.oid = c.relowner";
    QList<QByteArray> present; // a schema that does not exist yet is made by the owner (ensureHelperSchema)
    for (const QString &s : schemas)
        if (!s.isEmpty() && !present.contains(s.toUtf8()))
            present << s.toUtf8();
    auto r = rowsOf(db, sql, {h.liveTable.quoted().toUtf8(), textArray(present).toUtf8()},
                    QStringLiteral("reading who owns %1").arg(h.liveTable.text()));
    if (!r)
        return r.error();
    OwnerAct act;
    if (PQntuples(r->get()) != 1)
        return act;
    const bool isOwner = PQgetvalue(r->get(), 0, 0)[0] == 't', mayAct = PQgetvalue(r->get(), 0, 1)[0] == 't',
               superuser = PQgetvalue(r->get(), 0, 2)[0] == 't';
    act.owner = QString::fromUtf8(PQgetvalue(r->get(), 0, 3));
    if (isOwner || !mayAct)
        return act;
    if (PQgetisnull(r->get(), 0, 4)) {
        act.prologue = QStringLiteral("set local role %1;\n").arg(act.owner);
        return act;
    }
    if (superuser) {
        act.handOver = true;
        return act;
    }
    const QString schema = QString::fromUtf8(PQgetvalue(r->get(), 0, 4)); // quoted
    return makeError(ErrorKind::Refused,
                     QStringLiteral("refusing to %1: role %2, the owner of %3, may not create objects in schema %4, "
                                    "and Bloomscope makes the filter's objects as that owner (its helper objects "
                                    "now, the new pair at the swap), so that they stay the owner's")
                         .arg(what, act.owner, h.liveTable.text(), schema),
                     QStringLiteral("have the owner of schema %1 or a superuser run:\n  grant create on schema %1 to "
                                    "%2;\n(docs/operations.md \"Privileges\" lists what each role needs), then run "
                                    "this again")
                         .arg(schema, act.owner));
}

Result<QString> readerGrants(Database &db, const Helpers &h, const QString &table, const QString &columns)
{
    auto readers = granteesOf(db, h, QStringLiteral("SELECT"));
    if (!readers)
        return readers.error();
    if (readers->isEmpty())
        return QString();
    const QString to = readers->join(QStringLiteral(", "));
    QString sql =
        h.dedicated() ? QStringLiteral("grant usage on schema %1 to %2;\n").arg(h.helperSchema, to) : QString();
    return sql + QStringLiteral("grant select%1 on %2 to %3;\n")
                     .arg(columns.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(columns), table, to);
}

Result<QString> helperSchemaSql(Database &db, const Helpers &h)
{
    if (!h.dedicated())
        return QString();
    auto trust = decideHelperTrust(db.pgconn(), h.liveTable.quoted(), h.liveTable.schema);
    if (!trust)
        return trust.error();
    if (trust->schemaExists || trust->schema != h.helperSchemaName)
        return QString();
    auto readers = granteesOf(db, h, QStringLiteral("SELECT"));
    if (!readers)
        return readers.error();
    auto writers = granteesOf(db, h, QStringLiteral("UPDATE"));
    if (!writers)
        return writers.error();
    QStringList users = *readers;
    for (const QString &w : *writers)
        if (!users.contains(w))
            users << w;
    auto r = rowsOf(db,
                    "select pg_catalog.quote_ident(o.rolname) from pg_catalog.pg_class c "
                    "join pg_catalog.pg_roles o on o.oid = c.relowner where c.oid = pg_catalog.to_regclass($1)",
                    {h.liveTable.quoted().toUtf8()}, QStringLiteral("reading who owns %1").arg(h.liveTable.text()));
    if (!r)
        return r.error();
    if (PQntuples(r->get()) != 1)
        return makeError(ErrorKind::MissingFilter, QStringLiteral("there is no table %1").arg(h.liveTable.text()));
    const QString owner = QString::fromUtf8(PQgetvalue(r->get(), 0, 0));
    QString sql = QStringLiteral("create schema %1 authorization %2;\nrevoke all on schema %1 from public;\n")
                      .arg(h.helperSchema, owner);
    if (!users.isEmpty())
        sql +=
            QStringLiteral("grant usage on schema %1 to %2;\n").arg(h.helperSchema, users.join(QStringLiteral(", ")));
    return sql;
}

Status ensureHelperSchema(Database &db, const Helpers &h)
{
    auto sql = helperSchemaSql(db, h);
    if (!sql)
        return sql.error();
    if (sql->isEmpty())
        return success();
    PGconn *pg = db.pgconn();
    const QString what = QStringLiteral("creating the schema %1 for Bloomscope's helper objects").arg(h.helperSchema);
    if (auto s = pg::script(pg, QStringLiteral("begin;\n") + *sql + QStringLiteral("commit;"), what); !s) {
        (void)pg::script(pg, QStringLiteral("rollback"), QStringLiteral("rolling back"));
        Error e = s.error();
        if (e.sqlState == QLatin1String("42501"))
            e.fix = QStringLiteral("the schema of %1 may be changed by roles you do not trust, so Bloomscope keeps "
                                   "its helper objects in %2, a schema only the filter's owner may create in; this "
                                   "role may not create it (it needs CREATE on the database and to be the table's "
                                   "owner, a member of that role, or a superuser). Have a superuser or the "
                                   "database's owner run:\n%3")
                        .arg(h.liveTable.text(), h.helperSchema, *sql);
        return e;
    }
    auto now = decideHelperTrust(db.pgconn(), h.liveTable.quoted(), h.liveTable.schema);
    if (!now)
        return now.error();
    if (now->schema != h.helperSchemaName || !now->schemaTrusted)
        return makeError(
            ErrorKind::Refused,
            QStringLiteral("refusing to use Bloomscope's helper schema: %1").arg(now->refusal(h.liveTable.text())));
    return success();
}

Result<bool> trustedHelperExists(Database &db, const Helpers &h, const QString &name)
{
    const QByteArray sql = QByteArray(trustedRolesCte()) +
                           "select c.relowner::regrole::text, c.relowner in (select roleid from trusted) "
                           "from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace "
                           "where n.nspname = $2 and c.relname = $3";
    auto r = rowsOf(db, sql, {h.liveTable.quoted().toUtf8(), h.helperSchemaName.toUtf8(), name.toUtf8()},
                    QStringLiteral("looking for %1").arg(h.helper(name)));
    if (!r)
        return r.error();
    if (PQntuples(r->get()) == 0)
        return false;
    if (PQgetvalue(r->get(), 0, 1)[0] != 't')
        return makeError(ErrorKind::Refused,
                         QStringLiteral("refusing to use %1: it is owned by role %2, which is neither the owner of "
                                        "%3, a member of that owner nor a superuser (another role created it; a role "
                                        "you share is no proof of trust)")
                             .arg(h.helper(name), QString::fromUtf8(PQgetvalue(r->get(), 0, 0)), h.liveTable.text()),
                         QStringLiteral("inspect it, drop it as its owner or a superuser, and run again"));
    return true;
}

Result<std::optional<Helpers>> helpersWith(Database &db, const FilterRef &live, const QString &name)
{
    auto h = helpers(db, live);
    if (!h)
        return h.error();
    auto exists = trustedHelperExists(db, *h, name);
    if (!exists)
        return exists.error();
    return *exists ? std::optional<Helpers>{std::move(*h)} : std::optional<Helpers>{};
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
