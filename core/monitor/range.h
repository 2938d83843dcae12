#pragma once

#include "common/result.h"

#include <QString>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>

namespace bloom::monitor {

/**
 * A threshold range of the monitoring-plugins guidelines, `[@][start:][end]`: `10` alerts below 0 or
 * above 10, `10:` below 10, `~:10` above 10, `10:20` outside 10..20, `@10:20` inside it (endpoints
 * included).
 */
class Range {
public:
    /** Reads one endpoint ("0.01", "1%", "2h": what the metric's unit allows); nullopt if it is not one. */
    using EndpointParser = std::function<std::optional<double>(const QString &)>;

    /** A plain upper bound, `end` (0..end). */
    static Range upTo(double end) { return Range(0, end, false); }
    /** Parses `text`; `endpoint` reads each number (a plain decimal when empty). A Usage error says why. */
    static Result<Range> parse(const QString &text, const EndpointParser &endpoint = {});

    double start() const { return mStart; }
    double end() const { return mEnd; }
    bool inside() const { return mInside; }
    /** Whether `value` raises this range's alert. */
    bool alerts(double value) const;
    /** Alerts only above an end (start 0 or ~, no @): "warning looser than critical" compares ends. */
    bool isUpperBound() const { return !mInside && std::isfinite(mEnd) && (mStart == 0 || std::isinf(mStart)); }
    /** Alerts only below a start (`10:`). */
    bool isLowerBound() const { return !mInside && std::isinf(mEnd) && std::isfinite(mStart); }
    /** The range in its own syntax with plain decimals, as performance data carry it ("~:0.01", "@1:2"). */
    QString toString() const;
    /** Why `value` alerts, for a status line: "over 0.01", "under 10", "outside 10:20", "inside @10:20";
     *  `unit` follows each number shown ("%", " s"), `scale` multiplies it (100 for a ratio in %). */
    QString describeAlert(const QString &unit = {}, double scale = 1) const;

    bool operator==(const Range &o) const = default;

private:
    Range(double start, double end, bool inside)
        : mStart(start)
        , mEnd(end)
        , mInside(inside)
    {
    }
    double mStart = 0;
    double mEnd = std::numeric_limits<double>::infinity();
    bool mInside = false;
};

} // namespace bloom::monitor
