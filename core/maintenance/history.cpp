#include "maintenance/history.h"

#include "maintenance/helpers.h"
#include "maintenance/publications.h"
#include "postgres/filtersql.h"
#include "postgres/identifier.h"

#include <QElapsedTimer>
#include <QSqlQuery>

namespace bloom {

namespace {

/** Where the history of `store`'s table lives (its schema, quoted) and whether it is there yet: in the
 *  helper schema, or where an older Bloomscope made it, beside the filter (moved into the helper
 *  schema by a write when this role may). One another role planted is refused, as the rebuild's
 *  helpers are. */
struct Place {
    QualifiedName table; ///< the filter's, resolved
    QString schema;
    bool exists = false;
    bool hasPosition = false; ///< the read_position column (a table made before it existed lacks it)
    maintenance::Helpers helpers;
};

Result<Place> locate(Database &db, FilterStore &store, bool forWrite = false)
{
    auto table = db.resolve(store.ref().table, QStringLiteral("--table"), Database::ObjectKind::Table);
    if (!table)
        return table.error();
    Q_UNUSED(forWrite);
    auto located = maintenance::helpersFor(db, *table, store.functionName());
    if (!located)
        return located.error();
    const maintenance::Helpers &h = *located;
    auto exists = maintenance::trustedHelperExists(db, h, QStringLiteral("bloomscope_history"));
    if (!exists)
        return exists.error();
    const QString quoted = h.history;
    Place place{*table, h.helperSchema, *exists, false, h};
    if (place.exists) {
        QSqlQuery q(db.db());
        q.prepare(QStringLiteral("select exists (select from pg_catalog.pg_attribute where attrelid = "
                                 "pg_catalog.to_regclass(?) and attname = 'read_position' and not attisdropped)"));
        q.addBindValue(quoted);
        if (!q.exec() || !q.next())
            return Database::queryError(q, QStringLiteral("reading the columns of %1").arg(quoted));
        place.hasPosition = q.value(0).toBool();
    }
    return place;
}

/** The statements that make the history table in the helper schema (as the filter's owner when this
 *  role may act as it), readable by whoever may read the filter. */
Result<QString> createWithGrants(Database &db, const Place &place)
{
    const maintenance::Helpers &h = place.helpers;
    auto owner = maintenance::ownerAct(db, h, {h.helperSchemaName}, QStringLiteral("create %1").arg(h.history));
    if (!owner)
        return owner.error();
    auto readers = maintenance::readerGrants(db, h, h.history);
    if (!readers)
        return readers.error();
    return owner->prologue + History::createSql(h.helperSchema) + QLatin1Char('\n') + *readers +
           owner->epilogue({h.history}, {});
}

QString columns(const Place &p)
{
    return QStringLiteral(
               "id, taken_at, filter_table, chunks, chunk_bits, k, set_bits, estimated_names, "
               "estimated_fpr, fullest_chunk, fullest_set_bits, array_to_string(histogram, ','), cost_ms, ") +
           (p.hasPosition ? QStringLiteral("read_position::text") : QStringLiteral("null::text"));
}

/** A row of bloomscope_history, checked before anything shows it: a value no snapshot of a filter can
 *  hold (1e308 names, a negative count, an FPR of 2) is an error naming the row, never a wrapped or
 *  saturated number on the screen. */
Result<Snapshot> fromRow(const QSqlQuery &q)
{
    Snapshot s;
    s.id = q.value(0).toLongLong();
    s.takenAt = q.value(1).toDateTime().toUTC();
    s.table = q.value(2).toString();
    const auto bad = [&s, &q](const char *column, const QVariant &value, const QString &possible) -> Error {
        return makeError(
            ErrorKind::Server,
            QStringLiteral("bloomscope_history row %1 (%2) holds %3 = %4, where a snapshot holds %5")
                .arg(QString::number(s.id), q.value(1).toString(), QLatin1String(column), value.toString(), possible),
            QStringLiteral("delete or correct that row: Bloomscope never records one like it"));
    };
    auto g = Geometry::fromCounts(q.value(3).toLongLong(), q.value(4).toLongLong(), q.value(5).toInt());
    if (!g)
        return bad(
            "chunks, chunk_bits, k",
            QStringLiteral("%1, %2, %3").arg(q.value(3).toString(), q.value(4).toString(), q.value(5).toString()),
            QStringLiteral("a geometry Bloomscope can read"));
    s.geometry = *g;
    const qint64 chunks = qint64(g->chunks());
    if (!s.takenAt.isValid())
        return bad("taken_at", q.value(1), QStringLiteral("a time"));
    const qint64 setBits = q.value(6).toLongLong();
    if (setBits < 0 || quint64(setBits) > g->totalBits())
        return bad("set_bits", q.value(6), QStringLiteral("0 to %1").arg(g->totalBits()));
    s.setBits = quint64(setBits);
    s.estimatedNames = q.value(7).toDouble();
    constexpr double MaxNames = 9007199254740992.0;               // 2^53: counted exactly in a double and a qint64
    if (!(s.estimatedNames >= 0 && s.estimatedNames <= MaxNames)) // NaN fails too
        return bad("estimated_names", q.value(7), QStringLiteral("0 to 2^53"));
    s.estimatedFpr = q.value(8).toDouble();
    if (!(s.estimatedFpr >= 0 && s.estimatedFpr <= 1))
        return bad("estimated_fpr", q.value(8), QStringLiteral("0 to 1"));
    const qint64 fullestChunk = q.value(9).toLongLong();
    if (fullestChunk < 0 || fullestChunk >= chunks)
        return bad("fullest_chunk", q.value(9), QStringLiteral("0 to %1").arg(chunks - 1));
    s.fullestChunk = quint32(fullestChunk);
    const qint64 fullestSetBits = q.value(10).toLongLong();
    if (fullestSetBits < 0 || fullestSetBits > g->chunkBits())
        return bad("fullest_set_bits", q.value(10), QStringLiteral("0 to %1").arg(g->chunkBits()));
    s.fullestSetBits = quint32(fullestSetBits);
    const QStringList histogram = q.value(11).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (histogram.size() > 100)
        return bad("histogram", QStringLiteral("%1 buckets").arg(histogram.size()), QStringLiteral("10 buckets"));
    for (const QString &n : histogram) {
        bool ok = false;
        const qint64 v = n.toLongLong(&ok);
        if (!ok || v < 0 || v > chunks)
            return bad("histogram", n, QStringLiteral("0 to %1 chunks a bucket").arg(chunks));
        s.histogram.append(v);
    }
    s.costMs = q.value(12).toDouble();
    if (!(s.costMs >= 0 && s.costMs < 1e12))
        return bad("cost_ms", q.value(12), QStringLiteral("0 or more milliseconds"));
    s.position = q.value(13).toString();
    return s;
}

Error permission(const Error &e, const QString &schema, const QString &what, const QString &grant)
{
    Error out = e;
    out.message = QStringLiteral("%1: %2").arg(what, e.message);
    if (e.sqlState == QLatin1String("42501")) // the classifier's fix stands for anything else (a standby's 25006)
        out.fix = grant.arg(schema);
    return out;
}

} // namespace

Result<QString> History::createSqlFor(Database &db, FilterStore &store)
{
    auto place = locate(db, store);
    if (!place)
        return place.error();
    if (place->exists)
        return createSql(place->schema);
    // What a DBA runs when this role may not: the helper schema (if missing) and the table in it.
    auto schema = maintenance::helperSchemaSql(db, place->helpers);
    if (!schema)
        return schema.error();
    auto readers = maintenance::readerGrants(db, place->helpers, place->helpers.history);
    if (!readers)
        return readers.error();
    return *schema + createSql(place->helpers.helperSchema) + QLatin1Char('\n') + *readers;
}

QString History::createSql(const QString &quotedSchema)
{
    // Without the file's leading comment: a DBA reads the statements.
    QString sql = sqlResource(QStringLiteral("history_table.sql"));
    while (sql.startsWith(QLatin1String("--")))
        sql = sql.mid(sql.indexOf(QLatin1Char('\n')) + 1);
    return sql.trimmed().replace(QStringLiteral("{{schema}}"), quotedSchema);
}

QString History::functionSql(const QString &quotedSchema)
{
    return sqlResource(QStringLiteral("history_function.sql")).replace(QStringLiteral("{{schema}}"), quotedSchema);
}

Result<QString> History::recordCall(Database &db, FilterStore &store)
{
    auto place = locate(db, store);
    if (!place)
        return place.error();
    return QStringLiteral("select %1.bloomscope_record(%2::regclass, %3::regprocedure, true)")
        .arg(place->schema, db.quoteLiteral(store.tableName().quoted()),
             db.quoteLiteral(store.functionName().quoted() + QStringLiteral("(text)")));
}

namespace {

/** A new history table that a publication would send to subscribers lacking it is refused. */
Status guardNewHistory(Database &db, const Place &place, bool publicationOk)
{
    if (place.exists)
        return success();
    return maintenance::guardNewTable(
        db, place.table, QualifiedName{place.helpers.helperSchemaName, QStringLiteral("bloomscope_history")}.text(),
        History::createSql(place.helpers.helperSchema), publicationOk);
}

} // namespace

Result<QString> History::installFunction(Database &db, FilterStore &store, bool publicationOk)
{
    if (auto s = db.requirePrimary(QStringLiteral("installing bloomscope_record()")); !s)
        return s.error();
    auto place = locate(db, store, true);
    if (!place)
        return place.error();
    if (auto s = guardNewHistory(db, *place, publicationOk); !s)
        return s.error();
    if (!place->exists) {
        if (auto s = maintenance::ensureHelperSchema(db, place->helpers); !s)
            return s.error();
        place->schema = place->helpers.helperSchema;
    }
    // The table (if missing) and the function in one transaction, as the filter's owner when this role
    // may act as it.
    QString sql;
    if (!place->exists) {
        auto create = createWithGrants(db, *place);
        if (!create)
            return create.error();
        sql = *create;
    } else {
        auto owner = maintenance::ownerAct(db, place->helpers, {place->helpers.helperSchemaName},
                                           QStringLiteral("install %1.bloomscope_record").arg(place->schema));
        if (!owner)
            return owner.error();
        sql = owner->prologue;
    }
    sql = QStringLiteral("begin;\n") + sql + functionSql(place->schema) + QStringLiteral(";\ncommit;");
    if (auto s = maintenance::execScript(db, sql, QStringLiteral("installing %1.bloomscope_record").arg(place->schema));
        !s) {
        (void)maintenance::execScript(db, QStringLiteral("rollback"), QStringLiteral("rolling back"));
        return permission(s.error(), place->schema, QStringLiteral("cannot install bloomscope_record"),
                          QStringLiteral("run it as the filter's owner, a member of it or a superuser, or have one "
                                         "of them run the SQL of 'bloomctl record --print-sql --install-function' "
                                         "(schema %1)"));
    }
    return recordCall(db, store);
}

Result<bool> History::exists(Database &db, FilterStore &store)
{
    auto place = locate(db, store);
    if (!place)
        return place.error();
    return place->exists;
}

Result<Snapshot> History::record(Database &db, FilterStore &store, const QDateTime &at, bool publicationOk)
{
    if (auto s = db.requirePrimary(QStringLiteral("recording a snapshot of %1").arg(store.tableText())); !s)
        return s.error();
    auto place = locate(db, store, true);
    if (!place)
        return place.error();
    if (auto s = guardNewHistory(db, *place, publicationOk); !s)
        return s.error();
    const QString *schema = &place->schema;
    if (place->exists && !place->hasPosition) {
        // A table from before read_position: its owner adds the column; anyone else records without it.
        QSqlQuery alter(db.db());
        place->hasPosition =
            alter.exec(QStringLiteral("alter table %1.bloomscope_history add column if not exists read_position bigint")
                           .arg(*schema));
    }
    if (!place->exists) {
        if (auto s = maintenance::ensureHelperSchema(db, place->helpers); !s)
            return s.error();
        place->schema = place->helpers.helperSchema;
        schema = &place->schema;
        auto create = createWithGrants(db, *place);
        if (!create)
            return create.error();
        if (auto s = maintenance::execScript(db, QStringLiteral("begin;\n") + *create + QStringLiteral("commit;"),
                                             QStringLiteral("creating %1.bloomscope_history").arg(*schema));
            !s) {
            (void)maintenance::execScript(db, QStringLiteral("rollback"), QStringLiteral("rolling back"));
            return permission(s.error(), *schema, QStringLiteral("cannot create the history table"),
                              QStringLiteral("let this role create tables in %1 (grant create on schema %1 to "
                                             "ROLE), or have the filter's owner (a member of it, or a superuser) run "
                                             "the SQL of 'bloomctl record --print-sql' and grant select, insert, "
                                             "delete on it and usage on its id sequence"));
        }
        place->hasPosition = true;
    }
    auto fill = store.fill();
    if (!fill)
        return fill.error();
    if (!fill->damage.empty()) // its figures would count the damaged chunks as empty
        return store.damageError(fill->damage);
    Snapshot s;
    s.table = store.tableText();
    s.geometry = store.geometry();
    s.setBits = fill->totalSetBits();
    s.estimatedNames = fill->estimatedNames();
    s.estimatedFpr = fill->estimatedFpr();
    s.costMs = double(fill->elapsedMs);
    s.position = fill->position;
    const quint32 bits = s.geometry.chunkBits();
    s.histogram = QList<qint64>(10, 0);
    for (size_t c = 0; c < fill->setBits.size(); ++c) {
        const quint32 set = fill->setBits[c];
        ++s.histogram[qMin<qsizetype>(9, qsizetype(quint64(set) * 10 / bits))];
        if (set > s.fullestSetBits || c == 0) {
            s.fullestSetBits = set;
            s.fullestChunk = quint32(c);
        }
    }
    QStringList hist;
    for (qint64 n : s.histogram)
        hist << QString::number(n);
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("insert into %1.bloomscope_history (taken_at, filter_table, chunks, chunk_bits, k, "
                             "set_bits, estimated_names, estimated_fpr, fullest_chunk, fullest_set_bits, histogram, "
                             "cost_ms%2) values (coalesce(?::timestamptz, now()), ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                             "string_to_array(?, ',')::bigint[], ?%3) returning id, taken_at")
                  .arg(*schema, place->hasPosition ? QStringLiteral(", read_position") : QString(),
                       place->hasPosition ? QStringLiteral(", ?::bigint") : QString()));
    q.addBindValue(at.isValid() ? at.toUTC().toString(Qt::ISODateWithMs) : QVariant());
    q.addBindValue(s.table);
    q.addBindValue(qint64(s.geometry.chunks()));
    q.addBindValue(qint64(bits));
    q.addBindValue(s.geometry.k());
    q.addBindValue(qint64(s.setBits));
    q.addBindValue(s.estimatedNames);
    q.addBindValue(s.estimatedFpr);
    q.addBindValue(qint64(s.fullestChunk));
    q.addBindValue(qint64(s.fullestSetBits));
    q.addBindValue(hist.join(QLatin1Char(',')));
    q.addBindValue(s.costMs);
    if (place->hasPosition)
        q.addBindValue(s.position.isEmpty() ? QVariant() : QVariant(s.position));
    if (!q.exec() || !q.next())
        return permission(Database::queryError(q, QStringLiteral("recording a snapshot")), *schema,
                          QStringLiteral("cannot record a snapshot"),
                          QStringLiteral("grant insert, select on %1.bloomscope_history and usage on sequence "
                                         "%1.bloomscope_history_id_seq to this role"));
    s.id = q.value(0).toLongLong();
    s.takenAt = q.value(1).toDateTime().toUTC();
    return s;
}

