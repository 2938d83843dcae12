#include "postgres/filterstore.h"
#include "postgres/pgprepared.h"

#include "model/fprmodel.h"
#include "model/maskbatch.h"
#include "model/namereader.h"
#include "postgres/filtersql.h"
#include "postgres/pgarray.h"

#include <QElapsedTimer>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QUuid>

#include <algorithm>
#include <bit>
#include <cmath>

namespace bloom {

namespace {

constexpr qsizetype CheckBatch = 10000;
constexpr qsizetype LowerBatch = 10000;

} // namespace

// ---- FilterStore ----------------------------------------------------------------------------

FilterStore::FilterStore(Database &db, FilterRef ref)
    : mDb(db)
    , mRef(std::move(ref))
{
    auto table = db.resolve(mRef.table, QStringLiteral("--table"), Database::ObjectKind::Table);
    auto function = db.resolve(mRef.function, QStringLiteral("--function"), Database::ObjectKind::TextFunction);
    if (!table)
        mNameError = table.error();
    else if (!function)
        mNameError = function.error();
    else {
        mTableName = *table;
        mFunctionName = *function;
    }
    // An invalid name never reaches SQL: attach() and init() report it first.
    mTable = mNameError ? QStringLiteral("<invalid>") : mTableName.quoted();
    mFunction = mNameError ? QStringLiteral("<invalid>") : mFunctionName.quoted();
}

FilterStore::~FilterStore() = default;

Status FilterStore::requireAttached() const
{
    if (!mAttached)
        return makeError(ErrorKind::Usage, QStringLiteral("internal: the filter %1 is not attached").arg(mTable));
    return success();
}

Error FilterStore::cancelledError(const QString &what) const
{
    return makeError(ErrorKind::Cancelled, QStringLiteral("%1: cancelled").arg(what));
}

Result<QList<QByteArray>> FilterStore::serverLower(const QList<QByteArray> &names)
{
    QList<QByteArray> out;
    out.reserve(names.size());
    QSqlQuery q(mDb.db());
    q.setForwardOnly(true);
    for (qsizetype from = 0; from < names.size(); from += LowerBatch) {
        if (cancelled())
            return cancelledError(QStringLiteral("lowercasing names"));
        const qsizetype n = qMin(LowerBatch, names.size() - from);
        q.prepare(QString(lowerSql()).replace(QLatin1String("$1"), QLatin1String("?")));
        q.addBindValue(textArray(names, from, n));
        if (!q.exec())
            return Database::queryError(q, QStringLiteral("lowercasing names on the server"));
        while (q.next())
            out.append(q.value(0).toString().toUtf8());
    }
    if (out.size() != names.size())
        return makeError(ErrorKind::Server, QStringLiteral("the server lowercased %1 of %2 names")
                                                .arg(QString::number(out.size()), QString::number(names.size())));
    return out;
}

Result<QList<Placement>> FilterStore::place(const QList<QByteArray> &names, QList<Lowering> *how)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    QList<Placement> out(names.size());
    QList<QByteArray> nonAscii;
    QList<qsizetype> where;
    if (how)
        how->fill(Lowering::Ascii, names.size());
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (isAscii(names[i])) {
            out[i] = placeAscii(mGeometry, names[i]);
        } else {
            nonAscii.append(names[i]);
            where.append(i);
        }
    }
    if (!nonAscii.isEmpty()) {
        auto lowered = serverLower(nonAscii);
        if (!lowered)
            return lowered.error();
        for (qsizetype j = 0; j < where.size(); ++j) {
            out[where[j]] = placeLowered(mGeometry, lowered->at(j));
            if (how)
                (*how)[where[j]] = Lowering::Server;
        }
    }
    return out;
}

QString FilterStore::checkSql() const
{
    return QStringLiteral("select q.ord, f.chunk is not null, bool_or(f.bits is null),\n"
                          "  coalesce(bool_and(get_bit(f.bits, p.pos) = 1), false)\n"
                          "from unnest($1::int[]) with ordinality as q(chunk, ord)\n"
                          "left join %1 f on f.chunk = q.chunk\n"
                          "cross join lateral unnest(($2::int[])[(q.ord - 1) * %2 + 1 : q.ord * %2]) as p(pos)\n"
                          "group by q.ord, f.chunk order by q.ord")
        .arg(mTable, QString::number(mGeometry.k()));
}

Result<QList<bool>> FilterStore::answers(const QList<RowVerdict> &rows, const QList<Placement> &placements)
{
    if (rows.size() != placements.size())
        return makeError(ErrorKind::Server, QStringLiteral("the check returned %1 answers for %2 names")
                                                .arg(QString::number(rows.size()), QString::number(placements.size())));
    QList<bool> out;
    out.reserve(rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        switch (rows[i]) {
        case RowVerdict::Free:
            out.append(false);
            break;
        case RowVerdict::Maybe:
            out.append(true);
            break;
        case RowVerdict::NullRow:
        case RowVerdict::NoRow: // neither is "free": every name of the chunk may have been added
            noteDamage(placements[i].chunk, rows[i]);
            return ChunkDamage::chunkError(placements[i].chunk, rows[i] == RowVerdict::NullRow, damagedTable());
        }
    }
    return out;
}

