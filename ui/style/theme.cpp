#include "style/theme.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QGraphicsLayout>
#include <QGuiApplication>
#include <QIcon>
#include <QLayout>
#include <QLegend>
#include <QMainWindow>
#include <QPainter>
#include <QProxyStyle>
#include <QScreen>
#include <QScrollArea>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <QTimer>
#include <QWidget>

#include <cmath>
#include <memory>

namespace bloom::theme {

namespace {

double channel(double c)
{
    c /= 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

} // namespace

double luminance(const QColor &c)
{
    const QColor rgb = c.toRgb();
    return 0.2126 * channel(rgb.red()) + 0.7152 * channel(rgb.green()) + 0.0722 * channel(rgb.blue());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (qMax(la, lb) + 0.05) / (qMin(la, lb) + 0.05);
}

QColor readable(const QColor &wanted, const QColor &background, double min)
{
    const bool darkBackground = luminance(background) < 0.18;
    QColor c = wanted.toHsl();
    for (int i = 0; i < 100 && contrast(c, background) < min; ++i) {
        const double l = c.lightnessF();
        c.setHslF(c.hslHueF(), c.hslSaturationF(), qBound(0.0, darkBackground ? l + 0.02 : l - 0.02, 1.0));
    }
    if (contrast(c, background) < min)
        c = darkBackground ? Qt::white : Qt::black;
    return c.toRgb();
}

namespace {

/** Readable on the palette's Window and on its Base. */
QColor onBoth(const QColor &wanted, const QPalette &p)
{
    return readable(readable(wanted, p.color(QPalette::Window)), p.color(QPalette::Base));
}

} // namespace

bool isDark(const QPalette &p)
{
    return luminance(p.color(QPalette::Base)) < 0.18;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xe8, 0xe8, 0xe8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x30, 0x30, 0x30));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x38, 0x38, 0x38));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x62, 0xb8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xa8, 0xa8, 0xa8));
    p.setColor(QPalette::Link, QColor(0x7a, 0xb0, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xc0, 0x9a, 0xff));
    p.setColor(QPalette::Light, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x42, 0x42, 0x42));
    p.setColor(QPalette::Mid, QColor(0x30, 0x30, 0x30));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    p.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole r : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, r, QColor(0x80, 0x80, 0x80));
    return p;
}

namespace {

class ContrastStyle : public QProxyStyle {
public:
    ContrastStyle()
        : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion")))
    {
    }
    void drawPrimitive(PrimitiveElement pe, const QStyleOption *o, QPainter *p, const QWidget *w) const override
    {
        QProxyStyle::drawPrimitive(pe, o, p, w);
        if ((pe != PE_IndicatorCheckBox && pe != PE_IndicatorRadioButton) || !isDark(o->palette))
            return;
        // WCAG's 3:1 for the boundary of a control, on the window and on the box's own fill.
        const QColor edge = readable(readable(QColor(0x9a, 0x9a, 0x9a), o->palette.color(QPalette::Window), 3.0),
                                     o->palette.color(QPalette::Base), 3.0);
        p->save();
        p->setPen(QPen(edge, 1));
        p->setBrush(Qt::NoBrush);
        if (pe == PE_IndicatorRadioButton) {
            p->setRenderHint(QPainter::Antialiasing);
            p->drawEllipse(QRectF(o->rect).adjusted(0.5, 0.5, -0.5, -0.5));
        } else {
            p->drawRect(o->rect.adjusted(0, 0, -1, -1));
        }
        p->restore();
    }
};

} // namespace

QStyle *style()
{
    return new ContrastStyle;
}

bool applyPalette(const QString &name)
{
    if (name.isEmpty() || name == QLatin1String("system"))
        return true;
    if (name != QLatin1String("light") && name != QLatin1String("dark"))
        return false;
    QApplication::setStyle(style());
    QApplication::setPalette(name == QLatin1String("dark") ? darkPalette() : lightPalette());
    return true;
}

