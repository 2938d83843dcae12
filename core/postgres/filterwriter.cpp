#include "postgres/filterwriter.h"

#include "model/chunkdamage.h"

#include "postgres/identifier.h"
#include "postgres/pgarray.h"
#include "postgres/pgcopy.h"
#include "postgres/pgerror.h"

#include <QElapsedTimer>
#include <QThread>

#include <libpq-fe.h>

#include <memory>
#include <optional>

namespace bloom {

namespace {

using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

constexpr Oid TextArrayOid = 1009, TextOid = 25;

/** The planner settings of every write: a slice is read in chunk order by a nested loop over the
 *  primary key (rows are locked in chunk order: two writers never deadlock; no hash join is built),
 *  and work_mem holds a slice's unnested rows (at the default 4 MB each 2 MiB slice spilled to a
 *  temporary file: the function scan counts a 1 KiB mask as a 2 KiB allocation). The search_path is the
 *  session's own pin again, set for the transaction: behind a transaction pool the session sets none. */
const char *const SetUp = "set local enable_hashjoin = off; set local enable_mergejoin = off; "
                          "set local work_mem = '16MB'; set local search_path = pg_catalog, pg_temp";

} // namespace

MaskPieces MaskPieces::one(MaskRows rows)
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

FilterWriter::FilterWriter(WriteTarget target)
    : mTarget(std::move(target))
{
}

QString FilterWriter::orMasksStatement(const QString &table)
{
    // $2 is declared bit[] (oid 1561) by the client and not cast here: "::bit[]" means bit(1)[] and
    // would cut every mask to its first bit; uncast, a mask of another length is an error at the OR.
    // A NULL row is not written (NULL | mask is NULL): the rows-updated count then tells it.
    return QStringLiteral("update %1 f set bits = f.bits | m.mask "
                          "from rows from (unnest($1::int4[]), unnest($2)) m(chunk, mask) "
                          "where f.chunk = m.chunk and f.bits is not null")
        .arg(table);
}

QString FilterWriter::sqlText() const
{
    QString sql = QStringLiteral("begin;\n%1;\n")
                      .arg(QString::fromLatin1(SetUp).replace(QLatin1String("; "), QLatin1String(";\n")));
    if (mTarget.serving)
        sql += QStringLiteral("lock table %1 in row exclusive mode;\n"
                              "-- the guard, from the catalog: still the table attached; whether the helper schema "
                              "(%2 or %3, the one that may be trusted) records a rebuild of it, and its "
                              "bloomscope_record_names, owned by the filter's owner or a superuser\n"
                              "-- while one does:\n"
                              "select <its schema>.bloomscope_record_names('%1'::regclass, $names);\n")
                   .arg(mTarget.table, quoteIdent(helperSchemaFor(mTarget.liveSchema)), quoteIdent(mTarget.liveSchema));
    sql += orMasksStatement(mTarget.table) + QStringLiteral(";\ncommit;");
    return sql;
}

Result<FilterWriter::Guard> FilterWriter::readGuard(PGconn *pg) const
{
    // From the catalog, by schema and name: a role with no privilege on the helpers' schema may ask.
    return decideHelperTrust(pg, mTarget.table, mTarget.liveSchema);
}

Status FilterWriter::record(PGconn *pg, const Guard &g, const NameList *names, bool *forThisTable) const
{
    const QString recorder = g.quotedRecorder();
    const QByteArray sql = QStringLiteral("select %1($1::regclass, $2)").arg(recorder).toUtf8();
    const QByteArray oid = QByteArray::number(mTarget.tableOid);
    const auto call = [&](const char *records, qsizetype bytes, qint64 count) -> Status {
        // The records are already a binary text[]'s elements (NameList).
        BinaryArray array(TextOid);
        array.reserve(bytes);
        array.appendFields(records, bytes, count);
        const char *values[2] = {oid.constData(), array.data()};
        const int lengths[2] = {0, int(array.size())};
        const int formats[2] = {0, 1};
        const Oid types[2] = {0, TextArrayOid};
        ResultPtr r(PQexecParams(pg, sql.constData(), 2, types, values, lengths, formats, 0), &PQclear);
        if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1) {
            Error e = pg::errorOf(pg, r.get(),
                                  QStringLiteral("recording names for the rebuild of %1").arg(mTarget.tableText));
            if (e.sqlState == QLatin1String("42501"))
                e.fix = QStringLiteral("a rebuild of %1 is under way and records every name written meanwhile; "
                                       "this role may not call %2: the DBA who runs the rebuild grants it to the "
                                       "roles that may update the table (or write after the swap)")
                            .arg(mTarget.tableText, recorder);
            return e;
        }
        *forThisTable = PQgetvalue(r.get(), 0, 0)[0] == 't';
        return success();
    };
    if (!names || names->isEmpty())
        return call(nullptr, 0, 0);
    // Slices of at most RecordSliceNames names or RecordSliceBytes bytes (at least one name), each a row
    // of the pending table.
    const QByteArray &records = names->records();
    const char *p = records.constData(), *end = p + records.size();
    while (p < end) {
        const char *from = p;
        qint64 count = 0;
        while (p < end && count < RecordSliceNames && (count == 0 || p - from < RecordSliceBytes)) {
            p += 4 + NameList::recordLength(p);
            ++count;
        }
        if (auto s = call(from, p - from, count); !s)
            return s;
        if (!*forThisTable)
            return success(); // the rebuild is another table's
    }
    return success();
}

