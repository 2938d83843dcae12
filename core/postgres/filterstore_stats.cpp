// FilterStore's read-only views: fill, the reference estimate, a sampled FPR, one chunk, health.
#include "model/fprmodel.h"
#include "postgres/filterstore.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace bloom {

namespace {

// The first row (chunk -1) carries the position of the statement's snapshot, taken with the rows in
// one statement: the oldest xid it did not see as finished, as a 64-bit xid (xid8: no wraparound, so a
// snapshot kept in the history still says where it stood months later).
QString positionRow()
{
    return QStringLiteral("select -1, pg_snapshot_xmin(pg_current_snapshot())::text::int8 union all ");
}

// The age() of a 64-bit position as the server's 32-bit xid; computed once (an InitPlan), not per row.
const char *const PositionAge = "(select age((?::int8 % 4294967296)::text::xid))";

} // namespace

Status FilterStore::readFill(QSqlQuery &q, FillSnapshot &snap, std::vector<quint32> *changed, std::vector<bool> *seen)
{
    snap.rowsRead = 0;
    std::vector<quint32> nulls, whole; // whole: only for a read of the changes, which updates the damage
    while (q.next()) {
        const qint64 chunk = q.value(0).toLongLong();
        if (chunk == -1) {
            snap.position = q.value(1).toString();
            continue;
        }
        if (chunk == -2) {
            snap.rowCount = q.value(1).toLongLong();
            continue;
        }
        if (chunk < 0 || chunk >= qint64(mGeometry.chunks()))
            return makeError(ErrorKind::ForeignFilter,
                             QStringLiteral("%1 has a row for chunk %2, outside 0..%3")
                                 .arg(mTable, QString::number(chunk), QString::number(mGeometry.chunks() - 1)));
        // bit_count() of a NULL row is NULL: the chunk is damaged, not empty.
        const QVariant bits = q.value(1);
        snap.setBits[size_t(chunk)] = bits.isNull() ? 0 : quint32(bits.toULongLong());
        if (bits.isNull())
            nulls.push_back(quint32(chunk));
        else if (!seen)
            whole.push_back(quint32(chunk));
        if (changed)
            changed->push_back(quint32(chunk));
        if (seen)
            (*seen)[size_t(chunk)] = true;
        ++snap.rowsRead;
    }
    if (q.lastError().isValid() && q.lastError().type() != QSqlError::NoError)
        return Database::queryError(q, QStringLiteral("reading the fill of %1").arg(mTable));
    if (changed)
        std::sort(changed->begin(), changed->end());
    if (seen) { // a read of every row: the NULL ones are all there is (missing rows: see fill())
        std::sort(nulls.begin(), nulls.end());
        snap.damage.nullChunks = std::move(nulls);
    } else {
        snap.damage.rowsRead(std::move(nulls), std::move(whole));
    }
    return success();
}

Result<FillSnapshot> FilterStore::fill()
{
    if (auto s = requireAttached(); !s)
        return s.error();
    QElapsedTimer t;
    t.start();
    FillSnapshot snap;
    snap.geometry = mGeometry;
    snap.setBits.assign(mGeometry.chunks(), 0);
    snap.takenAt = QDateTime::currentDateTimeUtc();
    QSqlQuery q(mDb.db());
    q.setForwardOnly(true);
    if (!q.exec(positionRow() + QStringLiteral("select chunk, bit_count(bits) from %1").arg(mTable)))
        return Database::queryError(q, QStringLiteral("reading the fill of %1").arg(mTable));
    std::vector<bool> seen(mGeometry.chunks(), false);
    if (auto s = readFill(q, snap, nullptr, &seen); !s)
        return s.error();
    snap.rowCount = snap.rowsRead;
    if (snap.rowsRead < qint64(mGeometry.chunks()))
        for (quint32 c = 0; c < mGeometry.chunks(); ++c)
            if (!seen[c])
                snap.damage.missingChunks.push_back(c); // in chunk order
    mDamage = snap.damage;
    snap.elapsedMs = t.elapsed();
    return snap;
}

