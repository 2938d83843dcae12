// bloomctl commands for monitoring: health (a monitoring plugin: Nagios, Icinga) and metrics
// (Prometheus text exposition).
#include "commands.h"
#include "context.h"

#include "maintenance/history.h"
#include "maintenance/rebuild.h"
#include "model/fprmodel.h"
#include "monitor/plaindecimal.h"
#include "monitor/serverlabels.h"
#include "monitor/textfile.h"
#include "monitor/thresholds.h"
#include "shards/audit.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace bloom::cli {

namespace {

using monitor::PluginState;
using monitor::Range;
using monitor::Thresholds;
using Level = monitor::Thresholds::Level;

QString label(const QString &v)
{
    QString out = v;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    out.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return out;
}

/** A duration endpoint: seconds, or 90m, 2h, 1d. */
std::optional<double> durationEndpoint(const QString &text)
{
    const auto s = durationSeconds(text);
    return s ? std::optional<double>(double(*s)) : std::nullopt;
}

/** health's metrics, their ranges from -w/-c and the long options, and the defaults. */
Result<Thresholds> healthThresholds(const Args &a)
{
    Thresholds t({{QStringLiteral("fpr"), ratioText},
                  {QStringLiteral("chunk_fill"), ratioText},
                  {QStringLiteral("snapshot_age"), durationEndpoint},
                  {QStringLiteral("damaged_chunks"), {}},
                  {QStringLiteral("names"), {}},
                  {QStringLiteral("table_size"), {}}},
                 QStringLiteral("fpr"));
    // The long forms (upper bounds) first; -w/-c, given after them or not, win.
    const struct {
        const char *option;
        Level level;
        const char *metric;
    } rates[] = {{"max-fpr", Level::Critical, "fpr"},
                 {"warn-fpr", Level::Warning, "fpr"},
                 {"max-chunk-fill", Level::Critical, "chunk_fill"},
                 {"warn-chunk-fill", Level::Warning, "chunk_fill"}};
    for (const auto &r : rates) {
        if (!a.has(r.option))
            continue;
        const auto v = rateOption(a, r.option, std::nullopt);
        if (!v)
            return makeError(ErrorKind::Usage,
                             QStringLiteral("--%1 takes a rate between 0 and 1 (0.01 or 1%), not '%2'")
                                 .arg(QLatin1String(r.option), a.option(r.option)));
        t.set(r.level, QLatin1String(r.metric), Range::upTo(*v));
    }
    if (a.has("max-snapshot-age")) {
        const auto age = durationSeconds(a.option("max-snapshot-age"));
        if (!age)
            return makeError(ErrorKind::Usage, QStringLiteral("--max-snapshot-age takes an age: 3600, 90m, 2h, 1d"));
        t.set(Level::Warning, QStringLiteral("snapshot_age"), Range::upTo(double(*age)));
    }
    for (const QString &v : a.all("warning"))
        if (auto s = t.add(Level::Warning, v); !s)
            return s.error();
    for (const QString &v : a.all("critical"))
        if (auto s = t.add(Level::Critical, v); !s)
            return s.error();
    // CRITICAL at an FPR of 0.01 and a fullest chunk half full, WARNING at half and 90% of those.
    t.setDefault(Level::Critical, QStringLiteral("fpr"), Range::upTo(0.01));
    t.setDefault(Level::Critical, QStringLiteral("chunk_fill"), Range::upTo(0.5));
    t.setDefault(Level::Critical, QStringLiteral("damaged_chunks"), Range::upTo(0));
    if (const auto c = t.range(Level::Critical, QStringLiteral("fpr")); c->isUpperBound())
        t.setDefault(Level::Warning, QStringLiteral("fpr"), Range::upTo(c->end() / 2));
    if (const auto c = t.range(Level::Critical, QStringLiteral("chunk_fill")); c->isUpperBound())
        t.setDefault(Level::Warning, QStringLiteral("chunk_fill"), Range::upTo(c->end() * 0.9));
    if (auto s = t.checkOrder(); !s)
        return s.error();
    return t;
}

} // namespace

