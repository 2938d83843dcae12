#pragma once

#include "model/geometry.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace bloom::forecast {

/** How names grow with time. */
enum class Method {
    Linear,      ///< names = a + b t
    Exponential, ///< ln names = a + b t
};

/** One observation: when, and the names the fill implied then. */
struct Point {
    QDateTime at;
    double names = 0;
};

/**
 * A robust fit of names against time: the Theil-Sen slope (the median of the slopes between every
 * pair of points, so a night's import or a few bad snapshots move it little), Sen's intercept (the
 * median of y - slope t) and the slope's distribution-free confidence interval from the ranks of the
 * pairwise slopes (Sen 1968; Hollander and Wolfe). For Exponential the same on ln(names).
 */
struct Fit {
    Method method = Method::Linear;
    int points = 0;      ///< used (at most MaxPoints, evenly thinned)
    QDateTime from, to;  ///< the first and last point used
    double t0 = 0;       ///< the anchor time: seconds since the epoch of the last point used
    double level = 0;    ///< the fitted y at t0 (names, or ln names)
    double slope = 0;    ///< y per second
    double slopeLow = 0; ///< the interval's ends (confidence `confidence`)
    double slopeHigh = 0;
    double confidence = 0.95;

    /** Names the fit expects at `t` with the given slope (the central one by default). */
    double namesAt(const QDateTime &t, double slopeUsed) const;
    double namesAt(const QDateTime &t) const { return namesAt(t, slope); }
    /** Names a day at the end of the window (central, low, high). */
    double perDay(double slopeUsed) const;
    /** When the fit reaches `names` with that slope: nullopt when it never does (no growth). */
    std::optional<QDateTime> reaches(double names, double slopeUsed) const;
};

/** More points than this are thinned evenly (the pairwise slopes grow as n^2). */
constexpr int MaxPoints = 1500;

/** The fewest points for which Sen's interval exists at `confidence`: both of its ranks, (N - C)/2
 *  and (N + C)/2 + 1 of the N pairwise slopes, fall inside 1..N (6 at 95%; below that its "interval"
 *  was the lowest and the highest slope). */
int minimumPoints(double confidence = 0.95);
/** The shortest history a forecast is made from: half a day, so that a few seconds or minutes of
 *  snapshots (or the window's own refreshes) never become a date months ahead. */
constexpr qint64 MinimumSpanSeconds = 12 * 3600;

/** How much history a fit had to go on, and what it needs. */
struct Support {
    int points = 0;         ///< in the window (before thinning)
    qint64 spanSeconds = 0; ///< from the first to the last of them
    int neededPoints = 0;   ///< minimumPoints(confidence)
    qint64 neededSpanSeconds = MinimumSpanSeconds;
    bool enough() const { return points >= neededPoints && spanSeconds >= neededSpanSeconds; }
};

/** The fit of `points` (names > 0 for Exponential); nullopt with `why` set when the window holds
 *  fewer than minimumPoints() at distinct times or spans less than MinimumSpanSeconds. `window` keeps
 *  only the points at most that long before the last one (0: all). `support` says what it had. */
std::optional<Fit> fit(QList<Point> points, Method method, qint64 windowSeconds = 0, double confidence = 0.95,
                       QString *why = nullptr, Support *support = nullptr);

/** When the target is crossed: the central date and the interval's ends (nullopt: not within ~100 years). */
struct Crossing {
    double capacity = 0; ///< names at the target FPR
    bool alreadyCrossed = false;
    std::optional<QDateTime> at, earliest, latest;
};
Crossing crossing(const Fit &f, double capacityNames, const QDateTime &now);

/** The names expected at `now + months` on the high end of the interval, and the smallest filter of
 *  the same chunk size that holds them at `target`. */
struct Recommendation {
    QDateTime at;
    double names = 0;
    std::optional<Geometry> geometry;
    double fpr = 0; ///< of that geometry at those names
};
Recommendation recommend(const Fit &f, const Geometry &current, double target, const QDateTime &now, int months);

} // namespace bloom::forecast
