#include "shards/audit.h"

#include "maintenance/helpers.h"
#include "maintenance/publications.h"
#include "postgres/batchcheck.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace bloom {

Result<AuditReport> audit(FilterStore &store, const ShardMap &map, qint64 perShard, qint64 probes)
{
    AuditReport r;
    // Past the crossover (the users and the probes together) the filter is read once and everything
    // is answered from that snapshot; users stream from each shard a block at a time, and only the
    // false negatives are kept.
    BatchCheck batch(store);
    if (perShard * map.shards.size() + probes > batch.effectiveCrossover())
        if (auto s = batch.read(); !s)
            return s.error();
    constexpr qsizetype Block = 1 << 16;
    QList<QByteArray> block;
    std::optional<Error> failed;
    const auto flush = [&]() -> bool {
        auto verdicts = batch.check(block);
        if (!verdicts) {
            failed = verdicts.error();
            return false;
        }
        for (qsizetype i = 0; i < block.size(); ++i)
            if (!verdicts->at(i))
                r.falseNegatives.append(block[i]);
        r.sampled += block.size();
        block.clear();
        return true;
    };
    for (int i = 0; i < map.shards.size(); ++i) {
        PgConn c(map.shards[i].toConninfo(), PgConn::SearchPath::CatalogFirst);
        if (!c.ok())
            return makeError(ErrorKind::Connection,
                             QStringLiteral("shard %1: %2").arg(QString::number(i), c.errorMessage()));
        const QString query =
            QStringLiteral("copy (select %1 from %2 order by pg_catalog.random() limit %3) to stdout")
                .arg(c.quoteIdentifier(map.column), c.quoteIdentifier(map.table), QString::number(perShard));
        auto rows = copyOut(c.handle(), query, [&](QByteArrayView line) {
            QByteArray name = copyTextUnescape(line);
            if (!name.isNull() && validateName(name).ok())
                block.append(std::move(name));
            return block.size() < Block || flush();
        });
        if (failed)
            return *failed;
        if (!rows)
            return makeError(rows.error().kind,
                             QStringLiteral("shard %1: %2").arg(QString::number(i), rows.error().message),
                             rows.error().fix);
        if (!block.isEmpty() && !flush())
            return *failed;
    }
    auto sample = batch.sampleFpr(probes);
    if (!sample)
        return sample.error();
    r.probes = sample->probes;
    r.falsePositives = sample->falsePositives;
    r.measured = sample->measured;
    r.low95 = sample->low95;
    r.high95 = sample->high95;
    r.estimated = sample->estimated;
    r.shards = int(map.shards.size());
    r.at = QDateTime::currentDateTimeUtc();
    return r;
}

namespace {

/** The audit table among the filter's helpers, quoted, and whether it is there; one another role
 *  planted is refused, as the rebuild's helpers are (a planted row could say "no false negative"). */
Result<std::pair<QString, bool>> auditTable(Database &db, const maintenance::Helpers &h)
{
    auto exists = maintenance::trustedHelperExists(db, h, QStringLiteral("bloomscope_audit"));
    if (!exists)
        return exists.error();
    return std::pair{h.audit, *exists};
}

} // namespace

Status recordAudit(Database &db, const QualifiedName &filterTable, const AuditReport &r, bool publicationOk)
{
    auto located = maintenance::helpersFor(db, filterTable, QualifiedName{});
    if (!located)
        return located.error();
    const maintenance::Helpers &h = *located;
    auto place = auditTable(db, h);
    if (!place)
        return place.error();
    const QString table = place->first;
    const QString create =
        QStringLiteral(
            "create table if not exists %1 (id bigserial primary key, filter_table text not null, "
            "at timestamptz not null default now(), shards int not null, sampled bigint not null, "
            "false_negatives jsonb not null, probes bigint not null, false_positives bigint not null, "
            "measured float8 not null, low95 float8 not null, high95 float8 not null, estimated float8 not null)")
            .arg(table);
    if (!place->second) {
        if (auto s = maintenance::guardNewTable(
                db, filterTable, QualifiedName{h.helperSchemaName, QStringLiteral("bloomscope_audit")}.text(),
                create + QStringLiteral(";\n"), publicationOk);
            !s)
            return s;
        // Made in the helper schema, as the filter's owner when this role may act as it, readable by
        // whoever may read the filter.
        if (auto s = maintenance::ensureHelperSchema(db, h); !s)
            return s;
        auto owner = maintenance::ownerAct(db, h, {h.helperSchemaName}, QStringLiteral("create %1").arg(table));
        if (!owner)
            return owner.error();
        auto readers = maintenance::readerGrants(db, h, table);
        if (!readers)
            return readers.error();
        if (auto s = maintenance::execScript(
                db,
                QStringLiteral("begin;\n%1%2;\nrevoke all on %3 from public;\n%4%5commit;")
                    .arg(owner->prologue, create, table, *readers, owner->epilogue({table}, {})),
                QStringLiteral("creating %1").arg(table));
            !s) {
            (void)maintenance::execScript(db, QStringLiteral("rollback"), QStringLiteral("rolling back"));
            return s;
        }
    }
    QJsonArray fn;
    for (const QByteArray &n : r.falseNegatives)
        fn.append(QString::fromUtf8(n));
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("insert into %1 (filter_table, at, shards, sampled, false_negatives, "
                             "probes, false_positives, measured, low95, high95, estimated) "
                             "values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?)")
                  .arg(table));
    for (const QVariant &v :
         {QVariant(filterTable.name), QVariant(r.at.isValid() ? r.at : QDateTime::currentDateTimeUtc()),
          QVariant(r.shards), QVariant(r.sampled),
          QVariant(QString::fromUtf8(QJsonDocument(fn).toJson(QJsonDocument::Compact))), QVariant(r.probes),
          QVariant(r.falsePositives), QVariant(r.measured), QVariant(r.low95), QVariant(r.high95),
          QVariant(r.estimated)})
        q.addBindValue(v);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("recording the audit in bloomscope_audit"));
    return success();
}

Result<std::optional<AuditReport>> lastAudit(Database &db, const QualifiedName &filterTable)
{
    auto located = maintenance::helpersFor(db, filterTable, QualifiedName{});
    if (!located)
        return located.error();
    auto place = auditTable(db, *located);
    if (!place)
        return place.error();
    if (!place->second)
        return std::optional<AuditReport>{};
    const QString table = place->first;
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("select at, shards, sampled, false_negatives::text, probes, false_positives, measured, "
                             "low95, high95, estimated from %1 where filter_table = ? "
                             "order by at desc, id desc limit 1")
                  .arg(table));
    q.addBindValue(filterTable.name);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the last audit"));
    if (!q.next())
        return std::optional<AuditReport>{};
    AuditReport r;
    r.at = q.value(0).toDateTime();
    r.shards = q.value(1).toInt();
    r.sampled = q.value(2).toLongLong();
    for (const QJsonValue &v : QJsonDocument::fromJson(q.value(3).toString().toUtf8()).array())
        r.falseNegatives.append(v.toString().toUtf8());
    r.probes = q.value(4).toLongLong();
    r.falsePositives = q.value(5).toLongLong();
    r.measured = q.value(6).toDouble();
    r.low95 = q.value(7).toDouble();
    r.high95 = q.value(8).toDouble();
    r.estimated = q.value(9).toDouble();
    return std::optional<AuditReport>{r};
}

} // namespace bloom
