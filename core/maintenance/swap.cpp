// Rebuilder's second half: draining the pending names, swap, abort and drop-old.
#include "maintenance/rebuild.h"

#include "maintenance/helpers.h"
#include "postgres/filterstore.h"
#include "postgres/pgarray.h"
#include "postgres/pgconn.h"
#include "shards/audit.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSet>
#include <QSqlQuery>

#include <cmath>
#include <limits>

namespace bloom {

namespace {

using maintenance::Helpers;
using maintenance::helpers;
using maintenance::suffixed;
using maintenance::trustedHelperExists;

FilterRef refIn(const QString &schema, const QString &table, const QString &function)
{
    return FilterRef{QualifiedName{schema, table}.text(), QualifiedName{schema, function}.text()};
}

/** Pending names with their ids: the undrained ones (locked for this drain) or the drained ones. */
struct PendingBatch {
    QList<QByteArray> names;
    std::vector<qint64> ids;
};

Result<PendingBatch> pendingBatch(Database &db, const QString &schema, bool drained, qint64 after, int limit,
                                  qint64 upTo = std::numeric_limits<qint64>::max())
{
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("select id, name from %1.bloomscope_pending where drained = ? and id > ? and id <= ? "
                             "order by id limit %2%3")
                  .arg(schema)
                  .arg(limit)
                  .arg(drained ? QString() : QStringLiteral(" for update")));
    q.addBindValue(drained);
    q.addBindValue(after);
    q.addBindValue(upTo);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the pending names"));
    PendingBatch b;
    while (q.next()) {
        b.ids.push_back(q.value(0).toLongLong());
        b.names.append(q.value(1).toString().toUtf8());
    }
    return b;
}

/** The names among `names` that the live filter may hold (the rest were only checked, never added). */
Result<QList<QByteArray>> maybeIn(FilterStore &store, const QList<QByteArray> &names)
{
    QList<QByteArray> valid; // checks record the same names again and again: each once
    QSet<QByteArray> seen;
    for (const QByteArray &n : names)
        if (!seen.contains(n) && validateName(n).ok()) {
            seen.insert(n);
            valid.append(n);
        }
    auto placed = store.place(valid);
    if (!placed)
        return placed.error();
    auto verdicts = store.check(*placed);
    if (!verdicts)
        return verdicts.error();
    QList<QByteArray> out;
    for (qsizetype i = 0; i < valid.size(); ++i)
        if (verdicts->at(i))
            out.append(valid[i]);
    return out;
}

} // namespace

Result<qint64> Rebuilder::drain(Database &db, const RebuildState &st, bool final)
{
    FilterStore live(db, refIn(st.schema, st.liveTable, st.liveFunction));
    FilterStore next(db, refIn(st.schema, st.newTable, st.newFunction));
    if (auto s = live.attach(); !s)
        return s.error();
    if (auto s = next.attach(); !s)
        return s.error();
    return drainInto(db, quoteIdent(st.schema), live, next, final);
}

