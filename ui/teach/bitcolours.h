// The colours of a teaching filter's bits: the window's grid (BitGridWidget) and the slides
// (teachexport) draw them alike.
#pragma once

#include <QColor>

namespace bloom::bitcolours {

inline const QColor Set(0x2b, 0x4c, 0x9a);      ///< a set bit
inline const QColor Clear(0xfa, 0xfa, 0xfa);    ///< a bit at 0
inline const QColor WasSet(0x1e, 0x9e, 0x4a);   ///< a check found it set
inline const QColor WasClear(0xd9, 0x34, 0x34); ///< a check found it at 0
inline const QColor New(0xf0, 0x9a, 0x1c);      ///< an add set it now

} // namespace bloom::bitcolours
