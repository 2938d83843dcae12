// bloomctl commands about the whole filter: init, info, fill, fpr, skew, chunk.
#include "commands.h"
#include "context.h"

#include "common/printable.h"
#include "postgres/batchcheck.h"
#include "postgres/pgarray.h"

#include "maintenance/publications.h"
#include "maintenance/rebuild.h"
#include "model/fillstats.h"
#include "model/fprmodel.h"
#include "postgres/filtersql.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

#include <cmath>

namespace bloom::cli {

namespace {

void printJson(Context &c, const QJsonObject &o)
{
    c.out() << QJsonDocument(o).toJson(QJsonDocument::Indented);
}

QString poolingName(Pooling p)
{
    return p == Pooling::Transaction ? QStringLiteral("transaction")
           : p == Pooling::Session   ? QStringLiteral("session")
                                     : QStringLiteral("none");
}

QString oneIn(double p)
{
    return fpr::oneIn(p);
}

QString when(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODate) : QStringLiteral("never");
}

QJsonValue whenJson(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODate)) : QJsonValue(QJsonValue::Null);
}

} // namespace

int cmdInit(Context &c)
{
    if (c.args().positional.size() != 1)
        return c.usage(QStringLiteral("init takes no arguments (use --chunks, --chunk-bits, --k)"));
    auto g = geometryFromArgs(c.args());
    if (!g)
        return c.fail(g.error());
    auto db = c.database();
    if (!db)
        return c.fail(db.error());
    FilterRef ref;
    ref.table = c.args().option("table", ref.table);
    ref.function = c.args().option("function", ref.function);
    FilterStore store(**db, ref);
    // On a publisher whose publications take every new table, the subscribers must have the pair first.
    auto table = (*db)->resolve(ref.table, QStringLiteral("--table"), Database::ObjectKind::Table);
    if (!table)
        return c.fail(table.error());
    auto function = (*db)->resolve(ref.function, QStringLiteral("--function"), Database::ObjectKind::TextFunction);
    if (!function)
        return c.fail(function.error());
    QSqlQuery exists((*db)->db());
    exists.prepare(QStringLiteral("select pg_catalog.to_regclass(?) is not null"));
    exists.addBindValue(table->quoted());
    if (!exists.exec() || !exists.next())
        return c.fail(Database::queryError(exists, QStringLiteral("looking for %1").arg(table->text())));
    const bool there = exists.value(0).toBool();
    exists.finish();
    if (auto s = there // init refuses an existing table itself
                     ? success()
                     : maintenance::guardNewTable(**db, *table, table->text(),
                                                  renderTableSql(*g, table->quoted()) +
                                                      renderFunctionSql(*g, function->quoted()),
                                                  c.args().flag("publication-ok"));
        !s)
        return c.fail(s.error());
    if (auto s = store.init(*g); !s)
        return c.fail(s.error());
    if (c.json())
        printJson(c, QJsonObject{{QStringLiteral("table"), ref.table},
                                 {QStringLiteral("function"), ref.function},
                                 {QStringLiteral("chunks"), qint64(g->chunks())},
                                 {QStringLiteral("chunk_bits"), qint64(g->chunkBits())},
                                 {QStringLiteral("k"), g->k()}});
    else
        c.out() << "created " << ref.table << " and " << ref.function << "(text): " << g->describe() << '\n';
    return ExitOk;
}