Result<FillSnapshot> FilterStore::fillSince(const FillSnapshot &earlier, std::vector<quint32> *changed, bool countRows)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    bool ok = false;
    (void)earlier.position.toLongLong(&ok);
    if (!ok || earlier.geometry != mGeometry || earlier.setBits.size() != size_t(mGeometry.chunks()))
        return makeError(ErrorKind::BadInput,
                         QStringLiteral("no earlier read of %1 to read the changes since").arg(mTable),
                         QStringLiteral("read the whole fill"));
    QElapsedTimer t;
    t.start();
    FillSnapshot snap = earlier;
    snap.takenAt = QDateTime::currentDateTimeUtc();
    snap.rowCount = -1;
    if (changed)
        changed->clear();
    // age() is the distance back from the newest xid: a row written at or after the position is no
    // older than the position itself (frozen rows are the oldest of all). xid has no order of its own;
    // the position's age is computed once (an InitPlan), not per row. A deleted row leaves nothing to
    // read: `countRows` adds a count of the rows (a second scan, of the key when the table is
    // all-visible) for a caller without the stats' delete counter.
    QSqlQuery q(mDb.db());
    q.setForwardOnly(true);
    q.prepare(positionRow() +
              (countRows ? QStringLiteral("select -2, count(*) from %1 union all ").arg(mTable) : QString()) +
              QStringLiteral("select chunk, bit_count(bits) from %1 where age(xmin) <= %2")
                  .arg(mTable, QLatin1String(PositionAge)));
    q.addBindValue(earlier.position);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the changed chunks of %1").arg(mTable));
    if (auto s = readFill(q, snap, changed, nullptr); !s)
        return s.error();
    snap.elapsedMs = t.elapsed();
    return snap;
}

Result<FilterStore::WrittenSince> FilterStore::writtenSince(const QString &position, const QDateTime &at)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    bool ok = false;
    (void)position.toLongLong(&ok);
    if (!ok)
        return makeError(ErrorKind::BadInput,
                         QStringLiteral("this snapshot of %1 has no position to compare with").arg(mTable),
                         QStringLiteral("record a new snapshot (bloomctl record)"));
    QElapsedTimer t;
    t.start();
    WrittenSince out;
    // Frozen rows lose their xmin. Up to PostgreSQL 15 VACUUM freezes only xids older than the
    // relfrozenxid it leaves, so a position no older than relfrozenxid misses nothing; from 16 on a page
    // may be frozen whole, so a VACUUM since the snapshot makes the answer partial too.
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("select pg_snapshot_xmax(pg_current_snapshot())::text::int8 - ?::int8, "
                             "age(c.relfrozenxid), current_setting('server_version_num')::int >= 160000 and "
                             "coalesce(greatest(s.last_vacuum, s.last_autovacuum) >= ?::timestamptz, false) "
                             "from pg_catalog.pg_class c left join pg_catalog.pg_stat_all_tables s on s.relid = c.oid "
                             "where c.oid = pg_catalog.to_regclass(?)"));
    q.addBindValue(position);
    q.addBindValue(at.toUTC().toString(Qt::ISODateWithMs));
    q.addBindValue(mTable);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("reading how far back the snapshot of %1 is").arg(mTable));
    const qint64 distance = q.value(0).toLongLong();
    const qint64 frozenAge = q.value(1).toLongLong();
    const bool vacuumedSince = q.value(2).toBool();
    q.finish();
    if (distance >= (qint64(1) << 31) - 1'000'000) {
        out.complete = false;
        out.why =
            QStringLiteral("the snapshot is %L1 transactions back, too far for row versions to tell").arg(distance);
        out.elapsedMs = t.elapsed();
        return out;
    }
    if (frozenAge < distance || vacuumedSince) {
        out.complete = false;
        out.why = QStringLiteral("VACUUM has frozen rows of %1 since the snapshot: chunks written before the "
                                 "freeze are not marked")
                      .arg(mTable);
    }
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("select chunk from %1 where age(xmin) <= %2 order by chunk")
                  .arg(mTable, QLatin1String(PositionAge)));
    q.addBindValue(position);
    if (!q.exec())
        return Database::queryError(q,
                                    QStringLiteral("reading the chunks of %1 written since the snapshot").arg(mTable));
    while (q.next()) {
        const qint64 chunk = q.value(0).toLongLong();
        if (chunk >= 0 && chunk < qint64(mGeometry.chunks()))
            out.chunks.push_back(quint32(chunk));
    }
    if (q.lastError().isValid() && q.lastError().type() != QSqlError::NoError)
        return Database::queryError(q,
                                    QStringLiteral("reading the chunks of %1 written since the snapshot").arg(mTable));
    out.elapsedMs = t.elapsed();
    return out;
}

