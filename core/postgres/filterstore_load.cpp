// FilterStore's bulk path: merged per-chunk masks, sent as array parameters, ordered row updates.
#include "common/testhook.h"
#include "model/chunkbitmap.h"
#include "model/maskbatch.h"
#include "model/name.h"
#include "model/namereader.h"
#include "model/placement.h"
#include "model/placementlog.h"
#include "postgres/bulkload.h"
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
                   .arg(QString::number(connections), fewerConnections);
    if (!noVacuumConnection.isEmpty())
        out << QStringLiteral("the VACUUMs between the load's steps ran %1").arg(noVacuumConnection);
    if (vacuumRefused)
        out << QStringLiteral(
                   "the load rewrote %1 rows of %2 in one step, since this role may not VACUUM it; the table "
                   "holds the old row versions until its owner runs VACUUM (or autovacuum does)")
                   .arg(QString::number(chunksUpdated), table);
    return out;
}

namespace {

/** The same server (a host list can lead elsewhere), database and table: "db|start time|oid". */
QByteArray identityOf(PGconn *pg, const QByteArray &table)
{
    const char *values[1] = {table.constData()};
    std::unique_ptr<PGresult, decltype(&PQclear)> r(
        PQexecParams(pg,
                     "select pg_catalog.current_database(), pg_catalog.pg_postmaster_start_time(), "
                     "pg_catalog.to_regclass($1)::oid",
                     1, nullptr, values, nullptr, nullptr, 0),
        &PQclear);
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1)
        return {};
    return QByteArray(PQgetvalue(r.get(), 0, 0)) + '|' + PQgetvalue(r.get(), 0, 1) + '|' + PQgetvalue(r.get(), 0, 2);
}

} // namespace

QByteArray FilterStore::loadIdentity()
{
    return identityOf(mDb.pgconn(), mTable.toUtf8());
}

