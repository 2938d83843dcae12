#pragma once

#include "common/result.h"
#include "monitor/range.h"

#include <QList>
#include <QMap>
#include <QSet>
#include <QString>

#include <optional>

namespace bloom::monitor {

/** The monitoring-plugin exit codes and the word of the status line. */
enum class PluginState : int { Ok = 0, Warning = 1, Critical = 2, Unknown = 3 };
const char *stateName(PluginState s);

/**
 * The warning and critical ranges of a plugin that judges several metrics: `-w fpr=0.005 -w
 * chunk_fill=0.45`, `-c fpr=0.01,chunk_fill=0.5`, a bare range for the one metric a bare range means.
 */
class Thresholds {
public:
    enum class Level { Warning, Critical };
    struct Metric {
        QString name;
        Range::EndpointParser endpoint; ///< how its endpoints read (a duration, a rate); plain numbers if empty
    };

    Thresholds(QList<Metric> metrics, QString bareMetric);

    /** One -w or -c value: `metric=range`, a comma list of them, or a bare range (bareMetric's). A
     *  Usage error names the unknown metric or the bad range. */
    Status add(Level level, const QString &value);
    /** One metric's range from its text (a long option such as --max-fpr, through the same parser). */
    Status set(Level level, const QString &metric, const QString &rangeText);
    void set(Level level, const QString &metric, const Range &range);
    /** `fallback` unless the level of `metric` was given: a default, said so in checkOrder()'s message. */
    void setDefault(Level level, const QString &metric, const Range &fallback);

    std::optional<Range> range(Level level, const QString &metric) const;
    bool has(const QString &metric) const
    {
        return range(Level::Warning, metric).has_value() || range(Level::Critical, metric).has_value();
    }
    /** A Usage error when a metric's warning could never fire before its critical: an upper bound
     *  above the critical one (or a lower bound under it). */
    Status checkOrder() const;
    /** CRITICAL when the critical range alerts on `value`, WARNING when the warning one does, else OK. */
    PluginState judge(const QString &metric, double value) const;
    /** The range of `level` in performance data syntax, empty when there is none. */
    QString perfText(Level level, const QString &metric) const;

private:
    const Metric *find(const QString &name) const;
    QList<Metric> mMetrics;
    QString mBareMetric;
    QMap<QString, Range> mWarning;
    QMap<QString, Range> mCritical;
    QSet<QString> mDefaulted; ///< "w:fpr", "c:fpr": ranges that are defaults, not given
};

/** One performance datum of the guidelines: `label=value[UOM];[warn];[crit];[min];[max]`, numbers as
 *  plain decimals (plainDecimal), the label quoted when it has a space, '=' or a quote. */
QString perfDatum(const QString &label, double value, const QString &uom, const QString &warn, const QString &crit,
                  std::optional<double> min, std::optional<double> max, int significant = 6);

} // namespace bloom::monitor