Result<std::optional<FilterStore::WriteCounter>> FilterStore::writeCounter(ServerRole *role)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    if (mDb.inRecovery()) {
        // A standby's pg_stat counts its own writes only (none) and none of the primary's it replays:
        // its replay position is what moves when the table may have changed. Read again each time, so a
        // promotion is seen (the counters below from then on).
        auto r = mDb.readRole();
        if (!r)
            return r.error();
        if (role)
            *role = *r;
        if (r->inRecovery)
            return std::optional<WriteCounter>{WriteCounter{r->replayLsnBytes, 0, true}};
    } else if (role) {
        *role = ServerRole{};
    }
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("select current_setting('track_counts')::bool, pg_stat_get_tuples_inserted(c.oid) + "
                             "pg_stat_get_tuples_updated(c.oid) + pg_stat_get_xact_tuples_inserted(c.oid) + "
                             "pg_stat_get_xact_tuples_updated(c.oid), pg_stat_get_tuples_deleted(c.oid) + "
                             "pg_stat_get_xact_tuples_deleted(c.oid) from pg_class c where c.oid = to_regclass(?)"));
    q.addBindValue(mTable);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the write counter of %1").arg(mTable));
    if (!q.next() || !q.value(0).toBool())
        return std::optional<WriteCounter>{};
    const qint64 deletes = q.value(2).toLongLong();
    return std::optional<WriteCounter>{WriteCounter{q.value(1).toLongLong() + deletes, deletes}};
}

Result<bool> FilterStore::mayUpdate()
{
    if (auto s = requireAttached(); !s)
        return s.error();
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("select pg_catalog.has_table_privilege(?::pg_catalog.oid, 'UPDATE')"));
    q.addBindValue(qint64(tableOid()));
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("reading whether this role may update %1").arg(mTable));
    return q.value(0).toBool();
}

Result<double> FilterStore::referenceEstimate()
{
    if (auto s = requireAttached(); !s)
        return s.error();
    QSqlQuery q(mDb.db());
    if (!q.exec(QStringLiteral("select avg(power(bit_count(bits) / %1.0, %2)) as false_positive_rate from %3")
                    .arg(QString::number(mGeometry.chunkBits()), QString::number(mGeometry.k()), mTable)) ||
        !q.next())
        return Database::queryError(q, QStringLiteral("estimating the FPR of %1").arg(mTable));
    return q.value(0).toDouble();
}

FprSample::Interval FprSample::wilson(qint64 hits, qint64 trials)
{
    if (trials <= 0)
        return {0, 1};
    // Wilson score interval, 95%. At 0 hits its lower end is 0 and at every hit its upper end is 1,
    // exactly: the formula's own rounding gave 2.17e-19 for 0 of 1,000.
    const double n = double(trials);
    const double p = double(hits) / n;
    const double z = 1.959963984540054;
    const double denom = 1 + z * z / n;
    const double centre = (p + z * z / (2 * n)) / denom;
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom;
    return {hits == 0 ? 0.0 : qMax(0.0, centre - half), hits == trials ? 1.0 : qMin(1.0, centre + half)};
}

QByteArray fprProbeName(const quint32 random[4])
{
    // A version-4 UUID's text from 128 random bits: 122 of them random, as QUuid::createUuid() makes.
    uchar b[16];
    std::memcpy(b, random, 16);
    b[6] = uchar((b[6] & 0x0f) | 0x40);
    b[8] = uchar((b[8] & 0x3f) | 0x80);
    static const char hex[] = "0123456789abcdef";
    QByteArray out = QByteArrayLiteral("bloomscope-fpr-probe-");
    out.reserve(out.size() + 36);
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out += '-';
        out += hex[b[i] >> 4];
        out += hex[b[i] & 15];
    }
    return out;
}