std::vector<std::unique_ptr<PgConn>> FilterStore::openLoadConnections(int extra, const QByteArray &mine, QString *why,
                                                                      const std::atomic<bool> *abandon,
                                                                      int firstNumber) const
{
    std::vector<std::unique_ptr<PgConn>> out;
    if (extra <= 0)
        return out;
    if (mDb.pooling() == Pooling::Transaction) { // a PgConn's pinned search_path is the session's
        *why = QStringLiteral("connection %1 was not opened: behind a transaction pool the load writes on its own "
                              "session, whose transactions set what they need locally")
                   .arg(firstNumber);
        return out;
    }
    const QString conninfo = Database::sessionSpec(mDb.spec(), mDb.options()).toConninfo();
    const QByteArray table = mTable.toUtf8();
    for (int i = 0; i < extra; ++i) {
        // Each may take LoadConnectionWaitMs to be usable: a pooler's queue (PgBouncer in session mode
        // with a full pool) would otherwise hold the load until its query_wait_timeout.
        auto conn =
            std::make_unique<PgConn>(conninfo, PgConn::SearchPath::Pinned, PgConn::Wait{LoadConnectionWaitMs, abandon});
        if (!conn->ok()) {
            *why = QStringLiteral("connection %1 was refused (%2)")
                       .arg(QString::number(firstNumber + i), conn->errorMessage().trimmed());
            break;
        }
        // A read-only session's second connection is read-only too: it must not write what this one may not.
        if (mDb.readOnly())
            if (auto s = conn->exec(QStringLiteral("set default_transaction_read_only = on")); !s) {
                *why = QStringLiteral("connection %1: %2").arg(QString::number(firstNumber + i), s.error().message);
                break;
            }
        if (mine.isEmpty() || identityOf(conn->handle(), table) != mine) {
            *why = QStringLiteral("connection %1 reached another server or table").arg(firstNumber + i);
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
    if (auto s = mDb.requirePrimary(QStringLiteral("loading names into %1").arg(mTable)); !s)
        return s.error();
    if (mDb.readOnly())
        return makeError(ErrorKind::Server,
                         QStringLiteral("loading names into %1: the session is read-only").arg(mTable),
                         QStringLiteral("the session is read-only; switch to admin mode to write"));
    QElapsedTimer timer;
    timer.start();
    NameReader reader(in);
    LoadReport report;
    // A filter that fits in memory (the reference's is 128 MiB) is loaded densely: every name is read
    // before anything is written, and each touched chunk is written once, in one transaction or in
    // LoadSteps committed steps (DenseWrite). Larger ones are loaded in committed batches of
    // `batchNames` names. A rerun of the same input completes an interrupted load (adding a name twice
    // changes nothing).
    const bool dense = ChunkBitmap::bytesFor(mGeometry) <= MaxDenseLoadBytes;
    // While a rebuild records names, the load's names go to its pending table: a dense load's ahead
    // of its steps (FilterWriter::recordAhead), a batch's with it. The names are kept only then (a
    // rebuild that starts during the load stops it instead: the write path refuses to lose them).
    FilterWriter writer = this->writer();
    auto recording = rebuildRecording();
    if (!recording)
        return recording.error();
    NameList kept;
    writer.setNames(*recording || !dense ? &kept : nullptr);
    const auto committedSoFar = [&] {
        if (report.batches == 0 && !report.partOfAStep)
            return QStringLiteral("nothing was written to %1").arg(mTable);
        if (dense)
            return QStringLiteral("%1 of the load's %2 steps (chunks in order) were committed to %3 before it%4; "
                                  "loading the same input again completes the load (adding a name twice changes "
                                  "nothing)")
                .arg(QString::number(report.batches), QString::number(LoadSteps), mTable,
                     report.partOfAStep ? QStringLiteral(", and part of step %1").arg(report.batches + 1) : QString());
        return QStringLiteral("%1 names in %2 batch(es) were committed to %3 before it; loading the same input "
                              "again completes the load (adding a name twice changes nothing)")
            .arg(QString::number(report.namesAdded), QString::number(report.batches), mTable);
    };
    const auto stop = [&] {
        return makeError(ErrorKind::Cancelled, QStringLiteral("load cancelled after reading %1 lines; %2")
                                                   .arg(QString::number(reader.linesRead()), committedSoFar()));
    };
    const auto failed = [&](const Error &cause) -> Error {
        if (cause.kind == ErrorKind::Cancelled || cancelled())
            return makeError(ErrorKind::Cancelled,
                             QStringLiteral("load cancelled while writing; %1").arg(committedSoFar()));
        Error e = cause;
        e.message += QStringLiteral(" (%1)").arg(committedSoFar());
        if (e.fix.isEmpty())
            e.fix = report.batches == 0 && !report.partOfAStep && dense
                        ? QStringLiteral("fix the cause and run the load again")
                        : QStringLiteral("fix the cause and load the same input again");
        return e;
    };
    const auto progressNow = [&](qint64 pending) {
        if (progress)
            progress(LoadProgress{reader.linesRead(), report.namesAdded + pending, reader.badLineCount(),
                                  reader.bytesRead()});
    };

    if (dense) {
        NameBlock blocks[2]; // before the placer: its destructor waits for the threads that read them
        int readInto = 0;    // the next read goes into the other block while this one is placed
        DensePlacer placer(*this, in, *recording ? &kept : nullptr);
        for (bool more = true; more;) {
            if (cancelled())
                return stop();
            QElapsedTimer readTimer;
            readTimer.start();
            more = reader.nextBlock(blocks[readInto]);
            if (cancelled()) // an interrupted read looks like the end of input: write nothing partial
                return stop();
            if (auto s = placer.place(blocks[readInto], placer.placedNames() == 0); !s)
                return s.error().kind == ErrorKind::Cancelled || cancelled() ? stop() : s.error();
            readInto ^= 1;
            report.readSeconds += double(readTimer.nsecsElapsed()) / 1e9;
            progressNow(placer.placedNames());
        }
        if (placer.placedNames() > 0) {
            QElapsedTimer wait; // the last block's placing and OR belong to read+place
            wait.start();
            if (auto s = placer.finish(); !s)
                return s.error().kind == ErrorKind::Cancelled || cancelled() ? stop() : s.error();
            report.readSeconds += double(wait.nsecsElapsed()) / 1e9;
            pauseForTests("load-write", mCancelFlag);
            if (*recording && !mManagedTransaction) { // in the caller's transaction, the names go with the write
                QElapsedTimer recordTimer;
                recordTimer.start();
                if (auto s = writer.recordAhead(mDb.pgconn()); !s)
                    return failed(s.error());
                report.recordSeconds = double(recordTimer.nsecsElapsed()) / 1e9;
                report.recordedNames = kept.size();
            }
            if (auto s = DenseWrite(*this, writer, placer.rows(), report).run(); !s)
                return failed(s.error());
        }
    } else {
        MaskBatch batch(mGeometry);
        const auto flush = [&]() -> Status {
            if (batch.isEmpty())
                return success();
            QElapsedTimer flushTimer;
            flushTimer.start();
            WriteStats stats;
            if (auto s = writer.transaction(
                    mDb.pgconn(), !mManagedTransaction,
                    MaskPieces::one([&](const ByteSink &sink) { return batch.writeRows(sink); }), &stats);
                !s)
                return failed(s.error());
            report.updateSeconds += stats.seconds;
            report.copySeconds += double(flushTimer.nsecsElapsed()) / 1e9 - stats.seconds;
            report.namesAdded += batch.names();
            report.chunksUpdated += stats.updated;
            ++report.batches;
            batch.clear();
            kept.clear();
            return success();
        };
        QList<QByteArray> names;
        for (bool more = true; more;) {
            if (cancelled())
                return stop();
            QElapsedTimer readTimer;
            readTimer.start();
            names.clear();
            more = reader.next(100'000, names);
            if (cancelled())
                return stop();
            auto placed = place(names);
            if (!placed)
                return placed.error();
            for (const Placement &p : *placed)
                batch.add(p);
            for (const QByteArray &n : names)
                kept.append(n);
            report.readSeconds += double(readTimer.nsecsElapsed()) / 1e9;
            if (batch.names() >= batchNames)
                if (auto s = flush(); !s)
                    return s.error();
            progressNow(batch.names());
        }
        if (auto s = flush(); !s)
            return s.error();
    }
    report.lines = reader.linesRead();
    report.bad = reader.badLines();
    report.badCount = reader.badLineCount();
    report.seconds = double(timer.nsecsElapsed()) / 1e9;
    return report;
}

} // namespace bloom
