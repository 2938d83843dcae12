// Rebuilder's second half: draining the pending names, swap, abort and drop-old.
#include "maintenance/rebuild.h"

#include "maintenance/carryover.h"
#include "maintenance/helpers.h"
#include "maintenance/publications.h"
#include "postgres/filterstore.h"
#include "postgres/pgarray.h"
#include "postgres/pgconn.h"
#include "postgres/pgerror.h"
#include "shards/audit.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSet>
#include <QSqlQuery>

#include <libpq-fe.h>

#include <cmath>
#include <limits>

namespace bloom {

namespace {

/** Names a drain reads, places and writes at a time. */
constexpr qint64 DrainPageNames = 200000;
/** The write path's drained names the swap checks in the new filter, at most, per page. */
constexpr qsizetype VerifyWrittenSample = 10000;

using maintenance::CarryPlan;
using maintenance::Helpers;
using maintenance::helpers;
using maintenance::helpersWith;
using maintenance::planCarryOver;
using maintenance::trustedHelperExists;

FilterRef refIn(const QString &schema, const QString &table, const QString &function)
{
    return FilterRef{QualifiedName{schema, table}.text(), QualifiedName{schema, function}.text()};
}

/** A page of the pending table: the rows' ids, the names the live function recorded (a row each;
 *  checks record names too) and the names Bloomscope's write path recorded (a batch a row; every one
 *  was added). */
struct PendingBatch {
    std::vector<qint64> ids;
    QList<QByteArray> recorded;
    QList<QByteArray> written;
    bool isEmpty() const { return ids.empty(); }
};

/** The names of the write path's pending row `id` (a binary text[] read with libpq: a row holds up
 *  to FilterWriter::RecordSliceNames names). */
Result<QList<QByteArray>> writtenNames(Database &db, const QString &pending, qint64 id)
{
    const QByteArray sql = QStringLiteral("select names from %1 where id = $1").arg(pending).toUtf8();
    const QByteArray idText = QByteArray::number(id);
    const char *values[1] = {idText.constData()};
    std::unique_ptr<PGresult, decltype(&PQclear)> r(
        PQexecParams(db.pgconn(), sql.constData(), 1, nullptr, values, nullptr, nullptr, 1), &PQclear);
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1)
        return pg::errorOf(db.pgconn(), r.get(), QStringLiteral("reading the pending names"));
    auto names = decodeTextArray(QByteArrayView(PQgetvalue(r.get(), 0, 0), PQgetlength(r.get(), 0, 0)));
    if (!names)
        return makeError(
            ErrorKind::Server,
            QStringLiteral("reading the pending names of row %1: %2").arg(QString::number(id), names.error().message));
    return names;
}

/** Pending rows after `after` up to `upTo` in id order, undrained (locked for this drain unless not
 *  `lockRows`) or drained, until about `maxNames` names. */
Result<PendingBatch> pendingBatch(Database &db, const QString &pending, bool drained, qint64 after, qint64 maxNames,
                                  qint64 upTo = std::numeric_limits<qint64>::max(), bool lockRows = true)
{
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("select id, name, written from %1 where drained = ? and "
                             "id > ? and id <= ? order by id limit 50000%2")
                  .arg(pending, drained || !lockRows ? QString() : QStringLiteral(" for update")));
    q.addBindValue(drained);
    q.addBindValue(after);
    q.addBindValue(upTo);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the pending names"));
    struct Row {
        qint64 id;
        bool batch;
        QByteArray name;
    };
    std::vector<Row> rows;
    while (q.next())
        rows.push_back({q.value(0).toLongLong(), q.value(2).toBool(),
                        q.value(2).toBool() ? QByteArray() : q.value(1).toString().toUtf8()});
    q.finish(); // libpq on the same connection next
    // The rows after the one that takes the page past maxNames wait for the next page (undrained; they
    // stay locked until this transaction ends).
    PendingBatch b;
    qint64 names = 0;
    for (const Row &row : rows) {
        if (names >= maxNames)
            break;
        if (row.batch) {
            auto more = writtenNames(db, pending, row.id);
            if (!more)
                return more.error();
            names += more->size();
            b.written += *more;
        } else {
            b.recorded.append(row.name);
            ++names;
        }
        b.ids.push_back(row.id);
    }
    return b;
}