QIcon appIcon()
{
    return QIcon::fromTheme(QStringLiteral("org.bloomscope.Bloomscope"),
                            QIcon(QStringLiteral(":/icons/org.bloomscope.Bloomscope.svg")));
}

QPalette lightPalette()
{
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p = fusion->standardPalette();
    // Fusion's placeholder is half-transparent text (about 3.5:1 on white); hints must be readable too.
    p.setColor(QPalette::PlaceholderText, QColor(0x6e, 0x6e, 0x6e));
    p.setColor(QPalette::Highlight, QColor(0x1f, 0x5f, 0xb0)); // Fusion's #308cc6 gives white text 3.7:1
    return p;
}

QColor errorText(const QPalette &p)
{
    return onBoth(QColor(0xd0, 0x30, 0x30), p);
}

QColor okText(const QPalette &p)
{
    return onBoth(QColor(0x2e, 0xa0, 0x4f), p);
}

QColor warnText(const QPalette &p)
{
    return onBoth(QColor(0xe0, 0x8a, 0x10), p);
}

QColor mutedText(const QPalette &p)
{
    return onBoth(QColor(0x80, 0x80, 0x80), p);
}

QColor stepHighlight(const QPalette &p)
{
    // A tint of the base, so the text colours chosen for the base still read on it.
    return isDark(p) ? QColor(0x26, 0x32, 0x40) : QColor(0xe4, 0xee, 0xf8);
}

QColor sliceColour(int i, const QColor &background)
{
    static const QColor hues[] = {QColor(0xff, 0x9f, 0x1c), QColor(0x5e, 0xa1, 0xff), QColor(0x2e, 0xc4, 0x4c),
                                  QColor(0xff, 0x5e, 0xa8), QColor(0xc7, 0x7d, 0xff), QColor(0x2e, 0xc4, 0xb6),
                                  QColor(0xe0, 0xb0, 0x30), QColor(0xef, 0x47, 0x6f), QColor(0x06, 0xb6, 0x80),
                                  QColor(0x11, 0x8a, 0xb2)};
    return readable(hues[i % 10], background);
}

QColor productionBanner()
{
    return {0xb0, 0x1e, 0x1e};
}

QColor stagingBanner()
{
    return {0x8a, 0x55, 0x00};
}

QColor developmentBanner()
{
    return {0x1e, 0x6b, 0x3c};
}

QColor adminBanner()
{
    return {0xa6, 0x1d, 0x1d};
}

QColor warningBanner()
{
    return {0x7a, 0x52, 0x00};
}

QString textOn(const QColor &wanted, const QPalette &p)
{
    return onBoth(wanted, p).name();
}

QString bannerStyle(const QColor &background)
{
    return QStringLiteral("background:%1; color:white; font-weight:bold; padding:3px").arg(background.name());
}

QString textStyle(const QColor &c)
{
    return QStringLiteral("color:%1").arg(c.name());
}

NiceAxis niceAxis(double lo, double hi, int ticks)
{
    if (!(hi > lo)) {
        const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
        lo -= pad;
        hi += pad;
    }
    const double raw = (hi - lo) / qMax(1, ticks);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    NiceAxis a;
    a.step = step;
    a.min = std::floor(lo / step + 1e-9) * step;
    a.max = std::ceil(hi / step - 1e-9) * step;
    return a;
}

