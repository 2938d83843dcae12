// FilterStore's attach: find the table and function, discover the geometry, prove the placement.
#include "postgres/filterstore.h"

#include "postgres/filtersql.h"
#include "postgres/pgarray.h"
#include "postgres/pgerror.h"

#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <libpq-fe.h>

#include <atomic>
#include <bit>
#include <optional>

namespace bloom {

namespace {

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

Result<std::pair<bool, bool>> FilterStore::tableAndFunctionExist()
{
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("select to_regclass(?) is not null, to_regprocedure(? || '(text)') is not null"));
    q.addBindValue(mTable);
    q.addBindValue(mFunction);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("looking for %1").arg(tableText()));
    return std::pair{q.value(0).toBool(), q.value(1).toBool()};
}

Result<QString> FilterStore::currentIdentity()
{
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("select coalesce(to_regclass(?)::oid::text, '-') || '/' || "
                             "coalesce(to_regprocedure(? || '(text)')::oid::text, '-')"));
    q.addBindValue(mTable);
    q.addBindValue(mFunction);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("looking for %1").arg(tableText()));
    return q.value(0).toString();
}

Result<bool> FilterStore::stillAttached()
{
    if (!mAttached)
        return false;
    auto now = currentIdentity();
    if (!now)
        return now.error();
    return *now == mIdentity;
}

