#include "style/shortcuts.h"

#include <QAction>

namespace bloom::shortcuts {

QList<QKeySequence> standard(QKeySequence::StandardKey key, const QKeySequence &fallback)
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(key);
    if (!fallback.isEmpty() && !keys.contains(fallback))
        keys << fallback;
    return keys;
}

QAction *setStandard(QAction *action, QKeySequence::StandardKey key, const QKeySequence &fallback)
{
    action->setShortcuts(standard(key, fallback));
    action->setProperty(StandardKeyProperty, int(key));
    return action;
}

} // namespace bloom::shortcuts
