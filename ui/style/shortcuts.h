#pragma once

#include <QKeySequence>
#include <QList>

class QAction;
class QWidget;

namespace bloom::shortcuts {

/** The name of the QAction property that says which QKeySequence::StandardKey an action's keys follow. */
inline constexpr char StandardKeyProperty[] = "bloomStandardKey";

/** The platform's keys for a standard action, then `fallback` when they leave it out: the key the
 *  README and the manual promise on every platform (Quit has none on Windows and offscreen, F11 is
 *  not GNOME's full screen). */
QList<QKeySequence> standard(QKeySequence::StandardKey key, const QKeySequence &fallback = {});
/** Puts the platform's keys for `key` on the action (standard()) and records which standard it follows. */
QAction *setStandard(QAction *action, QKeySequence::StandardKey key, const QKeySequence &fallback = {});

} // namespace bloom::shortcuts