void FilterStore::noteDamage(quint32 chunk, RowVerdict v)
{
    if (v == RowVerdict::NullRow)
        mDamage.rowRead(chunk, true);
    else if (v == RowVerdict::NoRow)
        mDamage.rowMissing(chunk);
}

Result<QList<RowVerdict>> FilterStore::rowVerdicts(const QList<Placement> &placements)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    if (placements.size() == 1) {
        auto v = rowOne(placements.first());
        if (!v)
            return v.error();
        return QList<RowVerdict>{*v};
    }
    // bench_store: the prepared check pipelined answers 1.6-1.7x the names a second of the reference
    // statement pipelined; one array query per 10,000 names, 0.8-0.9x.
    if (mDb.pgconn())
        return rowsPipelined(placements);
    return rowsArray(placements);
}

Result<QList<bool>> FilterStore::check(const QList<Placement> &placements)
{
    auto rows = rowVerdicts(placements);
    if (!rows)
        return rows.error();
    return answers(*rows, placements);
}

Result<QList<bool>> FilterStore::checkArray(const QList<Placement> &placements)
{
    auto rows = rowsArray(placements);
    if (!rows)
        return rows.error();
    return answers(*rows, placements);
}

Result<QList<bool>> FilterStore::checkPipelined(const QList<Placement> &placements)
{
    auto rows = rowsPipelined(placements);
    if (!rows)
        return rows.error();
    return answers(*rows, placements);
}

Result<QList<RowVerdict>> FilterStore::rowsArray(const QList<Placement> &placements)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    QList<RowVerdict> rows;
    rows.reserve(placements.size());
    const int k = mGeometry.k();
    QString sql = checkSql();
    sql.replace(QLatin1String("$1"), QLatin1String("?")).replace(QLatin1String("$2"), QLatin1String("?"));
    QSqlQuery q(mDb.db());
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return Database::queryError(q, QStringLiteral("preparing the check"));
    for (qsizetype from = 0; from < placements.size(); from += CheckBatch) {
        if (cancelled())
            return cancelledError(QStringLiteral("checking names"));
        const qsizetype n = qMin(CheckBatch, placements.size() - from);
        std::vector<qint64> chunks, positions;
        chunks.reserve(size_t(n));
        positions.reserve(size_t(n * k));
        for (qsizetype i = from; i < from + n; ++i) {
            chunks.push_back(placements[i].chunk);
            for (int j = 0; j < k; ++j)
                positions.push_back(placements[i].positions[size_t(j)]);
        }
        q.bindValue(0, intArray(chunks));
        q.bindValue(1, intArray(positions));
        if (!q.exec())
            return Database::queryError(q, QStringLiteral("checking names in %1").arg(mTable));
        while (q.next())
            rows.append(!q.value(1).toBool()  ? RowVerdict::NoRow
                        : q.value(2).toBool() ? RowVerdict::NullRow
                        : q.value(3).toBool() ? RowVerdict::Maybe
                                              : RowVerdict::Free);
    }
    if (rows.size() != placements.size())
        return makeError(ErrorKind::Server, QStringLiteral("the check returned %1 answers for %2 names")
                                                .arg(QString::number(rows.size()), QString::number(placements.size())));
    return rows;
}

Result<QList<RowVerdict>> FilterStore::rowsPipelined(const QList<Placement> &placements)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    PGconn *pg = mDb.pgconn();
    if (!pg)
        return rowsArray(placements);
    if (!mPreparedCheck)
        mPreparedCheck =
            std::make_unique<PreparedCheck>(pg, mTable, mGeometry.k(), mDb.pooling() == Pooling::Transaction);
    QList<RowVerdict> rows;
    rows.reserve(placements.size());
    for (qsizetype from = 0; from < placements.size(); from += CheckBatch) {
        if (cancelled())
            return cancelledError(QStringLiteral("checking names"));
        auto v = mPreparedCheck->checkPipelined(placements.mid(from, CheckBatch));
        if (!v)
            return v.error();
        rows.append(*v);
    }
    if (rows.size() != placements.size())
        return makeError(ErrorKind::Server, QStringLiteral("the check returned %1 answers for %2 names")
                                                .arg(QString::number(rows.size()), QString::number(placements.size())));
    return rows;
}

QString FilterStore::lowerSql()
{
    return QStringLiteral(
        "select lower(t.name) from unnest($1::text[]) with ordinality as t(name, ord) order by t.ord");
}

