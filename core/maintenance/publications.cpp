#include "maintenance/publications.h"

#include "maintenance/helpers.h"
#include "postgres/filtersql.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlQuery>

namespace bloom::maintenance {

QString Publication::describe(const QualifiedName &table) const
{
    QStringList how;
    if (allTables)
        how << QStringLiteral("FOR ALL TABLES");
    if (inSchema)
        how << QStringLiteral("FOR TABLES IN SCHEMA %1").arg(table.schema);
    if (listsTable)
        how << QStringLiteral("FOR TABLE %1").arg(table.text());
    return QStringLiteral("\"%1\" (%2)").arg(name, how.join(QStringLiteral(", ")));
}

QString Publication::membership() const
{
    QString out;
    if (!columns.isEmpty())
        out += QStringLiteral(" (%1)").arg(columns);
    if (!rowFilter.isEmpty())
        out += QStringLiteral(" where (%1)").arg(rowFilter);
    return out;
}

bool Publications::takeNewTables() const
{
    for (const Publication &p : list)
        if (p.takesNewTables())
            return true;
    return false;
}

bool Publications::listTable() const
{
    for (const Publication &p : list)
        if (p.listsTable)
            return true;
    return false;
}

QString Publications::describe(bool takingNewTables, bool listingTable) const
{
    QStringList out;
    for (const Publication &p : list)
        if ((takingNewTables && p.takesNewTables()) || (listingTable && p.listsTable && !p.takesNewTables()))
            out << p.describe(table);
    return out.join(QStringLiteral(" and "));
}

QString Publications::refreshStep() const
{
    return QStringLiteral("ALTER SUBSCRIPTION <subscription> REFRESH PUBLICATION;   -- %1")
        .arg(slotNames.isEmpty() ? QStringLiteral("this database has no logical replication slot now")
                                 : QStringLiteral("this database's logical replication slots: %1")
                                       .arg(slotNames.join(QStringLiteral(", "))));
}

Result<Publications> publicationsOf(Database &db, const QualifiedName &table)
{
    Publications out;
    out.table = table;
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("select pg_catalog.current_setting('server_version_num')::int")) || !q.next())
        return Database::queryError(q, QStringLiteral("reading the server's version"));
    const bool pg15 = q.value(0).toInt() >= 150000;
    q.finish();
    // PostgreSQL 15 added publications of a schema, column lists and row filters.
    q.prepare(QStringLiteral("select p.pubname, p.puballtables, %1, pr.oid is not null, %2, %3, "
                             "  p.pubowner::regrole::text, pg_catalog.pg_has_role(current_user, p.pubowner, 'MEMBER') "
                             "from pg_catalog.pg_publication p left join pg_catalog.pg_publication_rel pr "
                             "  on pr.prpubid = p.oid and pr.prrelid = pg_catalog.to_regclass(?) "
                             "order by 1")
                  .arg(pg15 ? QStringLiteral("exists (select from pg_catalog.pg_publication_namespace pn where "
                                             "pn.pnpubid = p.oid and pn.pnnspid = pg_catalog.to_regnamespace(?))")
                            : QStringLiteral("(? is null)"),
                       pg15 ? QStringLiteral("(select pg_catalog.json_agg(a.attname order by a.attnum) from "
                                             "pg_catalog.pg_attribute a where a.attrelid = pr.prrelid and a.attnum "
                                             "operator(pg_catalog.=) any (pr.prattrs::int2[]))::text")
                            : QStringLiteral("null::text"),
                       pg15 ? QStringLiteral("pg_catalog.pg_get_expr(pr.prqual, pr.prrelid)")
                            : QStringLiteral("null::text")));
    q.addBindValue(pg15 ? table.quotedSchema() : QString());
    q.addBindValue(table.quoted());
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the publications of %1").arg(table.text()));
    while (q.next()) {
        Publication p;
        p.name = q.value(0).toString();
        p.allTables = q.value(1).toBool();
        p.inSchema = pg15 && q.value(2).toBool();
        p.listsTable = q.value(3).toBool();
        QStringList columns; // quoted here, as every name Bloomscope splices
        for (const QJsonValue &c : QJsonDocument::fromJson(q.value(4).toString().toUtf8()).array())
            columns << quoteIdent(c.toString());
        p.columns = columns.join(QStringLiteral(", "));
        p.rowFilter = q.value(5).toString();
        p.owner = q.value(6).toString();
        p.mayAlter = q.value(7).toBool();
        if (p.takesNewTables() || p.listsTable)
            out.list << p;
    }
    q.finish();
    if (out.list.isEmpty())
        return out;
    if (!q.exec(QStringLiteral("select slot_name from pg_catalog.pg_replication_slots where slot_type = 'logical' "
                               "and plugin = 'pgoutput' and database = pg_catalog.current_database() order by 1")))
        return Database::queryError(q, QStringLiteral("reading the logical replication slots"));
    while (q.next())
        out.slotNames << q.value(0).toString();
    return out;
}

