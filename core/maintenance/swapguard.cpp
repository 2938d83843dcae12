// Rebuilder's swap guard: the counts, the audit of the new table and what cannot be carried over.
#include "maintenance/rebuild.h"

#include "maintenance/carryover.h"
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
using maintenance::planCarryOver;

FilterRef refIn(const QString &schema, const QString &table, const QString &function)
{
    return FilterRef{QualifiedName{schema, table}.text(), QualifiedName{schema, function}.text()};
}

/** A sampled user who signed up after the early drain is still in the pending table: the swap
 *  drains it into the new table before the renames, so it is no miss. */
Status forgivePending(Database &db, const Helpers &h, SwapCheck &c)
{
    if (c.auditMisses.isEmpty())
        return success();
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("select distinct pg_catalog.lower(n.name) from %1 p "
                             "cross join lateral pg_catalog.unnest(coalesce(p.names, array[p.name])) n(name) "
                             "where not p.drained and pg_catalog.lower(n.name) = "
                             "any (select pg_catalog.lower(m) from pg_catalog.unnest(?::text[]) m)")
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
        // pg_catalog's operator: a planted <(float8, numeric) would be an exact match for a plain '<'.
        auto names = conn.column(QStringLiteral("select q.n::text from (%1) as q(n) where q.n is not null and "
                                                "pg_catalog.random() operator(pg_catalog.<) %2::pg_catalog.float8 "
                                                "limit %3")
                                     .arg(query, QString::number(share, 'g', 17), QString::number(o.auditSample)));
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
    // The write path's pending names are all added names the drain will write into the new filter
    // (the live function's may be mere checks: they count only once drained).
    const double newNames = c.newNames + double(c.pendingWritten);
    c.missingShare = c.liveNames > 0 ? qMax(0.0, 1.0 - newNames / c.liveNames) : 0.0;
    c.fewerNames = newNames < c.tolerance * c.liveNames;
    c.refusal.clear();
    c.refusalFix.clear();
    c.refusalConsent.clear();
    if (!c.auditMisses.isEmpty()) {
        QStringList shown;
        for (const QByteArray &n : c.auditMisses.mid(0, 10))
            shown << QString::fromUtf8(n);
        c.refusal = QStringLiteral("%1 of %2 sampled users check free in %3 (e.g. %4): the swap would make them "
                                   "false negatives")
                        .arg(QString::number(c.auditMisses.size()), QString::number(c.auditSampled), c.newTable,
                             shown.join(QStringLiteral(", ")));
        c.refusalFix = QStringLiteral("rebuild from every source that holds users ('bloomctl rebuild --abort', then "
                                      "rebuild with all the shards)");
        return;
    }
    if (c.fewerNames && !o.allowFewerNames) {
        qint64 read = 0;
        for (const SourceCount &s : c.perSource)
            read += s.names;
        c.refusal =
            QStringLiteral("the rebuild read %1 names from %2 source%3 and %4 holds about %5; the live "
                           "filter %6 holds about %7 (%8% fewer, more than the estimate's %9% tolerance)")
                .arg(formatCount(read), QString::number(c.perSource.size()),
                     c.perSource.size() == 1 ? QString() : QStringLiteral("s"), c.newTable,
                     formatCount(std::llround(newNames)), c.liveTable, formatCount(std::llround(c.liveNames)),
                     QString::number(c.missingShare * 100, 'f', 1), QString::number((1 - c.tolerance) * 100, 'f', 0));
        c.refusalFix = QStringLiteral("add the other shards to the rebuild, or pass --allow-fewer-names if the names "
                                      "were really deleted");
        return;
    }
    if (!c.notCarried.isEmpty() && !o.allowUncarried) {
        c.refusal = QStringLiteral("the swap cannot carry over: %1").arg(c.notCarried.join(QStringLiteral("; ")));
        c.refusalFix = QStringLiteral("re-create these on the new table after the swap yourself and pass "
                                      "--accept-uncarried, or remove them from the live table first");
        return;
    }
    if (!c.publications.isEmpty() && !o.publicationOk) {
        c.refusal = QStringLiteral("%1 is published to subscribers, which must switch to the new pair where the "
                                   "swap is in their stream")
                        .arg(c.liveTable);
        c.refusalFix = c.subscriberCheck + QStringLiteral("\nthen swap with --publication-ok");
        c.refusalConsent = QStringLiteral("publication-ok");
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
    if (st->legacy)
        return makeError(ErrorKind::Refused,
                         QStringLiteral("the rebuild into %1 was started by an older Bloomscope, which kept its "
                                        "helpers beside the filter; this one cannot swap it safely")
                             .arg(newTable),
                         QStringLiteral("remove it with 'bloomctl rebuild --abort' and rebuild"));
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
    c.pendingWritten = st->pendingWritten;
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
    auto plan = planCarryOver(db, *h, live, next, stamp);
    if (!plan)
        return plan.error();
    c.carried = plan->carried;
    c.notCarried = plan->notCarried;
    c.publications = plan->publications;
    c.subscriberCheck = plan->subscriberCheck;
    c.subscriberAfter = plan->subscriberAfter;
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

} // namespace bloom