Status FilterStore::init(const Geometry &g)
{
    if (mNameError)
        return *mNameError;
    if (auto s = mDb.requirePrimary(QStringLiteral("creating %1").arg(tableText())); !s)
        return s;
    auto exist = tableAndFunctionExist();
    if (!exist)
        return exist.error();
    if (exist->first)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("table %1 already exists; init never overwrites").arg(tableText()),
                         QStringLiteral("choose another name with --table, or attach to the existing filter"));
    if (exist->second)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("function %1(text) already exists; init never overwrites").arg(functionText()),
                         QStringLiteral("choose another name with --function"));
    if (!mDb.db().transaction())
        return makeError(ErrorKind::Server, QStringLiteral("cannot begin a transaction"));
    const QString comment =
        QStringLiteral("bloomscope filter: chunks=%1 chunk_bits=%2 k=%3 function=%4 created=%5")
            .arg(QString::number(g.chunks()), QString::number(g.chunkBits()), QString::number(g.k()), mRef.function,
                 QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    // A utility statement takes no parameters: the comment is our own text, quoted as a literal.
    const QString literal =
        QLatin1Char('\'') + QString(comment).replace(QLatin1Char('\''), QStringLiteral("''")) + QLatin1Char('\'');
    // A script of several statements goes through libpq, which reports the one that failed (QPSQL's
    // exec() of such a script can report success).
    if (auto s = pg::script(mDb.pgconn(),
                            renderFilterSql(g, mTable, mFunction) +
                                QStringLiteral(";\ncomment on table %1 is %2").arg(mTable, literal),
                            QStringLiteral("creating %1").arg(tableText()));
        !s) {
        mDb.db().rollback();
        return s;
    }
    if (!mDb.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit failed while creating %1").arg(tableText()));
    return attach();
}

Status FilterStore::attach()
{
    mAttached = false;
    if (mNameError)
        return *mNameError;
    auto identity = currentIdentity();
    if (!identity)
        return identity.error();
    if (auto s = discover(); !s)
        return s;
    mIdentity = *identity;
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
                         QStringLiteral("there is no table %1 in %2").arg(tableText(), mDb.spec().describe()),
                         QStringLiteral("check --table and --db, or create the filter with 'bloomctl init'"));
    if (!exist->second)
        return makeError(
            ErrorKind::MissingFilter,
            QStringLiteral("there is no function %1(text) in %2").arg(functionText(), mDb.spec().describe()),
            QStringLiteral("check --function, or create the filter with 'bloomctl init'"));

    QSqlQuery q(mDb.db());
    // Columns: chunk integer and bits bit(B).
    q.prepare(QStringLiteral("select a.attname, format_type(a.atttypid, a.atttypmod), a.atttypid::regtype::text, "
                             "a.atttypmod, a.attnotnull from pg_attribute a where a.attrelid = to_regclass(?) and "
                             "a.attnum > 0 and not a.attisdropped order by a.attnum"));
    q.addBindValue(mTable);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the columns of %1").arg(tableText()));
    QString chunkType, bitsType;
    qint64 bitLength = -1;
    bool bitsNotNull = false;
    QStringList columns;
    while (q.next()) {
        const QString name = q.value(0).toString();
        columns << name + QLatin1Char(' ') + q.value(1).toString();
        if (name == QLatin1String("chunk"))
            chunkType = q.value(2).toString();
        else if (name == QLatin1String("bits")) {
            bitsType = q.value(2).toString();
            bitLength = q.value(3).toLongLong();
            bitsNotNull = q.value(4).toBool();
        }
    }
    const QString found = columns.join(QStringLiteral(", "));
    if (chunkType != QLatin1String("integer") && chunkType != QLatin1String("bigint") &&
        chunkType != QLatin1String("smallint"))
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("table %1 has no integer column 'chunk' (it has: %2)").arg(tableText(), found),
                         QStringLiteral("a filter table is (chunk int primary key, bits bit(N) not null)"));
    if (bitsType != QLatin1String("bit") || bitLength <= 0) {
        // A bit column with no declared length (bit varying, or a bit made by CREATE TABLE AS): one scan
        // says what its rows hold, so that the refusal names it (rows of 16 bits are no bit(8192) filter).
        QString held;
        if (bitsType == QLatin1String("bit") || bitsType == QLatin1String("bit varying")) {
            if (!q.exec(QStringLiteral("select pg_catalog.min(pg_catalog.bit_length(bits)), "
                                       "pg_catalog.max(pg_catalog.bit_length(bits)) from %1")
                            .arg(mTable)) ||
                !q.next())
                return Database::queryError(q, QStringLiteral("reading the rows of %1").arg(tableText()));
            if (!q.value(0).isNull())
                held = q.value(0) == q.value(1)
                           ? QStringLiteral("; its rows hold %1 bits each").arg(q.value(0).toString())
                           : QStringLiteral("; its rows hold %1 to %2 bits")
                                 .arg(q.value(0).toString(), q.value(1).toString());
        }
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("table %1 has no fixed-length column 'bits bit(N)' (it has: %2)%3")
                             .arg(tableText(), found, held),
                         QStringLiteral("a filter table is (chunk int primary key, bits bit(N) not null): declare "
                                        "the length its function's masks have (alter table %1 alter column bits "
                                        "type bit(N)), or check --table")
                             .arg(mTable));
    }

    // The key: one row a chunk. Without a primary key or unique index on chunk alone (NOT NULL), one scan
    // looks for chunks held by more than one row and rows with no chunk: either would let the count
    // below take a filter with missing rows for a whole one (chunk 4 twice and no chunk 5).
    q.prepare(QStringLiteral(
        "select exists (select from pg_catalog.pg_index i join pg_catalog.pg_attribute a on a.attrelid = "
        "i.indrelid and a.attname = 'chunk' where i.indrelid = pg_catalog.to_regclass(?) and i.indisunique and "
        "i.indnkeyatts = 1 and i.indkey[0] = a.attnum and i.indpred is null and i.indexprs is null and a.attnotnull)"));
    q.addBindValue(mTable);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("reading the key of %1").arg(tableText()));
    if (!q.value(0).toBool()) {
        if (!q.exec(QStringLiteral("select count(*) filter (where g.n > 1 and g.chunk is not null), "
                                   "pg_catalog.array_to_string((pg_catalog.array_agg(g.chunk order by g.chunk) "
                                   "filter (where g.n > 1 and g.chunk is not null))[1:5], ', '), "
                                   "coalesce(sum(g.n) filter (where g.chunk is null), 0) "
                                   "from (select chunk, pg_catalog.count(*) n from %1 group by chunk) g")
                        .arg(mTable)) ||
            !q.next())
            return Database::queryError(q, QStringLiteral("looking for chunks held twice in %1").arg(tableText()));
        const QString fix = QStringLiteral("keep one row a chunk (their bits ORed together) and give the table its "
                                           "key: alter table %1 add primary key (chunk)")
                                .arg(mTable);
        if (q.value(2).toLongLong() > 0)
            return makeError(ErrorKind::ForeignFilter,
                             QStringLiteral("table %1 has %2 row(s) with no chunk (NULL), and no primary key on chunk: "
                                            "a filter has one row for each chunk")
                                 .arg(tableText(), q.value(2).toString()),
                             fix);
        if (q.value(0).toLongLong() > 0)
            return makeError(ErrorKind::ForeignFilter,
                             QStringLiteral("table %1 has more than one row for chunk %2%3 (%4 chunk(s) in all), "
                                            "and no primary key on chunk: a filter has one row for each chunk")
                                 .arg(tableText(), q.value(1).toString(),
                                      q.value(0).toLongLong() > 5 ? QStringLiteral(", ...") : QString(),
                                      q.value(0).toString()),
                             fix);
    }

    // Each figure in a subquery of its own: min and max then come from the primary key's ends and the
    // count can be an index-only scan of the key when the table is all-visible (6 ms, against 43 ms
    // for one sequential scan computing all three on the reference filter's 128 MiB).
    if (!q.exec(QStringLiteral("select (select min(chunk) from %1), (select max(chunk) from %1), "
                               "(select count(*) from %1)")
                    .arg(mTable)) ||
        !q.next())
        return Database::queryError(q, QStringLiteral("counting the rows of %1").arg(tableText()));
    const qint64 minChunk = q.value(0).toLongLong();
    const qint64 maxChunk = q.value(1).toLongLong();
    const qint64 rows = q.value(2).toLongLong();
    // 2^c rows numbered 0..2^c-1. Fewer rows within 0..2^c-1 are a filter with missing chunk rows
    // (damage(), never "free"), as long as the function places names in exactly 2^c chunks (the probes
    // below prove it); a row outside, or no row at all, is not a filter.
    const quint64 chunks = rows > 0 && minChunk >= 0 ? std::bit_ceil(quint64(maxChunk) + 1) : 0;
    if (rows == 0 || minChunk < 0 || maxChunk > (qint64(1) << Geometry::MaxChunkLog2) - 1)
        return makeError(
            ErrorKind::ForeignFilter,
            QStringLiteral("table %1 has %2 rows, chunks %3..%4: a filter has 2^c rows numbered 0..2^c-1")
                .arg(tableText(), QString::number(rows), QString::number(minChunk), QString::number(maxChunk)),
            QStringLiteral("check --table: a filter table is (chunk int primary key, bits bit(N) not "
                           "null) with a row for every chunk"));

    if (bitLength > (qint64(1) << Geometry::MaxBitsLog2))
        return makeError(
            ErrorKind::ForeignFilter,
            QStringLiteral("table %1 has bits bit(%2): more than the %3 bits a chunk can have")
                .arg(tableText(), QString::number(bitLength), QString::number(qint64(1) << Geometry::MaxBitsLog2)),
            QStringLiteral("check --table: a filter table is (chunk int primary key, bits bit(N) not "
                           "null)"));

    // Probe the function: k is the most bits a probe sets; then every probe must place as core does.
    auto probed = probe(bitLength);
    if (!probed)
        return probed.error();
    const QList<QByteArray> probes = probeNames();
    const QList<std::pair<quint32, QList<int>>> &server = *probed;
    int k = 0;
    for (const auto &[chunk, bits] : server)
        k = qMax(k, int(bits.size()));
    auto g = Geometry::fromCounts(qint64(chunks), bitLength, k);
    if (!g)
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("%1 with %2 is not a geometry Bloomscope can place names in: %3")
                             .arg(tableText(), functionText(), g.error().message));
    const auto mismatch = [&](const Geometry &geometry) -> qsizetype {
        for (qsizetype i = 0; i < probes.size(); ++i) {
            const Placement mine = placeAscii(geometry, probes[i]);
            if (mine.chunk != server[i].first || mine.setBits() != server[i].second)
                return i;
        }
        return -1;
    };
    if (const qsizetype i = mismatch(*g); i >= 0) {
        // The function may place names in fewer chunks than the highest row says: rows beyond them are
        // extra rows (a stray chunk 131072 made a 2^31-bit geometry of the reference filter).
        quint32 highest = 0;
        for (const auto &placed : server)
            highest = qMax(highest, placed.first);
        for (quint64 fewer = chunks / 2; fewer >= std::bit_ceil(quint64(highest) + 1) && fewer > 0; fewer /= 2) {
            auto smaller = Geometry::fromCounts(qint64(fewer), bitLength, k);
            if (!smaller || mismatch(*smaller) >= 0)
                continue;
            if (!q.exec(QStringLiteral("select count(*), pg_catalog.array_to_string((pg_catalog.array_agg(chunk order "
                                       "by chunk))[1:5], ', ') from %1 where chunk >= %2")
                            .arg(mTable, QString::number(fewer))) ||
                !q.next())
                return Database::queryError(q, QStringLiteral("counting the extra rows of %1").arg(tableText()));
            const qint64 extra = q.value(0).toLongLong();
            return makeError(
                ErrorKind::ForeignFilter,
                QStringLiteral("table %1 has %2 extra row(s) beyond the %3 chunks %4 places names in (chunk %5%6): "
                               "a filter has one row for each chunk 0..%7")
                    .arg(tableText(), QString::number(extra), QString::number(fewer), functionText(),
                         q.value(1).toString(), extra > 5 ? QStringLiteral(", ...") : QString(),
                         QString::number(fewer - 1)),
                QStringLiteral("delete the extra rows if they are not the filter's (delete from %1 where chunk >= "
                               "%2), or check --table and --function")
                    .arg(mTable, QString::number(fewer)));
        }
        const Placement mine = placeAscii(*g, probes[i]);
        return makeError(
            ErrorKind::ForeignFilter,
            QStringLiteral("%1 does not place names the reference way for the geometry found (%2): for '%3' "
                           "it gives chunk %4 bits %5, the reference placement is chunk %6 bits %7")
                .arg(functionText(), g->describe(), QString::fromLatin1(probes[i]), QString::number(server[i].first),
                     bitsText(server[i].second), QString::number(mine.chunk), bitsText(mine.setBits())),
            QStringLiteral("Bloomscope reads filters whose function cuts md5(lower(name)) into a chunk "
                           "and k positions; attaching to this one would give wrong answers"));
    }
    mGeometry = *g;
    mBitsNotNull = bitsNotNull;
    mDamage = {};
    // The table's integrity, where it is cheap: the rows were counted above; NULL rows can only be
    // there when the column lacks NOT NULL, and then one scan finds them before anything answers.
    if (rows < qint64(chunks))
        if (auto s = findMissingChunks(rows); !s)
            return s;
    if (!bitsNotNull)
        if (auto s = findNullChunks(); !s)
            return s;
    return success();
}