/** The names among `names` that the live filter may hold (the rest were only checked, never added). A
 *  name whose live chunk row is NULL or missing cannot be told apart: it is kept (a false positive in
 *  the new filter at worst), so a rebuild can repair a damaged filter. */
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
    auto verdicts = store.rowVerdicts(*placed);
    if (!verdicts)
        return verdicts.error();
    QList<QByteArray> out;
    for (qsizetype i = 0; i < valid.size(); ++i)
        if (verdicts->at(i) != RowVerdict::Free)
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
    auto h = maintenance::helpersFor(db, live.tableName(), live.functionName());
    if (!h)
        return h.error();
    return drainInto(db, h->pending, live, next, final);
}

Result<qint64> Rebuilder::drainInto(Database &db, const QString &pending, FilterStore &live, FilterStore &next,
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
        if (!q.exec(QStringLiteral("select coalesce(max(id), 0) from %1").arg(pending)) || !q.next())
            return Database::queryError(q, QStringLiteral("reading the pending names"));
        bound = q.value(0).toLongLong();
    }
    qint64 added = 0;
    qint64 after = 0;
    for (;;) {
        if (!final && !db.db().transaction())
            return makeError(ErrorKind::Connection, QStringLiteral("cannot begin a drain"));
        const auto fail = [&](Error e) -> Result<qint64> {
            if (!final)
                db.db().rollback();
            return e;
        };
        // Pages by id (a row still in flight below `after` waits for the next drain). The final drain
        // runs under the swap's lock and its table is dropped at the commit: it marks nothing. Earlier
        // drains lock their rows and mark them in the same transaction.
        auto batch = pendingBatch(db, pending, false, after, DrainPageNames, bound, !final);
        if (!batch)
            return fail(batch.error());
        if (batch->isEmpty()) {
            if (!final)
                db.db().commit();
            break;
        }
        after = batch->ids.back();
        auto maybe = maybeIn(live, batch->recorded);
        if (!maybe)
            return fail(maybe.error());
        auto placed = next.place(*maybe);
        if (!placed)
            return fail(placed.error());
        // Most recorded names come from checks of names the new filter already holds (the export
        // had them): only the others are written. The write path's names were all added to the live
        // filter: they are written without a look (OR is idempotent).
        QList<Placement> missing;
        if (!placed->isEmpty()) {
            auto inNext = next.check(*placed);
            if (!inNext)
                return fail(inNext.error());
            for (qsizetype i = 0; i < placed->size(); ++i)
                if (!inNext->at(i))
                    missing.append(placed->at(i));
        }
        if (!batch->written.isEmpty()) {
            auto written = next.place(batch->written);
            if (!written)
                return fail(written.error());
            missing += *written;
        }
        if (!missing.isEmpty())
            if (auto r = next.addToRebuilt(missing); !r)
                return fail(r.error());
        added += batch->written.size() + maybe->size();
        if (final)
            continue;
        QString ids = QStringLiteral("{");
        for (size_t i = 0; i < batch->ids.size(); ++i)
            ids += (i ? QStringLiteral(",") : QString()) + QString::number(batch->ids[i]);
        ids += QLatin1Char('}');
        QSqlQuery q(db.db());
        q.prepare(QStringLiteral("update %1 set drained = true where id = any(?::bigint[])").arg(pending));
        q.addBindValue(ids);
        if (!q.exec())
            return fail(Database::queryError(q, QStringLiteral("recording the drain")));
        q.finish();
        if (!db.db().commit())
            return makeError(ErrorKind::Server, QStringLiteral("commit of a drain failed"));
    }
    next.setManagedTransaction(false);
    return added;
}