int cmdInfo(Context &c)
{
    auto reading = readFilter(c);
    if (!reading)
        return c.fail(reading.error());
    FilterStore *s = reading->store;
    const FillSnapshot *fill = &reading->fill;
    if (!fill->damage.empty()) // every figure below would count the damaged chunks as empty
        return c.fail(s->damageError(fill->damage));
    const TableHealth *health = &reading->health;
    const RebuildState *rebuild = &reading->rebuild;
    const ServerRole &role = reading->role;
    const Geometry &g = s->geometry();
    const double names = fill->estimatedNames();
    const double fprNow = fill->estimatedFpr();
    const double capacity = fpr::capacity(g, 0.01);
    if (c.json()) {
        printJson(c,
                  QJsonObject{
                      {QStringLiteral("rebuild_in_progress"), rebuild->exists},
                      {QStringLiteral("rebuild_into"), rebuild->exists ? QJsonValue(rebuild->newTable) : QJsonValue()},
                      {QStringLiteral("rebuild_stage"), rebuild->exists ? QJsonValue(rebuild->stage) : QJsonValue()},
                      {QStringLiteral("rebuild_interrupted"), rebuild->interrupted()},
                      {QStringLiteral("rebuild_running"), rebuild->exists && rebuild->running},
                      {QStringLiteral("rebuild_waiting_for_swap"), rebuild->waitingForSwap()},
                      {QStringLiteral("rebuild_stage_seconds"),
                       rebuild->stageSeconds >= 0 ? QJsonValue(rebuild->stageSeconds) : QJsonValue()},
                      {QStringLiteral("rebuild_heartbeat_seconds"),
                       rebuild->heartbeatSeconds >= 0 ? QJsonValue(rebuild->heartbeatSeconds) : QJsonValue()},
                      {QStringLiteral("table"), s->ref().table},
                      {QStringLiteral("function"), s->ref().function},
                      {QStringLiteral("chunks"), qint64(g.chunks())},
                      {QStringLiteral("chunk_bits"), qint64(g.chunkBits())},
                      {QStringLiteral("k"), g.k()},
                      {QStringLiteral("rows"), qint64(fill->setBits.size())},
                      {QStringLiteral("total_bits"), qint64(g.totalBits())},
                      {QStringLiteral("set_bits"), qint64(fill->totalSetBits())},
                      {QStringLiteral("fill"), fill->meanFill()},
                      {QStringLiteral("min_chunk_set_bits"), qint64(fill->minSetBits())},
                      {QStringLiteral("max_chunk_set_bits"), qint64(fill->maxSetBits())},
                      {QStringLiteral("estimated_fpr"), fprNow},
                      {QStringLiteral("estimated_names"), std::round(names)},
                      {QStringLiteral("names_at_1pct_fpr"), std::round(capacity)},
                      {QStringLiteral("table_bytes"), health->totalBytes},
                      {QStringLiteral("heap_bytes"), health->heapBytes},
                      {QStringLiteral("index_bytes"), health->indexBytes},
                      {QStringLiteral("live_tuples"), health->liveTuples},
                      {QStringLiteral("dead_tuples"), health->deadTuples},
                      {QStringLiteral("bloat"), health->bloat},
                      {QStringLiteral("last_vacuum"), whenJson(health->lastVacuum)},
                      {QStringLiteral("last_autovacuum"), whenJson(health->lastAutovacuum)},
                      {QStringLiteral("last_analyze"), whenJson(health->lastAnalyze)},
                      {QStringLiteral("last_autoanalyze"), whenJson(health->lastAutoanalyze)},
                      {QStringLiteral("server_role"),
                       role.inRecovery ? QStringLiteral("standby") : QStringLiteral("primary")},
                      {QStringLiteral("replay_lag_seconds"),
                       role.replayLagSeconds ? QJsonValue(*role.replayLagSeconds) : QJsonValue()},
                      {QStringLiteral("subscription"),
                       role.subscription.isEmpty() ? QJsonValue() : QJsonValue(role.subscription)},
                      {QStringLiteral("subscription_lag_seconds"),
                       role.subscriptionLagSeconds ? QJsonValue(*role.subscriptionLagSeconds) : QJsonValue()},
                      // On a standby the tuple counts and vacuum times above are its own (it counts no
                      // replicated write), not the table's on the primary.
                      {QStringLiteral("statistics_of"),
                       role.inRecovery ? QStringLiteral("this standby") : QStringLiteral("this server")},
                      {QStringLiteral("pooling"), poolingName((*c.database())->pooling())},
                  });
        return ExitOk;
    }
    QTextStream &o = c.out();
    o << "filter          " << s->ref().table << " / " << s->ref().function << "(text) on "
      << (*c.database())->spec().describe() << '\n'
      << "geometry        " << g.describe() << (g.isReference() ? "  [the reference filter]" : "") << '\n'
      << "set bits        " << fill->totalSetBits() << " of " << g.totalBits() << " ("
      << QString::number(fill->meanFill() * 100, 'f', 3) << "% full; chunks " << fill->minSetBits() << ".."
      << fill->maxSetBits() << ")\n"
      << "estimated FPR   " << QString::number(fprNow, 'g', 4) << " (" << oneIn(fprNow) << ")\n"
      << "estimated names " << qRound64(names) << " (1% FPR at " << qRound64(capacity) << ")\n"
      << "table size      " << formatBytes(quint64(health->totalBytes)) << " (heap "
      << formatBytes(quint64(health->heapBytes)) << ", index " << formatBytes(quint64(health->indexBytes))
      << "; packed rows would need " << formatBytes(quint64(health->packedHeapBytes))
      << (health->fillfactor != 100 ? QStringLiteral(" at fillfactor %1").arg(health->fillfactor) : QString()) << ")\n"
      << "server          " << role.describe() << '\n';
    if (const QString sub = role.describeSubscription(); !sub.isEmpty())
        o << "replication     " << sub
          << " (its filter answers for what the apply worker applied; during a table's initial copy or a "
             "refresh, for the rows copied so far: docs/operations.md \"Logical replication\")\n";
    if (const QString pool = (*c.database())->describePooling(); !pool.isEmpty())
        o << "connection      through " << pool << '\n';
    if (role.inRecovery) {
        // A standby's statistics count only what happened on the standby: no replicated write, no vacuum
        // of the primary's. Shown as such, never as the table's health.
        o << "health          bloat " << QString::number(health->bloat, 'f', 2)
          << "x; tuple counts, vacuum and analyze: this standby's own statistics (" << health->liveTuples << " live, "
          << health->deadTuples << " dead tuples, vacuum " << when(health->lastVacuum)
          << "): a standby counts no replicated write; run info on the primary for the table's\n";
    } else {
        o << "health          " << health->liveTuples << " live, " << health->deadTuples << " dead tuples; bloat "
          << QString::number(health->bloat, 'f', 2) << "x\n"
          << "vacuum          last " << when(health->lastVacuum) << ", last autovacuum " << when(health->lastAutovacuum)
          << " (" << health->vacuumCount << " + " << health->autovacuumCount << " runs)\n"
          << "analyze         last " << when(health->lastAnalyze) << ", last autoanalyze "
          << when(health->lastAutoanalyze) << '\n';
    }
    // The rebuild state's table and stage are the server's text: printed escaped.
    const RebuildState *st = &*rebuild;
    const QString newTable = escapeField(st->newTable), stage = escapeField(st->stage);
    const QString since = QString::number(qMax(0.0, st->stageSeconds), 'f', 0);
    if (st->waitingForSwap()) {
        o << "rebuild         " << newTable << " is rebuilt and waits for its swap (for " << since
          << " s): 'bloomctl swap " << newTable << "' (or 'bloomctl rebuild --abort'); until then the live function "
          << "records every name, checks included (" << st->pending << " pending)\n";
    } else if (st->interrupted()) {
        o << "REBUILD INTERRUPTED into " << newTable << " (stage " << stage << ", started "
          << st->startedAt.toUTC().toString(Qt::ISODate) << "): no Bloomscope session is running it, yet the live "
          << "function still records every name it places (" << st->pending << " pending).\n"
          << "                "
          << (st->newTableWritten()
                  ? QStringLiteral("Its new table is written: finish it with 'bloomctl swap %1' (the swap drains the "
                                   "rest), or undo it with 'bloomctl rebuild --abort'\n")
                        .arg(newTable)
                  : QStringLiteral("Its new table was never written (cut in stage %1): undo it with 'bloomctl rebuild "
                                   "--abort', then rebuild again\n")
                        .arg(stage));
        c.warn(QStringLiteral("an interrupted rebuild into %1 is still recording names").arg(newTable));
    } else if (st->exists)
        o << "rebuild         running" << (role.inRecovery ? " on the primary" : "") << " into " << newTable
          << ", stage " << stage << ", started " << st->startedAt.toUTC().toString(Qt::ISODate) << ", last heartbeat "
          << QString::number(qMax(0.0, st->heartbeatSeconds), 'f', 0) << " s ago, " << st->pending
          << " pending name(s): the live function records every name until 'bloomctl swap " << newTable
          << "' or 'bloomctl rebuild --abort'\n";
    if (!role.inRecovery && health->deadTuples > health->liveTuples / 5)
        o << "note            many dead tuples: every add rewrites a ~1 KiB row; VACUUM " << s->ref().table
          << " (or tune autovacuum_vacuum_scale_factor for it)\n";
    return ExitOk;
}

