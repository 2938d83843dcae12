// The one lock policy of every explicit lock Bloomscope takes on a filter (rebuild's set-up, abort, swap,
// drop-old): never queue a request the application's writes would wait behind for more than about a
// second, and say who blocks (docs/operations.md "Locks").
#pragma once

#include "common/result.h"
#include "postgres/database.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>

namespace bloom::maintenance {

/** A session that holds (or waits for) a lock on the table in a mode the request conflicts with. */
struct LockBlocker {
    qint64 pid = 0;
    QString role, application, state, mode;
    QString transaction; ///< its virtual transaction id
    bool granted = true;
    double transactionSeconds = -1; ///< how long its transaction has been open; -1 outside one
    /** "pid 123 (role app, application psql, idle in transaction, transaction open 35.2 s, holds RowExclusiveLock)" */
    QString describe() const;
    QJsonObject toJson() const;
};

/** What a wait for a lock looks like now: reported while Bloomscope waits, and in the error it gives up with. */
struct LockWait {
    QString table; ///< as the user knows it
    QString mode;  ///< "SHARE", "EXCLUSIVE", "ACCESS EXCLUSIVE"
    int attempts = 0;
    double waitedSeconds = 0, limitSeconds = 0, attemptSeconds = 0;
    QList<LockBlocker> blockers;
    /** "waiting 2.1 s of 60 s for SHARE on public.t: blocked by pid 123 (...)" */
    QString describe() const;
    QJsonObject toJson() const;
};

/**
 * How long one lock request may wait (`attemptMs`, the session's lock_timeout while it waits: the
 * application's writes queue behind it at most that long) and how long Bloomscope keeps trying
 * (`totalMs`) before it gives up (ErrorKind::Refused, exit 8) naming the blockers. Before each request it
 * looks at who holds or waits for a conflicting lock: while a transaction older than half an attempt
 * holds one (an idle session in a transaction, a slow batch), it does not ask at all, so sign-ups go
 * on; it reports, backs off (0.2 s doubling to 2 s) and looks again.
 */
struct LockPolicy {
    int attemptMs = 1000;
    int totalMs = 60000;
    std::function<void(const LockWait &)> onWait; ///< called on every wait, from the locking thread
    const std::atomic<bool> *cancel = nullptr;

    /** The defaults, or BLOOMSCOPE_LOCK_TIMEOUT / BLOOMSCOPE_LOCK_WAIT (milliseconds) when set. */
    static LockPolicy fromEnvironment();
};

/**
 * Takes `mode` ("SHARE", "EXCLUSIVE", "ACCESS EXCLUSIVE") on `quotedTable` in the session's open
 * transaction, by `policy`. `lookFor` is the strongest mode the caller will need on it in this
 * transaction (an upgrade later must not meet an old holder either); empty: `mode`. Afterwards the
 * transaction's lock_timeout is the policy's attempt, so a later lock of the same transaction cannot
 * queue longer either. `label` names the table in reports.
 */
Status lockTable(Database &db, const QString &quotedTable, const QString &label, const QString &mode,
                 const LockPolicy &policy, const QString &lookFor = {});

/**
 * One request for `mode` on `quotedTable` in the open transaction, under the policy's attempt as its
 * lock_timeout: for a lock taken while the transaction already holds another that blocks writes (the
 * swap's upgrade), where waiting longer would stop them. Gives up at once with the blockers named.
 */
Status lockOnce(Database &db, const QString &quotedTable, const QString &label, const QString &mode,
                const LockPolicy &policy);

/** The sessions that hold or wait for a lock on `quotedTable` that conflicts with `mode`, oldest
 *  transaction first (not this session). */
Result<QList<LockBlocker>> lockBlockers(Database &db, const QString &quotedTable, const QString &mode);

/** The refusal a caller gives up with after `wait` (exit 8): what it waited for and who blocks. */
Error lockRefusal(const LockWait &wait);

/** Whether `e` is a lock request that ran out of its lock_timeout (SQLSTATE 55P03). */
bool isLockTimeout(const Error &e);

} // namespace bloom::maintenance