namespace {

Error refusal(const QString &message, const QString &fix)
{
    Error e = makeError(ErrorKind::Refused, message, fix);
    e.consent = PublicationConsent;
    return e;
}

QString wrapped(const QString &sql)
{
    return QStringLiteral("begin;\nset local client_min_messages = warning;\n%1commit;\n")
        .arg(sql.endsWith(QLatin1Char('\n')) ? sql : sql + QLatin1Char('\n'));
}

} // namespace

Status guardNewTable(Database &db, const QualifiedName &table, const QString &created, const QString &subscriberSql,
                     bool consent)
{
    if (consent)
        return success();
    auto pubs = publicationsOf(db, table);
    if (!pubs)
        return pubs.error();
    if (!pubs->takeNewTables())
        return success();
    return refusal(QStringLiteral("refusing to create %1: publication %2 sends every new table of schema %3 to its "
                                  "subscribers, which do not have %1: their apply workers would stop at its first "
                                  "row (\"logical replication target relation ... does not exist\") and their "
                                  "filters would go stale")
                       .arg(created, pubs->describe(true, false), table.schema),
                   QStringLiteral("on each subscriber, first run:\n\n%1\nthen run this again with --publication-ok; "
                                  "afterwards, on each subscriber:\n  %2")
                       .arg(wrapped(subscriberSql), pubs->refreshStep()));
}

QString swappedTableSql(const QString &quotedTable)
{
    // live_schema, new_table and new_function say which filter and which swap a row is: a subscriber's
    // bloomscope_follow_swap() follows exactly the swap it was prepared for and raises at any other of
    // that filter. A record made before them gains them here (a subscriber's copy must have them first:
    // the SQL a rebuild prints adds them there too).
    return QStringLiteral("set local client_min_messages = warning;\n" // no NOTICE when it exists
                          "create table if not exists %1 (id bigserial primary key, live_table text not null, "
                          "  old_table text not null, old_table_oid oid not null, old_function text not null, "
                          "  old_function_oid oid not null, swapped_at timestamptz not null default now(), "
                          "  dropped_at timestamptz, live_schema text, new_table text, new_function text);\n"
                          "do $do$ begin if (select count(*) from pg_catalog.pg_attribute where attrelid = "
                          "pg_catalog.to_regclass(%2) and attname in ('live_schema', 'new_table', 'new_function') "
                          "and not attisdropped) < 3 then alter table %1 add column if not exists live_schema text, "
                          "add column if not exists new_table text, add column if not exists new_function text; "
                          "end if; end $do$;\n"
                          "revoke all on table %1 from public;\n")
        .arg(quotedTable,
             QStringLiteral("'%1'").arg(QString(quotedTable).replace(QLatin1Char('\''), QStringLiteral("''"))));
}