int cmdFill(Context &c)
{
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    auto fill = (*store)->fill();
    if (!fill)
        return c.fail(fill.error());
    if (!fill->damage.empty()) // a NULL or missing row is not a chunk with 0 bits set
        return c.fail((*store)->damageError(fill->damage));
    if (c.json()) {
        QJsonArray counts;
        for (quint32 s : fill->setBits)
            counts.append(qint64(s));
        printJson(c, QJsonObject{{QStringLiteral("chunk_bits"), qint64(fill->geometry.chunkBits())},
                                 {QStringLiteral("set_bits"), counts}});
        return ExitOk;
    }
    const char sep = c.args().flag("csv") ? ',' : '\t';
    c.out() << "chunk" << sep << "set_bits\n";
    for (size_t i = 0; i < fill->setBits.size(); ++i)
        c.out() << i << sep << fill->setBits[i] << '\n';
    return ExitOk;
}

int cmdFpr(Context &c)
{
    const auto sampleCount = wholeOption(c.args(), "sample", 0, 1, 100'000'000);
    if (!sampleCount)
        return c.usage(sampleCount.error().message);
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    FilterStore *s = *store;
    if (!s->damage().empty()) // the reference query's avg() skips NULL rows and cannot see missing ones
        return c.fail(s->damageError(s->damage()));
    if (!c.args().has("sample")) {
        auto estimate = s->referenceEstimate();
        if (!estimate)
            return c.fail(estimate.error());
        if (c.json())
            printJson(c, QJsonObject{{QStringLiteral("estimated_fpr"), *estimate}});
        else
            c.out() << "estimated FPR " << QString::number(*estimate, 'g', 4) << " (" << oneIn(*estimate)
                    << "; the reference query avg(power(bit_count(bits) / " << s->geometry().chunkBits() << ".0, "
                    << s->geometry().k() << ")))\n";
        return ExitOk;
    }
    // Past the crossover the filter is read once and the probes answered from memory on every core,
    // made and dropped a block at a time; the estimate is then the same snapshot's.
    BatchCheck batch(*s);
    auto sample = batch.sampleFpr(*sampleCount);
    if (!sample)
        return c.fail(sample.error());
    double estimate = sample->estimated;
    if (!batch.inMemory()) {
        auto server = s->referenceEstimate();
        if (!server)
            return c.fail(server.error());
        estimate = *server;
    }
    if (c.json()) {
        QJsonObject o{{QStringLiteral("probes"), sample->probes},
                      {QStringLiteral("false_positives"), sample->falsePositives},
                      {QStringLiteral("measured_fpr"), sample->measured},
                      {QStringLiteral("measured_low95"), sample->low95},
                      {QStringLiteral("measured_high95"), sample->high95},
                      {QStringLiteral("estimated_fpr"), estimate},
                      {QStringLiteral("model_fpr"), sample->model}};
        if (batch.inMemory())
            o.insert(QStringLiteral("as_of"), batch.snapshot().toString(Qt::ISODateWithMs));
        printJson(c, o);
        return ExitOk;
    }
    c.out() << "measured  " << QString::number(sample->measured, 'g', 4) << " (" << sample->falsePositives << " of "
            << sample->probes << " probes; 95% interval " << QString::number(sample->low95, 'g', 4) << " .. "
            << QString::number(sample->high95, 'g', 4) << ")\n"
            << "estimated " << QString::number(estimate, 'g', 4)
            << (batch.inMemory() ? " (the reference estimate over the same snapshot)\n"
                                 : " (the reference query over the fill)\n")
            << "model     " << QString::number(sample->model, 'g', 4)
            << " (blocked model at the estimated number of names)\n"
            << (batch.inMemory() ? "probes are 'bloomscope-fpr-probe-' + 124 random bits (25 base32 characters): "
                                   "none was ever added.\n"
                                 : "probes are 'bloomscope-fpr-probe-' + a random UUID (122 random bits): none was "
                                   "ever added.\n");
    if (batch.inMemory())
        c.out() << "as of the snapshot read at " << batch.snapshot().toString(Qt::ISODateWithMs)
                << " (the filter read once, the probes answered in memory)\n";
    return ExitOk;
}

