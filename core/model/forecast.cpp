#include "model/forecast.h"

#include "model/fprmodel.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bloom::forecast {

namespace {

constexpr double SecondsPerDay = 86400.0;
constexpr double Horizon = 100.0 * 365.25 * SecondsPerDay; ///< "never" beyond a century

/** The standard normal quantile of p, by bisection on erf (exact enough for an interval's z). */
double normalQuantile(double p)
{
    double lo = -10, hi = 10;
    for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2;
        (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2)
        return upper;
    return (*std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid)) + upper) / 2;
}

/** Sen's ranks (1-based) of the interval's ends among `pairs` slopes of `n` points. */
std::pair<double, double> senRanks(double n, double pairs, double confidence)
{
    const double c = normalQuantile(0.5 + confidence / 2) * std::sqrt(n * (n - 1) * (2 * n + 5) / 18.0);
    return {std::floor((pairs - c) / 2), std::ceil((pairs + c) / 2) + 1};
}

QString duration(qint64 seconds)
{
    if (seconds < 120)
        return QStringLiteral("%1 s").arg(seconds);
    if (seconds < 2 * 3600)
        return QStringLiteral("%1 min").arg(seconds / 60);
    if (seconds < 2 * 86400)
        return QStringLiteral("%1 h").arg(double(seconds) / 3600, 0, 'f', 1);
    return QStringLiteral("%1 days").arg(double(seconds) / 86400, 0, 'f', 1);
}

} // namespace

int minimumPoints(double confidence)
{
    for (int n = 3; n < 1000; ++n) {
        const double pairs = double(n) * (n - 1) / 2;
        const auto [low, high] = senRanks(n, pairs, confidence);
        if (low >= 1 && high <= pairs)
            return n;
    }
    return 1000;
}

double Fit::namesAt(const QDateTime &t, double slopeUsed) const
{
    const double y = level + slopeUsed * (double(t.toMSecsSinceEpoch()) / 1000.0 - t0);
    return method == Method::Exponential ? std::exp(std::min(y, 700.0)) : y;
}

double Fit::perDay(double slopeUsed) const
{
    const QDateTime end = QDateTime::fromMSecsSinceEpoch(qint64(t0 * 1000.0), Qt::UTC);
    return namesAt(end.addSecs(86400), slopeUsed) - namesAt(end, slopeUsed);
}

std::optional<QDateTime> Fit::reaches(double names, double slopeUsed) const
{
    const double y = method == Method::Exponential ? std::log(std::max(names, 1e-300)) : names;
    if (y <= level)
        return QDateTime::fromMSecsSinceEpoch(qint64(t0 * 1000.0), Qt::UTC);
    if (!(slopeUsed > 0))
        return std::nullopt;
    const double seconds = (y - level) / slopeUsed;
    if (seconds > Horizon)
        return std::nullopt;
    return QDateTime::fromMSecsSinceEpoch(qint64((t0 + seconds) * 1000.0), Qt::UTC);
}

