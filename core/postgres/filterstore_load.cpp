// FilterStore's bulk path: merged per-chunk masks, sent as array parameters, ordered row updates.
#include "model/chunkbitmap.h"
#include "model/maskbatch.h"
#include "model/name.h"
#include "model/namereader.h"
#include "model/placement.h"
#include "model/placementlog.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSqlQuery>
#include <QThread>

#include <libpq-fe.h>

#include <algorithm>
#include <future>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace bloom {

QString FilterStore::orMasksStatement(const QString &table)
{
    // $2 is declared bit[] (oid 1561) by the client and not cast here: "::bit[]" means bit(1)[] and
    // would cut every mask to its first bit; uncast, a mask of another length is an error at the OR.
    return QStringLiteral("update %1 f set bits = f.bits | m.mask "
                          "from rows from (unnest($1::int4[]), unnest($2)) m(chunk, mask) "
                          "where f.chunk = m.chunk")
        .arg(table);
}

FilterStore::MaskPieces FilterStore::MaskPieces::one(MaskRows rows)
{
    auto given = std::make_shared<bool>(false);
    return {[given, rows = std::move(rows)](MaskRows *out) {
                if (*given)
                    return false;
                *given = true;
                *out = rows;
                return true;
            },
            [given] { *given = false; }};
}

Status FilterStore::flushMasks(const MaskRows &writeRows, qint64 *updated)
{
    return orMaskRows(mDb.pgconn(), !mManagedTransaction, mTable, MaskPieces::one(writeRows), updated,
                      &mLastUpdateSeconds);
}

std::vector<std::pair<quint32, quint32>> FilterStore::stepRanges(quint32 first, quint32 end, int connections)
{
    // An eighth of what is left per connection, 256 to 2,048 chunks (a statement's slice is about
    // 2,048 rows): the connections end their parts of a step within a small range of each other.
    std::vector<std::pair<quint32, quint32>> ranges;
    for (quint32 from = first; from < end;) {
        const quint32 left = end - from;
        const quint32 size = qMin(left, qBound(256u, left / quint32(8 * qMax(1, connections)), 2048u));
        ranges.emplace_back(from, from + size);
        from += size;
    }
    return ranges;
}

QStringList LoadReport::notes(const QString &table) const
{
    QStringList out;
    if (!fewerConnections.isEmpty())
        out << QStringLiteral("the load's steps were written on %1 connection(s): %2")
                   .arg(connections)
                   .arg(fewerConnections);
    if (vacuumRefused)
        out << QStringLiteral(
                   "the load rewrote %1 rows of %2 in one step, since this role may not VACUUM it; the table "
                   "holds the old row versions until its owner runs VACUUM (or autovacuum does)")
                   .arg(chunksUpdated)
                   .arg(table);
    return out;
}