int cmdSkew(Context &c)
{
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    auto fill = (*store)->fill();
    if (!fill)
        return c.fail(fill.error());
    if (!fill->damage.empty()) // damaged chunks would show up as empty outliers
        return c.fail((*store)->damageError(fill->damage));
    const SkewReport r = analyzeSkew(*fill);
    if (c.json()) {
        QJsonArray bins, outliers;
        for (const SkewBin &b : r.bins)
            bins.append(QJsonObject{{QStringLiteral("lo"), qint64(b.lo)},
                                    {QStringLiteral("hi"), qint64(b.hi)},
                                    {QStringLiteral("observed"), b.observed},
                                    {QStringLiteral("expected"), b.expected}});
        for (const SkewOutlier &o : r.outliers)
            outliers.append(QJsonObject{{QStringLiteral("chunk"), qint64(o.chunk)},
                                        {QStringLiteral("set_bits"), qint64(o.setBits)},
                                        {QStringLiteral("z"), o.z}});
        printJson(c, QJsonObject{{QStringLiteral("estimated_names"), std::round(r.names)},
                                 {QStringLiteral("names_per_chunk"), r.lambda},
                                 {QStringLiteral("observed_mean"), r.observedMean},
                                 {QStringLiteral("observed_sd"), r.observedSd},
                                 {QStringLiteral("expected_mean"), r.expectedMean},
                                 {QStringLiteral("expected_sd"), r.expectedSd},
                                 {QStringLiteral("chi_square"), r.chiSquare},
                                 {QStringLiteral("chi_square_bins"), r.chiSquareBins},
                                 {QStringLiteral("bins"), bins},
                                 {QStringLiteral("outliers"), outliers}});
        return ExitOk;
    }
    QTextStream &o = c.out();
    o << "names per chunk " << QString::number(r.lambda, 'f', 1) << " (Poisson), set bits per chunk: observed mean "
      << QString::number(r.observedMean, 'f', 1) << " sd " << QString::number(r.observedSd, 'f', 1) << "; model mean "
      << QString::number(r.expectedMean, 'f', 1) << " sd " << QString::number(r.expectedSd, 'f', 1) << '\n';
    double peak = 1;
    for (const SkewBin &b : r.bins)
        peak = qMax(peak, qMax(double(b.observed), b.expected));
    o << QStringLiteral("%1  %2  %3\n")
             .arg(QStringLiteral("set bits").leftJustified(13), QStringLiteral("chunks").rightJustified(8),
                  QStringLiteral("model").rightJustified(10));
    for (const SkewBin &b : r.bins) {
        const int bar = int(std::lround(40.0 * double(b.observed) / peak));
        const int mark = int(std::lround(40.0 * b.expected / peak));
        QString line(qMax(bar, mark + 1), QLatin1Char(' '));
        for (int i = 0; i < bar; ++i)
            line[i] = QLatin1Char('#');
        line[qMin(mark, int(line.size()) - 1)] = QLatin1Char('|');
        o << QStringLiteral("%1..%2  %3  %4  %5\n")
                 .arg(QString::number(b.lo).rightJustified(5), QString::number(b.hi).leftJustified(5),
                      QString::number(b.observed).rightJustified(8),
                      QString::number(b.expected, 'f', 1).rightJustified(10), line);
    }
    o << "chi-square " << QString::number(r.chiSquare, 'f', 1) << " over " << r.chiSquareBins
      << " bins ('#' observed, '|' model)\n";
    if (r.outliers.isEmpty())
        o << "outliers: none (no chunk fuller or emptier than the model allows)\n";
    else {
        o << "outliers: " << r.outlierCount << " chunk(s) the model expects fewer than 0.001 of"
          << (r.outlierCount > r.outliers.size() ? " (the most extreme shown)" : "") << ":\n";
        for (const SkewOutlier &x : r.outliers)
            o << "  chunk " << x.chunk << ": " << x.setBits << " set bits, z = " << QString::number(x.z, 'f', 1)
              << '\n';
    }
    return ExitOk;
}

