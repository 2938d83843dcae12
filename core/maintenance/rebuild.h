#pragma once

#include "common/result.h"
#include "maintenance/lockpolicy.h"
#include "model/bitarray.h"
#include "model/geometry.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "shards/shardmap.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

namespace bloom {

namespace maintenance {
struct Helpers;
}

/** What `bloomctl rebuild` builds, from where, and how. */
struct RebuildOptions {
    FilterRef live;       ///< the filter that keeps serving (username_filter / username_bits)
    QString intoTable;    ///< the new table
    QString intoFunction; ///< its function; default: intoTable + "_bits"
    Geometry geometry;    ///< of the new filter
    QList<ConnectionSpec> sources;
    QString query = QStringLiteral("select username from users");
    QStringList files;
    bool sqlMethod = false; ///< the reference way: bit_or ... group by on the server
    int graceSeconds = 2;   ///< wait after recording starts, before the export snapshots
    /** A geometry with fewer bits than the live filter's is refused unless this is set. */
    bool allowSmaller = false;
    /** Go on although publications carry the new tables to subscribers: they ran the SQL the refusal
     *  printed (docs/operations.md "Logical replication"). */
    bool publicationOk = false;
    /** How the set-up's SHARE lock on the live table is asked for (maintenance/lockpolicy.h). */
    maintenance::LockPolicy lock = maintenance::LockPolicy::fromEnvironment();
};

/** One progress report: the stage and how far it is. */
struct RebuildProgress {
    QString stage; ///< prepare, grace, export, lower, write, index, function, drain, done
    qint64 done = 0;
    qint64 total = 0; ///< 0 when unknown
    double seconds = 0;
};

struct RebuildReport {
    qint64 exported = 0;     ///< names read from the sources
    QList<qint64> perSource; ///< names read from each source (shards, then files)
    qint64 drained = 0;      ///< names added from the pending table
    qint64 nonAscii = 0;
    double exportSeconds = 0, writeSeconds = 0, indexSeconds = 0, drainSeconds = 0, totalSeconds = 0;
    quint64 arrayBytes = 0;
    QString newTable, newFunction;
    /** On a publisher: what each subscriber runs now, before the swap (empty when nothing is published). */
    QString subscriberSteps;
};

/** A rebuild that is running or was interrupted (from the bloomscope_rebuild table). */
struct SourceCount {
    QString source; ///< user@host/db of a source (never a password), or "file PATH"
    qint64 names = 0;
};

struct RebuildState {
    bool exists = false;
    QString schema;                                                ///< where the pairs and the helpers live
    QString liveTable, liveFunction, newTable, newFunction, stage; ///< names in `schema`
    QList<SourceCount> perSource;                                  ///< recorded by the rebuild once its export finished
    QDateTime startedAt;
    qint64 pending = 0;        ///< names in the pending table not drained yet
    qint64 pendingWritten = 0; ///< of them, the write path's (FilterWriter): every one an added name
    /** A Bloomscope session is running this rebuild now, from its heartbeat in the state table (on the
     *  primary: its heartbeat session is connected; on a standby: its heartbeat is at most
     *  heartbeatStaleSeconds() older than the newest replayed commit); false for one whose process died or
     *  lost its connection (interrupted, or waiting for its swap when its stage is "ready"). */
    bool running = false;
    double heartbeatSeconds = -1; ///< age of its last heartbeat (-1: none recorded)
    double stageSeconds = -1;     ///< how long it has been in its stage (waiting for its swap: since when)
    /** Rebuilt, its process gone: the new filter waits for its swap (the live function records every name). */
    bool waitingForSwap() const { return exists && !running && stage == QLatin1String("ready"); }
    /** Stopped half way (no process runs it, not ready): finish or abort it. */
    bool interrupted() const { return exists && !running && stage != QLatin1String("ready"); }
    /** Its new table is written (stage drain or ready): a swap can finish it; before that only abort. */
    bool newTableWritten() const { return stage == QLatin1String("drain") || stage == QLatin1String("ready"); }
    /** Started by an older Bloomscope, its helpers beside the filter: it can only be aborted. */
    bool legacy = false;
};

/** How often a running rebuild stamps its heartbeat, and how far behind the newest replayed commit a
 *  standby lets it fall before it calls the rebuild gone (BLOOMSCOPE_HEARTBEAT_STALE, seconds). */
constexpr int HeartbeatSeconds = 2;
inline int heartbeatStaleSeconds()
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue("BLOOMSCOPE_HEARTBEAT_STALE", &ok);
    return ok && v > 0 ? v : 30;
}

