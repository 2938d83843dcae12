// FilterStore's bulk path: merged per-chunk masks, binary COPY, one ordered UPDATE per batch.
#include "filterstore.h"
#include "namereader.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSqlQuery>
#include <QThread>

#include <libpq-fe.h>

#include <memory>

namespace bloom {

namespace {

void putBe16(QByteArray &out, quint16 v)
{
    const char b[2] = {char(v >> 8), char(v)};
    out.append(b, 2);
}

void putBe32(QByteArray &out, quint32 v)
{
    const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    out.append(b, 4);
}

/** Sends `data` into a COPY ... FROM STDIN that is already running; returns libpq's error or empty. */
QString copyIn(PGconn *pg, const QString &copySql, const QByteArray &data)
{
    std::unique_ptr<PGresult, decltype(&PQclear)> start(PQexec(pg, copySql.toUtf8().constData()), &PQclear);
    if (PQresultStatus(start.get()) != PGRES_COPY_IN)
        return QString::fromUtf8(PQresultErrorMessage(start.get())).trimmed();
    constexpr qsizetype Piece = 1 << 20;
    for (qsizetype at = 0; at < data.size(); at += Piece) {
        if (PQputCopyData(pg, data.constData() + at, int(qMin(Piece, data.size() - at))) != 1)
            return QString::fromUtf8(PQerrorMessage(pg)).trimmed();
    }
    if (PQputCopyEnd(pg, nullptr) != 1)
        return QString::fromUtf8(PQerrorMessage(pg)).trimmed();
    QString error;
    while (PGresult *r = PQgetResult(pg)) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && error.isEmpty())
            error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
        PQclear(r);
    }
    return error;
}

} // namespace

Status FilterStore::flushMasks(const std::vector<std::pair<quint32, QByteArray>> &masks, qint64 *updated)
{
    *updated = 0;
    if (masks.empty())
        return success();
    // Binary COPY: header, then per row: 2 fields, int4 chunk, bit(B) as (int32 length in bits, bytes).
    QByteArray data;
    data.reserve(qsizetype(masks.size()) * (masks.front().second.size() + 18) + 21);
    data.append("PGCOPY\n\377\r\n\0", 11);
    putBe32(data, 0);
    putBe32(data, 0);
    for (const auto &[chunk, mask] : masks) {
        putBe16(data, 2);
        putBe32(data, 4);
        putBe32(data, chunk);
        putBe32(data, quint32(4 + mask.size()));
        putBe32(data, mGeometry.chunkBits());
        data.append(mask);
    }
    putBe16(data, 0xFFFF);

    const QString lockSql =
        QStringLiteral("select count(*) from (select 1 from %1 f where f.chunk in (select chunk from "
                       "pg_temp.bloomscope_load) order by f.chunk for update of f) locked")
            .arg(mTable);
    const QString updateSql = QStringLiteral("update %1 f set bits = f.bits | l.mask from pg_temp.bloomscope_load l "
                                             "where f.chunk = l.chunk")
                                  .arg(mTable);
    for (int attempt = 1;; ++attempt) {
        QSqlDatabase &db = mDb.db();
        if (!db.transaction())
            return makeError(ErrorKind::Connection, QStringLiteral("cannot begin a transaction on %1").arg(mTable));
        QSqlQuery q(db);
        Error failure;
        bool failed = false;
        const auto fail = [&](Error e) {
            failure = std::move(e);
            failed = true;
        };
        if (!q.exec(QStringLiteral("create temp table bloomscope_load (chunk int, mask bit(%1)) on commit drop")
                        .arg(mGeometry.chunkBits())))
            fail(Database::queryError(q, QStringLiteral("creating the load table")));
        if (!failed) {
            q.finish();
            const QString err = copyIn(mDb.pgconn(),
                                       QStringLiteral("copy pg_temp.bloomscope_load from stdin "
                                                      "(format binary)"),
                                       data);
            if (!err.isEmpty())
                fail(
                    err.contains(QLatin1String("canceling statement"))
                        ? makeError(ErrorKind::Cancelled, QStringLiteral("load cancelled"))
                        : makeError(ErrorKind::Server, QStringLiteral("COPY into the load table failed: %1").arg(err)));
        }
        // Lock the target rows in chunk order, so concurrent loaders never deadlock on each other.
        if (!failed && !q.exec(lockSql))
            fail(Database::queryError(q, QStringLiteral("locking chunks of %1").arg(mTable)));
        q.finish();
        if (!failed && !q.exec(updateSql))
            fail(Database::queryError(q, QStringLiteral("updating %1").arg(mTable)));
        if (!failed && q.numRowsAffected() != qint64(masks.size()))
            fail(makeError(ErrorKind::ForeignFilter,
                           QStringLiteral("%1 of %2 chunks of the batch have a row in %3")
                               .arg(q.numRowsAffected())
                               .arg(masks.size())
                               .arg(mTable),
                           QStringLiteral("restore the missing chunk rows; nothing of this batch was written")));
        if (!failed) {
            *updated = q.numRowsAffected();
            q.finish();
            if (db.commit())
                return success();
            fail(makeError(ErrorKind::Server, QStringLiteral("commit of the batch failed")));
        }
        q.finish();
        db.rollback();
        const bool retry = failure.message.contains(QLatin1String("deadlock detected")) ||
                           failure.message.contains(QLatin1String("could not serialize"));
        if (!retry || attempt >= 5)
            return failure;
        QThread::msleep(20 * attempt); // OR is idempotent: the whole batch is simply run again
    }
}

Result<LoadReport> FilterStore::load(QIODevice *in, const ProgressFn &progress, qsizetype batchNames)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    QElapsedTimer timer;
    timer.start();
    NameReader reader(in);
    LoadReport report;
    QList<Placement> pending;
    QList<QByteArray> names;
    const auto flush = [&]() -> Status {
        if (pending.isEmpty())
            return success();
        auto updated = addBulk(pending);
        if (!updated)
            return updated.error();
        report.namesAdded += pending.size();
        report.chunksUpdated += *updated;
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
        names.clear();
        more = reader.next(100'000, names);
        if (cancelled()) // an interrupted read looks like the end of input: do not flush a partial batch
            return stop();
        auto placed = place(names);
        if (!placed)
            return placed.error();
        pending.append(*placed);
        if (pending.size() >= batchNames || !more) {
            if (auto s = flush(); !s)
                return s.error();
        }
        if (progress)
            progress(LoadProgress{reader.linesRead(), report.namesAdded + pending.size(),
                                  qint64(reader.badLines().size()), reader.bytesRead()});
    }
    report.lines = reader.linesRead();
    report.bad = reader.badLines();
    report.seconds = double(timer.nsecsElapsed()) / 1e9;
    return report;
}

} // namespace bloom