int cmdChunk(Context &c)
{
    if (c.args().positional.size() != 2)
        return c.usage(QStringLiteral("chunk takes one chunk number"));
    bool ok = false;
    const qint64 n = c.args().positional[1].toLongLong(&ok);
    if (!ok || n < 0)
        return c.usage(QStringLiteral("'%1' is not a chunk number").arg(c.args().positional[1]));
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    if (n >= qint64((*store)->geometry().chunks()))
        return c.usage(QStringLiteral("chunk %1 is out of range: the filter's chunks are 0 to %2")
                           .arg(QString::number(n), QString::number(qint64((*store)->geometry().chunks()) - 1)));
    auto bits = (*store)->chunkBits(quint32(qMin<qint64>(n, 0xFFFFFFFF)));
    if (!bits)
        return c.fail(bits.error());
    c.warnIfDamaged();
    QJsonArray positions;
    for (int i = 0; i < bits->size(); ++i)
        if (bits->at(i) == '1')
            positions.append(i);
    if (c.json()) {
        printJson(c, QJsonObject{{QStringLiteral("chunk"), n},
                                 {QStringLiteral("chunk_bits"), qint64(bits->size())},
                                 {QStringLiteral("set_bits"), qint64(positions.size())},
                                 {QStringLiteral("positions"), positions}});
        return ExitOk;
    }
    c.out() << "chunk " << n << ": " << positions.size() << " of " << bits->size() << " bits set\n";
    for (qsizetype at = 0; at < bits->size(); at += 128)
        c.out() << QStringLiteral("%1  ").arg(at, 5)
                << QString::fromLatin1(bits->mid(at, 128)).replace(QLatin1Char('0'), QLatin1Char('.')) << '\n';
    return ExitOk;
}