/** The new filter may hold this share of the live estimate and no less (docs/operations.md "The swap guard"). */
constexpr double SwapNamesTolerance = 0.98;

/** How a swap is guarded (docs/operations.md "The swap guard"). */
struct SwapOptions {
    FilterRef live;
    /** The new filter may hold fewer names than the live one (the names were really deleted). */
    bool allowFewerNames = false;
    /** Go on although something the site set on the live table cannot be carried over. */
    bool allowUncarried = false;
    /** Go on although publications carry the filter to subscribers: each is ready to follow the swap. */
    bool publicationOk = false;
    /** Users to sample for the audit of the new table; without it, the rebuild's own sources. */
    std::optional<ShardMap> shards;
    qint64 auditSample = 10000; ///< per shard or source; 0 skips the audit
    /** The swap drains what is left under a lock that blocks adds; when the last catch-up drain before
     *  it took longer than this, the swap is refused rather than block sign-ups that long. */
    double maxAddBlockMs = 2000;
    /** How the swap's locks are asked for (maintenance/lockpolicy.h). */
    maintenance::LockPolicy lock = maintenance::LockPolicy::fromEnvironment();
};

/** What the guard found, before the swap and again inside its transaction. */
struct SwapCheck {
    QString liveTable, newTable;
    Geometry liveGeometry, newGeometry;
    double liveNames = 0, newNames = 0; ///< estimated from each table's fill (the reference's estimate)
    double missingShare = 0;            ///< share of live names the new filter would miss (0 when it holds more)
    double tolerance = 0;               ///< refused below tolerance * liveNames
    bool fewerNames = false;
    QList<SourceCount> perSource;
    qint64 pending = 0;        ///< names still to drain
    qint64 pendingWritten = 0; ///< of them, names the write path added (counted with the new filter's)
    QStringList carried;       ///< what the swap carries over to the new pair
    QStringList notCarried;    ///< what it cannot (refused unless allowUncarried)
    QStringList publications;  ///< the publications that carry the filter to subscribers (refused unless publicationOk)
    QString subscriberCheck;   ///< what each subscriber must show before the swap
    QString subscriberAfter;   ///< what each subscriber runs once it has applied the swap ("<OLD_TABLE>": its old name)
    bool audited = false;
    qint64 auditSampled = 0;
    QList<QByteArray> auditMisses; ///< sampled users the new table calls free: refused
    QString auditNote;             ///< why no audit ran, if none did
    QString sql;                   ///< the statements of the swap's transaction
    /** Why the swap would be refused, or empty. */
    QString refusal;
    QString refusalFix;
    QString refusalConsent; ///< the consent that overrides it (Error::consent), if one does
};

/** Sets c.refusal (and its fix) from the counts, the audit and what cannot be carried, for `o`. */
void judgeSwap(SwapCheck &c, const SwapOptions &o);

struct SwapReport {
    SwapCheck check;
    QString oldTable, oldFunction;
    qint64 drainedInSwap = 0;
    double exclusiveMs = 0; ///< how long checks were blocked (ACCESS EXCLUSIVE to commit)
    double lockMs = 0;      ///< how long adds were blocked (EXCLUSIVE to commit)
    /** Where the swap's wall time went, in order (ms): draining most of the backlog, the guard (fills
     *  and audit), verifying the drained names, planning the carry-over, catching up on the names
     *  recorded meanwhile, waiting for the EXCLUSIVE
     *  lock, the final drain and the guard's counts under it, the renames and the commit. */
    double earlyDrainMs = 0, guardMs = 0, verifyMs = 0, planMs = 0, catchUpMs = 0, lockWaitMs = 0, underLockMs = 0,
           renameMs = 0;
    int catchUpPasses = 0; ///< drains between the guard and the lock, until one found little
    /** Drained names checked in the new filter before the lock: every one the live function recorded
     *  that the live filter may hold, and a sample of the write path's (FilterWriter). */
    qint64 verifiedNames = 0;
};

/** An old pair a swap kept under a dated name (bloomscope_swapped), as drop-old would find it. */
struct OldPair {
    QString table, function; ///< the names the swap gave them, in the live filter's schema
    bool tableKept = false;  ///< still that table (same oid and name): drop-old drops it
    bool functionKept = false;
    QDateTime swappedAt;
    qint64 bytes = 0; ///< the table's size with its indexes and TOAST (0 when gone)
};

