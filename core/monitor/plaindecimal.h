#pragma once

#include <QString>

namespace bloom::monitor {

/**
 * `value` as a plain decimal with at most `significant` significant digits and never an exponent:
 * 1.13858e-17 gives "0.0000000000000000113858", 2.5e20 "250000000000000000000", 0.5 "0.5" (trailing
 * zeros dropped). The monitoring-plugins performance data allow only [-0-9.]. A NaN or infinity gives
 * "U", the guidelines' value for one that could not be determined.
 */
QString plainDecimal(double value, int significant = 6);

} // namespace bloom::monitor