QString FilterStore::chunkBitsSql() const
{
    return QStringLiteral("select bits::text from %1 where chunk = $1").arg(mTable);
}

QString FilterStore::referenceCheckSql() const
{
    return QStringLiteral("select bits & mask = mask from %1 join %2($1) using (chunk)").arg(mTable, mFunction);
}

QString FilterStore::checkOneSql() const
{
    QStringList bits;
    for (int i = 0; i < mGeometry.k(); ++i)
        bits << QStringLiteral("get_bit(bits, $%1)").arg(i + 2);
    return QStringLiteral("select %1 = 1 as maybe_taken from %2 where chunk = $1")
        .arg(bits.join(QStringLiteral(" & ")), mTable);
}

Result<RowVerdict> FilterStore::rowOne(const Placement &p)
{
    // One indexed row read, one round trip: through libpq with binary parameters and result when the
    // connection has one (always, in practice), else Qt's prepared query.
    if (PGconn *pg = mDb.pgconn()) {
        if (!mPreparedCheck)
            mPreparedCheck =
                std::make_unique<PreparedCheck>(pg, mTable, mGeometry.k(), mDb.pooling() == Pooling::Transaction);
        return mPreparedCheck->check(p);
    }
    if (!mCheckOne) {
        QStringList bits;
        for (int i = 0; i < mGeometry.k(); ++i)
            bits << QStringLiteral("get_bit(bits, ?)");
        mCheckOne = std::make_unique<QSqlQuery>(mDb.db());
        mCheckOne->setForwardOnly(true);
        if (!mCheckOne->prepare(QStringLiteral("select %1 = 1 from %2 where chunk = ?")
                                    .arg(bits.join(QStringLiteral(" & ")), mTable))) {
            Error e = Database::queryError(*mCheckOne, QStringLiteral("preparing the check"));
            mCheckOne.reset();
            return e;
        }
    }
    QSqlQuery &q = *mCheckOne;
    for (int j = 0; j < p.k; ++j)
        q.bindValue(j, int(p.positions[size_t(j)]));
    q.bindValue(p.k, qint64(p.chunk));
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("checking a name in %1").arg(mTable));
    const RowVerdict v = !q.next()             ? RowVerdict::NoRow
                         : q.value(0).isNull() ? RowVerdict::NullRow
                         : q.value(0).toBool() ? RowVerdict::Maybe
                                               : RowVerdict::Free;
    q.finish();
    return v;
}

FilterWriter FilterStore::writer() const
{
    WriteTarget t;
    t.table = mTable;
    t.tableText = tableText();
    t.tableOid = tableOid();
    t.geometry = mGeometry;
    t.liveSchema = mTableName.schema;
    return FilterWriter(t);
}

Result<bool> FilterStore::rebuildRecording()
{
    // The write path's own decision (decideHelperTrust): a rebuild of this table is recorded in the
    // trusted helper schema. Nothing found by name elsewhere counts.
    auto trust = decideHelperTrust(mDb.pgconn(), mTable, mTableName.schema);
    if (!trust)
        return trust.error();
    return trust->rebuild;
}

QString FilterStore::addSql() const
{
    return writer().sqlText();
}

Result<qint64> FilterStore::write(const NameList &names, const QList<Placement> &placements, bool serving)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    if (auto s = mDb.requirePrimary(QStringLiteral("writing to %1").arg(tableText())); !s)
        return s.error();
    if (mDb.readOnly())
        return makeError(ErrorKind::Server, QStringLiteral("writing to %1: the session is read-only").arg(tableText()),
                         QStringLiteral("the session is read-only; switch to admin mode to write"));
    MaskBatch batch(mGeometry); // the names merged into one mask per chunk, in chunk order
    for (const Placement &p : placements)
        batch.add(p);
    if (batch.isEmpty())
        return qint64(0);
    const MaskRows rows = [&batch](const ByteSink &sink) { return batch.writeRows(sink); };
    FilterWriter w = writer();
    if (!serving) {
        WriteTarget t = w.target();
        t.serving = false;
        w = FilterWriter(t);
    }
    w.setNames(&names);
    WriteStats stats;
    if (auto s = w.transaction(mDb.pgconn(), !mManagedTransaction, MaskPieces::one(rows), &stats); !s)
        return s.error();
    mLastUpdateSeconds = stats.seconds;
    return stats.updated;
}

Result<qint64> FilterStore::add(const QList<QByteArray> &names)
{
    auto placed = place(names);
    if (!placed)
        return placed.error();
    return add(names, *placed);
}

Result<qint64> FilterStore::add(const QList<QByteArray> &names, const QList<Placement> &placements)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    if (cancelled())
        return cancelledError(QStringLiteral("adding names"));
    return write(NameList(names), placements, true);
}

Result<qint64> FilterStore::addToRebuilt(const QList<Placement> &placements)
{
    return write(NameList(), placements, false);
}

} // namespace bloom