Result<qint64> Rebuilder::drainInto(Database &db, const QString &schema, FilterStore &live, FilterStore &next,
                                    bool final)
{
    // Rows are marked drained in the same transaction that ORs their names into the new filter.
    // An add still in flight has a row this drain cannot see yet: it stays undrained for the next
    // one (the final drain runs inside the swap, when no add can be in flight).
    next.setManagedTransaction(true);
    // Checks record names too and keep coming: drain what is there now, not a moving target. Inside
    // the swap, the EXCLUSIVE lock has waited for every add in flight, so all their rows are below.
    qint64 bound = 0;
    {
        QSqlQuery q(db.db());
        if (!q.exec(QStringLiteral("select coalesce(max(id), 0) from %1.bloomscope_pending").arg(schema)) || !q.next())
            return Database::queryError(q, QStringLiteral("reading the pending names"));
        bound = q.value(0).toLongLong();
    }
    qint64 added = 0;
    for (;;) {
        if (!final && !db.db().transaction())
            return makeError(ErrorKind::Connection, QStringLiteral("cannot begin a drain"));
        const auto fail = [&](Error e) -> Result<qint64> {
            if (!final)
                db.db().rollback();
            return e;
        };
        auto batch = pendingBatch(db, schema, false, 0, 50000, bound);
        if (!batch)
            return fail(batch.error());
        if (batch->names.isEmpty()) {
            if (!final)
                db.db().commit();
            break;
        }
        auto maybe = maybeIn(live, batch->names);
        if (!maybe)
            return fail(maybe.error());
        auto placed = next.place(*maybe);
        if (!placed)
            return fail(placed.error());
        if (!placed->isEmpty())
            if (auto r = next.addBulk(*placed); !r)
                return fail(r.error());
        QString ids = QStringLiteral("{");
        for (size_t i = 0; i < batch->ids.size(); ++i)
            ids += (i ? QStringLiteral(",") : QString()) + QString::number(batch->ids[i]);
        ids += QLatin1Char('}');
        QSqlQuery q(db.db());
        q.prepare(
            QStringLiteral("update %1.bloomscope_pending set drained = true where id = any(?::bigint[])").arg(schema));
        q.addBindValue(ids);
        if (!q.exec())
            return fail(Database::queryError(q, QStringLiteral("recording the drain")));
        q.finish();
        if (!final && !db.db().commit())
            return makeError(ErrorKind::Server, QStringLiteral("commit of a drain failed"));
        added += maybe->size();
    }
    next.setManagedTransaction(false);
    return added;
}

