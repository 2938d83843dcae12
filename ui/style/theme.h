#pragma once

#include <QColor>
#include <QDateTime>
#include <QPalette>
#include <QString>

#include <cmath>

class QChart;
class QStyle;
class QIcon;
class QWidget;

namespace bloom::theme {

/** WCAG 2 relative luminance of an sRGB colour (0 black .. 1 white). */
double luminance(const QColor &c);
/** WCAG 2 contrast ratio of two colours, 1..21; text needs 4.5 (WCAG AA). */
double contrast(const QColor &a, const QColor &b);
constexpr double MinContrast = 4.5;

/** The colour nearest to `wanted` (same hue) that reads on `background` with at least `min` contrast:
 *  darker on a light background, lighter on a dark one. */
QColor readable(const QColor &wanted, const QColor &background, double min = MinContrast);

/** True when the palette's base (the views' background) is dark. */
bool isDark(const QPalette &p);
/** A dark Fusion palette (`bloomscope --palette dark`); every role pair passes MinContrast. */
QPalette darkPalette();
/** Fusion's light palette, its placeholder text made readable. */
QPalette lightPalette();
/** "light", "dark" or "system" (leave the platform's); false for another word. Light and dark use
 *  style(). */
bool applyPalette(const QString &name);
/** Fusion, with the outline of a check box and a radio button readable on a dark window (Fusion draws
 *  it a shade darker than the window: on #2b2b2b the Pause box all but vanished). A new style each call. */
QStyle *style();

/** Text colours with a meaning, readable on the palette's Base and Window. */
QColor errorText(const QPalette &p);
QColor okText(const QPalette &p);
QColor warnText(const QPalette &p);
QColor mutedText(const QPalette &p);
/** The background of the current step in the step-through, and its text. */
QColor stepHighlight(const QPalette &p);
/** The i-th slice colour (chunk first, then the k positions) as text on `background`. */
QColor sliceColour(int i, const QColor &background);

/** Banner backgrounds; their text is white and passes MinContrast. */
QColor productionBanner();
QColor stagingBanner();
QColor developmentBanner();
QColor adminBanner();
QColor warningBanner();
/** "background:#rrggbb; color:white; font-weight:bold; padding:3px" */
QString bannerStyle(const QColor &background);
/** `wanted` made readable on both the palette's Window and Base, as "#rrggbb" for rich text. */
QString textOn(const QColor &wanted, const QPalette &p);
/** "color:#rrggbb" for a label's text. */
QString textStyle(const QColor &c);

/** A round axis over [lo, hi]: min, max and step are 1, 2, 2.5 or 5 x 10^n, about `ticks` intervals. */
struct NiceAxis {
    double min = 0, max = 1, step = 1;
    int tickCount() const { return int(std::lround((max - min) / step)) + 1; }
};
NiceAxis niceAxis(double lo, double hi, int ticks = 5);
/** A time axis on round local times: a step of 1, 2, 5, 10, 15 or 30 seconds or minutes, 1, 2, 3, 6
 *  or 12 hours, 1, 2, 7 or 14 days, or about 1, 2, 3 or 6 months, with at most `ticks` intervals, and
 *  the ends on a multiple of it (days at local midnight); the label format fits the step. */
struct NiceTimeAxis {
    QDateTime min, max;
    qint64 stepSeconds = 3600;
    int tickCount = 2;
    QString format;
};
NiceTimeAxis niceTimeAxis(const QDateTime &lo, const QDateTime &hi, int ticks = 5);
/** A series colour (pen or marker) that stands out from the chart's background (WCAG non-text 3:1). */
QColor seriesColour(const QColor &wanted, const QPalette &p);

/** Sizes a top-level window to `preferred`, or to 90% of its screen's available area when that is
 *  smaller (HiDPI at QT_SCALE_FACTOR=2, small laptops); its minimum stays within 900 x 600. On a screen
 *  smaller than a main window's minimum, its central widget scrolls, so the window still fits. */
void fitToScreen(QWidget *window, const QSize &preferred);

/** The application's icon (the hicolor theme's when installed, else the SVG built in): every window
 *  shows it (X11's _NET_WM_ICON, the task bar). */
QIcon appIcon();

/** A chart drawn in the widget's palette: background, title, axes, grid and legend (series keep their pens). */
void styleChart(QChart *chart, const QPalette &p);

} // namespace bloom::theme
