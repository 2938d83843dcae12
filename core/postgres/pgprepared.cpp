#include "postgres/pgprepared.h"
#include "postgres/pgerror.h"

#include <libpq-fe.h>

#include <QtEndian>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace bloom {

namespace {

constexpr Oid Int4Oid = 23;

using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

Error pqError(PGconn *pg, const PGresult *r, const QString &what)
{
    return pg::errorOf(pg, r, what);
}

/** The k + 1 binary int4 parameters of one check: the chunk, then the positions. */
struct Params {
    explicit Params(const Placement &p)
    {
        n = p.k + 1;
        values[0] = qToBigEndian(qint32(p.chunk));
        for (int j = 0; j < p.k; ++j)
            values[j + 1] = qToBigEndian(qint32(p.positions[size_t(j)]));
        for (int j = 0; j < n; ++j) {
            pointers[j] = reinterpret_cast<const char *>(&values[j]);
            lengths[j] = 4;
            formats[j] = 1;
        }
    }
    int n;
    qint32 values[Geometry::MaxK + 1];
    const char *pointers[Geometry::MaxK + 1];
    int lengths[Geometry::MaxK + 1];
    int formats[Geometry::MaxK + 1];
};

Result<RowVerdict> verdict(PGconn *pg, const PGresult *r, const QString &what)
{
    if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_SINGLE_TUPLE)
        return pqError(pg, r, what);
    if (PQntuples(r) == 0)
        return RowVerdict::NoRow;
    if (PQgetisnull(r, 0, 0)) // get_bit() of a NULL row is NULL: no answer, never "free"
        return RowVerdict::NullRow;
    return PQgetlength(r, 0, 0) == 1 && *PQgetvalue(r, 0, 0) != 0 ? RowVerdict::Maybe : RowVerdict::Free;
}

} // namespace

PreparedCheck::PreparedCheck(PGconn *pg, const QString &table, int k, bool unnamed)
    : mPg(pg)
    , mK(k)
    , mUnnamed(unnamed)
    , mTypes(size_t(k + 1), Int4Oid)
{
    static std::atomic<int> serial{0};
    mName = "bloomscope_check_" + QByteArray::number(++serial);
    QByteArrayList bits;
    for (int i = 0; i < k; ++i)
        bits << "get_bit(bits, $" + QByteArray::number(i + 2) + ')';
    mSql = "select " + bits.join(" & ") + " = 1 from " + table.toUtf8() + " where chunk = $1";
    mWhat = QStringLiteral("checking a name in %1").arg(table);
}

PreparedCheck::~PreparedCheck()
{
    // Free the statement on a connection that lives on (a swap re-attaches on the same session).
    if (mPrepared && PQstatus(mPg) == CONNECTION_OK && PQtransactionStatus(mPg) == PQTRANS_IDLE)
        PQclear(PQexec(mPg, ("deallocate " + mName).constData()));
}

Status PreparedCheck::prepare()
{
    if (mPrepared || mUnnamed)
        return success();
    ResultPtr r(PQprepare(mPg, mName.constData(), mSql.constData(), mK + 1, mTypes.data()), &PQclear);
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK)
        return pqError(mPg, r.get(), QStringLiteral("preparing the check on %1").arg(QString::fromUtf8(mSql)));
    mPrepared = true;
    return success();
}

Result<RowVerdict> PreparedCheck::check(const Placement &p)
{
    if (auto s = prepare(); !s)
        return s.error();
    const Params params(p);
    ResultPtr r(mUnnamed ? PQexecParams(mPg, mSql.constData(), params.n, mTypes.data(), params.pointers, params.lengths,
                                        params.formats, /*resultFormat=*/1)
                         : PQexecPrepared(mPg, mName.constData(), params.n, params.pointers, params.lengths,
                                          params.formats, /*resultFormat=*/1),
                &PQclear);
    return verdict(mPg, r.get(), mWhat);
}

Result<QList<RowVerdict>> PreparedCheck::checkPipelined(const QList<Placement> &placements, int window)
{
    if (auto s = prepare(); !s)
        return s.error();
    QList<RowVerdict> out;
    out.reserve(placements.size());
    if (PQenterPipelineMode(mPg) != 1)
        return pqError(mPg, nullptr, QStringLiteral("entering pipeline mode"));
    std::optional<Error> failure;
    for (qsizetype from = 0; from < placements.size() && !failure; from += window) {
        const qsizetype n = qMin<qsizetype>(window, placements.size() - from);
        for (qsizetype i = from; i < from + n; ++i) {
            const Params params(placements[i]);
            const int sent = mUnnamed ? PQsendQueryParams(mPg, mSql.constData(), params.n, mTypes.data(),
                                                          params.pointers, params.lengths, params.formats, 1)
                                      : PQsendQueryPrepared(mPg, mName.constData(), params.n, params.pointers,
                                                            params.lengths, params.formats, 1);
            if (sent != 1) {
                failure = pqError(mPg, nullptr, QStringLiteral("sending a check"));
                break;
            }
        }
        // Sync even after a failed send: the answers read below end at the sync.
        if (PQpipelineSync(mPg) != 1) {
            failure = pqError(mPg, nullptr, QStringLiteral("syncing the checks"));
            break;
        }
        // Read every answer up to the sync (each query's result, then its NULL), whatever failed. A
        // query may answer row by row: QPSQL runs a forward-only QSqlQuery in single-row mode, and
        // libpq turns that mode off only when the next query outside a pipeline starts, so after such
        // a read the pipeline's first check comes as its row (PGRES_SINGLE_TUPLE), then an empty
        // PGRES_TUPLES_OK that ends it.
        RowVerdict row = RowVerdict::NoRow;
        bool rowAlone = false; // `row` came as PGRES_SINGLE_TUPLE: its query ends with an empty result
        for (;;) {
            PGresult *raw = PQgetResult(mPg);
            if (!raw) {
                if (PQstatus(mPg) != CONNECTION_OK) {
                    failure = pqError(mPg, nullptr, QStringLiteral("checking names"));
                    break;
                }
                continue; // the end of one query's results
            }
            ResultPtr r(raw, &PQclear);
            const ExecStatusType st = PQresultStatus(raw);
            if (st == PGRES_PIPELINE_SYNC)
                break;
            if (st == PGRES_PIPELINE_ABORTED)
                continue;
            auto v = verdict(mPg, raw, mWhat);
            if (!v) {
                if (!failure)
                    failure = v.error();
                rowAlone = false;
                continue;
            }
            if (st == PGRES_SINGLE_TUPLE) {
                row = *v;
                rowAlone = true;
                continue;
            }
            out.append(rowAlone ? row : *v);
            rowAlone = false;
        }
    }
    PQexitPipelineMode(mPg);
    if (failure)
        return *failure;
    return out;
}

} // namespace bloom
