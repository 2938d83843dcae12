#include "monitor/plaindecimal.h"

#include <QtGlobal>

#include <cmath>

namespace bloom::monitor {

QString plainDecimal(double value, int significant)
{
    if (!std::isfinite(value))
        return QStringLiteral("U");
    if (value == 0)
        return QStringLiteral("0");
    significant = qBound(1, significant, 17);
    // The digits and the exponent as printf's %e rounds them ("1.13858e-17"), then placed by hand.
    const QString e = QString::number(std::abs(value), 'e', significant - 1);
    const qsizetype at = e.indexOf(QLatin1Char('e'));
    QString digits = e.left(at);
    digits.remove(QLatin1Char('.'));
    const int exponent = e.mid(at + 1).toInt();
    while (digits.size() > 1 && digits.endsWith(QLatin1Char('0')))
        digits.chop(1);
    QString out;
    if (exponent < 0) {
        out = QStringLiteral("0.") + QString(-exponent - 1, QLatin1Char('0')) + digits;
    } else if (exponent + 1 >= digits.size()) {
        out = digits + QString(exponent + 1 - digits.size(), QLatin1Char('0'));
    } else {
        out = digits.left(exponent + 1) + QLatin1Char('.') + digits.mid(exponent + 1);
    }
    return value < 0 ? QLatin1Char('-') + out : out;
}

} // namespace bloom::monitor