Result<QList<std::pair<quint32, QList<int>>>> FilterStore::probe(qint64 bitLength)
{
    // One row a probe name: the function's rows are read no further than the second (a set-returning
    // function is refused, not buffered), and the statement runs under statement_timeout, set for it
    // alone (SET LOCAL semantics), so that a function that sleeps cannot hold attach for long.
    const QList<QByteArray> probes = probeNames();
    PGconn *pg = mDb.pgconn();
    const bool ownTransaction = pg && PQtransactionStatus(pg) == PQTRANS_IDLE;
    const int timeoutMs = probeTimeoutMs();
    QSqlQuery q(mDb.db());
    q.setForwardOnly(true);
    QString previous;
    if (ownTransaction && !mDb.db().transaction())
        return makeError(ErrorKind::Server,
                         QStringLiteral("cannot begin a transaction to probe %1").arg(functionText()));
    if (!q.exec(QStringLiteral("select pg_catalog.current_setting('statement_timeout'), "
                               "pg_catalog.set_config('statement_timeout', '%1', true)")
                    .arg(timeoutMs)) ||
        !q.next()) {
        const Error e = Database::queryError(q, QStringLiteral("setting statement_timeout"));
        if (ownTransaction)
            mDb.db().rollback();
        return e;
    }
    previous = q.value(0).toString();
    q.finish();
    q.prepare(QStringLiteral("select t.ord, f.n, f.chunk, f.mask::text from unnest(?::text[]) with ordinality as "
                             "t(name, ord) left join lateral (select p.chunk, p.mask, pg_catalog.count(*) over () n "
                             "from (select * from %1(t.name) limit 2) p) f on true order by t.ord")
                  .arg(mFunction));
    q.addBindValue(textArray(probes, 0, probes.size()));
    const bool ran = q.exec();
    QList<std::pair<quint32, QList<int>>> server;
    std::optional<Error> failed;
    if (!ran) {
        const Error e = Database::queryError(q, QStringLiteral("calling %1(text)").arg(functionText()));
        if (e.sqlState == QLatin1String("57014") && !cancelled())
            failed = makeError(ErrorKind::ForeignFilter,
                               QStringLiteral("calling %1(text) on %2 probe names took longer than the statement "
                                              "timeout of %3: a filter function answers in microseconds")
                                   .arg(functionText(), QString::number(probes.size()), describeTimeout(timeoutMs)),
                               QStringLiteral("check what %1 does; a slow server can be given more time with "
                                              "--statement-timeout or BLOOMSCOPE_STATEMENT_TIMEOUT")
                                   .arg(functionText()));
        else if (e.kind == ErrorKind::Cancelled || e.kind == ErrorKind::Connection)
            failed = e;
        else
            failed = makeError(
                ErrorKind::ForeignFilter,
                QStringLiteral("calling %1(text) failed: %2").arg(functionText(), q.lastError().databaseText()),
                QStringLiteral("the function must return (chunk int, mask bit(N)) like username_bits"));
    }
    while (!failed && q.next()) {
        const qsizetype i = q.value(0).toLongLong() - 1;
        const QString probeName = QString::fromLatin1(probes.value(i));
        if (q.value(1).isNull()) {
            failed = makeError(ErrorKind::ForeignFilter,
                               QStringLiteral("%1 returns no row for '%2'").arg(functionText(), probeName),
                               QStringLiteral("a filter function returns one (chunk, mask) row for every name"));
            break;
        }
        if (q.value(1).toLongLong() > 1) {
            failed = makeError(ErrorKind::ForeignFilter,
                               QStringLiteral("%1 returns more than one row for '%2': it is not a filter function")
                                   .arg(functionText(), probeName),
                               QStringLiteral("a filter function returns one (chunk, mask) row for every name"));
            break;
        }
        if (i != server.size()) // one row a name, in order: anything else is not this query's answer
            continue;
        const QByteArray mask = q.value(3).toString().toLatin1();
        if (mask.size() != bitLength) {
            failed = makeError(
                ErrorKind::ForeignFilter,
                QStringLiteral("%1 returns masks of %2 bits but %3.bits is bit(%4)")
                    .arg(functionText(), QString::number(mask.size()), tableText(), QString::number(bitLength)),
                QStringLiteral("the table and function belong to different filters; pair them "
                               "with --table and --function"));
            break;
        }
        QList<int> bits;
        for (int b = 0; b < mask.size(); ++b)
            if (mask[b] == '1')
                bits.append(b);
        server.append({q.value(2).toUInt(), bits});
    }
    q.finish();
    if (ownTransaction) {
        if (ran && !failed)
            mDb.db().commit(); // a rebuild's recording function records the probes, as before
        else
            mDb.db().rollback();
    } else if (ran) {
        QSqlQuery reset(mDb.db());
        reset.prepare(QStringLiteral("select pg_catalog.set_config('statement_timeout', ?, true)"));
        reset.addBindValue(previous);
        (void)reset.exec();
    }
    if (failed)
        return *failed;
    if (server.size() != probes.size())
        return makeError(ErrorKind::ForeignFilter,
                         QStringLiteral("%1 answered %2 of %3 probe names")
                             .arg(functionText(), QString::number(server.size()), QString::number(probes.size())),
                         QStringLiteral("a filter function returns one (chunk, mask) row for every name"));
    return server;
}

