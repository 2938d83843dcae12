// bloomctl commands for monitoring: health (a monitoring plugin: Nagios, Icinga) and metrics
// (Prometheus text exposition).
#include "commands.h"
#include "context.h"

#include "maintenance/history.h"
#include "maintenance/rebuild.h"
#include "model/fprmodel.h"
#include "shards/audit.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace bloom::cli {

namespace {

/** The monitoring-plugin exit codes (Nagios plugin guidelines). */
enum PluginState : int { PluginOk = 0, PluginWarning = 1, PluginCritical = 2, PluginUnknown = 3 };

const char *const StateNames[] = {"OK", "WARNING", "CRITICAL", "UNKNOWN"};

QString label(const QString &v)
{
    QString out = v;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    out.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return out;
}

} // namespace

int cmdHealth(Context &c)
{
    // One status line and the plugin exit code; anything that keeps the check from running is UNKNOWN.
    const auto unknown = [&c](const QString &why) {
        c.out() << "BLOOMSCOPE UNKNOWN - " << why.simplified() << "\n"; // one line, as a plugin's first line is
        return int(PluginUnknown);
    };
    const auto maxFpr = rateOption(c.args(), "max-fpr", 0.01);
    const auto maxFill = rateOption(c.args(), "max-chunk-fill", 0.5);
    if (!maxFpr || !maxFill)
        return unknown(QStringLiteral("--max-fpr and --max-chunk-fill take a rate between 0 and 1 (0.01 or 1%)"));
    const auto warnFpr = rateOption(c.args(), "warn-fpr", *maxFpr / 2);
    const auto warnFill = rateOption(c.args(), "warn-chunk-fill", *maxFill * 0.9);
    if (!warnFpr || !warnFill)
        return unknown(QStringLiteral("--warn-fpr and --warn-chunk-fill take a rate between 0 and 1"));
    const auto maxAge = durationSeconds(c.args().option("max-snapshot-age", QStringLiteral("1d")));
    if (!maxAge)
        return unknown(QStringLiteral("--max-snapshot-age takes an age: 3600, 90m, 2h, 1d"));
    auto reading = readFilter(c);
    if (!reading)
        return unknown(reading.error().message);
    FilterStore *s = reading->store;
    const FillSnapshot *fill = &reading->fill;
    const RebuildState *rebuild = &reading->rebuild;
    const double fprNow = fill->estimatedFpr();
    const double fullest = double(fill->maxSetBits()) / s->geometry().chunkBits();
    const double names = fill->estimatedNames();
    const double capacity = fpr::capacity(s->geometry(), *maxFpr);
    int state = PluginOk;
    QStringList why;
    const auto raise = [&state](int to) { state = qMax(state, to); };
    // A NULL or missing chunk row first: its names are neither free nor maybe. The figures below count
    // such chunks as empty, so they are lower bounds: a threshold they cross is crossed all the same.
    const ChunkDamage &damage = fill->damage;
    if (!damage.empty()) {
        raise(PluginCritical);
        const Error e = s->damageError(damage);
        why << e.message + QStringLiteral("; fix: ") + e.fix;
    }
    if (fprNow >= *maxFpr) {
        raise(PluginCritical);
        why << QStringLiteral("estimated FPR %1 over %2").arg(fprNow, 0, 'g', 3).arg(*maxFpr, 0, 'g', 3);
    } else if (fprNow >= *warnFpr) {
        raise(PluginWarning);
        why << QStringLiteral("estimated FPR %1 over %2").arg(fprNow, 0, 'g', 3).arg(*warnFpr, 0, 'g', 3);
    }
    if (fullest >= *maxFill) {
        raise(PluginCritical);
        why << QStringLiteral("fullest chunk %1% over %2%")
                   .arg(fullest * 100, 0, 'f', 1)
                   .arg(*maxFill * 100, 0, 'g', 3);
    } else if (fullest >= *warnFill) {
        raise(PluginWarning);
        why << QStringLiteral("fullest chunk %1% over %2%")
                   .arg(fullest * 100, 0, 'f', 1)
                   .arg(*warnFill * 100, 0, 'g', 3);
    }
    if (rebuild->exists && !rebuild->running && rebuild->stage != QLatin1String("ready")) {
        raise(PluginWarning);
        why << QStringLiteral("rebuild into %1 interrupted (%2 names pending): finish it with swap or undo it with "
                              "rebuild --abort")
                   .arg(rebuild->newTable)
                   .arg(rebuild->pending);
    }
    if (c.args().has("max-snapshot-age")) {
        auto newest = History::newest(**c.database(), *s);
        if (!newest)
            return unknown(newest.error().message);
        const qint64 age = *newest ? (*newest)->takenAt.secsTo(QDateTime::currentDateTimeUtc()) : -1;
        if (age < 0 || age > *maxAge) {
            raise(PluginWarning);
            why << (age < 0 ? QStringLiteral("no snapshot recorded (bloomctl record)")
                            : QStringLiteral("last snapshot %1 s old, over %2 s: is the recording schedule running?")
                                  .arg(age)
                                  .arg(*maxAge));
        }
    }
    const QString summary = QStringLiteral("%1: estimated FPR %2, about %3 names (%4% of the capacity at %5), "
                                           "fullest chunk %6%")
                                .arg(s->tableText())
                                .arg(fprNow, 0, 'g', 3)
                                .arg(qRound64(names))
                                .arg(capacity > 0 ? names / capacity * 100 : 0, 0, 'g', 3)
                                .arg(*maxFpr, 0, 'g', 3)
                                .arg(fullest * 100, 0, 'f', 2);
    // Performance data after the '|', in the plugin format: label=value;warn;crit;min;max (a critical
    // range of 0 alerts above 0). The fill's figures are left out of a damaged filter's: not graphed wrong.
    QString perf = damage.empty() ? QStringLiteral("fpr=%1;%2;%3;0;1 fullest_chunk_fill=%4;%5;%6;0;1 names=%7;;;0; ")
                                        .arg(fprNow, 0, 'g', 6)
                                        .arg(*warnFpr, 0, 'g', 6)
                                        .arg(*maxFpr, 0, 'g', 6)
                                        .arg(fullest, 0, 'g', 6)
                                        .arg(*warnFill, 0, 'g', 6)
                                        .arg(*maxFill, 0, 'g', 6)
                                        .arg(qRound64(names))
                                  : QString();
    perf += QStringLiteral("damaged_chunks=%1;;0;0;").arg(damage.count());
    c.out() << "BLOOMSCOPE " << StateNames[state] << " - " << (why.isEmpty() ? summary : why.join(QStringLiteral("; ")))
            << " | " << perf << "\n";
    return state;
}