Status Rebuilder::abort(Database &db, const FilterRef &liveRef, const maintenance::LockPolicy &lock)
{
    auto st = state(db, liveRef);
    if (!st)
        return st.error();
    if (!st->exists)
        return makeError(ErrorKind::Usage, QStringLiteral("there is no rebuild to abort"));
    auto found = helpers(db, liveRef);
    if (!found)
        return found.error();
    const Helpers *h = &*found;
    QSqlQuery q(db.db());
    if (!q.exec(QStringLiteral("select original_function from %1").arg(h->state)) || !q.next())
        return Database::queryError(q, QStringLiteral("reading the original function"));
    const QString original = q.value(0).toString();
    q.finish();
    // The definition pg_get_functiondef gave when the rebuild started; it is run as one statement
    // (the extended protocol takes no second one), and only if it still defines the live function:
    // its head names it as pg_get_functiondef quotes it (each part by quote_ident's rule, as %I does).
    q.prepare(QStringLiteral("select pg_catalog.format('CREATE OR REPLACE FUNCTION %I.%I(', ?::text, ?::text)"));
    q.addBindValue(h->liveTable.schema);
    q.addBindValue(h->liveFunction.name);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("quoting the live function's name"));
    const QString expected = q.value(0).toString();
    q.finish();
    if (!original.startsWith(expected))
        return makeError(
            ErrorKind::Refused,
            QStringLiteral("refusing to restore %1: the recorded definition does not define it")
                .arg(h->liveFunction.text()),
            QStringLiteral("restore the function by hand from the reference SQL, then drop %1").arg(h->state));
    if (!db.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin the abort"));
    // One transaction: the live function is the application's again, and every leftover is gone. SHARE
    // on the live table first: writes in flight that record names (FilterWriter) end before the
    // recorders go, and the ones after see no rebuild.
    // The swaps' record goes too when no swap wrote to it (the rebuild's set-up made it).
    bool swapsRecorded = true;
    if (auto records = trustedHelperExists(db, *h, QStringLiteral("bloomscope_swapped")); records && *records) {
        QSqlQuery any(db.db());
        if (any.exec(QStringLiteral("select exists (select from %1)").arg(h->swapped)) && any.next())
            swapsRecorded = any.value(0).toBool();
    }
    const QString drops =
        (swapsRecorded ? QString() : QStringLiteral("drop table if exists %1;\n").arg(h->swapped)) +
        QStringLiteral("drop table if exists %1;\n"
                       "drop function if exists %2(text);\n"
                       "drop table %3;\n"
                       "drop table %4;\n"
                       "drop function %5(text);\n"
                       "drop function if exists %6(regclass, text[]);\n")
            .arg(h->quoted(st->newTable), h->quoted(st->newFunction), h->state, h->pending, h->record, h->recordNames);
    Status done = maintenance::lockTable(db, h->liveTable.quoted(), h->liveTable.text(), QStringLiteral("SHARE"), lock);
    if (done)
        done = maintenance::execOne(db, original, QStringLiteral("restoring %1").arg(h->liveFunction.text()));
    if (done)
        done = maintenance::execScript(db, drops, QStringLiteral("aborting the rebuild"));
    if (!done) {
        db.db().rollback();
        return done;
    }
    if (!db.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of the abort failed"));
    return success();
}

Result<SwapReport> Rebuilder::swap(Database &db, const QString &newTable, const SwapOptions &o)
{
    // Most of the backlog is drained before the guard counts and before any lock is taken; the
    // swap drains only the rest.
    QElapsedTimer stage;
    stage.start();
    const auto lap = [&stage] {
        const double ms = double(stage.nsecsElapsed()) / 1e6;
        stage.restart();
        return ms;
    };
    SwapReport report;
    if (auto st = state(db, o.live); st && st->exists && st->stage == QLatin1String("ready"))
        if (auto early = drain(db, *st, false); !early)
            return early.error();
    report.earlyDrainMs = lap();
    auto checked = checkSwap(db, newTable, o);
    report.guardMs = lap();
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

    // Every drained name the live filter may hold must be in the new filter; of the names the write
    // path recorded (all of them added), an even sample of up to VerifyWrittenSample a page.
    for (qint64 after = 0;;) {
        auto batch = pendingBatch(db, h->pending, true, after, DrainPageNames);
        if (!batch)
            return batch.error();
        if (batch->isEmpty())
            break;
        after = batch->ids.back();
        auto maybe = maybeIn(live, batch->recorded);
        if (!maybe)
            return maybe.error();
        const qsizetype step = qMax<qsizetype>(1, batch->written.size() / VerifyWrittenSample);
        for (qsizetype i = 0; i < batch->written.size(); i += step)
            maybe->append(batch->written[i]);
        report.verifiedNames += maybe->size();
        auto placed = next.place(*maybe);
        if (!placed)
            return placed.error();
        auto verdicts = next.check(*placed);
        if (!verdicts)
            return verdicts.error();
        const qsizetype missing = verdicts->count(false);
        if (missing > 0)
            return makeError(
                ErrorKind::Refused,
                QStringLiteral("refusing to swap in %1: %2 name(s) drained from the pending table are not "
                               "in it (e.g. '%3')")
                    .arg(newTable, QString::number(missing), QString::fromUtf8(maybe->at(verdicts->indexOf(false)))),
                QStringLiteral("run 'bloomctl rebuild --abort' and rebuild"));
    }

    report.verifyMs = lap();
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd_HHmmss"));
    report.check = *checked;
    auto plan = planCarryOver(db, *h, live, next, stamp);
    if (!plan)
        return plan.error();
    report.oldTable = plan->oldTable;
    report.oldFunction = plan->oldFunction;
    const auto rollback = [&db](Error e) {
        db.db().rollback();
        return e;
    };
    report.planMs = lap();
    // What checks and adds recorded during the guard is drained now, in passes until a pass finds
    // little, so that the drain under the lock (which blocks adds) has only the last moments left.
    // The drain under the lock takes about as long as the last pass did (what accumulated meanwhile).
    double lastPassMs = 0;
    for (int pass = 0; pass < 20; ++pass) {
        QElapsedTimer passTimer;
        passTimer.start();
        auto caughtUp = drainInto(db, h->pending, live, next, false);
        if (!caughtUp)
            return caughtUp.error();
        lastPassMs = double(passTimer.nsecsElapsed()) / 1e6;
        report.catchUpPasses = pass + 1;
        if (lastPassMs < o.maxAddBlockMs / 2 || double(stage.nsecsElapsed()) / 1e6 > 60000)
            break;
    }
    report.catchUpMs = lap();
    if (lastPassMs > o.maxAddBlockMs)
        return makeError(
            ErrorKind::Refused,
            QStringLiteral("refusing to swap in %1 now: names are recorded about as fast as they are "
                           "drained (the last of %2 drain passes took %3 s), so the drain under the "
                           "swap's lock would block sign-ups for about that long; nothing was swapped "
                           "and the drained names stay drained")
                .arg(newTable, QString::number(report.catchUpPasses), QString::number(lastPassMs / 1000, 'f', 1)),
            QStringLiteral("run the swap again when the check traffic is lower (every check records "
                           "its name while a rebuild runs)"));
    if (!db.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin the swap"));
    QSqlQuery q(db.db());
    QElapsedTimer lockTimer;
    // EXCLUSIVE: adds wait (and their names are recorded before we look), checks go on.
    // By the lock policy, looking for every holder the renames' ACCESS EXCLUSIVE would wait for too.
    if (auto s = maintenance::lockTable(db, live.quotedTable(), h->liveTable.text(), QStringLiteral("EXCLUSIVE"),
                                        o.lock, QStringLiteral("ACCESS EXCLUSIVE"));
        !s)
        return rollback(s.error());
    lockTimer.start();
    report.lockWaitMs = lap();
    // The new table too, now: a lock wait on it (autovacuum yields only after deadlock_timeout) must
    // not fall into the window in which checks are blocked.
    if (auto s = maintenance::lockOnce(db, next.quotedTable(), newTable, QStringLiteral("ACCESS EXCLUSIVE"), o.lock);
        !s)
        return rollback(s.error());
    auto drained = drainInto(db, h->pending, live, next, /*final=*/true);
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
    if (!plan->onNew.isEmpty())
        if (auto s = maintenance::execScript(
                db, plan->onNew, QStringLiteral("carrying %1's settings over to %2").arg(st->liveTable, newTable));
            !s)
            return rollback(s.error());
    report.underLockMs = lap();
    // ACCESS EXCLUSIVE for the renames only: checks wait from here to the commit.
    QElapsedTimer exclusive;
    if (auto s = maintenance::lockOnce(db, live.quotedTable(), h->liveTable.text(), QStringLiteral("ACCESS EXCLUSIVE"),
                                       o.lock);
        !s)
        return rollback(s.error());
    exclusive.start();
    // On a publisher, the row inserted here is what makes each subscriber follow the swap (its
    // bloomscope_follow_swap trigger renames its pair in the transaction that applies this one).
    const QString bookkeeping =
        maintenance::swappedTableSql(h->swapped) +
        QStringLiteral("insert into %1 (live_table, old_table, old_table_oid, old_function, old_function_oid, "
                       "live_schema, new_table, new_function) "
                       "values (%2, %3, pg_catalog.to_regclass(%4), %5, pg_catalog.to_regprocedure(%6), %10, %11, "
                       "%12);\n"
                       "drop table %7;\n"
                       "drop table %8;\n"
                       "drop function %9(text);\n")
            .arg(h->swapped, db.quoteLiteral(st->liveTable), db.quoteLiteral(report.oldTable),
                 db.quoteLiteral(h->quoted(report.oldTable)), db.quoteLiteral(report.oldFunction),
                 db.quoteLiteral(h->quoted(report.oldFunction) + QStringLiteral("(text)")), h->state, h->pending,
                 h->record, db.quoteLiteral(h->liveTable.schema), db.quoteLiteral(st->newTable),
                 db.quoteLiteral(st->newFunction)) +
        QStringLiteral("drop function if exists %1(regclass, text[]);\n").arg(h->recordNames);
    if (auto s =
            maintenance::execScript(db, plan->renames + bookkeeping, QStringLiteral("swapping %1 in").arg(newTable));
        !s)
        return rollback(s.error());
    // The commit through libpq too: a failing commit says why, in the server's words.
    if (auto s = maintenance::execScript(db, QStringLiteral("commit"),
                                         QStringLiteral("committing the swap of %1 (nothing changed)").arg(newTable));
        !s)
        return s.error(); // a failed commit has rolled back
    report.exclusiveMs = double(exclusive.nsecsElapsed()) / 1e6;
    report.renameMs = lap();
    report.lockMs = double(lockTimer.nsecsElapsed()) / 1e6;
    return report;
}

qint64 OldPairs::bytes() const
{
    qint64 sum = 0;
    for (const OldPair &p : pairs)
        sum += p.bytes;
    return sum;
}

Result<OldPairs> Rebuilder::oldPairs(Database &db, const FilterRef &liveRef)
{
    OldPairs out;
    auto st = state(db, liveRef);
    if (!st)
        return st.error();
    if (st->exists)
        out.rebuilding = st->newTable;
    auto records = helpersWith(db, liveRef, QStringLiteral("bloomscope_swapped"));
    if (!records)
        return records.error();
    if (!*records)
        return out;
    const Helpers *h = &**records;
    out.schema = h->schema;
    // Only what a swap recorded, and only while it is still the object the swap renamed (same oid
    // and name): a table someone else named like an old filter is never touched.
    QSqlQuery q(db.db());
    // A record table from before dropped_at: every row is still to drop (drop-old deleted the others).
    q.prepare(QStringLiteral("select exists (select from pg_catalog.pg_attribute where attrelid = "
                             "pg_catalog.to_regclass(?) and attname = 'dropped_at' and not attisdropped)"));
    q.addBindValue(h->swapped);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("reading the columns of %1").arg(h->swapped));
    const bool hasDropped = q.value(0).toBool();
    q.finish();
    q.prepare(QStringLiteral("select s.id, s.old_table, s.old_function, "
                             "  (select c.relname from pg_class c where c.oid = s.old_table_oid and c.relnamespace = "
                             "   pg_catalog.to_regnamespace(?)), "
                             "  (select p.proname from pg_proc p where p.oid = s.old_function_oid and p.pronamespace = "
                             "   pg_catalog.to_regnamespace(?)), "
                             "  s.swapped_at, "
                             "  (select pg_catalog.pg_total_relation_size(c.oid) from pg_class c where c.oid = "
                             "   s.old_table_oid and c.relname = s.old_table) "
                             "from %1 s where s.live_table = ? and %2 order by s.id")
                  .arg(h->swapped, hasDropped ? QStringLiteral("s.dropped_at is null") : QStringLiteral("true")));
    q.addBindValue(h->schema);
    q.addBindValue(h->schema);
    q.addBindValue(h->liveTable.name);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the old pairs the swaps kept"));
    QStringList ids;
    while (q.next()) {
        ids << q.value(0).toString();
        OldPair p;
        p.table = q.value(1).toString();
        p.function = q.value(2).toString();
        p.tableKept = q.value(3).toString() == p.table;
        p.functionKept = q.value(4).toString() == p.function;
        p.swappedAt = q.value(5).toDateTime().toUTC();
        p.bytes = p.tableKept ? q.value(6).toLongLong() : 0;
        if (p.tableKept) {
            out.sql += QStringLiteral("drop table %1;\n").arg(h->quoted(p.table));
            out.drops << p.table;
        }
        if (p.functionKept) {
            out.sql += QStringLiteral("drop function %1(text);\n").arg(h->quoted(p.function));
            out.drops << p.function + QStringLiteral("(text)");
        }
        out.pairs.append(p);
    }
    q.finish();
    if (ids.isEmpty())
        return out;
    // The records stay, marked dropped: when the filter was last rebuilt is what monitoring asks
    // (metrics' bloomscope_last_swap_timestamp_seconds).
    if (!hasDropped)
        out.sql += QStringLiteral("alter table %1 add column dropped_at timestamptz;\n").arg(h->swapped);
    out.sql += QStringLiteral("update %1 set dropped_at = now() where id in (%2);\n")
                   .arg(h->swapped, ids.join(QLatin1Char(',')));
    return out;
}

Result<QStringList> Rebuilder::dropOld(Database &db, const FilterRef &liveRef, bool dryRun,
                                       const maintenance::LockPolicy &lock)
{
    auto plan = oldPairs(db, liveRef);
    if (!plan)
        return plan.error();
    if (!plan->rebuilding.isEmpty())
        return makeError(ErrorKind::Usage, QStringLiteral("a rebuild into %1 is in progress").arg(plan->rebuilding),
                         QStringLiteral("swap it in or abort it first"));
    if (plan->sql.isEmpty() || dryRun)
        return plan->drops;
    if (!db.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin drop-old"));
    // A DROP waits for every reader of the old table (a report still reading it): by the lock policy.
    for (const OldPair &p : plan->pairs)
        if (p.tableKept)
            if (auto s = maintenance::lockTable(db, plan->schema + QLatin1Char('.') + quoteIdent(p.table), p.table,
                                                QStringLiteral("ACCESS EXCLUSIVE"), lock);
                !s) {
                db.db().rollback();
                return s.error();
            }
    if (auto s = maintenance::execScript(db, plan->sql, QStringLiteral("dropping the old filter")); !s) {
        db.db().rollback();
        return s.error();
    }
    if (!db.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of drop-old failed"));
    return plan->drops;
}

Result<std::optional<QDateTime>> Rebuilder::lastSwap(Database &db, const FilterRef &liveRef)
{
    auto records = helpersWith(db, liveRef, QStringLiteral("bloomscope_swapped"));
    if (!records)
        return records.error();
    if (!*records)
        return std::optional<QDateTime>{};
    const Helpers *h = &**records;
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("select max(swapped_at) from %1 where live_table = ?").arg(h->swapped));
    q.addBindValue(h->liveTable.name);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("reading when %1 was last swapped in").arg(h->liveTable.text()));
    if (q.value(0).isNull())
        return std::optional<QDateTime>{};
    return std::optional<QDateTime>{q.value(0).toDateTime().toUTC()};
}

} // namespace bloom