Status Rebuilder::abort(Database &db, const FilterRef &liveRef)
{
    auto st = state(db, liveRef);
    if (!st)
        return st.error();
    if (!st->exists)
        return makeError(ErrorKind::Usage, QStringLiteral("there is no rebuild to abort"));
    auto h = helpers(db, liveRef);
    if (!h)
        return h.error();
    QSqlQuery q(db.db());
    if (!q.exec(QStringLiteral("select original_function from %1").arg(h->state)) || !q.next())
        return Database::queryError(q, QStringLiteral("reading the original function"));
    const QString original = q.value(0).toString();
    q.finish();
    // The definition pg_get_functiondef gave when the rebuild started; it is run as one statement
    // (the extended protocol takes no second one), and only if it still defines the live function.
    const QString expected = QStringLiteral("CREATE OR REPLACE FUNCTION %1(").arg(h->liveFunction.quoted());
    QString unquotedForm =
        QStringLiteral("CREATE OR REPLACE FUNCTION %1.%2(").arg(h->liveTable.schema, h->liveFunction.name);
    if (!original.startsWith(expected) && !original.startsWith(unquotedForm))
        return makeError(
            ErrorKind::Refused,
            QStringLiteral("refusing to restore %1: the recorded definition does not define it")
                .arg(h->liveFunction.text()),
            QStringLiteral("restore the function by hand from the reference SQL, then drop %1").arg(h->state));
    if (!db.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin the abort"));
    // One transaction: the live function is the application's again, and every leftover is gone.
    const QString drops =
        QStringLiteral("drop table if exists %1;\n"
                       "drop function if exists %2(text);\n"
                       "drop table %3;\n"
                       "drop table %4;\n"
                       "drop function %5(text);\n")
            .arg(h->quoted(st->newTable), h->quoted(st->newFunction), h->state, h->pending, h->record);
    if (auto s = maintenance::execOne(db, original, QStringLiteral("restoring %1").arg(h->liveFunction.text())); !s) {
        db.db().rollback();
        return s;
    }
    if (!q.exec(drops)) {
        Error e = Database::queryError(q, QStringLiteral("aborting the rebuild"));
        db.db().rollback();
        return e;
    }
    if (!db.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of the abort failed"));
    return success();
}

namespace {

/** The statements that carry what the site set on the live pair over to the new one. */
struct CarryPlan {
    QStringList carried, notCarried;
    QString onNew;   ///< inside the swap, before the renames: indexes, triggers, comments, grants, owner
    QString renames; ///< under ACCESS EXCLUSIVE: constraint names, then the pair's names
};

QString aclTarget(bool isPublic, const QString &role)
{
    return isPublic ? QStringLiteral("public") : quoteIdent(role);
}

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
        {QStringLiteral("select 'publication ' || p.pubname from pg_publication_rel pr join pg_publication p on "
                        "p.oid = pr.prpubid where pr.prrelid = pg_catalog.to_regclass(?)"),
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

/** A sampled user who signed up after the early drain is still in the pending table: the swap
 *  drains it into the new table before the renames, so it is no miss. */
Status forgivePending(Database &db, const Helpers &h, SwapCheck &c)
{
    if (c.auditMisses.isEmpty())
        return success();
    QSqlQuery q(db.db());
    q.prepare(
        QStringLiteral("select distinct pg_catalog.lower(name) from %1 where not drained and "
                       "pg_catalog.lower(name) = any (select pg_catalog.lower(m) from pg_catalog.unnest(?::text[]) m)")
            .arg(h.pending));
    q.addBindValue(textArray(c.auditMisses));
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("looking for the audit's misses among the pending names"));
    QSet<QString> pending;
    while (q.next())
        pending.insert(q.value(0).toString());
    QList<QByteArray> misses;
    for (const QByteArray &n : c.auditMisses)
        if (!pending.contains(QString::fromUtf8(n).toLower()) && !pending.contains(QString::fromUtf8(n)))
            misses << n;
    c.auditMisses = misses;
    return success();
}

/** Sampled users of the rebuild's sources (or the shard map) that the new table calls free. */
Status auditNew(Database &db, const Helpers &h, FilterStore &next, const RebuildState &st, const SwapOptions &o,
                SwapCheck &c)
{
    if (o.auditSample <= 0) {
        c.auditNote = QStringLiteral("no audit: --audit-sample 0");
        return success();
    }
    if (o.shards) {
        auto r = audit(next, *o.shards, o.auditSample, 0);
        if (!r)
            return r.error();
        c.audited = true;
        c.auditSampled = r->sampled;
        c.auditMisses = r->falseNegatives;
        return forgivePending(db, h, c);
    }
    QSqlQuery q(db.db());
    if (!q.exec(QStringLiteral("select sources, query from %1").arg(h.state)) || !q.next())
        return Database::queryError(q, QStringLiteral("reading the rebuild's sources"));
    const QJsonArray sources = QJsonDocument::fromJson(q.value(0).toString().toUtf8()).array();
    const QString query = q.value(1).toString();
    if (sources.isEmpty()) {
        c.auditNote = QStringLiteral("no audit: the rebuild read files only; pass --shards MAP to sample users");
        return success();
    }
    for (qsizetype i = 0; i < sources.size(); ++i) {
        const QString conninfo = sources[i].toString();
        PgConn conn(conninfo, PgConn::SearchPath::CatalogFirst);
        if (!conn.ok())
            return makeError(ErrorKind::Refused,
                             QStringLiteral("cannot audit the new table: source %1: %2")
                                 .arg(st.perSource.value(i).source, conn.errorMessage()),
                             QStringLiteral("pass --shards MAP, or --audit-sample 0 to swap without an audit"));
        const double count = double(qMax<qint64>(1, st.perSource.value(i).names));
        const double share = qMin(1.0, 2.0 * double(o.auditSample) / count);
        auto names = conn.column(QStringLiteral("select q.n::text from (%1) as q(n) where q.n is not null and "
                                                "pg_catalog.random() < %2 limit %3")
                                     .arg(query)
                                     .arg(share, 0, 'g', 17)
                                     .arg(o.auditSample));
        if (!names)
            return makeError(ErrorKind::Refused, QStringLiteral("cannot audit the new table: source %1: %2")
                                                     .arg(st.perSource.value(i).source, names.error().message));
        QList<QByteArray> valid;
        for (const QByteArray &n : *names)
            if (validateName(n).ok())
                valid << n;
        auto placed = next.place(valid);
        if (!placed)
            return placed.error();
        auto verdicts = next.check(*placed);
        if (!verdicts)
            return verdicts.error();
        for (qsizetype j = 0; j < valid.size(); ++j)
            if (!verdicts->at(j))
                c.auditMisses << valid[j];
        c.auditSampled += valid.size();
    }
    c.audited = true;
    return forgivePending(db, h, c);
}

} // namespace

void judgeSwap(SwapCheck &c, const SwapOptions &o)
{
    c.missingShare = c.liveNames > 0 ? qMax(0.0, 1.0 - c.newNames / c.liveNames) : 0.0;
    c.fewerNames = c.newNames < c.tolerance * c.liveNames;
    c.refusal.clear();
    c.refusalFix.clear();
    if (!c.auditMisses.isEmpty()) {
        QStringList shown;
        for (const QByteArray &n : c.auditMisses.mid(0, 10))
            shown << QString::fromUtf8(n);
        c.refusal = QStringLiteral("%1 of %2 sampled users check free in %3 (e.g. %4): the swap would make them "
                                   "false negatives")
                        .arg(c.auditMisses.size())
                        .arg(c.auditSampled)
                        .arg(c.newTable, shown.join(QStringLiteral(", ")));
        c.refusalFix = QStringLiteral("rebuild from every source that holds users ('bloomctl rebuild --abort', then "
                                      "rebuild with all the shards)");
        return;
    }
    if (c.fewerNames && !o.allowFewerNames) {
        qint64 read = 0;
        for (const SourceCount &s : c.perSource)
            read += s.names;
        c.refusal = QStringLiteral("the rebuild read %1 names from %2 source%3 and %4 holds about %5; the live "
                                   "filter %6 holds about %7 (%8% fewer, more than the estimate's %9% tolerance)")
                        .arg(formatCount(read))
                        .arg(c.perSource.size())
                        .arg(c.perSource.size() == 1 ? QString() : QStringLiteral("s"))
                        .arg(c.newTable, formatCount(std::llround(c.newNames)), c.liveTable,
                             formatCount(std::llround(c.liveNames)))
                        .arg(c.missingShare * 100, 0, 'f', 1)
                        .arg((1 - c.tolerance) * 100, 0, 'f', 0);
        c.refusalFix = QStringLiteral("add the other shards to the rebuild, or pass --allow-fewer-names if the names "
                                      "were really deleted");
        return;
    }
    if (!c.notCarried.isEmpty() && !o.allowUncarried) {
        c.refusal = QStringLiteral("the swap cannot carry over: %1").arg(c.notCarried.join(QStringLiteral("; ")));
        c.refusalFix = QStringLiteral("re-create these on the new table after the swap yourself and pass "
                                      "--accept-uncarried, or remove them from the live table first");
    }
}

Result<SwapCheck> Rebuilder::checkSwap(Database &db, const QString &newTable, const SwapOptions &o)
{
    auto st = state(db, o.live);
    if (!st)
        return st.error();
    auto h = helpers(db, o.live);
    if (!h)
        return h.error();
    auto wanted = QualifiedName::parse(newTable, QStringLiteral("TABLE"));
    if (!wanted)
        return wanted.error();
    if (!st->exists || st->newTable != wanted->name ||
        (!wanted->schema.isEmpty() && wanted->schema != h->liveTable.schema))
        return makeError(ErrorKind::Usage,
                         QStringLiteral("no finished rebuild into %1 is waiting to be swapped in").arg(newTable),
                         st->exists ? QStringLiteral("the rebuild in progress is into %1").arg(st->newTable)
                                    : QStringLiteral("run 'bloomctl rebuild ... --into %1' first").arg(newTable));
    if (st->stage != QLatin1String("ready"))
        return makeError(
            ErrorKind::Usage,
            QStringLiteral("the rebuild into %1 stopped at stage '%2' and is not complete").arg(newTable, st->stage),
            QStringLiteral("run 'bloomctl rebuild --abort' and rebuild again"));
    FilterStore live(db, refIn(st->schema, st->liveTable, st->liveFunction));
    FilterStore next(db, refIn(st->schema, st->newTable, st->newFunction));
    if (auto s = live.attach(); !s)
        return s.error();
    if (auto s = next.attach(); !s) // refuses a table whose geometry does not match its function
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("refusing to swap in %1: %2").arg(newTable, s.error().message));
    SwapCheck c;
    c.liveTable = h->liveTable.text();
    c.newTable = QualifiedName{st->schema, st->newTable}.text();
    c.liveGeometry = live.geometry();
    c.newGeometry = next.geometry();
    c.perSource = st->perSource;
    c.pending = st->pending;
    c.tolerance = SwapNamesTolerance;
    auto liveFill = live.fill();
    if (!liveFill)
        return liveFill.error();
    auto newFill = next.fill();
    if (!newFill)
        return newFill.error();
    c.liveNames = liveFill->estimatedNames();
    c.newNames = newFill->estimatedNames();
    const QString stamp = QStringLiteral("00000000_000000");
    auto plan = planCarryOver(db, *h, live, next, suffixed(st->liveTable, QStringLiteral("_old_") + stamp),
                              suffixed(st->liveFunction, QStringLiteral("_old_") + stamp), stamp);
    if (!plan)
        return plan.error();
    c.carried = plan->carried;
    c.notCarried = plan->notCarried;
    c.sql = QStringLiteral("begin;\nlock table %1 in exclusive mode;\nlock table %2 in access exclusive mode;\n"
                           "-- drain the pending names into %2, check the counts again\n%3"
                           "lock table %1 in access exclusive mode;\n%4commit;\n")
                .arg(live.quotedTable(), next.quotedTable(), plan->onNew, plan->renames)
                .replace(stamp, QStringLiteral("<YYYYMMDD_HHMMSS>"));
    if (auto s = auditNew(db, *h, next, *st, o, c); !s)
        return s.error();
    judgeSwap(c, o);
    return c;
}

Result<SwapReport> Rebuilder::swap(Database &db, const QString &newTable, const SwapOptions &o)
{
    // Most of the backlog is drained before the guard counts and before any lock is taken; the
    // swap drains only the rest.
    if (auto st = state(db, o.live); st && st->exists && st->stage == QLatin1String("ready"))
        if (auto early = drain(db, *st, false); !early)
            return early.error();
    auto checked = checkSwap(db, newTable, o);
    if (!checked)
        return checked.error();
    if (!checked->refusal.isEmpty())
        return makeError(ErrorKind::Refused,
                         QStringLiteral("refusing to swap in %1: %2").arg(newTable, checked->refusal),
                         checked->refusalFix);
    auto st = state(db, o.live);
    if (!st)
        return st.error();
    auto h = helpers(db, o.live);
    if (!h)
        return h.error();
    FilterStore live(db, refIn(st->schema, st->liveTable, st->liveFunction));
    FilterStore next(db, refIn(st->schema, st->newTable, st->newFunction));
    if (auto s = live.attach(); !s)
        return s.error();
    if (auto s = next.attach(); !s)
        return s.error();

    // Every drained name the live filter may hold must be in the new filter.
    for (qint64 after = 0;;) {
        auto batch = pendingBatch(db, h->schema, true, after, 50000);
        if (!batch)
            return batch.error();
        if (batch->names.isEmpty())
            break;
        after = batch->ids.back();
        auto maybe = maybeIn(live, batch->names);
        if (!maybe)
            return maybe.error();
        auto placed = next.place(*maybe);
        if (!placed)
            return placed.error();
        auto verdicts = next.check(*placed);
        if (!verdicts)
            return verdicts.error();
        const qsizetype missing = verdicts->count(false);
        if (missing > 0)
            return makeError(ErrorKind::Refused,
                             QStringLiteral("refusing to swap in %1: %2 name(s) drained from the pending table are not "
                                            "in it (e.g. '%3')")
                                 .arg(newTable)
                                 .arg(missing)
                                 .arg(QString::fromUtf8(maybe->at(verdicts->indexOf(false)))),
                             QStringLiteral("run 'bloomctl rebuild --abort' and rebuild"));
    }

    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd_HHmmss"));
    SwapReport report;
    report.check = *checked;
    report.oldTable = suffixed(st->liveTable, QStringLiteral("_old_") + stamp);
    report.oldFunction = suffixed(st->liveFunction, QStringLiteral("_old_") + stamp);
    auto plan = planCarryOver(db, *h, live, next, report.oldTable, report.oldFunction, stamp);
    if (!plan)
        return plan.error();
    const auto rollback = [&db](Error e) {
        db.db().rollback();
        return e;
    };
    if (!db.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin the swap"));
    QSqlQuery q(db.db());
    QElapsedTimer lockTimer;
    // EXCLUSIVE: adds wait (and their names are recorded before we look), checks go on.
    if (!q.exec(
            QStringLiteral("set local lock_timeout = '30s'; lock table %1 in exclusive mode").arg(live.quotedTable())))
        return rollback(Database::queryError(q, QStringLiteral("locking %1").arg(st->liveTable)));
    lockTimer.start();
    // The new table too, now: a lock wait on it (autovacuum yields only after deadlock_timeout) must
    // not fall into the window in which checks are blocked.
    if (!q.exec(QStringLiteral("lock table %1 in access exclusive mode").arg(next.quotedTable())))
        return rollback(Database::queryError(q, QStringLiteral("locking %1").arg(newTable)));
    auto drained = drainInto(db, h->schema, live, next, /*final=*/true);
    if (!drained)
        return rollback(drained.error());
    report.drainedInSwap = *drained;
    // The guard's counts again, now that no add can slip in between the check and the swap.
    {
        auto liveFill = live.fill();
        if (!liveFill)
            return rollback(liveFill.error());
        auto newFill = next.fill();
        if (!newFill)
            return rollback(newFill.error());
        report.check.liveNames = liveFill->estimatedNames();
        report.check.newNames = newFill->estimatedNames();
        report.check.pending = 0;
        report.check.carried = plan->carried;
        report.check.notCarried = plan->notCarried;
        judgeSwap(report.check, o);
        if (!report.check.refusal.isEmpty())
            return rollback(makeError(ErrorKind::Refused,
                                      QStringLiteral("refusing to swap in %1 (checked under the lock): %2")
                                          .arg(newTable, report.check.refusal),
                                      report.check.refusalFix));
    }
    if (!plan->onNew.isEmpty() && !q.exec(plan->onNew))
        return rollback(
            Database::queryError(q, QStringLiteral("carrying %1's settings over to %2").arg(st->liveTable, newTable)));
    // ACCESS EXCLUSIVE for the renames only: checks wait from here to the commit.
    QElapsedTimer exclusive;
    if (!q.exec(QStringLiteral("lock table %1 in access exclusive mode").arg(live.quotedTable())))
        return rollback(Database::queryError(q, QStringLiteral("locking %1").arg(st->liveTable)));
    exclusive.start();
    const QString bookkeeping =
        QStringLiteral("create table if not exists %1 (id bigserial primary key, live_table text not null, "
                       "  old_table text not null, old_table_oid oid not null, old_function text not null, "
                       "  old_function_oid oid not null, swapped_at timestamptz not null default now());\n"
                       "revoke all on table %1 from public;\n"
                       "insert into %1 (live_table, old_table, old_table_oid, old_function, old_function_oid) "
                       "values (%2, %3, pg_catalog.to_regclass(%4), %5, pg_catalog.to_regprocedure(%6));\n"
                       "drop table %7;\n"
                       "drop table %8;\n"
                       "drop function %9(text);\n")
            .arg(h->swapped, db.quoteLiteral(st->liveTable), db.quoteLiteral(report.oldTable),
                 db.quoteLiteral(h->quoted(report.oldTable)), db.quoteLiteral(report.oldFunction),
                 db.quoteLiteral(h->quoted(report.oldFunction) + QStringLiteral("(text)")), h->state, h->pending,
                 h->record);
    if (!q.exec(plan->renames + bookkeeping))
        return rollback(Database::queryError(q, QStringLiteral("swapping %1 in").arg(newTable)));
    q.finish();
    if (!db.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of the swap failed; nothing changed"));
    report.exclusiveMs = double(exclusive.nsecsElapsed()) / 1e6;
    report.lockMs = double(lockTimer.nsecsElapsed()) / 1e6;
    return report;
}

Result<QStringList> Rebuilder::dropOld(Database &db, const FilterRef &liveRef, bool dryRun)
{
    auto st = state(db, liveRef);
    if (!st)
        return st.error();
    if (st->exists)
        return makeError(ErrorKind::Usage, QStringLiteral("a rebuild into %1 is in progress").arg(st->newTable),
                         QStringLiteral("swap it in or abort it first"));
    auto h = helpers(db, liveRef);
    if (!h)
        return h.error();
    auto recorded = trustedHelperExists(db, *h, h->swapped);
    if (!recorded)
        return recorded.error();
    QStringList dropped;
    if (!*recorded)
        return dropped;
    // Only what a swap recorded, and only while it is still the object the swap renamed (same oid
    // and name): a table someone else named like an old filter is never touched.
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("select s.id, s.old_table, s.old_function, "
                             "  (select c.relname from pg_class c where c.oid = s.old_table_oid and c.relnamespace = "
                             "   pg_catalog.to_regnamespace(?)), "
                             "  (select p.proname from pg_proc p where p.oid = s.old_function_oid and p.pronamespace = "
                             "   pg_catalog.to_regnamespace(?)) "
                             "from %1 s where s.live_table = ? order by s.id")
                  .arg(h->swapped));
    q.addBindValue(h->schema);
    q.addBindValue(h->schema);
    q.addBindValue(h->liveTable.name);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the old pairs the swaps kept"));
    QString sql;
    QStringList ids;
    while (q.next()) {
        ids << q.value(0).toString();
        if (q.value(3).toString() == q.value(1).toString()) {
            sql += QStringLiteral("drop table %1;\n").arg(h->quoted(q.value(1).toString()));
            dropped << q.value(1).toString();
        }
        if (q.value(4).toString() == q.value(2).toString()) {
            sql += QStringLiteral("drop function %1(text);\n").arg(h->quoted(q.value(2).toString()));
            dropped << q.value(2).toString() + QStringLiteral("(text)");
        }
    }
    q.finish();
    if (ids.isEmpty() || dryRun)
        return dropped;
    sql += QStringLiteral("delete from %1 where id in (%2);\n").arg(h->swapped, ids.join(QLatin1Char(',')));
    q.prepare(QStringLiteral("select count(*) from %1 where live_table <> ?").arg(h->swapped));
    q.addBindValue(h->liveTable.name);
    if (q.exec() && q.next() && q.value(0).toLongLong() == 0)
        sql += QStringLiteral("drop table %1;\n").arg(h->swapped); // no other filter's record: no helper left
    q.finish();
    if (!db.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin drop-old"));
    if (!q.exec(sql)) {
        Error e = Database::queryError(q, QStringLiteral("dropping the old filter"));
        db.db().rollback();
        return e;
    }
    if (!db.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of drop-old failed"));
    return dropped;
}

} // namespace bloom
