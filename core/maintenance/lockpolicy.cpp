#include "maintenance/lockpolicy.h"

#include "maintenance/helpers.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QSqlQuery>
#include <QStringList>
#include <QThread>

namespace bloom::maintenance {

namespace {

/** pg_locks' names of the modes that conflict with `mode` (PostgreSQL's table-level lock conflicts). */
QString conflictingModes(const QString &mode)
{
    if (mode == QLatin1String("SHARE"))
        return QStringLiteral("RowExclusiveLock,ShareUpdateExclusiveLock,ShareRowExclusiveLock,ExclusiveLock,"
                              "AccessExclusiveLock");
    if (mode == QLatin1String("EXCLUSIVE"))
        return QStringLiteral("RowShareLock,RowExclusiveLock,ShareUpdateExclusiveLock,ShareLock,"
                              "ShareRowExclusiveLock,ExclusiveLock,AccessExclusiveLock");
    return QStringLiteral("AccessShareLock,RowShareLock,RowExclusiveLock,ShareUpdateExclusiveLock,ShareLock,"
                          "ShareRowExclusiveLock,ExclusiveLock,AccessExclusiveLock");
}

QString seconds(double s)
{
    return QString::number(s, 'f', 1);
}

} // namespace

QString LockBlocker::describe() const
{
    QStringList parts;
    parts << QStringLiteral("role %1").arg(role.isEmpty() ? QStringLiteral("?") : role);
    if (!application.isEmpty())
        parts << QStringLiteral("application %1").arg(application);
    parts << (state.isEmpty() ? QStringLiteral("state not shown to this role") : state);
    if (transactionSeconds >= 0)
        parts << QStringLiteral("transaction open %1 s").arg(seconds(transactionSeconds));
    parts << QStringLiteral("%1 %2").arg(granted ? QStringLiteral("holds") : QStringLiteral("waits for"), mode);
    return QStringLiteral("pid %1 (%2)").arg(QString::number(pid), parts.join(QStringLiteral(", ")));
}

QJsonObject LockBlocker::toJson() const
{
    return QJsonObject{{QStringLiteral("pid"), pid},
                       {QStringLiteral("role"), role},
                       {QStringLiteral("application_name"), application},
                       {QStringLiteral("state"), state},
                       {QStringLiteral("mode"), mode},
                       {QStringLiteral("granted"), granted},
                       {QStringLiteral("transaction_seconds"), transactionSeconds}};
}

QString LockWait::describe() const
{
    QStringList who;
    for (const LockBlocker &b : blockers)
        who << b.describe();
    return QStringLiteral("waiting %1 s of %2 s for %3 on %4 (sign-ups go on meanwhile): blocked by %5")
        .arg(seconds(waitedSeconds), seconds(limitSeconds), mode, table,
             who.isEmpty() ? QStringLiteral("sessions that ended before they could be named")
                           : who.join(QStringLiteral("; ")));
}

QJsonObject LockWait::toJson() const
{
    QJsonArray list;
    for (const LockBlocker &b : blockers)
        list.append(b.toJson());
    return QJsonObject{{QStringLiteral("table"), table},
                       {QStringLiteral("mode"), mode},
                       {QStringLiteral("attempts"), attempts},
                       {QStringLiteral("waited_seconds"), waitedSeconds},
                       {QStringLiteral("limit_seconds"), limitSeconds},
                       {QStringLiteral("blockers"), list}};
}

LockPolicy LockPolicy::fromEnvironment()
{
    LockPolicy p;
    bool ok = false;
    if (const int v = qEnvironmentVariableIntValue("BLOOMSCOPE_LOCK_TIMEOUT", &ok); ok && v > 0)
        p.attemptMs = v;
    if (const int v = qEnvironmentVariableIntValue("BLOOMSCOPE_LOCK_WAIT", &ok); ok && v >= 0)
        p.totalMs = v;
    return p;
}

bool isLockTimeout(const Error &e)
{
    return e.sqlState == QLatin1String("55P03");
}

Error lockRefusal(const LockWait &wait)
{
    QStringList who, pids;
    for (const LockBlocker &b : wait.blockers) {
        who << b.describe();
        if (b.granted)
            pids << QStringLiteral("select pg_terminate_backend(%1);").arg(b.pid);
    }
    return makeError(
        ErrorKind::Refused,
        QStringLiteral("gave up after %1 s waiting for %2 on %3, a lock the application's writes would "
                       "queue behind (asked for at most %4 s at a time; nothing was changed): blocked "
                       "by %5")
            .arg(seconds(wait.waitedSeconds), wait.mode, wait.table, seconds(wait.attemptSeconds),
                 who.isEmpty() ? QStringLiteral("sessions that ended before they could be named")
                               : who.join(QStringLiteral("; "))),
        QStringLiteral("have those sessions commit or roll back (a forgotten one ended by its owner or "
                       "a superuser: %1), then run this again, or wait longer (bloomctl --lock-wait 5m)")
            .arg(pids.isEmpty() ? QStringLiteral("select pg_terminate_backend(PID);") : pids.join(QLatin1Char(' '))));
}

Result<QList<LockBlocker>> lockBlockers(Database &db, const QString &quotedTable, const QString &mode)
{
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral(
        "select l.pid, coalesce(a.usename::text, ''), coalesce(a.application_name, ''), coalesce(a.state, ''), "
        "  l.mode, l.granted, coalesce(extract(epoch from (pg_catalog.clock_timestamp() operator(pg_catalog.-) "
        "a.xact_start)), "
        "  -1)::float8, l.virtualtransaction "
        "from pg_catalog.pg_locks l left join pg_catalog.pg_stat_activity a on a.pid operator(pg_catalog.=) l.pid "
        "where l.locktype operator(pg_catalog.=) 'relation' "
        "  and l.relation operator(pg_catalog.=) pg_catalog.to_regclass(?)::oid "
        "  and l.pid operator(pg_catalog.<>) pg_catalog.pg_backend_pid() "
        "  and l.mode operator(pg_catalog.=) any (pg_catalog.string_to_array(?, ',')) "
        "order by 7 desc, 1"));
    q.addBindValue(quotedTable);
    q.addBindValue(conflictingModes(mode));
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading who holds locks on %1").arg(quotedTable));
    QList<LockBlocker> out;
    while (q.next()) {
        LockBlocker b;
        b.pid = q.value(0).toLongLong();
        b.role = q.value(1).toString();
        b.application = q.value(2).toString();
        b.state = q.value(3).toString();
        b.mode = q.value(4).toString();
        b.granted = q.value(5).toBool();
        b.transactionSeconds = q.value(6).toDouble();
        b.transaction = q.value(7).toString();
        out << b;
    }
    return out;
}

