#include "maintenance/carryover.h"

#include "maintenance/publications.h"
#include "maintenance/siteobjects.h"
#include "postgres/filterstore.h"

#include <QMap>
#include <QSet>
#include <QSqlQuery>

namespace bloom::maintenance {

namespace {
QString aclTarget(bool isPublic, const QString &role)
{
    return isPublic ? QStringLiteral("public") : quoteIdent(role);
}

/** A privilege as aclexplode() names it: the only catalog text spliced without quoting, so only one
 *  of these keywords is. */
bool isPrivilege(const QString &p)
{
    static const QStringList known{QStringLiteral("SELECT"),  QStringLiteral("INSERT"),   QStringLiteral("UPDATE"),
                                   QStringLiteral("DELETE"),  QStringLiteral("TRUNCATE"), QStringLiteral("REFERENCES"),
                                   QStringLiteral("TRIGGER"), QStringLiteral("EXECUTE"),  QStringLiteral("USAGE"),
                                   QStringLiteral("MAINTAIN")};
    return known.contains(p);
}

Error unknownPrivilege(const QString &p)
{
    return makeError(ErrorKind::Server,
                     QStringLiteral("the catalog names a privilege the swap does not know: %1").arg(quoteIdent(p)));
}

/**
 * The names the swap gives what it keeps (the old table, function, primary key and indexes):
 * `name` + suffix within 63 bytes (suffixed()), and, when that is taken by any relation, type,
 * function or constraint of the schema or by a name picked before, with _2, _3, ... after the suffix.
 */
class OldNames {
public:
    OldNames(Database &db, const QString &schema)
        : mDb(db)
        , mSchema(schema)
    {
    }