NiceTimeAxis niceTimeAxis(const QDateTime &lo, const QDateTime &hi, int ticks)
{
    constexpr qint64 Minute = 60, Hour = 3600, Day = 86400;
    static constexpr qint64 Steps[] = {1,          2,          5,           10,          15,          30,      Minute,
                                       2 * Minute, 5 * Minute, 10 * Minute, 15 * Minute, 30 * Minute, Hour,    2 * Hour,
                                       3 * Hour,   6 * Hour,   12 * Hour,   Day,         2 * Day,     7 * Day, 14 * Day,
                                       30 * Day,   61 * Day,   91 * Day,    182 * Day,   365 * Day};
    const QDateTime start = lo.toLocalTime();
    // Local seconds: multiples of a day fall on local midnight (a DST change moves a tick by its hour).
    const qint64 offset = start.offsetFromUtc();
    const qint64 from = lo.toSecsSinceEpoch() + offset, to = qMax(hi.toSecsSinceEpoch() + offset, from + 1);
    NiceTimeAxis a;
    a.stepSeconds = Steps[std::size(Steps) - 1];
    for (qint64 s : Steps) {
        const qint64 first = from / s * s, last = (to + s - 1) / s * s;
        if ((last - first) / s <= ticks) {
            a.stepSeconds = s;
            break;
        }
    }
    const qint64 s = a.stepSeconds;
    const qint64 first = from / s * s, last = qMax((to + s - 1) / s * s, first + s);
    a.min = QDateTime::fromSecsSinceEpoch(first - offset).toLocalTime();
    a.max = QDateTime::fromSecsSinceEpoch(last - offset).toLocalTime();
    a.tickCount = int((last - first) / s) + 1;
    a.format = s < Minute ? QStringLiteral("HH:mm:ss")
               : s < Day  ? (first / Day == (last - 1) / Day ? QStringLiteral("HH:mm") : QStringLiteral("MMM d HH:mm"))
               : s < 182 * Day ? QStringLiteral("MMM d")
                               : QStringLiteral("MMM yyyy");
    return a;
}

QColor seriesColour(const QColor &wanted, const QPalette &p)
{
    return readable(wanted, p.color(QPalette::Base), 3.0);
}

void fitToScreen(QWidget *window, const QSize &preferred)
{
    QSize size = preferred;
    window->ensurePolished();
    if (window->layout())
        window->layout()->activate();
    if (const QScreen *screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen()) {
        size = size.boundedTo(screen->availableSize() * 0.9);
        // A screen smaller than the window's least size (a projector's 1280 x 720 at scale 2 is 640 x 360):
        // the window still fits, and its content scrolls rather than being cut or running off the screen.
        auto *main = qobject_cast<QMainWindow *>(window);
        const QSize least = window->minimumSizeHint(), avail = screen->availableSize();
        if (main && main->centralWidget() && !qobject_cast<QScrollArea *>(main->centralWidget()) &&
            (least.width() > avail.width() || least.height() > avail.height())) {
            QWidget *content = main->takeCentralWidget();
            auto *scroll = new QScrollArea(main);
            scroll->setObjectName(QStringLiteral("fitToScreenScroll"));
            scroll->setWidgetResizable(true);
            scroll->setFrameShape(QFrame::NoFrame);
            scroll->setWidget(content);
            main->setCentralWidget(scroll);
            if (window->layout())
                window->layout()->activate();
        }
    }
    window->resize(size.expandedTo(window->minimumSizeHint().boundedTo(size)));
    // Word-wrapped labels know their minimum only once laid out: fit again when the window is up,
    // unless someone sized it since (a user, --screenshot).
    const QSize first = window->size();
    QTimer::singleShot(0, window, [window, size, first] {
        if (window->windowState() == Qt::WindowNoState && window->size() == first)
            window->resize(size.expandedTo(window->minimumSizeHint().boundedTo(size)));
    });
}

void styleChart(QChart *chart, const QPalette &p)
{
    const QColor bg = p.color(QPalette::Base), text = p.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(isDark(p) ? 60 : 40);
    chart->setBackgroundBrush(bg);
    chart->setBackgroundPen(Qt::NoPen);
    // Qt's defaults (20 px of margin inside 9 of layout, on every side) took 58 px of each chart's
    // height; the FPR tab's two charts then did not fit a 1280 x 800 window without a scroll bar.
    chart->setMargins(QMargins(8, 4, 8, 4));
    chart->layout()->setContentsMargins(4, 4, 4, 4);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis *a : chart->axes()) {
        a->setLabelsColor(text);
        a->setTitleBrush(text);
        a->setLinePenColor(grid);
        a->setGridLineColor(grid);
        QColor minor = grid;
        minor.setAlpha(grid.alpha() / 2);
        a->setMinorGridLineColor(minor);
    }
}

} // namespace bloom::theme