Status FilterStore::orMaskRows(PGconn *pg, bool ownTransaction, const QString &table, const MaskPieces &pieces,
                               qint64 *updated, double *seconds)
{
    *updated = 0;
    *seconds = 0;
    // The masks travel as two binary array parameters, a slice of rows per statement: nothing is
    // written twice (a temporary table cost as much as the UPDATE's own writes: merge+COPY 0.75 s
    // at 10M names). A slice is read in chunk order by a nested loop over the primary key, so rows are
    // updated (and locked) in chunk order: two loaders never deadlock, and no hash join is built.
    // Raw libpq throughout (not QSqlDatabase::transaction()): the same code runs on the load's second
    // connection, which has no Qt driver.
    // work_mem: the function scan keeps a slice's unnested rows in a tuplestore, and each 1 KiB mask
    // is counted as a 2 KiB allocation; at the default 4 MB every 2 MiB slice spilled to a temporary
    // file (pg_stat_database: 64 temp files, 135 MB written and read back in a 1M load).
    const QByteArray updateSql = orMasksStatement(table).toUtf8();
    for (int attempt = 1;; ++attempt) {
        std::optional<Error> failure;
        if (ownTransaction)
            if (auto s = execCommand(pg, "begin", QStringLiteral("beginning a transaction on %1").arg(table)); !s)
                return s.error();
        if (auto s = execCommand(pg,
                                 "set local enable_hashjoin = off; set local enable_mergejoin = off; "
                                 "set local work_mem = '16MB'",
                                 QStringLiteral("setting up the load"));
            !s)
            failure = s.error();
        if (attempt > 1)
            pieces.rewind();
        MaskRows rows;
        while (!failure && pieces.next(&rows)) {
            auto done = updateFromCopyRows(pg, updateSql, rows);
            if (!done) {
                Error e = done.error();
                e.message = QStringLiteral("updating %1: %2").arg(table, e.message);
                failure = e;
            } else {
                *seconds += done->serverSeconds;
                if (done->updated != done->rows)
                    failure = makeError(ErrorKind::ForeignFilter,
                                        QStringLiteral("%1 of %2 chunks of the batch have a row in %3")
                                            .arg(done->updated)
                                            .arg(done->rows)
                                            .arg(table),
                                        QStringLiteral("restore the missing chunk rows; nothing of this batch was "
                                                       "written"));
                else
                    *updated += done->updated;
            }
        }
        if (!failure) {
            if (!ownTransaction)
                return success();
            QElapsedTimer commit;
            commit.start();
            auto s = execCommand(pg, "commit", QStringLiteral("committing the batch"));
            if (s) {
                *seconds += double(commit.nsecsElapsed()) / 1e9;
                return success();
            }
            failure = s.error();
        }
        *updated = 0;
        *seconds = 0;
        if (!ownTransaction)
            return *failure; // the caller's transaction is aborted: it rolls back
        (void)execCommand(pg, "rollback", QStringLiteral("rolling back the batch"));
        const bool retry = failure->message.contains(QLatin1String("deadlock detected")) ||
                           failure->message.contains(QLatin1String("could not serialize"));
        if (!retry || attempt >= 5)
            return *failure;
        QThread::msleep(20 * attempt); // OR is idempotent: the whole batch is simply run again
    }
}

std::vector<std::unique_ptr<PgConn>> FilterStore::openLoadConnections(int extra, QString *why)
{
    std::vector<std::unique_ptr<PgConn>> out;
    if (extra <= 0)
        return out;
    const QString conninfo = Database::sessionSpec(mDb.spec(), mDb.options()).toConninfo();
    // The same server (a host list can lead elsewhere), database and table as this session.
    const QByteArray identitySql = "select pg_catalog.current_database(), pg_catalog.pg_postmaster_start_time(), "
                                   "pg_catalog.to_regclass($1)::oid";
    const QByteArray table = mTable.toUtf8();
    const auto identity = [&](PGconn *pg) -> QByteArray {
        const char *values[1] = {table.constData()};
        std::unique_ptr<PGresult, decltype(&PQclear)> r(
            PQexecParams(pg, identitySql.constData(), 1, nullptr, values, nullptr, nullptr, 0), &PQclear);
        if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1)
            return {};
        return QByteArray(PQgetvalue(r.get(), 0, 0)) + '|' + PQgetvalue(r.get(), 0, 1) + '|' +
               PQgetvalue(r.get(), 0, 2);
    };
    const QByteArray mine = identity(mDb.pgconn());
    for (int i = 0; i < extra; ++i) {
        auto conn = std::make_unique<PgConn>(conninfo, PgConn::SearchPath::Pinned);
        if (!conn->ok()) {
            *why = QStringLiteral("connection %1 was refused (%2)").arg(i + 2).arg(conn->errorMessage().trimmed());
            break;
        }
        // A read-only session's second connection is read-only too: it must not write what this one may not.
        if (mDb.readOnly())
            if (auto s = conn->exec(QStringLiteral("set default_transaction_read_only = on")); !s) {
                *why = QStringLiteral("connection %1: %2").arg(i + 2).arg(s.error().message);
                break;
            }
        if (mine.isEmpty() || identity(conn->handle()) != mine) {
            *why = QStringLiteral("connection %1 reached another server or table").arg(i + 2);
            break;
        }
        out.push_back(std::move(conn));
    }
    return out;
}

