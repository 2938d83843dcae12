#include "postgres/filterstore.h"

#include "model/fprmodel.h"
#include "model/maskbatch.h"
#include "model/namereader.h"
#include "postgres/filtersql.h"

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

/** A text[] literal: {"a","b\"c"}; names hold no NUL (validated). */
QString textArray(const QList<QByteArray> &items, qsizetype from, qsizetype count)
{
    QByteArray out = "{";
    for (qsizetype i = from; i < from + count; ++i) {
        if (i > from)
            out += ',';
        out += '"';
        for (char c : items[i]) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        out += '"';
    }
    out += '}';
    return QString::fromUtf8(out);
}

QString intArray(const std::vector<qint64> &values)
{
    QString out;
    out.reserve(qsizetype(values.size()) * 6 + 2);
    out += QLatin1Char('{');
    for (size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += QLatin1Char(',');
        out += QString::number(values[i]);
    }
    out += QLatin1Char('}');
    return out;
}

QString bitsText(const QList<int> &bits)
{
    QStringList s;
    for (int b : bits)
        s << QString::number(b);
    return QLatin1Char('{') + s.join(QLatin1Char(',')) + QLatin1Char('}');
}

} // namespace

QList<QByteArray> probeNames()
{
    // Mixed case on purpose: a function that skips lower() must fail the probe.
    QList<QByteArray> names{"ada", "Grace", "ALAN", "bjarne", "Edsger", "barbara", "DonaldK", "frances"};
    for (int i = 0; i < 24; ++i)
        names.append("bloomscope-probe-" + QByteArray::number(i));
    return names;
}

// ---- FillSnapshot ---------------------------------------------------------------------------

quint64 FillSnapshot::totalSetBits() const
{
    quint64 sum = 0;
    for (quint32 s : setBits)
        sum += s;
    return sum;
}

double FillSnapshot::meanFill() const
{
    return setBits.empty() ? 0.0 : double(totalSetBits()) / (double(setBits.size()) * geometry.chunkBits());
}

double FillSnapshot::estimatedFpr() const
{
    return fpr::fromFill(setBits, geometry.chunkBits(), geometry.k());
}

double FillSnapshot::estimatedNames() const
{
    return fpr::estimateNames(setBits, geometry.chunkBits(), geometry.k());
}

quint32 FillSnapshot::minSetBits() const
{
    return setBits.empty() ? 0 : *std::min_element(setBits.begin(), setBits.end());
}

quint32 FillSnapshot::maxSetBits() const
{
    return setBits.empty() ? 0 : *std::max_element(setBits.begin(), setBits.end());
}

// ---- FilterStore ----------------------------------------------------------------------------

FilterStore::FilterStore(Database &db, FilterRef ref)
    : mDb(db)
    , mRef(std::move(ref))
    , mTable(db.quoteIdentifier(mRef.table))
    , mFunction(db.quoteIdentifier(mRef.function))
{
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

Result<std::pair<bool, bool>> FilterStore::tableAndFunctionExist()
{
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("select to_regclass(?) is not null, to_regprocedure(? || '(text)') is not null"));
    q.addBindValue(mTable);
    q.addBindValue(mFunction);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("looking for %1").arg(mTable));
    return std::pair{q.value(0).toBool(), q.value(1).toBool()};
}

