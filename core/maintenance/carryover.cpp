#include "maintenance/carryover.h"

#include "maintenance/publications.h"
#include "postgres/filterstore.h"

#include <QMap>
#include <QSqlQuery>

namespace bloom::maintenance {

namespace {
QString aclTarget(bool isPublic, const QString &role)
{
    return isPublic ? QStringLiteral("public") : quoteIdent(role);
}

} // namespace

Result<CarryPlan> planCarryOver(Database &db, const Helpers &h, const FilterStore &live, const FilterStore &next,
                                const QString &oldTable, const QString &oldFunction, const QString &stamp)
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

    // Indexes: the primary key's name follows the table; every other index is re-created on the new
    // table under its own name (the old one gets the old table's suffix).
    QString livePk, nextPk;
    if (auto s = rows(
            QStringLiteral("select ic.relname, pg_catalog.pg_get_indexdef(i.indexrelid), i.indisprimary, "
                           "i.indisunique, con.conname is not null, am.amname "
                           "from pg_index i join pg_class ic on ic.oid = i.indexrelid "
                           "join pg_am am on am.oid = ic.relam "
                           "left join pg_constraint con on con.conindid = i.indexrelid and con.conrelid = i.indrelid "
                           "where i.indrelid = pg_catalog.to_regclass(?) order by 1"),
            {L});
        !s)
        return s.error();
    struct Index {
        QString name, def;
        bool unique;
        QString method;
    };
    QList<Index> indexes;
    while (q.next()) {
        const QString name = q.value(0).toString();
        if (q.value(2).toBool())
            livePk = name;
        else if (q.value(4).toBool())
            plan.notCarried << QStringLiteral("constraint index %1 (a unique or exclusion constraint)").arg(name);
        else
            indexes.append({name, q.value(1).toString(), q.value(3).toBool(), q.value(5).toString()});
    }
    if (auto s = rows(QStringLiteral("select con.conname from pg_constraint con where con.conrelid = "
                                     "pg_catalog.to_regclass(?) and con.contype = 'p'"),
                      {N});
        !s)
        return s.error();
    if (q.next())
        nextPk = q.value(0).toString();
    for (const Index &ix : indexes) {
        const qsizetype using_ = ix.def.indexOf(QLatin1String(" USING "));
        if (using_ < 0) {
            plan.notCarried << QStringLiteral("index %1 (its definition could not be read)").arg(ix.name);
            continue;
        }
        plan.onNew += QStringLiteral("alter index %1 rename to %2;\n")
                          .arg(h.quoted(ix.name), quoteIdent(suffixed(ix.name, QStringLiteral("_old_") + stamp)));
        plan.onNew +=
            QStringLiteral("create %1index %2 on %3%4;\n")
                .arg(ix.unique ? QStringLiteral("unique ") : QString(), quoteIdent(ix.name), N, ix.def.mid(using_));
        plan.carried << QStringLiteral("index %1 (%2)").arg(ix.name, ix.method);
    }

    // Triggers, with their enabled state.
    if (auto s = rows(QStringLiteral("select t.tgname, pg_catalog.pg_get_triggerdef(t.oid), t.tgenabled, "
                                     "t.tgconstraint <> 0, pg_catalog.quote_ident(n.nspname) || '.' || "
                                     "pg_catalog.quote_ident(c.relname), pg_catalog.quote_ident(c.relname) "
                                     "from pg_trigger t join pg_class c on c.oid = t.tgrelid "
                                     "join pg_namespace n on n.oid = c.relnamespace "
                                     "where t.tgrelid = pg_catalog.to_regclass(?) and not t.tgisinternal order by 1"),
                      {L});
        !s)
        return s.error();
    while (q.next()) {
        const QString name = q.value(0).toString();
        QString def = q.value(1).toString();
        if (q.value(3).toBool()) {
            plan.notCarried << QStringLiteral("constraint trigger %1").arg(name);
            continue;
        }
        bool replaced = false;
        for (const QString &form : {q.value(4).toString(), q.value(5).toString()}) {
            const QString on = QStringLiteral(" ON ") + form + QLatin1Char(' ');
            const qsizetype at = def.indexOf(on);
            if (at >= 0) {
                def.replace(at, on.size(), QStringLiteral(" ON ") + N + QLatin1Char(' '));
                replaced = true;
                break;
            }
        }
        if (!replaced) {
            plan.notCarried << QStringLiteral("trigger %1 (its definition could not be read)").arg(name);
            continue;
        }
        plan.onNew += def + QStringLiteral(";\n");
        const QString enabled = q.value(2).toString();
        if (enabled == QLatin1String("D"))
            plan.onNew += QStringLiteral("alter table %1 disable trigger %2;\n").arg(N, quoteIdent(name));
        else if (enabled == QLatin1String("R"))
            plan.onNew += QStringLiteral("alter table %1 enable replica trigger %2;\n").arg(N, quoteIdent(name));
        else if (enabled == QLatin1String("A"))
            plan.onNew += QStringLiteral("alter table %1 enable always trigger %2;\n").arg(N, quoteIdent(name));
        plan.carried << QStringLiteral("trigger %1").arg(name);
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
    auto pubs = planPublicationCarry(db, h.liveTable, h.liveTable.withName(next.tableName().name));
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
    if (q.next()) {
        for (int i : {0, 3}) {
            const bool table = i == 0;
            if (!q.value(i + 1).toBool())
                continue;
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
        }
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
        plan.renames += QStringLiteral("alter table %1 rename constraint %2 to %3;\n")
                            .arg(L, quoteIdent(livePk), quoteIdent(suffixed(livePk, QStringLiteral("_old_") + stamp)));
        plan.renames += QStringLiteral("alter table %1 rename constraint %2 to %3;\n")
                            .arg(N, quoteIdent(nextPk), quoteIdent(livePk));
    }
    plan.renames += QStringLiteral("alter table %1 rename to %2;\n"
                                   "alter table %3 rename to %4;\n"
                                   "alter function %5 rename to %6;\n"
                                   "alter function %7 rename to %8;\n")
                        .arg(L, quoteIdent(oldTable), N, h.liveTable.quotedName(), Lf, quoteIdent(oldFunction), Nf,
                             h.liveFunction.quotedName());
    return plan;
}

} // namespace bloom::maintenance
