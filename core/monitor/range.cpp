#include "monitor/range.h"

#include "monitor/plaindecimal.h"

#include <cmath>

namespace bloom::monitor {

namespace {

Error bad(const QString &text, const QString &why)
{
    return makeError(ErrorKind::Usage, QStringLiteral("'%1' is not a threshold range (%2); ranges are 10, 10:, "
                                                      "~:10, 10:20 or @10:20")
                                           .arg(text, why));
}

QString number(double v, double scale = 1)
{
    return plainDecimal(v * scale, 10);
}

} // namespace

Result<Range> Range::parse(const QString &text, const EndpointParser &endpoint)
{
    const auto read = [&endpoint](const QString &t) -> std::optional<double> {
        if (endpoint)
            return endpoint(t);
        bool ok = false;
        const double v = t.toDouble(&ok);
        return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
    };
    QString t = text.trimmed();
    const bool inside = t.startsWith(QLatin1Char('@'));
    if (inside)
        t = t.mid(1);
    if (t.isEmpty() || t == QLatin1String(":"))
        return bad(text, QStringLiteral("empty"));
    double start = 0;
    double end = std::numeric_limits<double>::infinity();
    const qsizetype colon = t.indexOf(QLatin1Char(':'));
    const QString startText = colon < 0 ? QString() : t.left(colon).trimmed();
    const QString endText = colon < 0 ? t : t.mid(colon + 1).trimmed();
    if (startText == QLatin1String("~")) {
        start = -std::numeric_limits<double>::infinity();
    } else if (!startText.isEmpty()) {
        const auto v = read(startText);
        // An unquoted fpr=~:0.01 reaches us as fpr=/home/x:0.01: bash expands a tilde after '=' and ':'.
        const QString home = qEnvironmentVariable("HOME");
        if (!v && startText.startsWith(QLatin1Char('/')) && !home.isEmpty() && startText == home)
            return bad(text, QStringLiteral("the shell turned ~ into the home directory %1: quote the range, "
                                            "'~:10'")
                                 .arg(home));
        if (!v)
            return bad(text, QStringLiteral("'%1' is not a number here").arg(startText));
        start = *v;
    }
    if (!endText.isEmpty()) {
        const auto v = read(endText);
        if (!v)
            return bad(text, QStringLiteral("'%1' is not a number here").arg(endText));
        end = *v;
    }
    if (start > end)
        return bad(text, QStringLiteral("its start is above its end"));
    return Range(start, end, inside);
}

bool Range::alerts(double value) const
{
    const bool in = value >= mStart && value <= mEnd;
    return mInside ? in : !in;
}

QString Range::toString() const
{
    const QString prefix = mInside ? QStringLiteral("@") : QString();
    if (mStart == 0 && std::isfinite(mEnd))
        return prefix + number(mEnd);
    const QString start = std::isinf(mStart) ? QStringLiteral("~") : number(mStart);
    return prefix + start + QLatin1Char(':') + (std::isinf(mEnd) ? QString() : number(mEnd));
}

QString Range::describeAlert(const QString &unit, double scale) const
{
    if (isUpperBound())
        return QStringLiteral("over %1%2").arg(number(mEnd, scale), unit);
    if (isLowerBound())
        return QStringLiteral("under %1%2").arg(number(mStart, scale), unit);
    return QStringLiteral("%1 %2").arg(mInside ? QStringLiteral("inside") : QStringLiteral("outside"), toString());
}

} // namespace bloom::monitor