Result<QList<Snapshot>> History::list(Database &db, FilterStore &store, const QDateTime &since, qint64 afterId)
{
    auto place = locate(db, store);
    if (!place)
        return place.error();
    const QString *schema = &place->schema;
    QList<Snapshot> out;
    if (!place->exists)
        return out;
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("select %1 from %2.bloomscope_history where filter_table = ? and "
                             "taken_at >= coalesce(?::timestamptz, '-infinity') and id > ? order by taken_at, id")
                  .arg(columns(*place), *schema));
    q.addBindValue(store.tableText());
    q.addBindValue(since.isValid() ? since.toUTC().toString(Qt::ISODateWithMs) : QVariant());
    q.addBindValue(afterId);
    if (!q.exec())
        return permission(Database::queryError(q, QStringLiteral("reading the history")), *schema,
                          QStringLiteral("cannot read the history"),
                          QStringLiteral("grant select on %1.bloomscope_history to this role"));
    while (q.next()) {
        auto s = fromRow(q);
        if (!s)
            return s.error();
        out.append(std::move(s).value());
    }
    return out;
}

Result<std::optional<Snapshot>> History::newest(Database &db, FilterStore &store)
{
    auto place = locate(db, store);
    if (!place)
        return place.error();
    const QString *schema = &place->schema;
    if (!place->exists)
        return std::optional<Snapshot>{};
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("select %1 from %2.bloomscope_history where filter_table = ? "
                             "order by taken_at desc, id desc limit 1")
                  .arg(columns(*place), *schema));
    q.addBindValue(store.tableText());
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the newest snapshot"));
    if (!q.next())
        return std::optional<Snapshot>{};
    auto s = fromRow(q);
    if (!s)
        return s.error();
    return std::optional<Snapshot>{std::move(s).value()};
}