int cmdMetrics(Context &c)
{
    QElapsedTimer t;
    t.start();
    const auto target = rateOption(c.args(), "target-fpr", 0.01);
    if (!target)
        return c.usage(QStringLiteral("--target-fpr takes a rate between 0 and 1 (0.01 or 1%)"));
    auto reading = readFilter(c);
    if (!reading)
        return c.fail(reading.error());
    FilterStore *s = reading->store;
    const FillSnapshot *fill = &reading->fill;
    const TableHealth *health = &reading->health;
    const RebuildState *rebuild = &reading->rebuild;
    const Geometry &g = s->geometry();
    const QString labels = QStringLiteral("table=\"%1\"").arg(label(s->tableText()));
    QString out;
    const auto metric = [&out, &labels](const char *name, const char *type, const char *help, double value,
                                        const QString &extra = {}) {
        out += QStringLiteral("# HELP %1 %2\n# TYPE %1 %3\n%1{%4%5} %6\n")
                   .arg(QLatin1String(name), QLatin1String(help), QLatin1String(type), labels,
                        extra.isEmpty() ? QString() : QLatin1Char(',') + extra)
                   .arg(value, 0, 'g', 12);
    };
    const double names = fill->estimatedNames();
    const double capacity = fpr::capacity(g, *target);
    const QString targetLabel = QStringLiteral("target_fpr=\"%1\"").arg(*target, 0, 'g', 6);
    metric("bloomscope_filter_chunks", "gauge", "Rows (chunks) of the filter table.", g.chunks());
    metric("bloomscope_filter_chunk_positions", "gauge", "Bit positions in one chunk.", g.chunkBits());
    metric("bloomscope_filter_hash_functions", "gauge", "Bits a name sets (k).", g.k());
    // NULL and missing chunk rows: a name placed in one is neither free nor maybe. Always both series,
    // so that an alert on > 0 has something to compare; the fill's figures are left out while they are
    // not 0 (they would count those chunks as empty).
    const ChunkDamage &damage = fill->damage;
    out += QStringLiteral("# HELP bloomscope_damaged_chunks Chunk rows that are NULL or missing: names placed in "
                          "them cannot be answered (must be 0; rebuild from the sources).\n"
                          "# TYPE bloomscope_damaged_chunks gauge\n"
                          "bloomscope_damaged_chunks{%1,kind=\"null\"} %2\n"
                          "bloomscope_damaged_chunks{%1,kind=\"missing\"} %3\n")
               .arg(labels)
               .arg(damage.nullChunks.size())
               .arg(damage.missingChunks.size());
    metric("bloomscope_filter_not_null_constraint", "gauge",
           "1 when the bits column is NOT NULL; without it a NULL row can appear (bloomscope_damaged_chunks).",
           s->bitsNotNull() ? 1 : 0);
    if (damage.empty()) {
        metric("bloomscope_filter_positions_set", "gauge", "Bit positions set in the whole filter.",
               double(fill->totalSetBits()));
        metric("bloomscope_filter_fill_ratio", "gauge", "Share of the filter's bits that are set.", fill->meanFill());
        metric("bloomscope_filter_fullest_chunk_fill_ratio", "gauge", "Share of bits set in the fullest chunk.",
               double(fill->maxSetBits()) / g.chunkBits());
        metric("bloomscope_filter_estimated_names", "gauge", "Names the fill implies (estimated from each chunk).",
               std::round(names));
        metric("bloomscope_filter_estimated_fpr", "gauge",
               "False-positive rate estimated from the fill (the reference's "
               "avg(power(bit_count(bits)/B, k))).",
               fill->estimatedFpr());
    } else {
        const Error e = s->damageError(damage);
        c.warn(e.toString());
    }
    metric("bloomscope_filter_capacity_names", "gauge", "Names the filter holds at the target FPR (blocked model).",
           std::round(capacity), targetLabel);
    if (damage.empty())
        metric("bloomscope_filter_capacity_left_names", "gauge", "Names that can still be added before the target FPR.",
               std::round(capacity - names), targetLabel);
    metric("bloomscope_filter_table_bytes", "gauge", "Size of the filter table with its indexes and TOAST.",
           double(health->totalBytes));
    // A standby's pg_stat counts no replicated write: its dead tuples would always say 0. Left out there;
    // the primary's scrape has them.
    if (!reading->role.inRecovery)
        metric("bloomscope_filter_dead_tuples", "gauge", "Dead row versions in the filter table (pg_stat).",
               double(health->deadTuples));
    metric("bloomscope_server_in_recovery", "gauge",
           "1 on a hot standby (read-only replica; its own statistics count no replicated write), 0 on a primary.",
           reading->role.inRecovery ? 1 : 0);
    if (reading->role.replayLagSeconds)
        metric("bloomscope_replay_lag_seconds", "gauge",
               "On a standby: now() - pg_last_xact_replay_timestamp(), the age of the last replayed commit (it also "
               "grows while the primary writes nothing).",
               qMax(0.0, *reading->role.replayLagSeconds));
    if (reading->role.inRecovery)
        metric("bloomscope_replay_pending_bytes", "gauge",
               "On a standby: WAL received from the primary and not yet replayed.",
               double(reading->role.receivedAhead));
    metric("bloomscope_rebuild_in_progress", "gauge", "1 while a rebuild of this filter is running.",
           rebuild->exists && rebuild->running ? 1 : 0);
    metric("bloomscope_rebuild_interrupted", "gauge", "1 when a rebuild stopped half way (finish or abort it).",
           rebuild->exists && !rebuild->running && rebuild->stage != QLatin1String("ready") ? 1 : 0);
    metric("bloomscope_rebuild_pending_names", "gauge", "Names recorded for the rebuilt filter, not yet drained.",
           rebuild->exists ? double(rebuild->pending) : 0);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto age = [&now](const QDateTime &at) { return double(at.msecsTo(now)) / 1000; };
    if (auto newest = History::newest(**c.database(), *s); newest && *newest)
        metric("bloomscope_snapshot_age_seconds", "gauge", "Age of the newest snapshot in bloomscope_history.",
               age((*newest)->takenAt));
    if (auto swapped = Rebuilder::lastSwap(**c.database(), s->ref()); swapped && *swapped)
        metric("bloomscope_last_swap_age_seconds", "gauge",
               "Time since a rebuilt filter was last swapped in (bloomscope_swapped).", age(**swapped));
    // The last audit (bloomctl audit, the GUI's Shards view): real users the filter called free must be 0.
    if (auto audit = lastAudit(**c.database(), s->tableName()); audit && *audit) {
        const AuditReport &a = **audit;
        metric("bloomscope_audit_false_negatives", "gauge",
               "Sampled real users the filter called definitely free at the last audit (must be 0).",
               double(a.falseNegatives.size()));
        metric("bloomscope_audit_sampled_users", "gauge", "Real users the last audit sampled from the shards.",
               double(a.sampled));
        metric("bloomscope_audit_measured_fpr", "gauge",
               "False-positive rate the last audit measured on names never added.", a.measured);
        metric("bloomscope_audit_age_seconds", "gauge", "Age of the last audit in bloomscope_audit.", age(a.at));
    }
    metric("bloomscope_scrape_duration_seconds", "gauge", "What this scrape took.", double(t.nsecsElapsed()) / 1e9);
    out += QStringLiteral("# EOF\n");
    c.out() << out;
    return ExitOk;
}