Error FilterWriter::lockError(Error e) const
{
    if (e.sqlState == QLatin1String("42501"))
        e.fix = QStringLiteral("every write locks %1 in ROW EXCLUSIVE mode first (so that a rebuild's set-up and "
                               "swap wait for it), which needs UPDATE on the table itself, not only on its bits "
                               "column: grant update on %1 to this role")
                    .arg(mTarget.tableText);
    return e;
}

Status FilterWriter::check(const Guard &g) const
{
    if (g.tableOid != mTarget.tableOid) {
        Error e = makeError(ErrorKind::Refused,
                            g.tableOid == 0
                                ? QStringLiteral("%1 is gone (dropped or renamed since it was read); nothing was "
                                                 "written")
                                      .arg(mTarget.tableText)
                                : QStringLiteral("%1 is another table than the one Bloomscope read (a swap renamed a "
                                                 "new filter in); nothing was written to it")
                                      .arg(mTarget.tableText),
                            QStringLiteral("attach to the filter again and write again: its geometry may differ"));
        e.retry = Error::Retry::Attach;
        return e;
    }
    if (!g.untrustedRecorder.isEmpty() && g.recorder == 0)
        return makeError(ErrorKind::Refused,
                         QStringLiteral("refusing to write to %1: a %2 function owned by role %3, which Bloomscope "
                                        "does not trust, stands where a rebuild's recorder would be; it was not "
                                        "called, and nothing was written")
                             .arg(mTarget.tableText, QString::fromLatin1(NameRecorderName), g.untrustedRecorder),
                         QStringLiteral("have the filter's owner or a superuser look at it and drop it"));
    if (g.rebuild && g.recorder == 0)
        return makeError(ErrorKind::Refused,
                         QStringLiteral("a rebuild is under way for the filters of schema %1 that records no names "
                                        "written by Bloomscope (it was started by an older version, or its recorder "
                                        "%2 was dropped): a name written now could be lost by its swap; nothing "
                                        "was written")
                             .arg(quoteIdent(mTarget.liveSchema), QString::fromLatin1(NameRecorderName)),
                         QStringLiteral("finish the rebuild ('bloomctl swap NEW') or remove it ('bloomctl rebuild "
                                        "--abort'), then write"));
    return success();
}

Status FilterWriter::apply(PGconn *pg, const Guard &g, WriteStats *stats) const
{
    if (auto s = check(g); !s)
        return s;
    if (g.recorder == 0)
        return success();
    bool forThisTable = false;
    if (mAhead && g.recorder == mAheadRecorder)
        return success(); // recorded ahead, into the same pending table
    if (!mAhead && mNames) {
        if (auto s = record(pg, g, mNames, &forThisTable); !s)
            return s;
        stats->recorded = forThisTable;
        return success();
    }
    if (auto s = record(pg, g, nullptr, &forThisTable); !s)
        return s;
    if (forThisTable)
        return makeError(ErrorKind::Refused,
                         QStringLiteral("a rebuild of %1 started while this write was under way, and the names of "
                                        "this write were not kept for it: nothing of this transaction was written")
                             .arg(mTarget.tableText),
                         QStringLiteral("run the same write again: it records its names for the rebuild (adding a "
                                        "name twice changes nothing)"));
    return success();
}