namespace {

/** The rebuild's names, resolved in the live table's schema. */
struct RebuildNames {
    Helpers h;
    QualifiedName into, intoFunction;
};

Result<RebuildNames> rebuildNames(Database &db, const FilterRef &live, const QString &intoTable,
                                  const QString &intoFunction)
{
    auto h = helpers(db, live);
    if (!h)
        return h.error();
    auto t = QualifiedName::parse(intoTable, QStringLiteral("--into"));
    if (!t)
        return t.error();
    auto f = QualifiedName::parse(intoFunction.isEmpty() ? t->name + QStringLiteral("_bits") : intoFunction,
                                  QStringLiteral("--into-function"));
    if (!f)
        return f.error();
    return RebuildNames{*h, h->liveTable.withName(t->name), h->liveTable.withName(f->name)};
}

/** The subscriber's copy of the rebuild's helper tables (the columns prepare() creates them with). */
QString subscriberHelpersSql(const Helpers &h)
{
    // The columns of the tables Rebuilder::prepare() creates (rebuild.cpp): the subscriber applies their rows.
    return QStringLiteral(
               "create schema if not exists %3;\n"
               "drop table if exists %1, %2;   -- an earlier rebuild's, if any\n"
               "create table %1 (live_table text primary key, live_function text not null, new_table text not null, "
               "new_function text not null, original_function text not null, stage text not null, started_at "
               "timestamptz not null, per_source text not null, sources text not null, query text not null, heartbeat "
               "timestamptz, heartbeat_pid integer, stage_at timestamptz);\n"
               "create table %2 (id bigint primary key, name text, names text[], count integer not null, "
               "written boolean not null, drained boolean not null, at timestamptz not null);\n")
        .arg(h.state, h.pending, h.helperSchema);
}

/** `text` with every {{name}} of `values` replaced in one pass (a value holding "{{x}}" stays as it is). */
QString filled(const QString &text, const QHash<QString, QString> &values)
{
    static const QRegularExpression placeholder(QStringLiteral("\\{\\{(\\w+)\\}\\}"));
    QString out;
    qsizetype at = 0;
    for (auto it = placeholder.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out += text.mid(at, m.capturedStart() - at);
        out += values.value(m.captured(1), m.captured(0));
        at = m.capturedEnd();
    }
    return out + text.mid(at);
}

/** The subscriber's new table, its function and the follower that renames its pair in the swap. */
QString subscriberNewPairSql(Database &db, const Helpers &h, const QualifiedName &into,
                             const QualifiedName &intoFunction, const Geometry &g)
{
    QString follow = sqlResource(QStringLiteral("follow_swap.sql"));
    QStringList lines;
    for (const QString &line : follow.split(QLatin1Char('\n')))
        if (!line.startsWith(QLatin1String("--")))
            lines << line;
    follow = filled(lines.join(QLatin1Char('\n')).trimmed() + QLatin1Char('\n'),
                    {{QStringLiteral("schema"), h.schema},
                     {QStringLiteral("swapped"), h.swapped},
                     {QStringLiteral("live_schema"), db.quoteLiteral(h.liveTable.schema)},
                     {QStringLiteral("live"), db.quoteLiteral(h.liveTable.name)},
                     {QStringLiteral("live_function"), db.quoteLiteral(h.liveFunction.name)},
                     {QStringLiteral("new"), db.quoteLiteral(into.name)},
                     {QStringLiteral("new_function"), db.quoteLiteral(intoFunction.name)}});
    return QStringLiteral("create schema if not exists %1;\n").arg(h.helperSchema) + swappedTableSql(h.swapped) +
           QStringLiteral("drop table if exists %1;\ndrop function if exists %2(text);\n")
               .arg(into.quoted(), intoFunction.quoted()) +
           renderTableSql(g, into.quoted()) + renderFunctionSql(g, intoFunction.quoted()) + follow;
}

/**
 * On a subscriber: true once it can follow the swap of `into` in for the live pair: the live and the new
 * table exist under the names the follower will rename, in the filter's schema, and are synchronized
 * copies; both functions exist there; bloomscope_swapped (with the columns that say which swap a row is)
 * is synchronized; and its follow-swap trigger is enabled for replication with exactly this swap's
 * arguments (schema, live table, live function, new table, new function).
 */
QString readyCheck(Database &db, const Helpers &h, const QualifiedName &into, const QualifiedName &intoFunction)
{
    const auto arg = [&db](const QString &name) {
        return QStringLiteral("convert_to(%1, pg_catalog.getdatabaseencoding()) || '\\x00'::bytea")
            .arg(db.quoteLiteral(name));
    };
    const QStringList args{arg(h.liveTable.schema), arg(h.liveTable.name), arg(h.liveFunction.name), arg(into.name),
                           arg(intoFunction.name)};
    return QStringLiteral(
               "select (select count(*) from pg_subscription_rel where srsubstate = 'r' and srrelid in "
               "(to_regclass(%1), to_regclass(%2), to_regclass(%3))) = 3 "
               "and to_regprocedure(%4) is not null and to_regprocedure(%5) is not null "
               "and (select count(*) from pg_attribute where attrelid = to_regclass(%3) and attname in "
               "('live_schema', 'new_table', 'new_function') and not attisdropped) = 3 "
               "and exists (select from pg_trigger where tgrelid = to_regclass(%3) and tgname = "
               "'bloomscope_follow_swap' and tgenabled = 'R' and tgnargs = 5 and tgargs = %6) as ready_for_the_swap;")
        .arg(db.quoteLiteral(h.liveTable.quoted()), db.quoteLiteral(into.quoted()), db.quoteLiteral(h.swapped),
             db.quoteLiteral(h.liveFunction.quoted() + QStringLiteral("(text)")),
             db.quoteLiteral(intoFunction.quoted() + QStringLiteral("(text)")), args.join(QStringLiteral(" || ")));
}

} // namespace