Result<FprSample> FilterStore::sampleFpr(qint64 probes, const SampleProgressFn &progress)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    // Probe names carry a fresh random UUID (122 random bits): the chance that any of them was ever
    // added is at most probes * names / 2^122, i.e. none was. A block of them at a time is made,
    // placed, checked and dropped: memory stays one block's whatever `probes` is, and a cancel stops
    // between blocks (the running block's statement is the caller's Database::cancel()).
    QRandomGenerator *rng = QRandomGenerator::system();
    std::vector<quint32> random(size_t(SampleBlock) * 4);
    QList<Placement> block;
    block.reserve(SampleBlock);
    qint64 falsePositives = 0;
    for (qint64 at = 0; at < probes; at += SampleBlock) {
        if (cancelled())
            return cancelledError(QStringLiteral("sampling the FPR after %L1 of %L2 probes")
                                      .arg(QLocale().toString(at), QLocale().toString(probes)));
        const qsizetype n = qsizetype(qMin<qint64>(SampleBlock, probes - at));
        rng->fillRange(random.data(), qsizetype(n) * 4);
        block.clear();
        for (qsizetype i = 0; i < n; ++i)
            block.append(placeAscii(mGeometry, fprProbeName(&random[size_t(i) * 4])));
        auto verdicts = check(block);
        if (!verdicts) {
            if (cancelled() || verdicts.error().kind == ErrorKind::Cancelled)
                return cancelledError(QStringLiteral("sampling the FPR after %L1 of %L2 probes")
                                          .arg(QLocale().toString(at), QLocale().toString(probes)));
            return verdicts.error();
        }
        falsePositives += std::count(verdicts->begin(), verdicts->end(), true);
        if (progress)
            progress(at + n, probes, falsePositives);
    }
    FprSample out;
    out.probes = probes;
    out.falsePositives = falsePositives;
    out.measured = probes ? double(falsePositives) / double(probes) : 0.0;
    const FprSample::Interval i = FprSample::wilson(falsePositives, probes);
    out.low95 = i.low;
    out.high95 = i.high;
    auto snap = fill();
    if (!snap)
        return snap.error();
    if (!snap->damage.empty()) // the estimate and the model beside the measure would count them as empty
        return damageError(snap->damage);
    out.estimated = snap->estimatedFpr();
    out.model = fpr::blocked(snap->estimatedNames(), mGeometry);
    return out;
}

Result<QByteArray> FilterStore::chunkBits(quint32 chunk)
{
    if (auto s = requireAttached(); !s)
        return s.error();
    if (chunk >= mGeometry.chunks())
        return makeError(ErrorKind::BadInput,
                         QStringLiteral("chunk %1 is outside 0..%2")
                             .arg(QString::number(chunk), QString::number(mGeometry.chunks() - 1)));
    QSqlQuery q(mDb.db());
    q.prepare(chunkBitsSql().replace(QLatin1String("$1"), QLatin1String("?")));
    q.addBindValue(qint64(chunk));
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading chunk %1").arg(chunk));
    if (!q.next() || q.value(0).isNull()) {
        const bool null = q.isValid();
        noteDamage(chunk, null ? RowVerdict::NullRow : RowVerdict::NoRow);
        return ChunkDamage::chunkError(chunk, null, damagedTable());
    }
    return q.value(0).toString().toLatin1();
}

Result<TableHealth> FilterStore::health()
{
    if (auto s = requireAttached(); !s)
        return s.error();
    TableHealth h;
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral(
        "select pg_total_relation_size(c.oid), pg_relation_size(c.oid), pg_indexes_size(c.oid), "
        "coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0), "
        "s.n_live_tup, s.n_dead_tup, s.last_vacuum, s.last_autovacuum, s.last_analyze, s.last_autoanalyze, "
        "s.vacuum_count, s.autovacuum_count, "
        "coalesce((select option_value::int from pg_options_to_table(c.reloptions) "
        "where option_name = 'fillfactor'), 100) "
        "from pg_class c left join pg_stat_user_tables s on s.relid = c.oid where c.oid = to_regclass(?)"));
    q.addBindValue(mTable);
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("reading the health of %1").arg(mTable));
    h.totalBytes = q.value(0).toLongLong();
    h.heapBytes = q.value(1).toLongLong();
    h.indexBytes = q.value(2).toLongLong();
    h.toastBytes = q.value(3).toLongLong();
    h.liveTuples = q.value(4).toLongLong();
    h.deadTuples = q.value(5).toLongLong();
    h.lastVacuum = q.value(6).toDateTime();
    h.lastAutovacuum = q.value(7).toDateTime();
    h.lastAnalyze = q.value(8).toDateTime();
    h.lastAutoanalyze = q.value(9).toDateTime();
    h.vacuumCount = q.value(10).toLongLong();
    h.autovacuumCount = q.value(11).toLongLong();
    h.fillfactor = q.value(12).toInt();
    h.packedHeapBytes = qint64(mGeometry.heapSizeEstimate(h.fillfactor));
    const double ideal = double(h.packedHeapBytes);
    h.bloat = ideal > 0 ? double(h.heapBytes) / ideal : 0;
    return h;
}

} // namespace bloom