std::optional<qint64> durationSeconds(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+)\\s*([smhd]?)\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    const qint64 scale = unit == QLatin1String("d")   ? 86400
                         : unit == QLatin1String("h") ? 3600
                         : unit == QLatin1String("m") ? 60
                                                      : 1;
    return n * scale;
}

namespace {

QJsonObject toJson(const Snapshot &s)
{
    QJsonArray hist;
    for (qint64 n : s.histogram)
        hist.append(n);
    return QJsonObject{{QStringLiteral("taken_at"), s.takenAt.toString(Qt::ISODateWithMs)},
                       {QStringLiteral("table"), s.table},
                       {QStringLiteral("chunks"), qint64(s.geometry.chunks())},
                       {QStringLiteral("chunk_bits"), qint64(s.geometry.chunkBits())},
                       {QStringLiteral("k"), s.geometry.k()},
                       {QStringLiteral("set_bits"), qint64(s.setBits)},
                       {QStringLiteral("estimated_names"), std::round(s.estimatedNames)},
                       {QStringLiteral("estimated_fpr"), s.estimatedFpr},
                       {QStringLiteral("fullest_chunk"), qint64(s.fullestChunk)},
                       {QStringLiteral("fullest_set_bits"), qint64(s.fullestSetBits)},
                       {QStringLiteral("histogram"), hist},
                       {QStringLiteral("cost_ms"), s.costMs}};
}

} // namespace