Status lockTable(Database &db, const QString &quotedTable, const QString &label, const QString &mode,
                 const LockPolicy &policy, const QString &lookFor)
{
    QElapsedTimer clock;
    clock.start();
    LockWait wait;
    wait.table = label;
    wait.mode = mode;
    wait.limitSeconds = policy.totalMs / 1000.0;
    wait.attemptSeconds = policy.attemptMs / 1000.0;
    const QString look = lookFor.isEmpty() ? mode : lookFor;
    const auto cancelled = [&policy] { return policy.cancel && policy.cancel->load(); };
    int backoffMs = 200;
    // When the server does not show this role another role's transaction start (no pg_read_all_stats), a
    // lock seen held by the same transaction (virtual xid) for longer than half an attempt is an old one.
    QHash<QString, qint64> firstSeen;
    for (;;) {
        if (cancelled())
            return makeError(ErrorKind::Cancelled,
                             QStringLiteral("cancelled while waiting for %1 on %2").arg(mode, label));
        // Look first: a transaction that has held a conflicting lock for longer than half an attempt will
        // most likely outlast the attempt too, and every write would queue behind the request meanwhile.
        auto blockers = lockBlockers(db, quotedTable, look);
        if (!blockers)
            return blockers.error();
        bool old = false;
        for (const LockBlocker &b : *blockers) {
            const qint64 seen = firstSeen.value(b.transaction, -1);
            if (seen < 0)
                firstSeen.insert(b.transaction, clock.elapsed());
            old = old || !b.granted || b.transactionSeconds * 1000 > policy.attemptMs / 2.0 ||
                  (seen >= 0 && clock.elapsed() - seen > policy.attemptMs / 2);
        }
        if (!old) {
            ++wait.attempts;
            const QString ask = QStringLiteral("savepoint bloomscope_lock; set local lock_timeout = '%1ms'; "
                                               "lock table %2 in %3 mode; release savepoint bloomscope_lock")
                                    .arg(QString::number(policy.attemptMs), quotedTable, mode);
            Status s = execScript(db, ask, QStringLiteral("locking %1 in %2 mode").arg(label, mode));
            if (s)
                return success();
            if (!isLockTimeout(s.error()))
                return s.error();
            if (auto back = execScript(db, QStringLiteral("rollback to savepoint bloomscope_lock"),
                                       QStringLiteral("giving up a lock request on %1").arg(label));
                !back)
                return back.error();
            blockers = lockBlockers(db, quotedTable, look);
            if (!blockers)
                return blockers.error();
        }
        wait.blockers = *blockers;
        wait.waitedSeconds = clock.elapsed() / 1000.0;
        if (clock.elapsed() >= policy.totalMs)
            return lockRefusal(wait);
        if (policy.onWait)
            policy.onWait(wait);
        const qint64 sleep = qMin<qint64>(backoffMs, policy.totalMs - clock.elapsed());
        for (qint64 slept = 0; slept < sleep && !cancelled(); slept += 50)
            QThread::msleep(ulong(qMin<qint64>(50, sleep - slept)));
        backoffMs = qMin(backoffMs * 2, 2000);
    }
}

Status lockOnce(Database &db, const QString &quotedTable, const QString &label, const QString &mode,
                const LockPolicy &policy)
{
    QElapsedTimer clock;
    clock.start();
    const QString ask = QStringLiteral("savepoint bloomscope_lock; set local lock_timeout = '%1ms'; lock table %2 in "
                                       "%3 mode; release savepoint bloomscope_lock")
                            .arg(QString::number(policy.attemptMs), quotedTable, mode);
    Status s = execScript(db, ask, QStringLiteral("locking %1 in %2 mode").arg(label, mode));
    if (s || !isLockTimeout(s.error()))
        return s;
    if (auto back = execScript(db, QStringLiteral("rollback to savepoint bloomscope_lock"),
                               QStringLiteral("giving up a lock request on %1").arg(label));
        !back)
        return back.error();
    auto blockers = lockBlockers(db, quotedTable, mode);
    if (!blockers)
        return blockers.error();
    LockWait wait;
    wait.table = label;
    wait.mode = mode;
    wait.attempts = 1;
    wait.waitedSeconds = clock.elapsed() / 1000.0;
    wait.limitSeconds = wait.attemptSeconds = policy.attemptMs / 1000.0;
    wait.blockers = *blockers;
    return lockRefusal(wait);
}

} // namespace bloom::maintenance