Status checkRebuild(Database &db, const FilterRef &live, const QString &intoTable, const QString &intoFunction,
                    const Geometry &geometry, bool consent)
{
    auto names = rebuildNames(db, live, intoTable, intoFunction);
    if (!names)
        return names.error();
    const Helpers &h = names->h;
    auto pubs = publicationsOf(db, h.liveTable);
    if (!pubs)
        return pubs.error();
    if (pubs->isEmpty())
        return success();
    for (const Publication &p : pubs->list)
        if (p.listsTable && !p.takesNewTables() && !p.mayAlter)
            return makeError(ErrorKind::Refused,
                             QStringLiteral("refusing to rebuild %1: publication %2 lists it, and the rebuild adds "
                                            "the new table to it (its subscribers copy it before the swap), which "
                                            "only the publication's owner %3 may do")
                                 .arg(h.liveTable.text(), p.describe(h.liveTable), p.owner),
                             QStringLiteral("run the rebuild as %1, a member of it, or a superuser").arg(p.owner));
    if (consent)
        return success();
    QStringList why;
    QString sql;
    if (pubs->takeNewTables()) {
        why << QStringLiteral("publication %1 sends every new table of schema %2 to its subscribers: the rebuild's "
                              "%3, %4, %5 and %6, which they do not have (their apply workers would stop at the "
                              "first row: \"logical replication target relation ... does not exist\", and their "
                              "filters would go stale)")
                   .arg(pubs->describe(true, false), h.liveTable.schema, h.state, h.pending, h.swapped,
                        names->into.text());
        sql += subscriberHelpersSql(h);
    }
    if (pubs->listTable() && !pubs->describe(false, true).isEmpty())
        why << QStringLiteral("publication %1 lists the live table: the rebuild adds %2 and %3 to it, which its "
                              "subscribers must have")
                   .arg(pubs->describe(false, true), names->into.text(), h.swapped);
    sql += subscriberNewPairSql(db, h, names->into, names->intoFunction, geometry);
    return refusal(
        QStringLiteral("refusing to rebuild %1 on a publisher: %2. A subscriber must also switch to the new pair "
                       "exactly where the swap is in its stream, or the new table's rows land in its old table")
            .arg(h.liveTable.text(), why.join(QStringLiteral("; "))),
        QStringLiteral("on each subscriber (the same schema and names), first run:\n\n%1\n"
                       "(its new table and function, and bloomscope_follow_swap(), which renames the subscriber's "
                       "pair when it applies the swap), then rebuild with --publication-ok; when the rebuild has "
                       "finished, on each subscriber:\n  %2\nand before the swap, on each subscriber, wait "
                       "until this returns true:\n  %3")
            .arg(wrapped(sql), pubs->refreshStep(), readyCheck(db, h, names->into, names->intoFunction)));
}

