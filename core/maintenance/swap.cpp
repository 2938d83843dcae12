// Rebuilder's second half: draining the pending names, swap, abort and drop-old.
#include "maintenance/rebuild.h"

#include "postgres/filterstore.h"

#include <QElapsedTimer>
#include <QSet>
#include <QSqlQuery>

#include <limits>

namespace bloom {

namespace {

QString schemaOf(Database &db, const QString &table)
{
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace "
                             "where c.oid = to_regclass(?)"));
    q.addBindValue(db.quoteIdentifier(table));
    if (q.exec() && q.next())
        return db.quoteIdentifier(q.value(0).toString());
    return QStringLiteral("public");
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
    FilterStore live(db, FilterRef{st.liveTable, st.liveFunction});
    FilterStore next(db, FilterRef{st.newTable, st.newFunction});
    if (auto s = live.attach(); !s)
        return s.error();
    if (auto s = next.attach(); !s)
        return s.error();
    return drainInto(db, schemaOf(db, st.liveTable), live, next, final);
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

Status Rebuilder::abort(Database &db)
{
    auto st = state(db);
    if (!st)
        return st.error();
    if (!st->exists)
        return makeError(ErrorKind::Usage, QStringLiteral("there is no rebuild to abort"));
    const QString schema = schemaOf(db, st->liveTable);
    QSqlQuery q(db.db());
    if (!q.exec(QStringLiteral("select original_function from %1.bloomscope_rebuild").arg(schema)) || !q.next())
        return Database::queryError(q, QStringLiteral("reading the original function"));
    const QString original = q.value(0).toString();
    q.finish();
    if (!db.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin the abort"));
    // One transaction: the live function is the application's again, and every leftover is gone.
    const QString sql =
        QStringLiteral("%1;\n"
                       "drop table if exists %2;\n"
                       "drop function if exists %3(text);\n"
                       "drop table %4.bloomscope_rebuild;\n"
                       "drop table %4.bloomscope_pending;\n"
                       "drop function %4.bloomscope_record(text);\n")
            .arg(original, db.quoteIdentifier(st->newTable), db.quoteIdentifier(st->newFunction), schema);
    if (!q.exec(sql)) {
        Error e = Database::queryError(q, QStringLiteral("aborting the rebuild"));
        db.db().rollback();
        return e;
    }
    if (!db.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of the abort failed"));
    return success();
}

Result<SwapReport> Rebuilder::swap(Database &db, const QString &newTable)
{
    auto st = state(db);
    if (!st)
        return st.error();
    if (!st->exists || st->newTable != newTable)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("no finished rebuild into %1 is waiting to be swapped in").arg(newTable),
                         st->exists ? QStringLiteral("the rebuild in progress is into %1").arg(st->newTable)
                                    : QStringLiteral("run 'bloomctl rebuild ... --into %1' first").arg(newTable));
    if (st->stage != QLatin1String("ready"))
        return makeError(
            ErrorKind::Usage,
            QStringLiteral("the rebuild into %1 stopped at stage '%2' and is not complete").arg(newTable, st->stage),
            QStringLiteral("run 'bloomctl rebuild --abort' and rebuild again"));
    const QString schema = schemaOf(db, st->liveTable);
    FilterStore live(db, FilterRef{st->liveTable, st->liveFunction});
    FilterStore next(db, FilterRef{st->newTable, st->newFunction});
    if (auto s = live.attach(); !s)
        return s.error();
    if (auto s = next.attach(); !s) // refuses a table whose geometry does not match its function
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("refusing to swap in %1: %2").arg(newTable, s.error().message));

    // Most of the backlog is drained before any lock is taken; the swap drains only the rest.
    if (auto early = drain(db, *st, false); !early)
        return early.error();

    // Every drained name the live filter may hold must be in the new filter.
    for (qint64 after = 0;;) {
        auto batch = pendingBatch(db, schema, true, after, 50000);
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
            return makeError(ErrorKind::ForeignFilter,
                             QStringLiteral("refusing to swap in %1: %2 name(s) drained from the pending table are not "
                                            "in it (e.g. '%3')")
                                 .arg(newTable)
                                 .arg(missing)
                                 .arg(QString::fromUtf8(maybe->at(verdicts->indexOf(false)))),
                             QStringLiteral("run 'bloomctl rebuild --abort' and rebuild"));
    }

    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd_HHmmss"));
    SwapReport report;
    report.oldTable = st->liveTable + QStringLiteral("_old_") + stamp;
    report.oldFunction = st->liveFunction + QStringLiteral("_old_") + stamp;
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
    auto current = state(db);
    if (!current)
        return rollback(current.error());
    auto drained = drainInto(db, schema, live, next, /*final=*/true);
    if (!drained)
        return rollback(drained.error());
    report.drainedInSwap = *drained;
    // ACCESS EXCLUSIVE for the renames only: checks wait from here to the commit.
    QElapsedTimer exclusive;
    const QString lockAll = QStringLiteral("lock table %1 in access exclusive mode").arg(live.quotedTable());
    if (!q.exec(lockAll))
        return rollback(Database::queryError(q, QStringLiteral("locking %1").arg(st->liveTable)));
    exclusive.start();
    const QString renames =
        QStringLiteral("alter table %1 rename to %2;\n"
                       "alter table %3 rename to %4;\n"
                       "alter function %5(text) rename to %6;\n"
                       "alter function %7(text) rename to %8;\n"
                       "delete from %9.bloomscope_rebuild;\n")
            .arg(live.quotedTable(), db.quoteIdentifier(report.oldTable), next.quotedTable(),
                 db.quoteIdentifier(st->liveTable), live.quotedFunction(), db.quoteIdentifier(report.oldFunction),
                 next.quotedFunction(), db.quoteIdentifier(st->liveFunction), schema);
    if (!q.exec(renames))
        return rollback(Database::queryError(q, QStringLiteral("swapping %1 in").arg(newTable)));
    q.finish();
    if (!db.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of the swap failed; nothing changed"));
    report.exclusiveMs = double(exclusive.nsecsElapsed()) / 1e6;
    report.lockMs = double(lockTimer.nsecsElapsed()) / 1e6;
    return report;
}

Result<QStringList> Rebuilder::dropOld(Database &db, const FilterRef &live)
{
    auto st = state(db);
    if (!st)
        return st.error();
    if (st->exists)
        return makeError(ErrorKind::Usage, QStringLiteral("a rebuild into %1 is in progress").arg(st->newTable),
                         QStringLiteral("swap it in or abort it first"));
    const QString schema = schemaOf(db, live.table);
    QSqlQuery q(db.db());
    QStringList dropped;
    QString sql;
    q.prepare(QStringLiteral("select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace "
                             "where n.nspname = ? and c.relkind = 'r' and c.relname like ? escape '!' order by 1"));
    q.addBindValue(QString(schema).remove(QLatin1Char('"')));
    q.addBindValue(QString(live.table).replace(QLatin1String("_"), QLatin1String("!_")) + QStringLiteral("!_old!_%"));
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("looking for old filters"));
    while (q.next()) {
        dropped << q.value(0).toString();
        sql += QStringLiteral("drop table %1.%2;\n").arg(schema, db.quoteIdentifier(q.value(0).toString()));
    }
    q.prepare(QStringLiteral("select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace "
                             "where n.nspname = ? and p.proname like ? escape '!' order by 1"));
    q.addBindValue(QString(schema).remove(QLatin1Char('"')));
    q.addBindValue(QString(live.function).replace(QLatin1String("_"), QLatin1String("!_")) +
                   QStringLiteral("!_old!_%"));
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("looking for old functions"));
    while (q.next()) {
        dropped << q.value(0).toString() + QStringLiteral("(text)");
        sql += QStringLiteral("drop function %1.%2(text);\n").arg(schema, db.quoteIdentifier(q.value(0).toString()));
    }
    sql += QStringLiteral("drop table if exists %1.bloomscope_pending;\n"
                          "drop table if exists %1.bloomscope_rebuild;\n"
                          "drop function if exists %1.bloomscope_record(text);\n")
               .arg(schema);
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