Status FilterStore::init(const Geometry &g)
{
    auto exist = tableAndFunctionExist();
    if (!exist)
        return exist.error();
    if (exist->first)
        return makeError(ErrorKind::Usage, QStringLiteral("table %1 already exists; init never overwrites").arg(mTable),
                         QStringLiteral("choose another name with --table, or attach to the existing filter"));
    if (exist->second)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("function %1(text) already exists; init never overwrites").arg(mFunction),
                         QStringLiteral("choose another name with --function"));
    if (!mDb.db().transaction())
        return makeError(ErrorKind::Server, QStringLiteral("cannot begin a transaction"));
    const QString comment = QStringLiteral("bloomscope filter: chunks=%1 chunk_bits=%2 k=%3 function=%4 created=%5")
                                .arg(g.chunks())
                                .arg(g.chunkBits())
                                .arg(g.k())
                                .arg(mRef.function, QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    // A utility statement takes no parameters: the comment is our own text, quoted as a literal.
    const QString literal =
        QLatin1Char('\'') + QString(comment).replace(QLatin1Char('\''), QStringLiteral("''")) + QLatin1Char('\'');
    QSqlQuery create(mDb.db());
    if (!create.exec(renderFilterSql(g, mTable, mFunction)) ||
        !create.exec(QStringLiteral("comment on table %1 is %2").arg(mTable, literal))) {
        Error e = Database::queryError(create, QStringLiteral("creating %1").arg(mTable));
        mDb.db().rollback();
        return e;
    }
    if (!mDb.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit failed while creating %1").arg(mTable));
    return attach();
}

Status FilterStore::attach()
{
    mAttached = false;
    if (auto s = discover(); !s)
        return s;
    mAttached = true;
    return success();
}

Status FilterStore::discover()
{
    auto exist = tableAndFunctionExist();
    if (!exist)
        return exist.error();
    if (!exist->first)
        return makeError(ErrorKind::MissingFilter,
                         QStringLiteral("there is no table %1 in %2").arg(mTable, mDb.spec().describe()),
                         QStringLiteral("check --table and --db, or create the filter with 'bloomctl init'"));
    if (!exist->second)
        return makeError(ErrorKind::MissingFilter,
                         QStringLiteral("there is no function %1(text) in %2").arg(mFunction, mDb.spec().describe()),
                         QStringLiteral("check --function, or create the filter with 'bloomctl init'"));

    QSqlQuery q(mDb.db());
    // Columns: chunk integer and bits bit(B).
    q.prepare(QStringLiteral("select a.attname, format_type(a.atttypid, a.atttypmod), a.atttypid::regtype::text, "
                             "a.atttypmod from pg_attribute a where a.attrelid = to_regclass(?) and a.attnum > 0 "
                             "and not a.attisdropped order by a.attnum"));
    q.addBindValue(mTable);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the columns of %1").arg(mTable));
    QString chunkType, bitsType;
    qint64 bitLength = -1;
    QStringList columns;
    while (q.next()) {
        const QString name = q.value(0).toString();
        columns << name + QLatin1Char(' ') + q.value(1).toString();
        if (name == QLatin1String("chunk"))
            chunkType = q.value(2).toString();
        else if (name == QLatin1String("bits")) {
            bitsType = q.value(2).toString();
            bitLength = q.value(3).toLongLong();
        }
    }
    const QString found = columns.join(QStringLiteral(", "));
    if (chunkType != QLatin1String("integer") && chunkType != QLatin1String("bigint") &&
        chunkType != QLatin1String("smallint"))
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("table %1 has no integer column 'chunk' (it has: %2)").arg(mTable, found),
                         QStringLiteral("a filter table is (chunk int primary key, bits bit(N) not null)"));
    if (bitsType != QLatin1String("bit") || bitLength <= 0)
        return makeError(
            ErrorKind::ForeignFilter,
            QStringLiteral("table %1 has no fixed-length column 'bits bit(N)' (it has: %2)").arg(mTable, found),
            QStringLiteral("a filter table is (chunk int primary key, bits bit(N) not null)"));

    if (!q.exec(QStringLiteral("select count(*), min(chunk), max(chunk) from %1").arg(mTable)) || !q.next())
        return Database::queryError(q, QStringLiteral("counting the rows of %1").arg(mTable));
    const qint64 rows = q.value(0).toLongLong();
    const qint64 minChunk = q.value(1).toLongLong();
    const qint64 maxChunk = q.value(2).toLongLong();
    if (rows == 0 || !std::has_single_bit(quint64(rows)) || minChunk != 0 || maxChunk != rows - 1)
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("table %1 has %2 rows, chunks %3..%4: a filter has 2^c rows numbered 0..2^c-1")
                             .arg(mTable)
                             .arg(rows)
                             .arg(minChunk)
                             .arg(maxChunk),
                         QStringLiteral("a missing chunk row would make its names look free; restore the rows "
                                        "(insert ... 0::bit(N)) or rebuild the filter"));

    // Probe the function: k is the most bits a probe sets; then every probe must place as core does.
    const QList<QByteArray> probes = probeNames();
    q.prepare(QStringLiteral("select p.ord, (p.f).chunk, (p.f).mask::text from (select t.ord, %1(t.name) f "
                             "from unnest(?::text[]) with ordinality as t(name, ord)) p order by p.ord")
                  .arg(mFunction));
    q.addBindValue(textArray(probes, 0, probes.size()));
    if (!q.exec())
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("calling %1(text) failed: %2").arg(mFunction, q.lastError().databaseText()),
                         QStringLiteral("the function must return (chunk int, mask bit(N)) like username_bits"));
    QList<std::pair<quint32, QList<int>>> server;
    int k = 0;
    while (q.next()) {
        const QByteArray mask = q.value(2).toString().toLatin1();
        if (mask.size() != bitLength)
            return makeError(ErrorKind::ForeignFilter,
                             QStringLiteral("%1 returns masks of %2 bits but %3.bits is bit(%4)")
                                 .arg(mFunction)
                                 .arg(mask.size())
                                 .arg(mTable)
                                 .arg(bitLength),
                             QStringLiteral("the table and function belong to different filters; pair them "
                                            "with --table and --function"));
        QList<int> bits;
        for (int i = 0; i < mask.size(); ++i)
            if (mask[i] == '1')
                bits.append(i);
        k = qMax(k, int(bits.size()));
        server.append({q.value(1).toUInt(), bits});
    }
    auto g = Geometry::fromCounts(rows, bitLength, k);
    if (!g)
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("%1 with %2 is not a geometry Bloomscope can place names in: %3")
                             .arg(mTable, mFunction, g.error().message));
    for (qsizetype i = 0; i < probes.size(); ++i) {
        const Placement mine = placeAscii(*g, probes[i]);
        if (mine.chunk != server[i].first || mine.setBits() != server[i].second)
            return makeError(
                ErrorKind::ForeignFilter,
                QStringLiteral("%1 does not place names the reference way for the geometry found (%2): for '%3' "
                               "it gives chunk %4 bits %5, the reference placement is chunk %6 bits %7")
                    .arg(mFunction, g->describe(), QString::fromLatin1(probes[i]))
                    .arg(server[i].first)
                    .arg(bitsText(server[i].second))
                    .arg(mine.chunk)
                    .arg(bitsText(mine.setBits())),
                QStringLiteral("Bloomscope reads filters whose function cuts md5(lower(name)) into a chunk "
                               "and k positions; attaching to this one would give wrong answers"));
    }
    mGeometry = *g;
    return success();
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
        q.prepare(QStringLiteral("select lower(t.name) from unnest(?::text[]) with ordinality as t(name, ord) "
                                 "order by t.ord"));
        q.addBindValue(textArray(names, from, n));
        if (!q.exec())
            return Database::queryError(q, QStringLiteral("lowercasing names on the server"));
        while (q.next())
            out.append(q.value(0).toString().toUtf8());
    }
    if (out.size() != names.size())
        return makeError(ErrorKind::Server,
                         QStringLiteral("the server lowercased %1 of %2 names").arg(out.size()).arg(names.size()));
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
    return QStringLiteral("select q.ord, f.chunk is not null, coalesce(bool_and(get_bit(f.bits, p.pos) = 1), false)\n"
                          "from unnest($1::int[]) with ordinality as q(chunk, ord)\n"
                          "left join %1 f on f.chunk = q.chunk\n"
                          "cross join lateral unnest(($2::int[])[(q.ord - 1) * %2 + 1 : q.ord * %2]) as p(pos)\n"
                          "group by q.ord, f.chunk order by q.ord")
        .arg(mTable)
        .arg(mGeometry.k());
}