namespace {

std::atomic<int> gProbeTimeoutMs{-1}; // -1: not read from the environment yet

} // namespace

std::optional<int> FilterStore::parseTimeout(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d{1,9})\\s*(ms|s|min|m)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    const qint64 ms = unit == QLatin1String("ms")                                  ? n
                      : unit == QLatin1String("m") || unit == QLatin1String("min") ? n * 60000
                                                                                   : n * 1000;
    if (ms > MaxProbeTimeoutMs)
        return std::nullopt;
    return int(ms);
}

QString FilterStore::describeTimeout(int ms)
{
    return ms % 1000 == 0 ? QStringLiteral("%1 s").arg(ms / 1000) : QStringLiteral("%1 ms").arg(ms);
}

int FilterStore::probeTimeoutMs()
{
    int ms = gProbeTimeoutMs.load();
    if (ms < 0) {
        const auto fromEnv = parseTimeout(qEnvironmentVariable("BLOOMSCOPE_STATEMENT_TIMEOUT"));
        ms = fromEnv ? *fromEnv : DefaultProbeTimeoutMs;
        gProbeTimeoutMs.store(ms);
    }
    return ms;
}

void FilterStore::setProbeTimeoutMs(int ms)
{
    gProbeTimeoutMs.store(ms);
}

Status FilterStore::findMissingChunks(qint64 rows)
{
    QSqlQuery q(mDb.db());
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("select g from generate_series(0, %1) g where not exists (select from %2 f "
                               "where f.chunk = g) order by g")
                    .arg(QString::number(qint64(mGeometry.chunks()) - 1), mTable)))
        return Database::queryError(q, QStringLiteral("looking for the missing chunk rows of %1").arg(tableText()));
    mDamage.missingChunks.reserve(size_t(qint64(mGeometry.chunks()) - rows));
    while (q.next())
        mDamage.missingChunks.push_back(quint32(q.value(0).toLongLong()));
    return success();
}

Status FilterStore::findNullChunks()
{
    QSqlQuery q(mDb.db());
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("select chunk from %1 where bits is null order by chunk").arg(mTable)))
        return Database::queryError(q, QStringLiteral("looking for NULL rows in %1").arg(tableText()));
    while (q.next())
        mDamage.nullChunks.push_back(quint32(q.value(0).toLongLong()));
    return success();
}

} // namespace bloom
