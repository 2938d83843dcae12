// The parts of FilterStore::load(): reading and placing names on every core, the VACUUM schedule
// between committed steps, and the write of the steps on several connections.
#pragma once

#include "common/result.h"
#include "model/chunkbitmap.h"
#include "model/maskrows.h"
#include "model/namelist.h"
#include "model/namereader.h"
#include "model/placementlog.h"
#include "model/sharedbits.h"
#include "postgres/filterwriter.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <vector>

namespace bloom {

class Database;
class FilterStore;
class PgConn;
struct LoadReport;

/**
 * A dense load's reading side. Each block of names is hashed and placed on every core while the next
 * block is read (perf at 10M names: reading and placing on one core was half the load). Placements go
 * to a PlacementLog, and to a ChunkBitmap once the log would outgrow a quarter of it (1.8M names for
 * the reference filter): a load of fewer names writes no 128 MiB array (switchToBitmapIfLarge). Names
 * that are not ASCII are set aside and placed through the filter's server, whose lower() is the
 * authority, before the next block.
 */
class DensePlacer {
public:
    /** Names go into `store`'s geometry; with `kept`, every placed name is also appended there. */
    DensePlacer(FilterStore &store, QIODevice *in, NameList *kept);
    ~DensePlacer();
    DensePlacer(const DensePlacer &) = delete;
    DensePlacer &operator=(const DensePlacer &) = delete;

    /** Starts placing `block` (which must stay as it is until the next call or finish()), after the
     *  block before it is done; `first` is the load's first block. */
    Status place(const NameBlock &block, bool first);
    /** Waits for the last block, places the names set aside, and finishes the log or the bitmap. */
    Status finish();
    qint64 placedNames() const { return mPlaced; }
    /** After finish(): the rows the load writes. */
    const MaskRowsSource &rows() const;

private:
    /** Waits for the block being placed and places its names that are not ASCII. */
    Status finishBlock();
    /** Between blocks: to the bitmap when the log has grown past its limit or the first block of a
     *  file says that it will (its names per byte times the file's size), or the geometry suits no log. */
    void switchToBitmapIfLarge(const NameBlock &next, bool first);

    FilterStore &mStore;
    QIODevice *mIn;
    NameList *mKept;
    const int mPlacers; ///< threads; lane mPlacers of the log is this thread's (the names that are not ASCII)
    const qint64 mLogLimit;
    std::optional<PlacementLog> mLog;
    std::unique_ptr<ChunkBitmap> mBitmap;
    std::optional<SharedBits> mShared;
    std::vector<std::unique_ptr<SharedBits::Writer>> mWriters; ///< one per placing thread
    std::optional<SharedBits::Writer> mServerWriter;           ///< the names placed through the server
    std::vector<QList<QByteArray>> mSetAside;                  ///< per thread: names that are not ASCII
    qint64 mPlaced = 0;
    std::vector<std::future<void>> mInFlight; ///< last: its destructor waits for the threads using the rest
};

/** A connection being opened for the load, or why there is none. */
struct OpenedConnection {
    std::unique_ptr<PgConn> conn;
    QString why;
};

/**
 * The VACUUMs between a dense load's committed steps. The table is vacuumed before the first step, and
 * after each step on a connection of its own while the next one is written (a VACUUM between the
 * steps held both cores' UPDATEs up for 16-28 ms a step): step s + 1 starts once the VACUUM after step
 * s - 1 has ended and reuses the space it freed, so the table grows by about two steps. That connection
 * is opened beside the load and never waited for: until it is there (a pooler's queue may never give it
 * a server; a connection limit refuses it), each VACUUM runs between the steps on the load's session.
 */
class VacuumSchedule {
public:
    /** `open` (run on a thread of its own; may be empty) opens the VACUUMs' connection, giving up once
     *  its flag is set. */
    using Opener = std::function<OpenedConnection(const std::atomic<bool> *abandon)>;
    VacuumSchedule(Database &db, const QString &table, Opener open, const std::atomic<bool> *cancel);
    ~VacuumSchedule();
    /** Before the first step that writes: the space of any earlier write. */
    Status beforeFirstStep();
    /** After a committed step that is not the last: waits for the VACUUM after the step before, then
     *  starts this one's. */
    Status afterStep();
    /** Waits for the running VACUUM, cancelling it when `stop` (or on a cancel). */
    Status finish(bool stop);
    /** What the load waited for VACUUM. */
    double seconds() const { return mSeconds; }
    /** After finish(): whether a VACUUM after a step ran on the connection of its own, and why some ran
     *  on the load's session instead (empty when none did). */
    bool usedOwn() const { return mUsedOwn; }
    QString onSession() const;

private:
    Status now();
    /** The VACUUMs' connection once it is open, without waiting for it. */
    PgConn *own();
    /** Stops opening the connection (a pooler may queue it for minutes) and waits for that thread. */
    void stopOpening();

    Database &mDb;
    std::atomic<bool> mAbandon{false};
    std::future<OpenedConnection> mOpening;
    std::unique_ptr<PgConn> mOwnConn;
    PgConn *mOwn = nullptr;
    QString mWhyNotOwn;
    bool mUsedOwn = false;
    int mOnSession = 0; ///< VACUUMs after a step that ran on the load's session
    const std::atomic<bool> *mCancel;
    QByteArray mSql;
    QString mWhat;
    bool mVacuumed = false;
    double mSeconds = 0;
    std::future<Status> mRunning;
};

/**
 * A dense load's write. One UPDATE of every touched chunk leaves the table twice its packed size (each
 * row gets a new version, the old one is space only VACUUM frees), so a load that touches more than a
 * 1/LoadSteps share of the table writes in LoadSteps committed steps, chunks in order, with a
 * VacuumSchedule. Only the table's owner (or the database's, or a superuser) may vacuum it; for anyone
 * else the write is one transaction and the report says the table grew. A step's chunks are shared by
 * several connections, each its own transaction of the write path (FilterWriter): each takes the next
 * range of the step's chunks when it is done with one, in chunk order, so no two loaders deadlock (one
 * backend updating rows is CPU-bound: two on two cores took 1.1-1.2 s where one took 1.5-1.9 s for
 * 131,072 rows). Every part of a step commits before the VACUUM after it starts, so that it frees all
 * of the step.
 */
class DenseWrite {
public:
    DenseWrite(FilterStore &store, const FilterWriter &writer, const MaskRowsSource &rows, LoadReport &report);
    /** Writes every step; on a failure, report.partOfAStep says whether part of a step committed. */
    Status run();

private:
    /** One step's chunks [first, end) on the load's session and the others. */
    Status writeStep(quint32 first, quint32 end, const std::vector<std::unique_ptr<PgConn>> &others);

    FilterStore &mStore;
    const FilterWriter &mWriter;
    const MaskRowsSource &mRows;
    LoadReport &mReport;
};

} // namespace bloom