Result<qint64> History::thin(Database &db, FilterStore &store, int keepAllDays, int hourlyDays)
{
    auto place = locate(db, store);
    if (!place)
        return place.error();
    const QString *schema = &place->schema;
    if (!place->exists)
        return qint64(0);
    // Keep the first snapshot of each hour (older than keepAllDays) or day (older than hourlyDays).
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral(
                  "delete from %1.bloomscope_history h using (\n"
                  "  select id, row_number() over (partition by case when taken_at < now() - make_interval(days => ?) "
                  "then date_trunc('day', taken_at) else date_trunc('hour', taken_at) end order by taken_at, id) "
                  "as nth\n"
                  "  from %1.bloomscope_history where filter_table = ? and taken_at < now() - make_interval(days "
                  "=> ?)) old\n"
                  "where h.id = old.id and old.nth > 1")
                  .arg(*schema));
    q.addBindValue(hourlyDays);
    q.addBindValue(store.tableText());
    q.addBindValue(keepAllDays);
    if (!q.exec())
        return permission(Database::queryError(q, QStringLiteral("thinning the history")), *schema,
                          QStringLiteral("cannot thin the history"),
                          QStringLiteral("grant delete on %1.bloomscope_history to this role"));
    return qint64(q.numRowsAffected());
}

} // namespace bloom
