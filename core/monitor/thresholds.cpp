#include "monitor/thresholds.h"

#include "monitor/plaindecimal.h"

#include <QStringList>

namespace bloom::monitor {

const char *stateName(PluginState s)
{
    switch (s) {
    case PluginState::Ok:
        return "OK";
    case PluginState::Warning:
        return "WARNING";
    case PluginState::Critical:
        return "CRITICAL";
    case PluginState::Unknown:
        break;
    }
    return "UNKNOWN";
}

namespace {

QString key(Thresholds::Level level, const QString &metric)
{
    return (level == Thresholds::Level::Warning ? QStringLiteral("w:") : QStringLiteral("c:")) + metric;
}

const char *levelName(Thresholds::Level level)
{
    return level == Thresholds::Level::Warning ? "warning" : "critical";
}

} // namespace

Thresholds::Thresholds(QList<Metric> metrics, QString bareMetric)
    : mMetrics(std::move(metrics))
    , mBareMetric(std::move(bareMetric))
{
}

const Thresholds::Metric *Thresholds::find(const QString &name) const
{
    for (const Metric &m : mMetrics)
        if (m.name == name)
            return &m;
    return nullptr;
}

Status Thresholds::add(Level level, const QString &value)
{
    const QStringList items = value.split(QLatin1Char(','));
    for (const QString &raw : items) {
        const QString item = raw.trimmed();
        if (item.isEmpty())
            return makeError(ErrorKind::Usage,
                             QStringLiteral("--%1 '%2' has an empty item").arg(QLatin1String(levelName(level)), value));
        const qsizetype eq = item.indexOf(QLatin1Char('='));
        const QString metric = eq < 0 ? mBareMetric : item.left(eq).trimmed();
        if (auto s = set(level, metric, eq < 0 ? item : item.mid(eq + 1)); !s)
            return s;
    }
    return Done{};
}

Status Thresholds::set(Level level, const QString &metric, const QString &rangeText)
{
    const Metric *m = find(metric);
    if (!m) {
        QStringList names;
        for (const Metric &known : mMetrics)
            names << known.name;
        return makeError(ErrorKind::Usage,
                         QStringLiteral("--%1: unknown metric '%2' (known: %3)")
                             .arg(QLatin1String(levelName(level)), metric, names.join(QStringLiteral(", "))));
    }
    auto r = Range::parse(rangeText, m->endpoint);
    if (!r)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("--%1 %2: %3").arg(QLatin1String(levelName(level)), metric, r.error().message));
    set(level, metric, *r);
    return Done{};
}

void Thresholds::set(Level level, const QString &metric, const Range &range)
{
    (level == Level::Warning ? mWarning : mCritical).insert(metric, range);
    mDefaulted.remove(key(level, metric));
}

void Thresholds::setDefault(Level level, const QString &metric, const Range &fallback)
{
    if (range(level, metric))
        return;
    (level == Level::Warning ? mWarning : mCritical).insert(metric, fallback);
    mDefaulted.insert(key(level, metric));
}

std::optional<Range> Thresholds::range(Level level, const QString &metric) const
{
    const QMap<QString, Range> &map = level == Level::Warning ? mWarning : mCritical;
    const auto it = map.constFind(metric);
    return it == map.cend() ? std::nullopt : std::optional<Range>(*it);
}

Status Thresholds::checkOrder() const
{
    for (const Metric &m : mMetrics) {
        const auto w = range(Level::Warning, m.name);
        const auto c = range(Level::Critical, m.name);
        if (!w || !c)
            continue;
        const bool looser = (w->isUpperBound() && c->isUpperBound() && w->end() > c->end()) ||
                            (w->isLowerBound() && c->isLowerBound() && w->start() < c->start());
        if (!looser)
            continue;
        const auto said = [this, &m](Level level, const Range &r) {
            return QStringLiteral("%1=%2%3").arg(
                m.name, r.toString(),
                mDefaulted.contains(key(level, m.name)) ? QStringLiteral(" (the default)") : QString());
        };
        return makeError(ErrorKind::Usage, QStringLiteral("warning %1 is looser than critical %2: the warning would "
                                                          "never come first; give a warning inside the critical range")
                                               .arg(said(Level::Warning, *w), said(Level::Critical, *c)));
    }
    return Done{};
}

PluginState Thresholds::judge(const QString &metric, double value) const
{
    if (const auto c = range(Level::Critical, metric); c && c->alerts(value))
        return PluginState::Critical;
    if (const auto w = range(Level::Warning, metric); w && w->alerts(value))
        return PluginState::Warning;
    return PluginState::Ok;
}

QString Thresholds::perfText(Level level, const QString &metric) const
{
    const auto r = range(level, metric);
    return r ? r->toString() : QString();
}

QString perfDatum(const QString &label, double value, const QString &uom, const QString &warn, const QString &crit,
                  std::optional<double> min, std::optional<double> max, int significant)
{
    QString l = label;
    if (l.contains(QLatin1Char(' ')) || l.contains(QLatin1Char('=')) || l.contains(QLatin1Char('\''))) {
        l.replace(QLatin1Char('\''), QStringLiteral("''"));
        l = QLatin1Char('\'') + l + QLatin1Char('\'');
    }
    const auto opt = [](std::optional<double> v) { return v ? plainDecimal(*v, 17) : QString(); };
    return QStringLiteral("%1=%2%3;%4;%5;%6;%7")
        .arg(l, plainDecimal(value, significant), uom, warn, crit, opt(min), opt(max));
}

} // namespace bloom::monitor
