#include "postgres/bulkload.h"

#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"

#include <QElapsedTimer>
#include <QSqlQuery>

#include <algorithm>
#include <chrono>
#include <future>
#include <thread>

namespace bloom {

// ---- DensePlacer ----------------------------------------------------------------------------

DensePlacer::DensePlacer(FilterStore &store, QIODevice *in, NameList *kept)
    : mStore(store)
    , mIn(in)
    , mKept(kept)
    , mPlacers(qMax(1, int(std::thread::hardware_concurrency())))
    , mLogLimit(qint64(ChunkBitmap::bytesFor(store.geometry()) / 4) / PlacementLog::bytesFor(store.geometry(), 1))
    , mSetAside(size_t(mPlacers))
{
    if (PlacementLog::suits(store.geometry()))
        mLog.emplace(store.geometry(), mPlacers + 1);
}

DensePlacer::~DensePlacer()
{
    for (auto &f : mInFlight)
        f.wait();
}

void DensePlacer::switchToBitmapIfLarge(const NameBlock &next, bool first)
{
    if (mBitmap)
        return;
    if (mLog) {
        qint64 expected = mLog->appended();
        if (first && !mIn->isSequential() && !next.bytes.isEmpty())
            expected = qint64(double(next.names.size()) * double(mIn->size()) / double(next.bytes.size()));
        if (expected <= mLogLimit)
            return;
    }
    const Geometry &g = mStore.geometry();
    mBitmap = std::make_unique<ChunkBitmap>(g);
    mShared.emplace(mBitmap->shared());
    const qsizetype bufferNames = SharedBits::Writer::bufferFor(g, mPlacers);
    for (int i = 0; i < mPlacers; ++i)
        mWriters.push_back(std::make_unique<SharedBits::Writer>(*mShared, bufferNames));
    mServerWriter.emplace(*mShared, 4096); // the names that are not ASCII: few
    if (!mLog)
        return;
    // Each placing thread's lane through that thread's writer, on every core: the bitmap's fresh pages
    // are first written here (on one thread, 1.8M names took 0.42 s).
    std::vector<std::future<void>> moving;
    for (int i = 0; i < mPlacers; ++i)
        moving.push_back(std::async(std::launch::async, [this, i] { mLog->orLaneInto(i, *mWriters[size_t(i)]); }));
    mLog->orLaneInto(mPlacers, *mServerWriter);
    for (auto &f : moving)
        f.get();
    mLog.reset();
}

Status DensePlacer::finishBlock()
{
    for (auto &f : mInFlight)
        f.get();
    mInFlight.clear();
    QList<QByteArray> notAscii;
    for (auto &aside : mSetAside) {
        notAscii += aside;
        aside.clear();
    }
    if (notAscii.isEmpty())
        return success();
    auto lowered = mStore.place(notAscii);
    if (!lowered)
        return lowered.error();
    for (const Placement &p : *lowered)
        if (mLog)
            mLog->add(mPlacers, p);
        else
            mServerWriter->add(p);
    return success();
}

Status DensePlacer::place(const NameBlock &block, bool first)
{
    if (auto s = finishBlock(); !s)
        return s;
    switchToBitmapIfLarge(block, first);
    if (mKept)
        for (size_t j = 0; j < block.names.size(); ++j)
            mKept->append(block.name(j));
    mPlaced += qint64(block.names.size());
    const size_t n = block.names.size(), per = (n + size_t(mPlacers) - 1) / size_t(mPlacers);
    for (size_t i = 0; i < size_t(mPlacers) && i * per < n; ++i)
        mInFlight.push_back(
            std::async(std::launch::async, [this, i, &block, from = i * per, to = qMin(n, (i + 1) * per)] {
                std::vector<QByteArrayView> ascii;
                ascii.reserve(to - from);
                for (size_t j = from; j < to; ++j) {
                    if (block.names[j].ascii)
                        ascii.push_back(block.name(j));
                    else
                        mSetAside[i].append(block.name(j).toByteArray());
                }
                if (mLog)
                    mLog->addAscii(int(i), ascii.data(), qsizetype(ascii.size()));
                else
                    mWriters[i]->addAscii(ascii.data(), qsizetype(ascii.size()));
            }));
    return success();
}

Status DensePlacer::finish()
{
    if (auto s = finishBlock(); !s)
        return s;
    if (mLog) {
        mLog->finish();
        return success();
    }
    qint64 added = 0;
    for (auto &w : mWriters) {
        w->flush();
        added += w->added();
    }
    mServerWriter->flush();
    mBitmap->finishConcurrent(added + mServerWriter->added());
    return success();
}

const MaskRowsSource &DensePlacer::rows() const
{
    if (mLog)
        return *mLog;
    return *mBitmap;
}

// ---- VacuumSchedule -------------------------------------------------------------------------

VacuumSchedule::VacuumSchedule(Database &db, const QString &table, Opener open, const std::atomic<bool> *cancel)
    : mDb(db)
    , mCancel(cancel)
    , mSql(QStringLiteral("vacuum %1").arg(table).toUtf8())
    , mWhat(QStringLiteral("vacuuming %1 between the load's steps").arg(table))
{
    if (open)
        mOpening = std::async(std::launch::async, [this, open] { return open(&mAbandon); });
}

VacuumSchedule::~VacuumSchedule()
{
    (void)finish(true);
    stopOpening();
}

void VacuumSchedule::stopOpening()
{
    mAbandon = true;
    if (mOpening.valid()) {
        OpenedConnection o = mOpening.get();
        if (mWhyNotOwn.isEmpty())
            mWhyNotOwn = o.conn ? QStringLiteral("its connection of its own came too late") : o.why;
    }
}

PgConn *VacuumSchedule::own()
{
    if (!mOwn && mOpening.valid() && mOpening.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        OpenedConnection o = mOpening.get();
        mOwnConn = std::move(o.conn);
        mOwn = mOwnConn.get();
        mWhyNotOwn = o.why;
    }
    return mOwn;
}

QString VacuumSchedule::onSession() const
{
    if (mOnSession == 0)
        return {};
    return QStringLiteral("%1 of them on the load's own connection, each holding the next step up: %2")
        .arg(QString::number(mOnSession),
             mWhyNotOwn.isEmpty() ? QStringLiteral("their connection was not open yet") : mWhyNotOwn);
}

Status VacuumSchedule::now()
{
    QElapsedTimer t;
    t.start();
    Status s = success();
    if (PgConn *c = own()) {
        // On its own connection, which the load's cancel does not reach: watched here, so that a
        // Cancel while this VACUUM waits for a lock (another VACUUM, an index build) returns at once.
        auto running =
            std::async(std::launch::async, [this, c] { return execCommand(c->handle(), mSql.constData(), mWhat); });
        bool stopped = false;
        while (running.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
            if (!stopped && mCancel && mCancel->load()) {
                c->cancel();
                stopped = true;
            }
        s = running.get();
    } else {
        QSqlQuery q(mDb.db());
        if (!q.exec(QString::fromUtf8(mSql)))
            s = Database::queryError(q, mWhat);
    }
    mSeconds += double(t.nsecsElapsed()) / 1e9;
    return s;
}

Status VacuumSchedule::beforeFirstStep()
{
    if (mVacuumed)
        return success();
    mVacuumed = true;
    return now();
}

Status VacuumSchedule::finish(bool stop)
{
    if (stop)
        stopOpening();
    if (!mRunning.valid())
        return success();
    QElapsedTimer t;
    t.start();
    bool stopped = false;
    while (mRunning.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
        if (!stopped && (stop || (mCancel && mCancel->load()))) {
            mOwn->cancel();
            stopped = true;
        }
    mSeconds += double(t.nsecsElapsed()) / 1e9;
    return mRunning.get();
}

Status VacuumSchedule::afterStep()
{
    // The next step takes the space of the step before this one: wait for its VACUUM, then free this
    // step's while the next is written.
    if (auto s = finish(false); !s)
        return s;
    if (!own()) {
        ++mOnSession;
        return now();
    }
    mUsedOwn = true;
    mRunning = std::async(std::launch::async, [this] { return execCommand(mOwn->handle(), mSql.constData(), mWhat); });
    return success();
}

// ---- DenseWrite -----------------------------------------------------------------------------

DenseWrite::DenseWrite(FilterStore &store, const FilterWriter &writer, const MaskRowsSource &rows, LoadReport &report)
    : mStore(store)
    , mWriter(writer)
    , mRows(rows)
    , mReport(report)
{
}

Status DenseWrite::writeStep(quint32 first, quint32 end, const std::vector<std::unique_ptr<PgConn>> &others)
{
    QElapsedTimer stepTimer;
    stepTimer.start();
    const size_t parts = 1 + others.size();
    const std::vector<std::pair<quint32, quint32>> ranges = FilterStore::stepRanges(first, end, int(parts));
    std::atomic<size_t> nextRange{parts}; // connection i starts with range i
    struct Part {
        Status status = success();
        WriteStats stats;
        std::vector<size_t> taken; // the ranges this part's transaction wrote
        size_t replay = 0;         // after a rewind: the next of `taken` to write again
    };
    std::vector<Part> done(parts);
    for (size_t i = 0; i < parts && i < ranges.size(); ++i)
        done[i].taken.push_back(i);
    const auto piecesOf = [&](size_t i) -> MaskPieces {
        Part &part = done[i];
        return {[this, &ranges, &nextRange, &part](MaskRows *out) {
                    size_t r = 0;
                    if (part.replay < part.taken.size()) {
                        r = part.taken[part.replay++];
                    } else {
                        r = nextRange.fetch_add(1);
                        if (r >= ranges.size())
                            return false;
                        part.taken.push_back(r);
                        part.replay = part.taken.size();
                    }
                    const auto [from, to] = ranges[r];
                    *out = [this, from, to](const ByteSink &sink) { return mRows.writeRows(sink, 1 << 20, from, to); };
                    return true;
                },
                [&part] { part.replay = 0; }};
    };
    // Part 0 on the load's session, part i on others[i - 1].
    std::vector<std::future<void>> running;
    for (size_t i = 1; i < parts; ++i)
        running.push_back(std::async(std::launch::async, [&, i] {
            Status s = mWriter.transaction(others[i - 1]->handle(), true, piecesOf(i), &done[i].stats);
            if (!s && s.error().kind != ErrorKind::Cancelled) { // which of the load's connections failed
                Error e = s.error();
                e.message = QStringLiteral("the load's connection %1: %2").arg(QString::number(i + 1), e.message);
                s = e;
            }
            done[i].status = s;
        }));
    done[0].status = mWriter.transaction(mStore.mDb.pgconn(), !mStore.mManagedTransaction, piecesOf(0), &done[0].stats);
    // A cancel (or a failure here) stops the other parts' statements too.
    bool othersCancelled = false;
    for (auto &f : running)
        while (f.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
            if (!othersCancelled && (mStore.cancelled() || !done[0].status)) {
                for (const auto &c : others)
                    c->cancel();
                othersCancelled = true;
            }
    double slowest = 0;
    for (const Part &p : done) {
        mReport.chunksUpdated += p.stats.updated;
        slowest = qMax(slowest, p.stats.seconds);
    }
    mReport.updateSeconds += slowest;
    mReport.copySeconds += qMax(0.0, double(stepTimer.nsecsElapsed()) / 1e9 - slowest);
    // The first part that failed for its own reason, not because it was cancelled for another's.
    const Part *failed = nullptr;
    for (const Part &p : done)
        if (!p.status && (!failed || failed->status.error().kind == ErrorKind::Cancelled))
            failed = &p;
    if (failed) {
        mReport.partOfAStep =
            std::any_of(done.begin(), done.end(), [](const Part &p) { return p.stats.updated > 0 && p.status.ok(); });
        return failed->status;
    }
    return success();
}

Status DenseWrite::run()
{
    const quint32 chunks = mStore.geometry().chunks();
    int steps = 1;
    if (!mStore.mManagedTransaction && mRows.touchedChunks() > qint64(chunks / FilterStore::LoadSteps)) {
        auto may = mStore.mayVacuum();
        if (!may)
            return may.error();
        mReport.vacuumRefused = !*may;
        steps = *may ? FilterStore::LoadSteps : 1;
    }
    const QByteArray mine = steps > 1 ? mStore.loadIdentity() : QByteArray();
    // The steps' other connections first (they halve the UPDATEs' time; a pool's last free server
    // connection goes to them): each may take FilterStore::LoadConnectionWaitMs to be usable.
    const std::vector<std::unique_ptr<PgConn>> others =
        steps > 1 ? mStore.openLoadConnections(mStore.mLoadConnections - 1, mine, &mReport.fewerConnections)
                  : std::vector<std::unique_ptr<PgConn>>{};
    mReport.connections = 1 + int(others.size());
    // The VACUUMs' own connection is opened beside the steps and never waited for: without it (a
    // connection limit, a pooler with no free server connection) they run here, between the steps.
    VacuumSchedule::Opener openVacuumConnection;
    if (steps > 1)
        openVacuumConnection = [this, mine, number = mReport.connections + 1](const std::atomic<bool> *abandon) {
            OpenedConnection o;
            auto conns = mStore.openLoadConnections(1, mine, &o.why, abandon, number);
            if (!conns.empty())
                o.conn = std::move(conns.front());
            return o;
        };
    VacuumSchedule vacuum(mStore.mDb, mStore.quotedTable(), openVacuumConnection, mStore.mCancelFlag);
    const auto finish = [&](Status s) {
        // Every step is committed when `s` is success: the last VACUUM only freed the step before the
        // last one (autovacuum would too), so its failure does not make the load fail.
        (void)vacuum.finish(!s.ok());
        (void)vacuum.finish(true); // and no connection is still being opened for it
        mReport.vacuumSeconds += vacuum.seconds();
        mReport.vacuumConnection = vacuum.usedOwn();
        mReport.noVacuumConnection = vacuum.onSession();
        return s;
    };
    const quint32 per = (chunks + quint32(steps) - 1) / quint32(steps);
    for (int step = 0; step < steps; ++step) {
        if (mStore.cancelled())
            return finish(makeError(ErrorKind::Cancelled, QStringLiteral("load cancelled")));
        const quint32 first = quint32(step) * per, end = qMin(chunks, first + per);
        if (mRows.touchedIn(first, end) == 0)
            continue;
        if (steps > 1)
            if (auto s = vacuum.beforeFirstStep(); !s)
                return finish(s);
        if (auto s = writeStep(first, end, others); !s)
            return finish(s);
        ++mReport.batches;
        if (steps > 1 && step + 1 < steps)
            if (auto s = vacuum.afterStep(); !s)
                return finish(s);
    }
    mReport.namesAdded = mRows.names();
    return finish(success());
}

} // namespace bloom
