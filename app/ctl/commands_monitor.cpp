// bloomctl commands for monitoring: health (a monitoring plugin: Nagios, Icinga) and metrics
// (Prometheus text exposition).
#include "commands.h"
#include "context.h"

#include "maintenance/rebuild.h"
#include "model/fprmodel.h"

#include <QElapsedTimer>

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
    const QString summary = QStringLiteral("%1: estimated FPR %2, about %3 names (%4% of the capacity at %5), "
                                           "fullest chunk %6%")
                                .arg(s->tableText())
                                .arg(fprNow, 0, 'g', 3)
                                .arg(qRound64(names))
                                .arg(capacity > 0 ? names / capacity * 100 : 0, 0, 'g', 3)
                                .arg(*maxFpr, 0, 'g', 3)
                                .arg(fullest * 100, 0, 'f', 2);
    // Performance data after the '|', in the plugin format: label=value;warn;crit;min;max
    const QString perf = QStringLiteral("fpr=%1;%2;%3;0;1 fullest_chunk_fill=%4;%5;%6;0;1 names=%7;;;0;")
                             .arg(fprNow, 0, 'g', 6)
                             .arg(*warnFpr, 0, 'g', 6)
                             .arg(*maxFpr, 0, 'g', 6)
                             .arg(fullest, 0, 'g', 6)
                             .arg(*warnFill, 0, 'g', 6)
                             .arg(*maxFill, 0, 'g', 6)
                             .arg(qRound64(names));
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
    metric("bloomscope_filter_capacity_names", "gauge", "Names the filter holds at the target FPR (blocked model).",
           std::round(capacity), targetLabel);
    metric("bloomscope_filter_capacity_left_names", "gauge", "Names that can still be added before the target FPR.",
           std::round(capacity - names), targetLabel);
    metric("bloomscope_filter_table_bytes", "gauge", "Size of the filter table with its indexes and TOAST.",
           double(health->totalBytes));
    metric("bloomscope_filter_dead_tuples", "gauge", "Dead row versions in the filter table (pg_stat).",
           double(health->deadTuples));
    metric("bloomscope_rebuild_in_progress", "gauge", "1 while a rebuild of this filter is running.",
           rebuild->exists && rebuild->running ? 1 : 0);
    metric("bloomscope_rebuild_interrupted", "gauge", "1 when a rebuild stopped half way (finish or abort it).",
           rebuild->exists && !rebuild->running && rebuild->stage != QLatin1String("ready") ? 1 : 0);
    metric("bloomscope_rebuild_pending_names", "gauge", "Names recorded for the rebuilt filter, not yet drained.",
           rebuild->exists ? double(rebuild->pending) : 0);
    metric("bloomscope_scrape_duration_seconds", "gauge", "What this scrape took.", double(t.nsecsElapsed()) / 1e9);
    out += QStringLiteral("# EOF\n");
    c.out() << out;
    return ExitOk;
}

} // namespace bloom::cli