int cmdHealth(Context &c)
{
    // One status line and the plugin exit code; anything that keeps the check from running is UNKNOWN.
    const auto unknown = [&c](const QString &why) {
        c.out() << "BLOOMSCOPE UNKNOWN - " << why.simplified() << "\n"; // one line, as a plugin's first line is
        return int(PluginState::Unknown);
    };
    auto thresholds = healthThresholds(c.args());
    if (!thresholds)
        return unknown(thresholds.error().message);
    const Thresholds &t = *thresholds;
    // How long a rebuilt filter may wait for its swap before it is a WARNING (a day by default).
    double maxSwapWait = 86400;
    if (c.args().has("max-swap-wait")) {
        const auto wait = durationSeconds(c.args().option("max-swap-wait"));
        if (!wait)
            return unknown(QStringLiteral("--max-swap-wait takes an age: 3600, 90m, 2h, 1d; not '%1'")
                               .arg(c.args().option("max-swap-wait")));
        maxSwapWait = double(*wait);
    }
    auto reading = readFilter(c);
    if (!reading)
        return unknown(reading.error().message);
    FilterStore *s = reading->store;
    const FillSnapshot *fill = &reading->fill;
    const RebuildState *rebuild = &reading->rebuild;
    const double fprNow = fill->estimatedFpr();
    const double fullest = double(fill->maxSetBits()) / s->geometry().chunkBits();
    const double names = fill->estimatedNames();
    const auto fprCritical = t.range(Level::Critical, QStringLiteral("fpr"));
    const double capacityAt = fprCritical->isUpperBound() && fprCritical->end() > 0 ? fprCritical->end() : 0.01;
    const double capacity = fpr::capacity(s->geometry(), capacityAt);
    PluginState state = PluginState::Ok;
    QStringList why;
    // Judges one metric; on an alert, `what` and the range it crossed go into the status line.
    const auto judge = [&t, &state, &why](const QString &metric, double value, const QString &what,
                                          const QString &unit = {}, double scale = 1) {
        const PluginState got = t.judge(metric, value);
        if (got == PluginState::Ok)
            return got;
        state = qMax(state, got);
        const Level level = got == PluginState::Critical ? Level::Critical : Level::Warning;
        if (!what.isEmpty())
            why << what + QLatin1Char(' ') + t.range(level, metric)->describeAlert(unit, scale);
        return got;
    };
    // A NULL or missing chunk row first: its names are neither free nor maybe. The figures below count
    // such chunks as empty, so they are lower bounds: a threshold they cross is crossed all the same.
    const ChunkDamage &damage = fill->damage;
    if (judge(QStringLiteral("damaged_chunks"), double(damage.count()), {}) != PluginState::Ok) {
        const Error e = s->damageError(damage);
        why << e.message + QStringLiteral("; fix: ") + e.fix;
    }
    judge(QStringLiteral("fpr"), fprNow, QStringLiteral("estimated FPR %1").arg(fprNow, 0, 'g', 3));
    judge(QStringLiteral("chunk_fill"), fullest, QStringLiteral("fullest chunk %1%").arg(fullest * 100, 0, 'f', 1),
          QStringLiteral("%"), 100);
    judge(QStringLiteral("names"), std::round(names), QStringLiteral("about %1 names").arg(qRound64(names)));
    judge(QStringLiteral("table_size"), double(reading->health.totalBytes),
          QStringLiteral("table size %1 bytes").arg(reading->health.totalBytes), QStringLiteral(" bytes"));
    if (rebuild->interrupted()) {
        state = qMax(state, PluginState::Warning);
        why << (rebuild->newTableWritten()
                    ? QStringLiteral("rebuild into %1 interrupted (%2 names pending): finish it with swap or undo it "
                                     "with rebuild --abort")
                    : QStringLiteral("rebuild into %1 interrupted in stage %3, before its table was written (%2 names "
                                     "pending): undo it with rebuild --abort"))
                   .arg(rebuild->newTable, QString::number(rebuild->pending), rebuild->stage);
    }
    // A rebuilt filter waiting for its swap records every check meanwhile: a state of its own.
    if (rebuild->waitingForSwap() && rebuild->stageSeconds >= maxSwapWait) {
        state = qMax(state, PluginState::Warning);
        why << QStringLiteral("rebuilt %1 has waited %2 s for its swap (%3 names pending; the live function records "
                              "every name, checks included): swap it in or undo it with rebuild --abort")
                   .arg(rebuild->newTable, QString::number(qRound64(rebuild->stageSeconds)),
                        QString::number(rebuild->pending));
    }
    // The newest snapshot's age: judged when it has a range, in the performance data whenever it is known.
    std::optional<qint64> age;
    const bool judgeAge = t.has(QStringLiteral("snapshot_age"));
    auto newest = History::newest(**c.database(), *s);
    if (!newest && judgeAge)
        return unknown(newest.error().message);
    if (newest && *newest)
        age = qMax<qint64>(0, (*newest)->takenAt.secsTo(QDateTime::currentDateTimeUtc()));
    if (judgeAge && !age) {
        // No snapshot is as old as can be: the worst level given for it.
        state = qMax(state, t.range(Level::Critical, QStringLiteral("snapshot_age")) ? PluginState::Critical
                                                                                     : PluginState::Warning);
        why << QStringLiteral("no snapshot recorded (bloomctl record)");
    } else if (judgeAge &&
               judge(QStringLiteral("snapshot_age"), double(*age), QStringLiteral("last snapshot %1 s old,").arg(*age),
                     QStringLiteral(" s")) != PluginState::Ok) {
        why.last() += QStringLiteral(": is the recording schedule running?");
    }
    const QString summary = QStringLiteral("%1: estimated FPR %2, about %3 names (%4% of the capacity at %5), "
                                           "fullest chunk %6%")
                                .arg(s->tableText(), QString::number(fprNow, 'g', 3), QString::number(qRound64(names)),
                                     QString::number(capacity > 0 ? names / capacity * 100 : 0, 'g', 3),
                                     QString::number(capacityAt, 'g', 3), QString::number(fullest * 100, 'f', 2));
    // Performance data after the '|', as the guidelines define them: label=value[UOM];warn;crit;min;max,
    // plain decimals, the ranges in their own syntax. The fill's figures are left out of a damaged
    // filter's: not graphed wrong.
    const auto datum = [&t](const QString &metric, double value, const QString &uom, std::optional<double> max,
                            int significant = 6) {
        return monitor::perfDatum(metric, value, uom, t.perfText(Level::Warning, metric),
                                  t.perfText(Level::Critical, metric), 0.0, max, significant);
    };
    QStringList perf;
    if (damage.empty())
        perf << datum(QStringLiteral("fpr"), fprNow, {}, 1.0) << datum(QStringLiteral("chunk_fill"), fullest, {}, 1.0)
             << datum(QStringLiteral("names"), std::round(names), {}, std::nullopt, 17);
    perf << datum(QStringLiteral("table_size"), double(reading->health.totalBytes), QStringLiteral("B"), std::nullopt,
                  17);
    if (age)
        perf << datum(QStringLiteral("snapshot_age"), double(*age), QStringLiteral("s"), std::nullopt, 17);
    perf << datum(QStringLiteral("damaged_chunks"), double(damage.count()), {}, std::nullopt, 17);
    c.out() << "BLOOMSCOPE " << monitor::stateName(state) << " - "
            << (why.isEmpty() ? summary : why.join(QStringLiteral("; "))) << " | " << perf.join(QLatin1Char(' '))
            << "\n";
    return int(state);
}