Result<QList<bool>> FilterStore::check(const QList<Placement> &placements)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    if (placements.size() == 1)
        return checkOne(placements.first());
    QList<bool> out;
    out.reserve(placements.size());
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
        while (q.next()) {
            if (!q.value(1).toBool())
                return makeError(
                    ErrorKind::ForeignFilter,
                    QStringLiteral("chunk %1 has no row in %2").arg(chunks[size_t(q.value(0).toInt() - 1)]).arg(mTable),
                    QStringLiteral("never answer 'free' from a filter with missing rows: restore them"));
            out.append(q.value(2).toBool());
        }
    }
    if (out.size() != placements.size())
        return makeError(
            ErrorKind::Server,
            QStringLiteral("the check returned %1 answers for %2 names").arg(out.size()).arg(placements.size()));
    return out;
}

QString FilterStore::checkOneSql() const
{
    QStringList bits;
    for (int i = 0; i < mGeometry.k(); ++i)
        bits << QStringLiteral("get_bit(bits, $%1)").arg(i + 2);
    return QStringLiteral("select %1 = 1 as maybe_taken from %2 where chunk = $1")
        .arg(bits.join(QStringLiteral(" & ")), mTable);
}

Result<QList<bool>> FilterStore::checkOne(const Placement &p)
{
    // One indexed row read; the statement is prepared once per store and reused.
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
    if (!q.next())
        return makeError(ErrorKind::ForeignFilter, QStringLiteral("chunk %1 has no row in %2").arg(p.chunk).arg(mTable),
                         QStringLiteral("never answer 'free' from a filter with missing rows: restore them"));
    const bool maybe = q.value(0).toBool();
    q.finish();
    return QList<bool>{maybe};
}