std::optional<Fit> fit(QList<Point> points, Method method, qint64 windowSeconds, double confidence, QString *why,
                       Support *support)
{
    const auto fail = [why](const QString &text) {
        if (why)
            *why = text;
        return std::optional<Fit>{};
    };
    points.removeIf([method](const Point &p) {
        return !p.at.isValid() || !std::isfinite(p.names) || (method == Method::Exponential && p.names <= 0);
    });
    std::stable_sort(points.begin(), points.end(), [](const Point &a, const Point &b) { return a.at < b.at; });
    if (!points.isEmpty() && windowSeconds > 0) {
        const QDateTime from = points.last().at.addSecs(-windowSeconds);
        points.removeIf([&from](const Point &p) { return p.at < from; });
    }
    Support had;
    had.points = int(points.size());
    had.spanSeconds = points.isEmpty() ? 0 : points.first().at.secsTo(points.last().at);
    had.neededPoints = minimumPoints(confidence);
    if (support)
        *support = had;
    if (!points.isEmpty() && points.first().at == points.last().at && points.size() >= had.neededPoints)
        return fail(QStringLiteral("every point in the window has the same time"));
    if (!had.enough())
        return fail(QStringLiteral("%1 point(s) over %2 in the window; a forecast needs at least %3 over at least %4 "
                                   "(Sen's %5% interval has no ends with fewer than %3)")
                        .arg(QString::number(had.points), duration(had.spanSeconds), QString::number(had.neededPoints),
                             duration(had.neededSpanSeconds), QString::number(confidence * 100, 'g', 3)));
    if (points.size() > MaxPoints) { // evenly thinned, the last point kept
        QList<Point> thinned;
        for (int i = 0; i < MaxPoints; ++i)
            thinned.append(points[qsizetype(double(i) * double(points.size() - 1) / (MaxPoints - 1) + 0.5)]);
        points = thinned;
    }
    const qsizetype n = points.size();

    Fit f;
    f.method = method;
    f.points = int(n);
    f.from = points.first().at;
    f.to = points.last().at;
    f.confidence = confidence;
    f.t0 = double(f.to.toMSecsSinceEpoch()) / 1000.0;
    std::vector<double> t(static_cast<size_t>(n)), y(static_cast<size_t>(n));
    for (qsizetype i = 0; i < n; ++i) {
        t[size_t(i)] = double(points[i].at.toMSecsSinceEpoch()) / 1000.0 - f.t0;
        y[size_t(i)] = method == Method::Exponential ? std::log(points[i].names) : points[i].names;
    }
    std::vector<double> slopes;
    slopes.reserve(size_t(n * (n - 1) / 2));
    for (size_t i = 0; i < size_t(n); ++i)
        for (size_t j = i + 1; j < size_t(n); ++j)
            if (t[j] != t[i])
                slopes.push_back((y[j] - y[i]) / (t[j] - t[i]));
    std::sort(slopes.begin(), slopes.end());
    const double pairs = double(slopes.size());
    f.slope =
        slopes.size() % 2 ? slopes[slopes.size() / 2] : (slopes[slopes.size() / 2 - 1] + slopes[slopes.size() / 2]) / 2;
    // Sen's interval: C = z sqrt(n(n-1)(2n+5)/18); the slopes of rank (N-C)/2 and (N+C)/2 + 1. Points
    // at equal times make fewer pairs: an end that falls outside them has no interval.
    const auto [lowRank, highRank] = senRanks(double(n), pairs, confidence);
    if (lowRank < 1 || highRank > pairs)
        return fail(QStringLiteral("%1 points at only a few distinct times: Sen's %2% interval has no ends")
                        .arg(QString::number(n), QString::number(confidence * 100, 'g', 3)));
    f.slopeLow = slopes[size_t(lowRank) - 1];
    f.slopeHigh = slopes[size_t(highRank) - 1];
    std::vector<double> residual(static_cast<size_t>(n));
    for (size_t i = 0; i < size_t(n); ++i)
        residual[i] = y[i] - f.slope * t[i];
    f.level = median(residual);
    return f;
}

Crossing crossing(const Fit &f, double capacityNames, const QDateTime &now)
{
    Crossing c;
    c.capacity = capacityNames;
    if (f.namesAt(now) >= capacityNames) {
        c.alreadyCrossed = true;
        return c;
    }
    c.at = f.reaches(capacityNames, f.slope);
    c.earliest = f.reaches(capacityNames, f.slopeHigh);
    c.latest = f.reaches(capacityNames, f.slopeLow);
    return c;
}

Recommendation recommend(const Fit &f, const Geometry &current, double target, const QDateTime &now, int months)
{
    Recommendation r;
    r.at = now.addMonths(months);
    r.names = std::max({f.namesAt(r.at, f.slopeHigh), f.namesAt(r.at, f.slope), f.namesAt(now)});
    if (auto s = fpr::sizing(r.names, target, current.bitsLog2())) {
        r.geometry = s->geometry;
        r.fpr = s->fpr;
    }
    return r;
}

} // namespace bloom::forecast