int cmdMetrics(Context &c)
{
    QElapsedTimer t;
    t.start();
    const auto target = rateOption(c.args(), "target-fpr", 0.01);
    if (!target)
        return c.usage(QStringLiteral("--target-fpr takes a rate between 0 and 1 (0.01 or 1%)"));
    // The file node_exporter's textfile collector reads: named after --table as given, so that a scrape
    // that cannot reach the server replaces the same file (with bloomscope_up 0).
    const QString givenTable = c.args().option("table", FilterRef{}.table);
    const auto publish = [&c, &givenTable](const QString &text, const monitor::ServerLabels &where) {
        if (!c.args().has("textfile")) {
            c.out() << text;
            return Status(Done{});
        }
        return monitor::writeFileAtomically(c.args().option("textfile"),
                                            monitor::textfileName(where.database, givenTable), text.toUtf8());
    };
    auto reading = readFilter(c);
    if (!reading) {
        // Down (or the filter unreadable): bloomscope_up 0 for the alert, the error on stderr, and its exit code.
        const ErrorKind k = reading.error().kind;
        const bool connected = k != ErrorKind::Connection && k != ErrorKind::Authentication &&
                               k != ErrorKind::MissingDatabase && k != ErrorKind::Encoding;
        const monitor::ServerLabels where = connected && c.database() ? monitor::serverLabels((*c.database())->pgconn())
                                                                      : monitor::serverLabels(c.args().option("db"));
        const QString text = QStringLiteral("# HELP bloomscope_up 1 when the filter was read, 0 when the server or "
                                            "the filter could not be (the reason is on bloomctl's stderr).\n"
                                            "# TYPE bloomscope_up gauge\n"
                                            "bloomscope_up{server=\"%1\",database=\"%2\",table=\"%3\"} 0\n")
                                 .arg(label(where.server), label(where.database), label(givenTable));
        if (auto w = publish(text, where); !w)
            c.fail(w.error());
        return c.fail(reading.error());
    }
    FilterStore *s = reading->store;
    const FillSnapshot *fill = &reading->fill;
    const TableHealth *health = &reading->health;
    const RebuildState *rebuild = &reading->rebuild;
    const Geometry &g = s->geometry();
    const monitor::ServerLabels where = monitor::serverLabels((*c.database())->pgconn());
    const QString labels = QStringLiteral("server=\"%1\",database=\"%2\",table=\"%3\"")
                               .arg(label(where.server), label(where.database), label(s->tableText()));
    QString out;
    const auto metric = [&out, &labels](const char *name, const char *type, const char *help, double value,
                                        const QString &extra = {}) {
        out += QStringLiteral("# HELP %1 %2\n# TYPE %1 %3\n%1{%4%5} %6\n")
                   .arg(QLatin1String(name), QLatin1String(help), QLatin1String(type), labels,
                        extra.isEmpty() ? QString() : QLatin1Char(',') + extra, QString::number(value, 'g', 15));
    };
    const double names = fill->estimatedNames();
    const double capacity = fpr::capacity(g, *target);
    const QString targetLabel = QStringLiteral("target_fpr=\"%1\"").arg(*target, 0, 'g', 6);
    metric("bloomscope_up", "gauge",
           "1 when the filter was read, 0 when the server or the filter could not be (the reason is on "
           "bloomctl's stderr).",
           1);
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
               .arg(labels, QString::number(damage.nullChunks.size()), QString::number(damage.missingChunks.size()));
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
        metric("bloomscope_filter_estimated_fpr_ratio", "gauge",
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
    if (reading->role.subscriptionLagSeconds) // a subscriber whose apply worker runs
        metric("bloomscope_subscription_lag_seconds", "gauge",
               "A logical-replication subscriber: seconds since its apply worker last confirmed a change to the "
               "publisher (absent while no apply worker runs).",
               qMax(0.0, *reading->role.subscriptionLagSeconds));
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
           rebuild->interrupted() ? 1 : 0);
    metric("bloomscope_rebuild_waiting_for_swap", "gauge",
           "1 while a rebuilt filter waits for its swap (the live function records every name meanwhile).",
           rebuild->waitingForSwap() ? 1 : 0);
    metric("bloomscope_rebuild_waiting_for_swap_seconds", "gauge",
           "How long the rebuilt filter has waited for its swap (0 when none waits).",
           rebuild->waitingForSwap() ? qMax(0.0, rebuild->stageSeconds) : 0);
    metric("bloomscope_rebuild_pending_names", "gauge", "Names recorded for the rebuilt filter, not yet drained.",
           rebuild->exists ? double(rebuild->pending) : 0);
    // Events as Unix times (alert on time() - x), as Prometheus' own *_timestamp_seconds are.
    const auto unixTime = [](const QDateTime &at) { return double(at.toMSecsSinceEpoch()) / 1000; };
    if (auto newest = History::newest(**c.database(), *s); newest && *newest)
        metric("bloomscope_last_snapshot_timestamp_seconds", "gauge",
               "Unix time of the newest snapshot in bloomscope_history.", unixTime((*newest)->takenAt));
    if (auto swapped = Rebuilder::lastSwap(**c.database(), s->ref()); swapped && *swapped)
        metric("bloomscope_last_swap_timestamp_seconds", "gauge",
               "Unix time a rebuilt filter was last swapped in (bloomscope_swapped).", unixTime(**swapped));
    // The last audit (bloomctl audit, the GUI's Shards view): real users the filter called free must be 0.
    if (auto audit = lastAudit(**c.database(), s->tableName()); audit && *audit) {
        const AuditReport &a = **audit;
        metric("bloomscope_audit_false_negatives", "gauge",
               "Sampled real users the filter called definitely free at the last audit (must be 0).",
               double(a.falseNegatives.size()));
        metric("bloomscope_audit_sampled_users", "gauge", "Real users the last audit sampled from the shards.",
               double(a.sampled));
        metric("bloomscope_audit_measured_fpr_ratio", "gauge",
               "False-positive rate the last audit measured on names never added.", a.measured);
        metric("bloomscope_last_audit_timestamp_seconds", "gauge", "Unix time of the last audit in bloomscope_audit.",
               unixTime(a.at));
    }
    metric("bloomscope_scrape_duration_seconds", "gauge", "What this scrape took.", double(t.nsecsElapsed()) / 1e9);
    if (auto w = publish(out, where); !w)
        return c.fail(w.error());
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
