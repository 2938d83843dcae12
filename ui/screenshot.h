#pragma once

#include <QString>

class QWidget;

namespace bloom {

class MainWindow;
class RedisWindow;

/**
 * `--screenshot FILE`: render a window once what its view shows has come in, save it and end the
 * event loop (README's pictures are made this way, packaging/render-screenshots).
 */
namespace screenshot {

/** Saves the window's picture and ends the event loop with `code`, or 1 when the file cannot be written. */
void saveAndExit(QWidget *window, const QString &file, int code = 0);

struct Plan {
    QString file;
    QString view = QStringLiteral("heatmap"); ///< heatmap, fpr, step, chunk or shards
    QString name = QStringLiteral("ada");     ///< typed into the step-through and the Shards view
    quint32 chunk = 71962;                    ///< opened in the Chunk tab
    int delayMs = 400;                        ///< after the data is in (the charts lay out)
    bool connecting = true;                   ///< false: no filter comes, grab at once
};

/** The main window: waits for the first refresh, then the view's own answer (the step-through's, the
 *  chunk's bits, the shards' replay of 300 names and an audit), waits plan.delayMs and saves. A
 *  connection that fails is the picture, exit 1, at once; no data within five minutes is exit 1. */
void whenReady(MainWindow &window, const Plan &plan);
/** The Redis window: its first refresh (and the step-through's answer for "step"). */
void whenReady(RedisWindow &window, const QString &file, const QString &view);
/** A window with nothing to wait for (teaching mode): saved after `ms`. */
void after(QWidget &window, const QString &file, int ms);

} // namespace screenshot
} // namespace bloom