/** What drop-old finds and would run. */
struct OldPairs {
    QList<OldPair> pairs; ///< oldest first; only those not dropped yet
    QStringList drops;    ///< the objects `sql` drops, as dropOld() returns them
    QString sql;          ///< the one transaction dropOld() runs (empty: nothing to drop)
    QString rebuilding;   ///< a rebuild in progress into this table: drop-old refuses until it ends
    QString schema;
    qint64 bytes() const;
};

/**
 * Rebuilds a filter with a new geometry while the live one keeps serving, and swaps it in. While a
 * rebuild runs, the live function also records every name it places in a pending table; names the
 * live filter rules out are dropped, the rest are drained into the new filter before and inside the
 * swap (docs/operations.md "Rebuild and swap").
 */
class Rebuilder {
public:
    using ProgressFn = std::function<void(const RebuildProgress &)>;

    Rebuilder(Database &filterDb, RebuildOptions options);
    ~Rebuilder();
    Rebuilder(const Rebuilder &) = delete;
    Rebuilder &operator=(const Rebuilder &) = delete;
    void setProgress(ProgressFn fn) { mProgress = std::move(fn); }
    void setCancelFlag(const std::atomic<bool> *flag) { mCancel = flag; }

    Result<RebuildReport> run();

    /** The state of a running or interrupted rebuild of `live` (for `info` and the GUI). */
    static Result<RebuildState> state(Database &db, const FilterRef &live = {});
    /** The state of a rebuild an older Bloomscope started (no write path's columns in its pending table). */
    static Result<RebuildState> legacyState(Database &db, const maintenance::Helpers &h);
    /** Restores the live function, drops the pending table and the half-built filter. */
    static Status abort(Database &db, const FilterRef &live = {},
                        const maintenance::LockPolicy &lock = maintenance::LockPolicy::fromEnvironment());
    /** What a swap of `newTable` would do and whether the guard lets it (nothing is changed). */
    static Result<SwapCheck> checkSwap(Database &db, const QString &newTable, const SwapOptions &options = {});
    /** Swaps the rebuilt table and function in for the live ones, in one transaction, carrying over
     *  what the site set on the live pair; refused (ErrorKind::Refused) when the guard says no. */
    static Result<SwapReport> swap(Database &db, const QString &newTable, const SwapOptions &options = {});
    /** Drops the old pairs the swaps of `live` recorded (and nothing else), in one transaction;
     *  with dryRun, only lists them. */
    static Result<QStringList>
    dropOld(Database &db, const FilterRef &live, bool dryRun = false,
            const maintenance::LockPolicy &lock = maintenance::LockPolicy::fromEnvironment());
    /** The old pairs the swaps of `live` recorded and not dropped yet, their sizes and ages, and the
     *  exact SQL dropOld() would run; nothing is changed. */
    static Result<OldPairs> oldPairs(Database &db, const FilterRef &live);
    /** When the last swap into the live filter committed (bloomscope_swapped keeps it after drop-old),
     *  or nothing when none was recorded. */
    static Result<std::optional<QDateTime>> lastSwap(Database &db, const FilterRef &live = {});
    /** Drains pending names the live filter may hold into the new filter; returns how many. */
    static Result<qint64> drain(Database &db, const RebuildState &st, bool final);

private:
    static Result<std::pair<QualifiedName, QualifiedName>> intoNames(Database &db, const maintenance::Helpers &h,
                                                                     const QString &table, const QString &function);
    Result<RebuildReport> runPrepared();
    Status recordSources(const RebuildReport &r);
    static Result<qint64> drainInto(Database &db, const QString &pending, FilterStore &live, FilterStore &next,
                                    bool final);
    Status prepare();
    Status exportAndHash(RebuildReport &r);
    Status exportSql(RebuildReport &r);
    Status writeTable(RebuildReport &r);
    void report(const QString &stage, qint64 done, qint64 total);
    bool cancelled() const { return mCancel && mCancel->load(); }
    void pauseForTests(const QString &stage);
    void startPrefault();
    void joinPrefault();

    Database &mDb;
    RebuildOptions mOptions;
    ProgressFn mProgress;
    const std::atomic<bool> *mCancel = nullptr;
    BitArray mBits;
    std::vector<std::thread> mPrefault; ///< fault the bit array in during the grace wait
    QualifiedName mInto, mIntoFunction;
    QElapsedTimer *mClock = nullptr;
};

} // namespace bloom