QString FilterStore::addSql() const
{
    QString expr = QStringLiteral("bits");
    for (int i = 0; i < mGeometry.k(); ++i)
        expr = QStringLiteral("set_bit(%1, $%2, 1)").arg(expr).arg(i + 2);
    return QStringLiteral("update %1 set bits = %2 where chunk = $1").arg(mTable, expr);
}

Status FilterStore::add(const QList<Placement> &placements)
{
    if (auto s = requireAttached(); !s)
        return s;
    // The same statement as addSql() with QPSQL's positional placeholders (chunk last).
    QString expr = QStringLiteral("bits");
    for (int i = 0; i < mGeometry.k(); ++i)
        expr = QStringLiteral("set_bit(%1, ?, 1)").arg(expr);
    const QString sql = QStringLiteral("update %1 set bits = %2 where chunk = ?").arg(mTable, expr);
    QSqlQuery q(mDb.db());
    if (!q.prepare(sql))
        return Database::queryError(q, QStringLiteral("preparing the add"));
    for (const Placement &p : placements) {
        if (cancelled())
            return cancelledError(QStringLiteral("adding names"));
        for (int j = 0; j < p.k; ++j) // setting bits commutes: the nesting order does not matter
            q.bindValue(j, int(p.positions[size_t(j)]));
        q.bindValue(p.k, qint64(p.chunk));
        if (!q.exec())
            return Database::queryError(q, QStringLiteral("adding to %1").arg(mTable));
        if (q.numRowsAffected() != 1)
            return makeError(ErrorKind::ForeignFilter,
                             QStringLiteral("chunk %1 has no row in %2").arg(p.chunk).arg(mTable),
                             QStringLiteral("restore the missing chunk rows before adding names"));
    }
    return success();
}

Result<qint64> FilterStore::addBulk(const QList<Placement> &placements)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    MaskBatch batch(mGeometry);
    for (const Placement &p : placements)
        batch.add(p);
    qint64 updated = 0;
    if (auto s = flushMasks(batch, &updated); !s)
        return s.error();
    return updated;
}

} // namespace bloom