Result<bool> FilterStore::mayVacuum()
{
    // VACUUM's own rule in PostgreSQL 15: the table's owner, the database's owner, or a superuser.
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral(
        "select pg_has_role(c.relowner, 'USAGE') or pg_has_role(d.datdba, 'USAGE') or "
        "(select rolsuper from pg_roles where rolname = current_user) "
        "from pg_class c, pg_database d where c.oid = to_regclass(?) and d.datname = current_database()"));
    q.addBindValue(mTable);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("reading who owns %1").arg(mTable));
    return q.value(0).toBool();
}

Result<LoadReport> FilterStore::load(QIODevice *in, const ProgressFn &progress, qsizetype batchNames)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    // Refused before a line is read (the load's other connections are read-only too, should this go).
    if (mDb.readOnly())
        return makeError(ErrorKind::Server,
                         QStringLiteral("loading names into %1: the session is read-only").arg(mTable),
                         QStringLiteral("the session is read-only; switch to admin mode to write"));
    QElapsedTimer timer;
    timer.start();
    NameReader reader(in);
    LoadReport report;
    // A filter that fits in memory (the reference's is 128 MiB) is loaded in one transaction that
    // writes each touched chunk once, whatever the number of names. Larger ones are loaded in
    // committed batches of `batchNames` names; a rerun of the same input completes an interrupted
    // one (adding a name twice changes nothing).
    const bool dense = ChunkBitmap::bytesFor(mGeometry) <= MaxDenseLoadBytes;
    // The names go to a PlacementLog first, and to a ChunkBitmap once the log would outgrow a quarter
    // of it (1.8M names for the reference filter): a load of fewer names writes no 128 MiB array.
    std::unique_ptr<ChunkBitmap> bitmap;
    MaskBatch batch(mGeometry);
    // The dense bits are ORed through a SharedBits writer: it sorts a block of names by chunk range
    // and ORs range by range, each range in cache (perf: a name at a time into the 128 MiB array,
    // a cache and TLB miss each, was a quarter of a 5M load).
    std::optional<SharedBits> shared;
    // A block of lines is hashed and ORed in on every core while this thread reads and checks the next
    // (perf: at 10M names reading and placing on one core was half the load; then a QByteArray a name
    // was the reading's cost, so a block's names are views into its bytes). The names that are not
    // ASCII are set aside there and placed here: the server lowers them, on this thread's connection.
    const int placers = dense ? qMax(1, int(std::thread::hardware_concurrency())) : 0;
    std::vector<std::unique_ptr<SharedBits::Writer>> writers;
    std::optional<SharedBits::Writer> serverWriter;
    // Lanes 0..placers-1 are the placing threads', lane `placers` this thread's (the names that are not ASCII).
    std::optional<PlacementLog> log;
    const qint64 logLimit = qint64(ChunkBitmap::bytesFor(mGeometry) / 4) / PlacementLog::bytesFor(mGeometry, 1);
    qint64 placedNames = 0;
    if (dense && PlacementLog::suits(mGeometry))
        log.emplace(mGeometry, placers + 1);
    // Called between blocks, when no placing thread runs, with the block about to be placed: the
    // bitmap, when the geometry does not suit a log, the log has grown past its limit, or the first
    // block of a file says it will (its names per byte times the file's size).
    const auto toBitmapIfLarge = [&](const NameBlock &next, bool first) {
        if (!dense || bitmap)
            return;
        if (log) {
            qint64 expected = log->appended();
            if (first && !in->isSequential() && !next.bytes.isEmpty())
                expected = qint64(double(next.names.size()) * double(in->size()) / double(next.bytes.size()));
            if (expected <= logLimit)
                return;
        }
        bitmap = std::make_unique<ChunkBitmap>(mGeometry);
        shared.emplace(bitmap->shared());
        const qsizetype bufferNames = SharedBits::Writer::bufferFor(mGeometry, placers);
        for (int i = 0; i < placers; ++i)
            writers.push_back(std::make_unique<SharedBits::Writer>(*shared, bufferNames));
        serverWriter.emplace(*shared, 4096); // the names that are not ASCII: few
        if (!log)
            return;
        // Each placing thread's lane through that thread's writer, on every core: the bitmap's fresh
        // pages are first written here (on one thread, 1.8M names took 0.42 s).
        std::vector<std::future<void>> moving;
        for (int i = 0; i < placers; ++i)
            moving.push_back(std::async(std::launch::async, [&, i] { log->orLaneInto(i, *writers[size_t(i)]); }));
        log->orLaneInto(placers, *serverWriter);
        for (auto &f : moving)
            f.get();
        log.reset();
    };
    NameBlock blocks[2];
    int readInto = 0;
    std::vector<QList<QByteArray>> setAside(static_cast<size_t>(placers));
    QList<QByteArray> notAscii;
    std::vector<std::future<void>> inFlight; // declared after what it uses: its destructor waits for it
    const auto pendingNames = [&]() -> qint64 { return dense ? placedNames : qint64(batch.names()); };
    const auto committedSoFar = [&] {
        if (report.batches == 0 && !report.partOfAStep)
            return QStringLiteral("nothing was written to %1").arg(mTable);
        if (dense)
            return QStringLiteral("%1 of the load's %2 steps (chunks in order) were committed to %3 before it%4; "
                                  "loading the same input again completes the load (adding a name twice changes "
                                  "nothing)")
                .arg(report.batches)
                .arg(LoadSteps)
                .arg(mTable)
                .arg(report.partOfAStep ? QStringLiteral(", and part of step %1").arg(report.batches + 1) : QString());
        return QStringLiteral("%1 names in %2 batch(es) were committed to %3 before it; loading the same input "
                              "again completes the load (adding a name twice changes nothing)")
            .arg(report.namesAdded)
            .arg(report.batches)
            .arg(mTable);
    };
    const auto failedWriting = [&](Status s) -> Error {
        Error e = s.error();
        if (e.kind == ErrorKind::Cancelled || cancelled())
            return makeError(ErrorKind::Cancelled,
                             QStringLiteral("load cancelled while writing; %1").arg(committedSoFar()));
        e.message += QStringLiteral(" (%1)").arg(committedSoFar());
        e.fix = report.batches == 0 && !report.partOfAStep && dense
                    ? QStringLiteral("fix the cause and run the load again")
                    : QStringLiteral("fix the cause and load the same input again");
        return e;
    };
    // The dense write. One UPDATE of every touched chunk leaves the table twice its packed size: each
    // row gets a new version and the old one is space that only VACUUM frees. A load that touches more
    // than a step's share of the table therefore writes in LoadSteps committed steps, chunks in order.
    // The table is vacuumed before the first step, and after each step on a connection of its own
    // while the next one is written (a VACUUM between the steps held both cores' UPDATEs up for 16-28 ms
    // a step): step s + 1 starts once the VACUUM after step s - 1 has ended, reuses the space it freed,
    // and the table grows by about two steps. Only the table's owner (or the
    // database's, or a superuser) may vacuum it; for anyone else the write is one transaction and the
    // report says the table grew.
    // A step's chunks are shared by mLoadConnections connections, each its own transaction: each takes
    // the next range of the step's chunks when it is done with one (ranges shrink towards the end of
    // the step, so the connections end together), and takes them in chunk order, so no two loaders
    // deadlock. One backend updating rows is CPU-bound; two on two cores took 1.1-1.2 s where one took
    // 1.5-1.9 s (131,072 rows). Every part of a step commits before the VACUUM after it starts, so that
    // VACUUM frees all of the step.
    const auto writeDense = [&](const MaskRowsSource &rows) -> Status {
        const quint32 chunks = mGeometry.chunks();
        int steps = 1;
        if (!mManagedTransaction && rows.touchedChunks() > qint64(chunks / LoadSteps)) {
            auto may = mayVacuum();
            if (!may)
                return may.error();
            report.vacuumRefused = !*may;
            steps = *may ? LoadSteps : 1;
        }
        const std::vector<std::unique_ptr<PgConn>> others =
            steps > 1 ? openLoadConnections(mLoadConnections - 1, &report.fewerConnections)
                      : std::vector<std::unique_ptr<PgConn>>{};
        report.connections = 1 + int(others.size());
        // The VACUUMs' own connection; without one (a connection limit) they run here, between the steps.
        QString noVacuumConnection;
        std::vector<std::unique_ptr<PgConn>> vacuumConnection =
            steps > 1 ? openLoadConnections(1, &noVacuumConnection) : std::vector<std::unique_ptr<PgConn>>{};
        PgConn *vacuumer = vacuumConnection.empty() ? nullptr : vacuumConnection.front().get();
        const QByteArray vacuumSql = QStringLiteral("vacuum %1").arg(mTable).toUtf8();
        const QString vacuumWhat = QStringLiteral("vacuuming %1 between the load's steps").arg(mTable);
        std::future<Status> vacuuming; // the VACUUM after the step before, running on `vacuumer`
        const auto vacuumNow = [&]() -> Status {
            QElapsedTimer t;
            t.start();
            Status s = success();
            if (vacuumer) {
                s = execCommand(vacuumer->handle(), vacuumSql.constData(), vacuumWhat);
            } else {
                QSqlQuery q(mDb.db());
                if (!q.exec(QString::fromUtf8(vacuumSql)))
                    s = Database::queryError(q, vacuumWhat);
            }
            report.vacuumSeconds += double(t.nsecsElapsed()) / 1e9;
            return s;
        };
        // Waits for the running VACUUM (stopping it on a cancel, or when `stop`); its time is what the
        // load waited.
        const auto vacuumDone = [&](bool stop) -> Status {
            if (!vacuuming.valid())
                return success();
            QElapsedTimer t;
            t.start();
            bool stopped = false;
            while (vacuuming.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
                if (!stopped && (stop || cancelled())) {
                    vacuumer->cancel();
                    stopped = true;
                }
            report.vacuumSeconds += double(t.nsecsElapsed()) / 1e9;
            return vacuuming.get();
        };
        const quint32 per = (chunks + quint32(steps) - 1) / quint32(steps);
        bool vacuumed = false;
        for (int step = 0; step < steps; ++step) {
            if (cancelled()) {
                (void)vacuumDone(true);
                return makeError(ErrorKind::Cancelled, QStringLiteral("load cancelled"));
            }
            const quint32 first = quint32(step) * per, end = qMin(chunks, first + per);
            if (rows.touchedIn(first, end) == 0)
                continue;
            if (steps > 1 && !vacuumed) { // the space of any earlier write, before the first step
                if (auto s = vacuumNow(); !s)
                    return s;
                vacuumed = true;
            }
            QElapsedTimer stepTimer;
            stepTimer.start();
            const size_t parts = 1 + others.size();
            const std::vector<std::pair<quint32, quint32>> ranges = stepRanges(first, end, int(parts));
            std::atomic<size_t> nextRange{parts}; // connection i starts with range i
            struct Part {
                Status status = success();
                qint64 updated = 0;
                double seconds = 0;
                std::vector<size_t> taken; // the ranges this part's transaction wrote
                size_t replay = 0;         // after a rewind: the next of `taken` to write again
            };
            std::vector<Part> done(parts);
            for (size_t i = 0; i < parts && i < ranges.size(); ++i)
                done[i].taken.push_back(i);
            const auto piecesOf = [&](size_t i) -> MaskPieces {
                Part &part = done[i];
                return {[&rows, &ranges, &nextRange, &part](MaskRows *out) {
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
                            *out = [&rows, from, to](const CopyPieceSink &sink) {
                                return rows.writeCopy(sink, 1 << 20, from, to);
                            };
                            return true;
                        },
                        [&part] { part.replay = 0; }};
            };
            // Part 0 on this session, part i on others[i - 1].
            std::vector<std::future<void>> running;
            for (size_t i = 1; i < parts; ++i)
                running.push_back(std::async(std::launch::async, [&, i] {
                    Status s = orMaskRows(others[i - 1]->handle(), true, mTable, piecesOf(i), &done[i].updated,
                                          &done[i].seconds);
                    if (!s && s.error().kind != ErrorKind::Cancelled) { // which of the load's connections failed
                        Error e = s.error();
                        e.message = QStringLiteral("the load's connection %1: %2").arg(i + 1).arg(e.message);
                        s = e;
                    }
                    done[i].status = s;
                }));
            done[0].status =
                orMaskRows(mDb.pgconn(), !mManagedTransaction, mTable, piecesOf(0), &done[0].updated, &done[0].seconds);
            // A cancel (or a failure here) stops the other parts' statements too.
            bool othersCancelled = false;
            for (auto &f : running)
                while (f.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
                    if (!othersCancelled && (cancelled() || !done[0].status)) {
                        for (const auto &c : others)
                            c->cancel();
                        othersCancelled = true;
                    }
            double slowest = 0;
            for (const Part &p : done) {
                report.chunksUpdated += p.updated;
                slowest = qMax(slowest, p.seconds);
            }
            report.updateSeconds += slowest;
            report.copySeconds += qMax(0.0, double(stepTimer.nsecsElapsed()) / 1e9 - slowest);
            // The first part that failed for its own reason, not because it was cancelled for another's.
            const Part *failed = nullptr;
            for (const Part &p : done)
                if (!p.status && (!failed || failed->status.error().kind == ErrorKind::Cancelled))
                    failed = &p;
            if (failed) {
                (void)vacuumDone(true);
                report.partOfAStep = std::any_of(done.begin(), done.end(), [](const Part &p) { return p.updated > 0; });
                return failed->status;
            }
            ++report.batches;
            if (steps > 1 && step + 1 < steps) {
                // The next step takes the space of the step before this one: wait for its VACUUM,
                // then free this step's while the next is written.
                if (auto s = vacuumDone(false); !s)
                    return s;
                if (vacuumer)
                    vacuuming = std::async(std::launch::async, [&] {
                        return execCommand(vacuumer->handle(), vacuumSql.constData(), vacuumWhat);
                    });
                else if (auto s = vacuumNow(); !s)
                    return s;
            }
        }
        // Every step is committed: the last VACUUM only freed the step before the last one (autovacuum
        // would too), so its failure does not make the load fail.
        (void)vacuumDone(false);
        report.namesAdded = rows.names();
        return success();
    };
    const auto stop = [&] {
        return makeError(
            ErrorKind::Cancelled,
            QStringLiteral("load cancelled after reading %1 lines; %2").arg(reader.linesRead()).arg(committedSoFar()));
    };
    // Waits for the block on the second thread and places its names that are not ASCII; a cancel
    // there is the load's cancel (what was written, how to complete it), not the lowering's.
    const auto finishPlacing = [&]() -> Status {
        for (auto &f : inFlight)
            f.get();
        inFlight.clear();
        for (auto &aside : setAside) {
            notAscii += aside;
            aside.clear();
        }
        if (notAscii.isEmpty())
            return success();
        auto lowered = place(notAscii);
        notAscii.clear();
        if (!lowered)
            return lowered.error().kind == ErrorKind::Cancelled || cancelled() ? stop() : lowered.error();
        for (const Placement &p : *lowered)
            if (log)
                log->add(placers, p);
            else
                serverWriter->add(p);
        return success();
    };
    const auto flush = [&]() -> Status {
        if (pendingNames() == 0)
            return success();
        if (dense) {
            QElapsedTimer wait; // the last block's placing and OR belong to read+place
            wait.start();
            if (auto s = finishPlacing(); !s)
                return s;
            if (log) {
                log->finish();
            } else {
                qint64 added = 0;
                for (auto &w : writers) {
                    w->flush();
                    added += w->added();
                }
                serverWriter->flush();
                bitmap->finishConcurrent(added + serverWriter->added());
            }
            report.readSeconds += double(wait.nsecsElapsed()) / 1e9;
            if (auto s = writeDense(log ? static_cast<const MaskRowsSource &>(*log) : *bitmap); !s)
                return failedWriting(s);
            return success();
        }
        QElapsedTimer flushTimer;
        flushTimer.start();
        qint64 updated = 0;
        const qint64 names = pendingNames();
        if (auto s = flushMasks([&](const CopySink &sink) { return batch.writeCopy(sink); }, &updated); !s)
            return failedWriting(s);
        report.updateSeconds += mLastUpdateSeconds;
        report.copySeconds += double(flushTimer.nsecsElapsed()) / 1e9 - mLastUpdateSeconds;
        report.namesAdded += names;
        report.chunksUpdated += updated;
        ++report.batches;
        batch.clear();
        return success();
    };
    QList<QByteArray> names;
    bool more = true;
    while (more) {
        if (cancelled())
            return stop();
        QElapsedTimer readTimer;
        readTimer.start();
        if (dense)
            more = reader.nextBlock(blocks[readInto]);
        else {
            names.clear();
            more = reader.next(100'000, names);
        }
        if (cancelled()) // an interrupted read looks like the end of input: write nothing partial
            return stop();
        if (dense) {
            if (auto s = finishPlacing(); !s)
                return s.error();
            const NameBlock &block = blocks[readInto];
            toBitmapIfLarge(block, placedNames == 0);
            readInto ^= 1; // the next read goes into the other block while this one is placed
            placedNames += qint64(block.names.size());
            const size_t n = block.names.size(), per = (n + size_t(placers) - 1) / size_t(placers);
            for (size_t i = 0; i < size_t(placers) && i * per < n; ++i)
                inFlight.push_back(
                    std::async(std::launch::async, [&, i, b = &block, from = i * per, to = qMin(n, (i + 1) * per)] {
                        std::vector<QByteArrayView> ascii;
                        ascii.reserve(to - from);
                        for (size_t j = from; j < to; ++j) {
                            if (b->names[j].ascii)
                                ascii.push_back(b->name(j));
                            else
                                setAside[i].append(b->name(j).toByteArray());
                        }
                        if (log)
                            log->addAscii(int(i), ascii.data(), qsizetype(ascii.size()));
                        else
                            writers[i]->addAscii(ascii.data(), qsizetype(ascii.size()));
                    }));
        } else {
            auto placed = place(names);
            if (!placed)
                return placed.error();
            for (const Placement &p : *placed)
                batch.add(p);
        }
        report.readSeconds += double(readTimer.nsecsElapsed()) / 1e9;
        if (!dense && batch.names() >= batchNames)
            if (auto s = flush(); !s)
                return s.error();
        if (progress)
            progress(LoadProgress{reader.linesRead(), report.namesAdded + pendingNames(),
                                  qint64(reader.badLines().size()), reader.bytesRead()});
    }
    if (auto s = flush(); !s)
        return s.error();
    report.lines = reader.linesRead();
    report.bad = reader.badLines();
    report.seconds = double(timer.nsecsElapsed()) / 1e9;
    return report;
}

} // namespace bloom