    Result<QString> pick(const QString &name, const QString &suffix)
    {
        for (int n = 1; n < 1000; ++n) {
            const QString candidate = suffixed(name, n == 1 ? suffix : suffix + QLatin1Char('_') + QString::number(n));
            if (mPicked.contains(candidate))
                continue;
            QSqlQuery q(mDb.db());
            q.prepare(QStringLiteral(
                "with s(nsp, n) as (select pg_catalog.to_regnamespace(?)::oid, ?::text) "
                "select exists (select from pg_catalog.pg_class c, s where c.relnamespace = s.nsp and c.relname = s.n) "
                "or exists (select from pg_catalog.pg_type t, s where t.typnamespace = s.nsp and t.typname = s.n) "
                "or exists (select from pg_catalog.pg_proc p, s where p.pronamespace = s.nsp and p.proname = s.n) "
                "or exists (select from pg_catalog.pg_constraint c, s where c.connamespace = s.nsp and c.conname = "
                "s.n)"));
            q.addBindValue(quoteIdent(mSchema));
            q.addBindValue(candidate);
            if (!q.exec() || !q.next())
                return Database::queryError(q, QStringLiteral("looking for a free name like %1").arg(candidate));
            if (!q.value(0).toBool()) {
                mPicked.insert(candidate);
                return candidate;
            }
        }
        return makeError(ErrorKind::Server,
                         QStringLiteral("no free name like %1%2 in schema %3").arg(name, suffix, mSchema));
    }

private:
    Database &mDb;
    QString mSchema;
    QSet<QString> mPicked;
};

} // namespace

Result<CarryPlan> planCarryOver(Database &db, const Helpers &h, const FilterStore &live, const FilterStore &next,
                                const QString &stamp)
{
    CarryPlan plan;
    const QString L = live.quotedTable(), N = next.quotedTable();
    const QString Lf = live.quotedFunction() + QStringLiteral("(text)"),
                  Nf = next.quotedFunction() + QStringLiteral("(text)");
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    const auto rows = [&](const QString &sql, const QStringList &binds) -> Status {
        q.prepare(sql);
        for (const QString &b : binds)
            q.addBindValue(b);
        if (!q.exec())
            return Database::queryError(q, QStringLiteral("reading what the site set on %1").arg(h.liveTable.text()));
        return success();
    };

    // The names the swap gives what it keeps of the live pair: distinct from every object of the
    // schema and from each other, within 63 bytes (docs/operations.md "Rebuild and swap").
    OldNames names(db, h.liveTable.schema);
    const QString suffix = QStringLiteral("_old_") + stamp;
    auto oldTable = names.pick(h.liveTable.name, suffix);
    if (!oldTable)
        return oldTable.error();
    plan.oldTable = *oldTable;
    auto oldFunction = names.pick(h.liveFunction.name, suffix);
    if (!oldFunction)
        return oldFunction.error();
    plan.oldFunction = *oldFunction;

    // Indexes, read as the catalog's parts (siteobjects.h): the primary key's name follows the table;
    // every other index is composed again on the new table under its own name (the old one gets the
    // old table's suffix). They are built after the new table has the live owner (below).
    auto indexes = siteIndexes(db, L);
    if (!indexes)
        return indexes.error();
    QString livePk, nextPk;
    bool pkIsReplicaIdentity = false;
    QList<SiteIndex> rebuilt;
    for (const SiteIndex &ix : *indexes) {
        if (ix.primary) {
            livePk = ix.name;
            pkIsReplicaIdentity = ix.replicaIdentity;
        } else if (ix.constraint)
            plan.notCarried << QStringLiteral("constraint index %1 (a unique or exclusion constraint)").arg(ix.name);
        else if (!ix.valid)
            plan.notCarried << QStringLiteral("index %1 (invalid: a CREATE INDEX CONCURRENTLY that failed; drop or "
                                              "REINDEX it)")
                                   .arg(ix.name);
        else
            rebuilt.append(ix);
    }
    if (auto s = rows(QStringLiteral("select con.conname from pg_catalog.pg_constraint con where con.conrelid = "
                                     "pg_catalog.to_regclass(?) and con.contype = 'p'"),
                      {N});
        !s)
        return s.error();
    if (q.next())
        nextPk = q.value(0).toString();
    q.finish();

    // Triggers, composed from pg_trigger's parts, with their enabled state.
    auto triggers = siteTriggers(db, L);
    if (!triggers)
        return triggers.error();
    for (const SiteTrigger &t : *triggers) {
        if (t.constraint) {
            plan.notCarried << QStringLiteral("constraint trigger %1").arg(t.name);
            continue;
        }
        if (t.hasWhen) {
            plan.notCarried << QStringLiteral("trigger %1 (its WHEN condition: PostgreSQL prints it only inside the "
                                              "whole definition, which the swap does not parse; create it on the "
                                              "new table yourself)")
                                   .arg(t.name);
            continue;
        }
        plan.onNew += t.createSql(db, N);
        if (!t.comment.isEmpty())
            plan.onNew += QStringLiteral("comment on trigger %1 on %2 is %3;\n")
                              .arg(quoteIdent(t.name), N, db.quoteLiteral(t.comment));
        plan.carried << QStringLiteral("trigger %1").arg(t.name);
    }

    // Comments: the table's (unless it is Bloomscope's own geometry note), the columns', the function's.
    if (auto s =
            rows(QStringLiteral("select pg_catalog.quote_literal(pg_catalog.obj_description(pg_catalog.to_regclass(?), "
                                "'pg_class')), pg_catalog.obj_description(pg_catalog.to_regclass(?), 'pg_class'), "
                                "pg_catalog.quote_literal(pg_catalog.obj_description(pg_catalog.to_regprocedure(?), "
                                "'pg_proc'))"),
                 {L, L, Lf});
        !s)
        return s.error();
    if (q.next()) {
        if (!q.value(0).isNull() && !q.value(1).toString().startsWith(QLatin1String("bloomscope filter:"))) {
            plan.onNew += QStringLiteral("comment on table %1 is %2;\n").arg(N, q.value(0).toString());
            plan.carried << QStringLiteral("the table's comment");
        }
        if (!q.value(2).isNull()) {
            plan.onNew += QStringLiteral("comment on function %1 is %2;\n").arg(Nf, q.value(2).toString());
            plan.carried << QStringLiteral("the function's comment");
        }
    }
    if (auto s =
            rows(QStringLiteral("select a.attname, pg_catalog.quote_literal(pg_catalog.col_description(a.attrelid, "
                                "a.attnum)) from pg_attribute a where a.attrelid = pg_catalog.to_regclass(?) "
                                "and a.attnum > 0 and not a.attisdropped "
                                "and pg_catalog.col_description(a.attrelid, a.attnum) is not null order by a.attnum"),
                 {L});
        !s)
        return s.error();
    while (q.next()) {
        plan.onNew += QStringLiteral("comment on column %1.%2 is %3;\n")
                          .arg(N, quoteIdent(q.value(0).toString()), q.value(1).toString());
        plan.carried << QStringLiteral("the comment on column %1").arg(q.value(0).toString());
    }

    // Storage options (fillfactor, autovacuum settings).
    if (auto s = rows(QStringLiteral("select o.option_name, pg_catalog.quote_literal(o.option_value) from "
                                     "pg_catalog.pg_options_to_table((select reloptions from pg_class where oid = "
                                     "pg_catalog.to_regclass(?))) o"),
                      {L});
        !s)
        return s.error();
    QStringList options;
    while (q.next())
        options << quoteIdent(q.value(0).toString()) + QStringLiteral(" = ") + q.value(1).toString();
    if (!options.isEmpty()) {
        plan.onNew += QStringLiteral("alter table %1 set (%2);\n").arg(N, options.join(QStringLiteral(", ")));
        plan.carried << QStringLiteral("storage options %1").arg(options.join(QStringLiteral(", ")));
    }

    // Grants: the new pair's ACLs are made the live pair's exactly (first what default privileges
    // gave the new ones is revoked). Granted while we own the new pair; ALTER OWNER then hands the
    // grantor role to the live owner, as PostgreSQL does for every owner change.
    const auto revokeExtra = [&](const QString &kind, const QString &object, const QString &aclExpr,
                                 const QString &bind) -> Status {
        if (auto s = rows(
                QStringLiteral("select distinct a.grantee = 0, coalesce(r.rolname, '') from %1 a "
                               "left join pg_roles r on r.oid = a.grantee where a.grantee <> %2")
                    .arg(aclExpr,
                         kind == QLatin1String("table")
                             ? QStringLiteral("(select relowner from pg_class where oid = pg_catalog.to_regclass(?))")
                             : QStringLiteral(
                                   "(select proowner from pg_proc where oid = pg_catalog.to_regprocedure(?))")),
                {bind, bind});
            !s)
            return s;
        while (q.next())
            plan.onNew += QStringLiteral("revoke all on %1 %2 from %3;\n")
                              .arg(kind, object, aclTarget(q.value(0).toBool(), q.value(1).toString()));
        return success();
    };
    if (auto s = revokeExtra(QStringLiteral("table"), N,
                             QStringLiteral("pg_catalog.aclexplode((select relacl from pg_class where oid = "
                                            "pg_catalog.to_regclass(?)))"),
                             N);
        !s)
        return s.error();
    if (auto s =
            rows(QStringLiteral("select a.grantee = 0, coalesce(r.rolname, ''), a.privilege_type, a.is_grantable "
                                "from pg_class c, pg_catalog.aclexplode(c.relacl) a left join pg_roles r on "
                                "r.oid = a.grantee where c.oid = pg_catalog.to_regclass(?) and a.grantee <> c.relowner "
                                "order by 2, 3"),
                 {L});
        !s)
        return s.error();
    QMap<QString, QStringList> tableGrants;
    while (q.next()) {
        if (!isPrivilege(q.value(2).toString()))
            return unknownPrivilege(q.value(2).toString());
        const QString to = aclTarget(q.value(0).toBool(), q.value(1).toString());
        plan.onNew += QStringLiteral("grant %1 on table %2 to %3%4;\n")
                          .arg(q.value(2).toString(), N, to,
                               q.value(3).toBool() ? QStringLiteral(" with grant option") : QString());
        tableGrants[q.value(0).toBool() ? QStringLiteral("PUBLIC") : q.value(1).toString()] << q.value(2).toString();
    }
    for (auto it = tableGrants.cbegin(); it != tableGrants.cend(); ++it)
        plan.carried
            << QStringLiteral("grant %1 on the table to %2").arg(it.value().join(QStringLiteral(", ")), it.key());
    if (auto s = rows(QStringLiteral("select att.attname, a.grantee = 0, coalesce(r.rolname, ''), a.privilege_type, "
                                     "a.is_grantable from pg_attribute att, pg_catalog.aclexplode(att.attacl) a "
                                     "left join pg_roles r on r.oid = a.grantee where att.attrelid = "
                                     "pg_catalog.to_regclass(?) and att.attnum > 0 order by 1, 3, 4"),
                      {L});
        !s)
        return s.error();
    while (q.next()) {
        if (!isPrivilege(q.value(3).toString()))
            return unknownPrivilege(q.value(3).toString());
        const QString to = aclTarget(q.value(1).toBool(), q.value(2).toString());
        plan.onNew += QStringLiteral("grant %1 (%2) on table %3 to %4%5;\n")
                          .arg(q.value(3).toString(), quoteIdent(q.value(0).toString()), N, to,
                               q.value(4).toBool() ? QStringLiteral(" with grant option") : QString());
        plan.carried << QStringLiteral("grant %1 (%2) on the table to %3")
                            .arg(q.value(3).toString(), q.value(0).toString(),
                                 q.value(1).toBool() ? QStringLiteral("PUBLIC") : q.value(2).toString());
    }
    if (auto s = rows(
            QStringLiteral("select p.proacl is null from pg_proc p where p.oid = pg_catalog.to_regprocedure(?)"), {Lf});
        !s)
        return s.error();
    const bool defaultFunctionAcl = q.next() && q.value(0).toBool();
    if (!defaultFunctionAcl) {
        if (auto s =
                revokeExtra(QStringLiteral("function"), Nf,
                            QStringLiteral("pg_catalog.aclexplode(coalesce((select proacl from pg_proc where oid = "
                                           "pg_catalog.to_regprocedure(?)), pg_catalog.acldefault('f', 0)))"),
                            Nf);
            !s)
            return s.error();
        if (auto s = rows(
                QStringLiteral("select a.grantee = 0, coalesce(r.rolname, ''), a.is_grantable from pg_proc p, "
                               "pg_catalog.aclexplode(p.proacl) a left join pg_roles r on r.oid = a.grantee "
                               "where p.oid = pg_catalog.to_regprocedure(?) and a.grantee <> p.proowner order by 2"),
                {Lf});
            !s)
            return s.error();
        QStringList to;
        bool toPublic = false;
        while (q.next()) {
            toPublic = toPublic || q.value(0).toBool();
            plan.onNew += QStringLiteral("grant execute on function %1 to %2%3;\n")
                              .arg(Nf, aclTarget(q.value(0).toBool(), q.value(1).toString()),
                                   q.value(2).toBool() ? QStringLiteral(" with grant option") : QString());
            to << (q.value(0).toBool() ? QStringLiteral("PUBLIC") : q.value(1).toString());
        }
        plan.carried << QStringLiteral("EXECUTE on the function to %1%2")
                            .arg(to.isEmpty() ? QStringLiteral("no one but its owner") : to.join(QStringLiteral(", ")),
                                 toPublic ? QString() : QStringLiteral(" (revoked from PUBLIC)"));
    }

    // Publications that list the live table list the new one instead, with the same column list and
    // row filter; while we still own the new table (ADD TABLE needs its owner).
    auto pubs = planPublicationCarry(db, h, h.liveTable.withName(next.tableName().name),
                                     h.liveTable.withName(next.functionName().name));
    if (!pubs)
        return pubs.error();
    plan.onNew += pubs->onNew;
    plan.carried << pubs->carried;
    plan.notCarried << pubs->notCarried;
    plan.publications = pubs->publications;
    plan.subscriberCheck = pubs->subscriberCheck;
    plan.subscriberAfter = pubs->subscriberAfter;

    // Owners last (see above). Changing an owner needs membership in the owning role.
    if (auto s = rows(QStringLiteral(
                          "select l.relowner::regrole::text, l.relowner <> n.relowner, "
                          "  pg_catalog.pg_has_role(current_user, l.relowner, 'MEMBER'), "
                          "  lf.proowner::regrole::text, lf.proowner <> nf.proowner, "
                          "  pg_catalog.pg_has_role(current_user, lf.proowner, 'MEMBER'), "
                          "  (select r.rolname from pg_roles r where r.oid = l.relowner), "
                          "  (select r.rolname from pg_roles r where r.oid = lf.proowner) "
                          "from pg_class l, pg_class n, pg_proc lf, pg_proc nf where l.oid = pg_catalog.to_regclass(?) "
                          "and n.oid = pg_catalog.to_regclass(?) and lf.oid = pg_catalog.to_regprocedure(?) "
                          "and nf.oid = pg_catalog.to_regprocedure(?)"),
                      {L, N, Lf, Nf});
        !s)
        return s.error();
    bool liveOwner = false; // the new table has (or is given) the live table's owner
    if (q.next()) {
        for (int i : {0, 3}) {
            const bool table = i == 0;
            if (!q.value(i + 1).toBool()) {
                liveOwner = liveOwner || table;
                continue;
            }
            const QString owner = q.value(table ? 6 : 7).toString();
            if (!q.value(i + 2).toBool()) {
                plan.notCarried << QStringLiteral("the %1's owner %2 (you are not a member of role %2)")
                                       .arg(table ? QStringLiteral("table") : QStringLiteral("function"), owner);
                continue;
            }
            plan.onNew += QStringLiteral("alter %1 %2 owner to %3;\n")
                              .arg(table ? QStringLiteral("table") : QStringLiteral("function"), table ? N : Nf,
                                   quoteIdent(owner));
            plan.carried << QStringLiteral("the %1's owner %2")
                                .arg(table ? QStringLiteral("table") : QStringLiteral("function"), owner);
            liveOwner = liveOwner || table;
        }
    }
    q.finish();

    // The indexes, now that the new table has the live owner: CREATE INDEX evaluates expressions and
    // predicates as the table's owner, so a function in one runs as the live owner, as it does on the
    // live table, never as the DBA who swaps.
    for (const SiteIndex &ix : rebuilt) {
        if (ix.hasExpressions() && !liveOwner) {
            plan.notCarried << QStringLiteral("index %1 (its expressions would run as you, the new table's owner, "
                                              "not as the live table's)")
                                   .arg(ix.name);
            continue;
        }
        auto old = names.pick(ix.name, suffix);
        if (!old)
            return old.error();
        const QString index = h.liveTable.withName(ix.name).quoted(); // in the pair's schema
        plan.onNew += QStringLiteral("alter index %1 rename to %2;\n").arg(index, quoteIdent(*old));
        plan.onNew += ix.createSql(db, N);
        for (qsizetype c = 0; c < ix.columns.size(); ++c)
            if (ix.columns[c].column.isEmpty() && ix.columns[c].statistics >= 0)
                plan.onNew += QStringLiteral("alter index %1 alter column %2 set statistics %3;\n")
                                  .arg(index, QString::number(c + 1), QString::number(ix.columns[c].statistics));
        if (!ix.comment.isEmpty())
            plan.onNew += QStringLiteral("comment on index %1 is %2;\n").arg(index, db.quoteLiteral(ix.comment));
        if (ix.clustered)
            plan.onNew += QStringLiteral("alter table %1 cluster on %2;\n").arg(N, quoteIdent(ix.name));
        if (ix.replicaIdentity)
            plan.onNew +=
                QStringLiteral("alter table %1 replica identity using index %2;\n").arg(N, quoteIdent(ix.name));
        plan.carried << QStringLiteral("index %1 (%2)").arg(ix.name, ix.method);
    }
    // Replica identity other than the primary key's or a carried index's.
    if (auto s = rows(QStringLiteral("select c.relreplident::text from pg_catalog.pg_class c where c.oid = "
                                     "pg_catalog.to_regclass(?)"),
                      {L});
        !s)
        return s.error();
    const QString identity = q.next() ? q.value(0).toString() : QString();
    q.finish();
    if (identity == QLatin1String("f") || identity == QLatin1String("n")) {
        plan.onNew += QStringLiteral("alter table %1 replica identity %2;\n")
                          .arg(N, identity == QLatin1String("f") ? QStringLiteral("full") : QStringLiteral("nothing"));
        plan.carried << QStringLiteral("replica identity %1")
                            .arg(identity == QLatin1String("f") ? QStringLiteral("full") : QStringLiteral("nothing"));
    } else if (identity == QLatin1String("i") && pkIsReplicaIdentity && !nextPk.isEmpty()) {
        plan.onNew += QStringLiteral("alter table %1 replica identity using index %2;\n").arg(N, quoteIdent(nextPk));
        plan.carried << QStringLiteral("replica identity using the primary key");
    }

    // What no statement here can carry over: listed, and the swap refused unless confirmed.
    const QList<std::pair<QString, QString>> blockers{
        {QStringLiteral("select 'policy ' || polname from pg_policy where polrelid = pg_catalog.to_regclass(?)"),
         QString()},
        {QStringLiteral("select 'row level security' from pg_class where oid = pg_catalog.to_regclass(?) and "
                        "(relrowsecurity or relforcerowsecurity)"),
         QString()},
        {QStringLiteral("select 'rule ' || rulename from pg_rewrite where ev_class = pg_catalog.to_regclass(?) and "
                        "rulename <> '_RETURN'"),
         QString()},
        {QStringLiteral("select distinct 'view ' || v.oid::regclass::text from pg_depend d join pg_rewrite r on "
                        "r.oid = d.objid join pg_class v on v.oid = r.ev_class where d.classid = "
                        "'pg_rewrite'::regclass and d.refobjid = pg_catalog.to_regclass(?) and v.oid <> d.refobjid"),
         QString()},
        {QStringLiteral("select 'constraint ' || conname || ' (' || pg_catalog.pg_get_constraintdef(oid) || ')' from "
                        "pg_constraint where conrelid = pg_catalog.to_regclass(?) and contype not in ('p', 'u', 'x')"),
         QString()},
        {QStringLiteral("select 'foreign key ' || conname || ' of ' || conrelid::regclass::text || ' references it' "
                        "from pg_constraint where confrelid = pg_catalog.to_regclass(?)"),
         QString()},
        {QStringLiteral("select 'statistics object ' || stxname from pg_statistic_ext where stxrelid = "
                        "pg_catalog.to_regclass(?)"),
         QString()},
        {QStringLiteral("select 'unlogged table' from pg_class where oid = pg_catalog.to_regclass(?) and "
                        "relpersistence = 'u'"),
         QString()},
        {QStringLiteral("select 'inheritance' from pg_inherits where inhrelid = pg_catalog.to_regclass(?) or "
                        "inhparent = pg_catalog.to_regclass(?)"),
         QStringLiteral("twice")},
    };
    for (const auto &[sql, twice] : blockers) {
        if (auto s = rows(sql, twice.isEmpty() ? QStringList{L} : QStringList{L, L}); !s)
            return s.error();
        while (q.next())
            plan.notCarried << q.value(0).toString();
    }

    // Under ACCESS EXCLUSIVE: the primary key's name follows the table, then the pair changes names.
    if (!livePk.isEmpty() && !nextPk.isEmpty()) {
        auto oldPk = names.pick(livePk, suffix);
        if (!oldPk)
            return oldPk.error();
        plan.renames += QStringLiteral("alter table %1 rename constraint %2 to %3;\n")
                            .arg(L, quoteIdent(livePk), quoteIdent(*oldPk));
        plan.renames += QStringLiteral("alter table %1 rename constraint %2 to %3;\n")
                            .arg(N, quoteIdent(nextPk), quoteIdent(livePk));
    }
    plan.renames += QStringLiteral("alter table %1 rename to %2;\n"
                                   "alter table %3 rename to %4;\n"
                                   "alter function %5 rename to %6;\n"
                                   "alter function %7 rename to %8;\n")
                        .arg(L, quoteIdent(plan.oldTable), N, h.liveTable.quotedName(), Lf,
                             quoteIdent(plan.oldFunction), Nf, h.liveFunction.quotedName());
    return plan;
}

} // namespace bloom::maintenance
