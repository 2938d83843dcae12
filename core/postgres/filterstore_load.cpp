// FilterStore's bulk path: merged per-chunk masks, binary COPY, one ordered UPDATE per batch.
#include "model/maskbatch.h"
#include "model/namereader.h"
#include "postgres/filterstore.h"
#include "postgres/pgcopy.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSqlQuery>
#include <QThread>

#include <libpq-fe.h>

#include <memory>
#include <thread>

namespace bloom {

Status FilterStore::flushMasks(const MaskBatch &batch, qint64 *updated)
{
    *updated = 0;
    if (batch.isEmpty())
        return success();
    qint64 expected = 0;
    const QString updateSql = QStringLiteral("update %1 f set bits = f.bits | l.mask from pg_temp.bloomscope_load l "
                                             "where f.chunk = l.chunk")
                                  .arg(mTable);
    QElapsedTimer timer;
    for (int attempt = 1;; ++attempt) {
        timer.start();
        QSqlDatabase &db = mDb.db();
        if (!mManagedTransaction && !db.transaction())
            return makeError(ErrorKind::Connection, QStringLiteral("cannot begin a transaction on %1").arg(mTable));
        QSqlQuery q(db);
        Error failure;
        bool failed = false;
        const auto fail = [&](Error e) {
            failure = std::move(e);
            failed = true;
        };
        // The load table is written in chunk order and read in that order by a nested loop over the
        // primary key: rows are then updated (and locked) in chunk order, so two loaders never
        // deadlock, and nothing spills to disk the way a 128 MiB hash join would.
        if (!mTempBuffersSet) {
            (void)q.exec(QStringLiteral("set temp_buffers = '256MB'")); // only before the first temp table
            mTempBuffersSet = true;
        }
        const QString temp =
            mManagedTransaction ? QStringLiteral("drop table if exists pg_temp.bloomscope_load; ") : QString();
        if (!q.exec(temp + QStringLiteral("set local enable_hashjoin = off")) ||
            !q.exec(QStringLiteral("set local enable_mergejoin = off")))
            fail(Database::queryError(q, QStringLiteral("setting up the load")));
        if (!failed &&
            !q.exec(QStringLiteral("create temp table bloomscope_load (chunk int, mask bit(%1)) on commit drop")
                        .arg(mGeometry.chunkBits())))
            fail(Database::queryError(q, QStringLiteral("creating the load table")));
        if (!failed) {
            q.finish();
            auto rows = copyIn(mDb.pgconn(), QStringLiteral("copy pg_temp.bloomscope_load from stdin (format binary)"),
                               [&batch](const CopySink &sink) { return batch.writeCopy(sink); });
            if (rows)
                expected = *rows;
            else
                fail(rows.error());
        }
        mLastCopySeconds = double(timer.nsecsElapsed()) / 1e9;
        timer.start();
        q.finish();
        if (!failed && !q.exec(updateSql))
            fail(Database::queryError(q, QStringLiteral("updating %1").arg(mTable)));
        if (!failed && q.numRowsAffected() != expected)
            fail(makeError(ErrorKind::ForeignFilter,
                           QStringLiteral("%1 of %2 chunks of the batch have a row in %3")
                               .arg(q.numRowsAffected())
                               .arg(expected)
                               .arg(mTable),
                           QStringLiteral("restore the missing chunk rows; nothing of this batch was written")));
        if (!failed) {
            *updated = q.numRowsAffected();
            q.finish();
            if (mManagedTransaction || db.commit()) {
                mLastUpdateSeconds = double(timer.nsecsElapsed()) / 1e9;
                return success();
            }
            fail(makeError(ErrorKind::Server, QStringLiteral("commit of the batch failed")));
        }
        q.finish();
        if (mManagedTransaction)
            return failure; // the caller's transaction is aborted: it rolls back
        db.rollback();
        const bool retry = failure.message.contains(QLatin1String("deadlock detected")) ||
                           failure.message.contains(QLatin1String("could not serialize"));
        if (!retry || attempt >= 5)
            return failure;
        QThread::msleep(20 * attempt); // OR is idempotent: the whole batch is simply run again
    }
}

Status FilterStore::flushMasksParallel(MaskBatch &batch, qint64 *updated)
{
    // Two backends update disjoint chunk ranges at once (the server-side work is CPU-bound). Each
    // half is its own transaction: a failure of either fails the load, and running it again is
    // harmless because OR is idempotent.
    constexpr qsizetype ParallelFrom = 50'000;
    if (batch.names() < ParallelFrom || mGeometry.chunks() < 2)
        return flushMasks(batch, updated);
    MaskBatch upper = batch.splitFrom(mGeometry.chunks() / 2);
    Status other = success();
    qint64 otherUpdated = 0;
    double otherUpdateSeconds = 0;
    std::thread worker([&] {
        auto db = Database::open(mDb.spec());
        if (!db) {
            other = db.error();
            return;
        }
        FilterStore helper(**db, mRef);
        helper.mGeometry = mGeometry;
        helper.mAttached = true;
        helper.mCancelFlag = mCancelFlag;
        other = helper.flushMasks(upper, &otherUpdated);
        otherUpdateSeconds = helper.mLastUpdateSeconds;
    });
    Status mine = flushMasks(batch, updated);
    worker.join();
    mLastUpdateSeconds = qMax(mLastUpdateSeconds, otherUpdateSeconds);
    if (!mine)
        return mine;
    if (!other)
        return other;
    *updated += otherUpdated;
    return success();
}

Result<LoadReport> FilterStore::load(QIODevice *in, const ProgressFn &progress, qsizetype batchNames)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    QElapsedTimer timer;
    timer.start();
    NameReader reader(in);
    LoadReport report;
    MaskBatch pending(mGeometry);
    QList<QByteArray> names;
    const auto flush = [&]() -> Status {
        if (pending.isEmpty())
            return success();
        QElapsedTimer flushTimer;
        flushTimer.start();
        qint64 updated = 0;
        const qsizetype batchSize = pending.names(); // before the parallel flush splits it
        if (auto s = flushMasksParallel(pending, &updated); !s)
            return s;
        report.updateSeconds += mLastUpdateSeconds;
        report.copySeconds += double(flushTimer.nsecsElapsed()) / 1e9 - mLastUpdateSeconds;
        report.namesAdded += batchSize;
        report.chunksUpdated += updated;
        ++report.batches;
        pending.clear();
        return success();
    };
    bool more = true;
    while (more) {
        const auto stop = [&] {
            return cancelledError(
                QStringLiteral("load after %1 names (every batch written so far is complete)").arg(report.namesAdded));
        };
        if (cancelled())
            return stop();
        QElapsedTimer readTimer;
        readTimer.start();
        names.clear();
        more = reader.next(100'000, names);
        if (cancelled()) // an interrupted read looks like the end of input: do not flush a partial batch
            return stop();
        auto placed = place(names);
        if (!placed)
            return placed.error();
        for (const Placement &p : *placed)
            pending.add(p);
        report.readSeconds += double(readTimer.nsecsElapsed()) / 1e9;
        if (pending.names() >= batchNames || !more) {
            if (auto s = flush(); !s)
                return s.error();
        }
        if (progress)
            progress(LoadProgress{reader.linesRead(), report.namesAdded + pending.names(),
                                  qint64(reader.badLines().size()), reader.bytesRead()});
    }
    report.lines = reader.linesRead();
    report.bad = reader.badLines();
    report.seconds = double(timer.nsecsElapsed()) / 1e9;
    return report;
}

} // namespace bloom