namespace {

/** The pg_cron statement that runs `call` every 15 minutes, as a job named after the filter. */
QString cronSchedule(Database &db, FilterStore &store, const QString &call)
{
    return QStringLiteral("select cron.schedule(%1, '*/15 * * * *', %2);")
        .arg(db.quoteLiteral(QStringLiteral("bloomscope-record ") + store.tableText()), db.quoteLiteral(call));
}

} // namespace

int cmdRecord(Context &c)
{
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    Database &db = **c.database();
    const bool function = c.args().flag("install-function");
    if (c.args().flag("print-sql")) {
        auto sql = History::createSqlFor(db, **store);
        if (!sql)
            return c.fail(sql.error());
        QJsonObject json{{QStringLiteral("sql"), *sql}};
        if (!c.json())
            c.out() << *sql << '\n';
        if (function) {
            auto call = History::recordCall(db, **store);
            if (!call)
                return c.fail(call.error());
            json.insert(QStringLiteral("function_sql"), History::functionSql((*store)->quotedSchema()));
            json.insert(QStringLiteral("pg_cron"), cronSchedule(db, **store, *call));
            if (!c.json())
                c.out() << '\n'
                        << History::functionSql((*store)->quotedSchema())
                        << "\n-- pg_cron: " << cronSchedule(db, **store, *call) << '\n';
        }
        if (c.json())
            c.out() << QJsonDocument(json).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (function) {
        auto call = History::installFunction(db, **store, c.args().flag("publication-ok"));
        if (!call)
            return c.fail(call.error());
        auto proof = db.exec(*call); // one snapshot through it: the function works for this role
        if (!proof)
            return c.fail(proof.error());
        if (c.json()) {
            c.out() << QJsonDocument(QJsonObject{{QStringLiteral("record_call"), *call},
                                                 {QStringLiteral("pg_cron"), cronSchedule(db, **store, *call)}})
                           .toJson();
        } else {
            c.out() << "installed bloomscope_record() in schema " << (*store)->tableName().schema
                    << " and recorded one snapshot with it:\n  " << *call
                    << "\nschedule it with pg_cron (in the database named by cron.database_name), every 15 "
                       "minutes:\n  "
                    << cronSchedule(db, **store, *call) << '\n';
        }
        return ExitOk;
    }
    auto snap = History::record(db, **store, {}, c.args().flag("publication-ok"));
    if (!snap)
        return c.fail(snap.error());
    qint64 thinned = 0;
    if (c.args().flag("thin")) {
        auto t = History::thin(db, **store);
        if (!t)
            return c.fail(t.error());
        thinned = *t;
    }
    if (c.json()) {
        QJsonObject o = toJson(*snap);
        o.insert(QStringLiteral("thinned"), thinned);
        c.out() << QJsonDocument(o).toJson();
    } else {
        c.out() << "recorded " << (*store)->tableText() << " at " << snap->takenAt.toString(Qt::ISODate) << ": about "
                << qRound64(snap->estimatedNames) << " names, estimated FPR "
                << QString::number(snap->estimatedFpr, 'g', 4) << ", fullest chunk " << snap->fullestChunk << " ("
                << snap->fullestSetBits << " of " << snap->geometry.chunkBits() << " bits); the read took "
                << QString::number(snap->costMs, 'f', 0) << " ms";
        if (c.args().flag("thin"))
            c.out() << "; thinned " << thinned << " old snapshot(s)";
        c.out() << '\n';
    }
    return ExitOk;
}

int cmdHistory(Context &c)
{
    QDateTime since;
    if (c.args().has("since")) {
        const QString w = c.args().option("since");
        if (auto age = durationSeconds(w))
            since = QDateTime::currentDateTimeUtc().addSecs(-*age);
        else
            since = QDateTime::fromString(w, Qt::ISODate);
        if (!since.isValid())
            return c.usage(QStringLiteral("--since takes a time (2026-12-01, 2026-12-01T08:00) or an age (90m, 12h, "
                                          "7d), not '%1'")
                               .arg(w));
    }
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    auto list = History::list(**c.database(), **store, since);
    if (!list)
        return c.fail(list.error());
    if (c.json()) {
        QJsonArray a;
        for (const Snapshot &s : *list)
            a.append(toJson(s));
        c.out() << QJsonDocument(a).toJson();
    } else if (c.args().flag("csv")) {
        c.out() << "taken_at,table,chunks,chunk_bits,k,set_bits,estimated_names,estimated_fpr,fullest_chunk,"
                   "fullest_set_bits,cost_ms\n";
        for (const Snapshot &s : *list) {
            QString table = s.table;
            table.replace(QLatin1Char('"'), QStringLiteral("\"\""));
            c.out() << s.takenAt.toString(Qt::ISODateWithMs) << ",\"" << table << "\"," << s.geometry.chunks() << ','
                    << s.geometry.chunkBits() << ',' << s.geometry.k() << ',' << s.setBits << ','
                    << qRound64(s.estimatedNames) << ',' << QString::number(s.estimatedFpr, 'g', 8) << ','
                    << s.fullestChunk << ',' << s.fullestSetBits << ',' << QString::number(s.costMs, 'f', 1) << '\n';
        }
    } else {
        if (list->isEmpty())
            c.out() << "no snapshot of " << (*store)->tableText() << " recorded"
                    << (since.isValid() ? " since then" : "") << " (bloomctl record makes one)\n";
        for (const Snapshot &s : *list)
            c.out() << s.takenAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) << "  about "
                    << qRound64(s.estimatedNames) << " names, FPR " << QString::number(s.estimatedFpr, 'g', 4)
                    << ", fullest chunk " << s.fullestSetBits << "/" << s.geometry.chunkBits() << "\n";
    }
    return ExitOk;
}

} // namespace bloom::cli