Result<QString> publishRebuilt(Database &db, const FilterRef &live, const QString &intoTable,
                               const QString &intoFunction)
{
    auto names = rebuildNames(db, live, intoTable, intoFunction);
    if (!names)
        return names.error();
    const Helpers &h = names->h;
    auto pubs = publicationsOf(db, h.liveTable);
    if (!pubs)
        return pubs.error();
    if (pubs->isEmpty())
        return QString();
    // The swap's record is there before the subscribers refresh: applying the swap's row of it is what
    // makes a subscriber follow the swap.
    QString sql = swappedTableSql(h.swapped);
    for (const Publication &p : pubs->list) {
        if (!p.listsTable || p.takesNewTables())
            continue;
        sql += QStringLiteral("alter publication %1 add table %2%3;\n")
                   .arg(quoteIdent(p.name), names->into.quoted(), p.membership());
        sql += QStringLiteral("do $do$ begin if not exists (select from pg_catalog.pg_publication_rel where prpubid "
                              "= (select oid from pg_catalog.pg_publication where pubname = %1) and prrelid = "
                              "pg_catalog.to_regclass(%2)) then alter publication %3 add table %4; end if; end "
                              "$do$;\n")
                   .arg(db.quoteLiteral(p.name), db.quoteLiteral(h.swapped), quoteIdent(p.name), h.swapped);
    }
    if (auto s = execScript(db, sql, QStringLiteral("publishing %1").arg(names->into.text())); !s)
        return s.error();
    return QStringLiteral("%1 is published (%2): on each subscriber now\n  %3\nand before the swap, wait until this "
                          "returns true on each subscriber:\n  %4\n")
        .arg(names->into.text(), pubs->describe(true, true), pubs->refreshStep(),
             readyCheck(db, h, names->into, names->intoFunction));
}

Result<PublicationCarry> planPublicationCarry(Database &db, const Helpers &h, const QualifiedName &next,
                                              const QualifiedName &nextFunction)
{
    const QualifiedName &live = h.liveTable;
    PublicationCarry carry;
    auto pubs = publicationsOf(db, live);
    if (!pubs)
        return pubs.error();
    if (pubs->isEmpty())
        return carry;
    auto inNext = publicationsOf(db, next);
    if (!inNext)
        return inNext.error();
    const auto listsNext = [&](const QString &name) {
        for (const Publication &p : inNext->list)
            if (p.name == name && p.listsTable)
                return true;
        return false;
    };
    for (const Publication &p : pubs->list) {
        carry.publications << p.describe(live);
        if (!p.listsTable || p.takesNewTables())
            continue; // every table of the schema is in it: nothing to move
        if (!p.mayAlter) {
            carry.notCarried
                << QStringLiteral("publication %1 (owned by %2, which you are not a member of)").arg(p.name, p.owner);
            continue;
        }
        carry.onNew += QStringLiteral("alter publication %1 drop table %2;\n").arg(quoteIdent(p.name), live.quoted());
        if (!listsNext(p.name))
            carry.onNew += QStringLiteral("alter publication %1 add table %2%3;\n")
                               .arg(quoteIdent(p.name), next.quoted(), p.membership());
        carry.carried << QStringLiteral("publication %1 (the new table instead of the old%2)")
                             .arg(p.name, p.membership().isEmpty() ? QString()
                                                                   : QStringLiteral(", with%1").arg(p.membership()));
    }
    carry.subscriberCheck =
        QStringLiteral("publication(s) %1 carry the filter to subscribers. A subscriber follows the swap only with a "
                       "synchronized copy of %2 and bloomscope_follow_swap() (the SQL 'bloomctl rebuild' printed): "
                       "without them, the rows written to the new table after the swap reach its old table and "
                       "overwrite its chunks (names lost there). On each subscriber this must return true:\n  %3")
            .arg(carry.publications.join(QStringLiteral(", ")), next.text(), readyCheck(db, h, next, nextFunction));
    carry.subscriberAfter =
        QStringLiteral("on each subscriber, once it has applied the swap (select to_regclass(%1) is not null), drop "
                       "the rebuild's leftovers and refresh:\n  drop table if exists %2, %3;\n  %4\n")
            .arg(db.quoteLiteral(live.withName(QStringLiteral("<OLD_TABLE>")).quoted()), h.state, h.pending,
                 pubs->refreshStep());
    return carry;
}

} // namespace bloom::maintenance