Error FilterWriter::damagedChunks(PGconn *pg, qint64 rows, qint64 updated) const
{
    // Which ones, for the message and its fix: the first few chunks with no row or a NULL one (a scan
    // of the key, on this failure only).
    const QByteArray sql = QStringLiteral("select c, f.chunk is null from pg_catalog.generate_series(0, $1::int - 1) c "
                                          "left join %1 f on f.chunk = c where f.bits is null order by c limit 5")
                               .arg(mTarget.table)
                               .toUtf8();
    const QByteArray chunks = QByteArray::number(mTarget.geometry.chunks());
    const char *values[1] = {chunks.constData()};
    ResultPtr r(PQexecParams(pg, sql.constData(), 1, nullptr, values, nullptr, nullptr, 0), &PQclear);
    ChunkDamage damage;
    if (PQresultStatus(r.get()) == PGRES_TUPLES_OK)
        for (int i = 0; i < PQntuples(r.get()); ++i) {
            const quint32 chunk = QByteArray(PQgetvalue(r.get(), i, 0)).toUInt();
            if (PQgetvalue(r.get(), i, 1)[0] == 't')
                damage.rowMissing(chunk);
            else
                damage.rowRead(chunk, true);
        }
    Error e = damage.error({mTarget.tableText, mTarget.table, mTarget.geometry});
    e.message = QStringLiteral("%1 of the %2 chunks this write touches have no usable row in %3, so nothing of "
                               "this write was committed%4")
                    .arg(QString::number(rows - updated), QString::number(rows), mTarget.tableText,
                         damage.empty() ? QString() : QStringLiteral(" (%1)").arg(damage.describe()));
    return e;
}

Status FilterWriter::recordAhead(PGconn *pg)
{
    mAhead = false;
    mAheadRecorder = 0;
    if (!mTarget.serving)
        return success();
    if (auto s = pg::script(pg, QStringLiteral("begin; lock table %1 in row exclusive mode").arg(mTarget.table),
                            QStringLiteral("locking %1").arg(mTarget.tableText));
        !s) {
        (void)pg::script(pg, QStringLiteral("rollback"), QStringLiteral("rolling back"));
        return lockError(s.error());
    }
    const auto rollback = [pg](Error e) {
        (void)pg::script(pg, QStringLiteral("rollback"), QStringLiteral("rolling back"));
        return e;
    };
    auto g = readGuard(pg);
    if (!g)
        return rollback(g.error());
    if (auto s = check(*g); !s)
        return rollback(s.error());
    if (g->recorder != 0 && mNames) {
        bool forThisTable = false;
        if (auto s = record(pg, *g, mNames, &forThisTable); !s)
            return rollback(s.error());
    }
    if (auto s = pg::script(pg, QStringLiteral("commit"), QStringLiteral("committing the recorded names")); !s)
        return s;
    mAhead = true;
    mAheadRecorder = g->recorder;
    return success();
}

Status FilterWriter::transaction(PGconn *pg, bool own, const MaskPieces &pieces, WriteStats *stats) const
{
    *stats = {};
    const QByteArray updateSql = orMasksStatement(mTarget.table).toUtf8();
    const QString setUp =
        QString::fromLatin1(SetUp) +
        (mTarget.serving ? QStringLiteral("; lock table %1 in row exclusive mode").arg(mTarget.table) : QString());
    for (int attempt = 1;; ++attempt) {
        std::optional<Error> failure;
        if (own)
            if (auto s = pg::script(pg, QStringLiteral("begin"),
                                    QStringLiteral("beginning a transaction on %1").arg(mTarget.tableText));
                !s)
                return s.error();
        if (auto s = pg::script(pg, setUp, QStringLiteral("setting up the write to %1").arg(mTarget.tableText)); !s)
            failure = lockError(s.error());
        if (!failure && mTarget.serving) {
            auto g = readGuard(pg);
            if (!g)
                failure = g.error();
            else if (auto s = apply(pg, *g, stats); !s)
                failure = s.error();
        }
        if (attempt > 1)
            pieces.rewind();
        MaskRows rows;
        while (!failure && pieces.next(&rows)) {
            auto done = updateFromMaskRows(pg, updateSql, rows);
            if (!done) {
                Error e = done.error();
                e.message = QStringLiteral("updating %1: %2").arg(mTarget.tableText, e.message);
                failure = e;
            } else {
                stats->seconds += done->serverSeconds;
                if (done->updated != done->rows)
                    failure = damagedChunks(pg, done->rows, done->updated);
                else
                    stats->updated += done->updated;
            }
        }
        if (!failure) {
            if (!own)
                return success();
            QElapsedTimer commit;
            commit.start();
            auto s = pg::script(pg, QStringLiteral("commit"),
                                QStringLiteral("committing the write to %1").arg(mTarget.tableText));
            if (s) {
                stats->seconds += double(commit.nsecsElapsed()) / 1e9;
                return success();
            }
            failure = s.error();
        }
        *stats = {};
        if (!own)
            return *failure; // the caller's transaction is aborted: it rolls back
        (void)pg::script(pg, QStringLiteral("rollback"), QStringLiteral("rolling back the write"));
        if (failure->retry != Error::Retry::Transaction || attempt >= 5)
            return *failure;
        QThread::msleep(20 * attempt); // OR is idempotent: the whole transaction is simply run again
    }
}

} // namespace bloom