int cmdTables(Context &c)
{
    // Tables that look like filters (an integer chunk and a bit(N) bits column), for completion and
    // for finding a filter: in the role's own schemas, as --table takes them.
    auto db = c.database();
    if (!db)
        return c.fail(db.error());
    QSqlQuery q((*db)->db());
    q.prepare(QStringLiteral(
        "select case when n.nspname = (pg_catalog.current_schemas(false))[1] then c.relname "
        "  else n.nspname || '.' || c.relname end from pg_catalog.pg_class c "
        "join pg_catalog.pg_namespace n on n.oid = c.relnamespace "
        "where c.relkind = 'r' and n.nspname = any (?::text[]) "
        "and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'chunk' "
        "  and a.atttypid in (21, 23, 20)) "
        "and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'bits' "
        "  and a.atttypid = 1560) order by 1"));
    QList<QByteArray> schemas;
    for (const QString &s : (*db)->userSchemas())
        schemas << s.toUtf8();
    q.addBindValue(textArray(schemas));
    if (!q.exec())
        return c.fail(Database::queryError(q, QStringLiteral("listing the filter tables")));
    QJsonArray all;
    while (q.next()) {
        if (c.json())
            all.append(q.value(0).toString());
        else // one a line, for completion: a newline in a catalog name must not make two
            c.out() << escapeField(q.value(0).toString()) << "\n";
    }
    if (c.json())
        printJson(c, QJsonObject{{QStringLiteral("tables"), all}});
    return ExitOk;
}

} // namespace bloom::cli
