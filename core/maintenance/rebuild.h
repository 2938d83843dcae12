#pragma once

#include "common/result.h"
#include "model/geometry.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>

namespace bloom {

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
};

/** A rebuild that is running or was interrupted (from the bloomscope_rebuild table). */
struct RebuildState {
    bool exists = false;
    QString liveTable, liveFunction, newTable, newFunction, stage;
    QDateTime startedAt;
    qint64 pending = 0; ///< rows in the pending table
};

struct SwapReport {
    QString oldTable, oldFunction;
    qint64 drainedInSwap = 0;
    double exclusiveMs = 0; ///< how long checks were blocked (ACCESS EXCLUSIVE to commit)
    double lockMs = 0;      ///< how long adds were blocked (EXCLUSIVE to commit)
};

/**
 * Rebuilds a filter with a new geometry while the live one keeps serving, and swaps it in. While a
 * rebuild runs, the live function also records every name it places in a pending table; names the
 * live filter rules out are dropped, the rest are drained into the new filter before and inside the
 * swap (README "Rebuild and swap").
 */
class Rebuilder {
public:
    using ProgressFn = std::function<void(const RebuildProgress &)>;

    Rebuilder(Database &filterDb, RebuildOptions options);
    void setProgress(ProgressFn fn) { mProgress = std::move(fn); }
    void setCancelFlag(const std::atomic<bool> *flag) { mCancel = flag; }

    Result<RebuildReport> run();

    /** The state of a running or interrupted rebuild (for `info` and the GUI). */
    static Result<RebuildState> state(Database &db);
    /** Restores the live function, drops the pending table and the half-built filter. */
    static Status abort(Database &db);
    /** Swaps the rebuilt table and function in for the live ones, in one transaction. */
    static Result<SwapReport> swap(Database &db, const QString &newTable);
    /** Drops the old pair the last swap kept, and the pending table. */
    static Result<QStringList> dropOld(Database &db, const FilterRef &live);
    /** Drains pending names the live filter may hold into the new filter; returns how many. */
    static Result<qint64> drain(Database &db, const RebuildState &st, bool final);

private:
    static Result<qint64> drainInto(Database &db, const QString &schema, FilterStore &live, FilterStore &next,
                                    bool final);
    Status prepare();
    Status exportAndHash(RebuildReport &r);
    Status exportSql(RebuildReport &r);
    Status writeTable(RebuildReport &r);
    void report(const QString &stage, qint64 done, qint64 total);
    bool cancelled() const { return mCancel && mCancel->load(); }
    void pauseForTests(const QString &stage);

    Database &mDb;
    RebuildOptions mOptions;
    ProgressFn mProgress;
    const std::atomic<bool> *mCancel = nullptr;
    std::vector<std::uint8_t> mBits;
    QElapsedTimer *mClock = nullptr;
};

} // namespace bloom
