// Every view readable and reachable: sizes that fit the screen, contrast in the light and the dark
// palette, charts with round ticks, a heatmap scale that shows differences, the keyboard and the menus.
#include "admin/oldfiltersdialog.h"
#include "admin/rebuilddialog.h"
#include "connect/connectdialog.h"
#include "fpr/fprview.h"
#include "fpr/historychart.h"
#include "heatmap/heatmapwidget.h"
#include "mainwindow.h"
#include "model/fprmodel.h"
#include "redis/rediswindow.h"
#include "session/sessiontypes.h"
#include "shards/replaypanel.h"
#include "shards/shardsession.h"
#include "step/stepthroughview.h"
#include "style/files.h"
#include "style/statuslabel.h"
#include "style/theme.h"
#include "teach/teachwindow.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHelpEvent>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QLogValueAxis>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyleFactory>
#include <QStyleOptionButton>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>
#include <QTextEdit>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace bloom;

class TestGuiViews : public QObject {
    Q_OBJECT
private:
    QStringList mFailures;

    void expect(const QString &what, const QColor &fg, const QColor &bg)
    {
        const double c = theme::contrast(fg, bg);
        if (c < theme::MinContrast)
            mFailures << QStringLiteral("%1: %2 on %3 is %4:1").arg(what, fg.name(), bg.name()).arg(c, 0, 'f', 2);
    }
    /** Every text colour written in `html` (Qt's own rich text) against each of `backgrounds`. */
    void expectHtml(const QString &what, const QString &html, const QList<QColor> &backgrounds)
    {
        static const QRegularExpression colour(QStringLiteral("(?<![-\\w])color:\\s*(#[0-9a-fA-F]{6})"));
        for (const QRegularExpressionMatch &m : colour.globalMatch(html))
            for (const QColor &bg : backgrounds)
                expect(what, QColor(m.captured(1)), bg);
    }
    /** Every label under `root`: its style sheet's colours, or its rich text on its window colour. */
    void expectLabels(const QString &what, QWidget *root)
    {
        static const QRegularExpression fg(QStringLiteral("(?<![-\\w])color:\\s*(#[0-9a-fA-F]{6}|white)"));
        static const QRegularExpression bg(QStringLiteral("background(?:-color)?:\\s*(#[0-9a-fA-F]{6})"));
        for (QLabel *l : root->findChildren<QLabel *>()) {
            const QString sheet = l->styleSheet();
            const QColor back = bg.match(sheet).hasMatch() ? QColor(bg.match(sheet).captured(1))
                                                           : l->palette().color(l->backgroundRole());
            if (const auto m = fg.match(sheet); m.hasMatch())
                expect(what + QLatin1Char(' ') + l->objectName(), QColor(m.captured(1)), back);
            else
                expect(what + QLatin1Char(' ') + l->objectName(), l->palette().color(l->foregroundRole()), back);
            if (Qt::mightBeRichText(l->text()))
                expectHtml(what + QLatin1Char(' ') + l->objectName(), l->text(), {back});
        }
    }

private slots:
    void everyTextMeetsContrastInBothPalettes();
    void fprChartReadsAtEveryScale();
    void historyChartShowsItsData();
    void timeAxisTicksAreRound();
    void manyChangedChunksAreRingedAcrossTheMap();
    void longNamesStayBoundedInTheStepThrough();
    void keyboardAndMenusReachEveryAction();
    void everyControlHasAnAccessibleName();
    void longStatusLinesAreCutAndTheWholeLineIsTheTooltip();
    void theLegendFitsAtEverySize();
    void menuActionsHaveObjectNames();
    void theWindowHasItsIconAndClass();
    void checkBoxesReadInTheDarkPalette();
    void aChunkPastTheLastIsRefused();

    /** At 1280 x 800 the FPR tab's two charts and its text (four lines of history, fit and sizing, as a
     *  recorded history gives) fit without the scroll bar the tab falls back to on smaller screens. */
    void fprTabFitsA1280By800Window()
    {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        auto *fpr = w.findChild<FprView *>();
        QVERIFY(fpr);
        QScrollArea *scroll = nullptr;
        for (QScrollArea *a : w.findChildren<QScrollArea *>())
            if (a->widget() == fpr)
                scroll = a;
        QVERIFY(scroll);
        // The texts a recorded history gives (the history's status, the growth fit over two lines,
        // the sizing), each label shown as it is then.
        const QString shortLine = QStringLiteral("3 snapshot(s) recorded in bloomscope_history, the last 6 Dec 2026");
        const QString twoLines = QStringLiteral(
            "Growth 48.0 k names a day (95%: 48.0 k to 48.0 k); robust linear fit of 3 points from 6 Dec 2026 "
            "18:00:50 to 6 Dec 2026 22:12:00. The 1% target (capacity 111.7 M names) is crossed around 10 Mar "
            "2033 (95%: 10 Mar 2033 to 10 Mar 2033).");
        bool first = true;
        for (QLabel *l : fpr->findChildren<QLabel *>())
            if (l->wordWrap()) {
                l->setText(first ? twoLines : shortLine);
                l->setVisible(true);
                first = false;
            }
        auto *tabs = w.findChild<QTabWidget *>();
        tabs->setCurrentIndex(tabs->indexOf(scroll));
        QTest::qWait(50);
        QVERIFY2(!scroll->verticalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("the FPR tab is %1 px high, the window gives it %2")
                                .arg(fpr->height())
                                .arg(scroll->viewport()->height())));
    }

    void windowsFitTheScreen()
    {
        // As the app does: each window shown right after it is made.
        std::vector<std::unique_ptr<QWidget>> windows;
        const QSize avail = QGuiApplication::primaryScreen()->availableSize();
        qInfo("screen %dx%d available, dpr %.1f", avail.width(), avail.height(),
              QGuiApplication::primaryScreen()->devicePixelRatio());
        for (int kind = 0; kind < 3; ++kind) {
            windows.push_back(kind == 0   ? std::unique_ptr<QWidget>(new MainWindow)
                              : kind == 1 ? std::unique_ptr<QWidget>(new TeachWindow)
                                          : std::unique_ptr<QWidget>(new RedisWindow));
            QWidget *w = windows.back().get();
            w->show();
            QTest::qWait(20);
            for (QTabWidget *tabs : w->findChildren<QTabWidget *>())
                for (int i = 0; i < tabs->count(); ++i) {
                    QWidget *page = tabs->widget(i);
                    qInfo("  tab %s: minimum %dx%d", qPrintable(tabs->tabText(i)), page->minimumSizeHint().width(),
                          page->minimumSizeHint().height());
                    for (QWidget *c : page->findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
                        if (c->minimumSizeHint().width() > 600 || c->minimumSizeHint().height() > 400)
                            qInfo("    %s %s: %dx%d", c->metaObject()->className(), qPrintable(c->objectName()),
                                  c->minimumSizeHint().width(), c->minimumSizeHint().height());
                }
            qInfo("%s: %dx%d, minimum %dx%d", w->metaObject()->className(), w->width(), w->height(),
                  w->minimumSizeHint().width(), w->minimumSizeHint().height());
            QVERIFY(w->minimumSizeHint().width() <= 900);
            QVERIFY(w->minimumSizeHint().height() <= 600);
            // The first size fits the screen, however small (a projector's 640 x 360 at scale 2: the
            // content scrolls there rather than the window running off the screen).
            QVERIFY2(w->width() <= avail.width() && w->height() <= avail.height(),
                     qPrintable(QStringLiteral("%1 is %2x%3 on a %4x%5 screen")
                                    .arg(QString::fromLatin1(w->metaObject()->className()))
                                    .arg(w->width())
                                    .arg(w->height())
                                    .arg(avail.width())
                                    .arg(avail.height())));
        }
    }
};

void TestGuiViews::everyTextMeetsContrastInBothPalettes()
{
    for (const QString &name : {QStringLiteral("light"), QStringLiteral("dark")}) {
        mFailures.clear();
        QVERIFY(theme::applyPalette(name));
        const QPalette p = QApplication::palette();
        QCOMPARE(theme::isDark(p), name == QLatin1String("dark"));
        // The palette's own pairs.
        const std::pair<QPalette::ColorRole, QPalette::ColorRole> roles[] = {
            {QPalette::WindowText, QPalette::Window},         {QPalette::Text, QPalette::Base},
            {QPalette::Text, QPalette::AlternateBase},        {QPalette::ButtonText, QPalette::Button},
            {QPalette::HighlightedText, QPalette::Highlight}, {QPalette::ToolTipText, QPalette::ToolTipBase},
            {QPalette::PlaceholderText, QPalette::Base},      {QPalette::Link, QPalette::Base}};
        for (const auto &[f, b] : roles)
            expect(QStringLiteral("palette %1/%2").arg(int(f)).arg(int(b)), p.color(f), p.color(b));
        // The colours with a meaning, and the banners.
        for (const QColor &bg : {p.color(QPalette::Window), p.color(QPalette::Base)}) {
            expect(QStringLiteral("error"), theme::errorText(p), bg);
            expect(QStringLiteral("ok"), theme::okText(p), bg);
            expect(QStringLiteral("warn"), theme::warnText(p), bg);
            expect(QStringLiteral("muted"), theme::mutedText(p), bg);
        }
        for (const QColor &banner : {theme::productionBanner(), theme::stagingBanner(), theme::developmentBanner(),
                                     theme::adminBanner(), theme::warningBanner()})
            expect(QStringLiteral("banner"), Qt::white, banner);
        expect(QStringLiteral("current step"), p.color(QPalette::Text), theme::stepHighlight(p));
        for (int i = 0; i < 10; ++i)
            expect(QStringLiteral("slice %1").arg(i), theme::sliceColour(i, theme::stepHighlight(p)),
                   theme::stepHighlight(p));

        // The views as drawn: the step-through's steps (on the base and on the current step's tint),
        // every label of the main window, the teaching window after the reference's example.
        MainWindow window;
        window.show();
        window.stepView()->setName(QStringLiteral("ada"));
        for (int step = 0; step < StepThroughView::StepCount; ++step) {
            window.stepView()->setStep(step);
            expectHtml(QStringLiteral("step %1").arg(step),
                       window.stepView()->findChild<QTextBrowser *>(QStringLiteral("stepText"))->toHtml(),
                       {p.color(QPalette::Base), theme::stepHighlight(p)});
        }
        window.stepView()->setName(QStringLiteral("   "));
        expectHtml(QStringLiteral("step error"),
                   window.stepView()->findChild<QTextBrowser *>(QStringLiteral("stepText"))->toHtml(),
                   {p.color(QPalette::Base)});
        expectLabels(QStringLiteral("main window"), &window);
        TeachWindow teach;
        teach.setStepMs(0);
        teach.show();
        teach.playReferenceExample();
        QTRY_VERIFY(teach.idle());
        expectLabels(QStringLiteral("teach"), &teach);
        // the log's highlighted false positive (bjarne) on its own background
        for (QListWidget *log : teach.findChildren<QListWidget *>())
            for (int i = 0; i < log->count(); ++i)
                if (log->item(i)->background().style() != Qt::NoBrush)
                    expect(QStringLiteral("log line %1").arg(log->item(i)->text().left(20)),
                           log->item(i)->foreground().style() != Qt::NoBrush ? log->item(i)->foreground().color()
                                                                             : log->palette().color(QPalette::Text),
                           log->item(i)->background().color());
        teach.showCompare();
        expectLabels(QStringLiteral("compare"), &teach);
        QVERIFY2(mFailures.isEmpty(), qPrintable(name + QStringLiteral(": ") + mFailures.join(QStringLiteral("; "))));
    }
    theme::applyPalette(QStringLiteral("light"));
}

namespace {

/** A step of 1, 2, 2.5 or 5 times a power of ten. */
bool roundStep(double step)
{
    const double mag = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (std::abs(step - m * mag) < 1e-9 * mag)
            return true;
    return false;
}

bool roundAxis(const QValueAxis *a)
{
    const double step = (a->max() - a->min()) / (a->tickCount() - 1);
    return roundStep(step) && std::abs(a->min() / step - std::round(a->min() / step)) < 1e-6;
}

} // namespace

void TestGuiViews::manyChangedChunksAreRingedAcrossTheMap()
{
    // 22,465 chunks changed under a living demo's traffic, all over the filter: the rings went on the
    // first 5,000 in chunk order, a solid band over the top fifth of the map as if only those changed.
    HeatmapWidget map;
    map.resize(800, 500);
    FillResult r;
    r.heatmap = QImage(512, 256, QImage::Format_RGB32); // 131,072 chunks
    r.heatmap.fill(Qt::darkGreen);
    map.setResult(r);
    for (quint32 c = 0; c < 131072; c += 5)
        r.changedChunks.push_back(c);
    map.setResult(r);
    map.setMarkChanges(true);
    QCOMPARE(map.markedChunks().size(), r.changedChunks.size());
    const std::vector<quint32> ringed = map.ringedChunks();
    QCOMPARE(ringed.size(), HeatmapWidget::MaxRings);
    QVERIFY(std::is_sorted(ringed.begin(), ringed.end()));
    QCOMPARE(ringed.front(), 0u);
    QVERIFY2(ringed.back() > 131072 * 9 / 10, qPrintable(QString::number(ringed.back())));
    const size_t lowerHalf = size_t(std::count_if(ringed.begin(), ringed.end(), [](quint32 c) { return c < 65536; }));
    QVERIFY2(lowerHalf > 2300 && lowerHalf < 2700, qPrintable(QString::number(lowerHalf)));
    map.grab(); // and it paints
    // A few are all ringed.
    r.changedChunks = {3, 70000, 131071};
    map.setResult(r);
    QCOMPARE(map.ringedChunks(), r.changedChunks);
}

void TestGuiViews::timeAxisTicksAreRound()
{
    // Before: QDateTimeAxis spread 5 ticks evenly over the snapshots' own span (Dec 4 15:58, 23:04, ...).
    const QDate day(2026, 12, 4);
    const QDateTime lo(day, QTime(15, 58, 50)), hi(day.addDays(1), QTime(20, 22, 0));
    theme::NiceTimeAxis a = theme::niceTimeAxis(lo, hi, 5);
    QCOMPARE(a.stepSeconds, 12 * 3600);
    QCOMPARE(a.min, QDateTime(day, QTime(12, 0)));
    QCOMPARE(a.max, QDateTime(day.addDays(2), QTime(0, 0)));
    QCOMPARE(a.tickCount, 4);
    QCOMPARE(a.format, QStringLiteral("MMM d HH:mm"));

    a = theme::niceTimeAxis(lo, lo.addSecs(600), 5);
    QCOMPARE(a.stepSeconds, 300);
    QCOMPARE(a.min, QDateTime(day, QTime(15, 55)));
    QCOMPARE(a.max, QDateTime(day, QTime(16, 10)));
    QCOMPARE(a.format, QStringLiteral("HH:mm"));

    a = theme::niceTimeAxis(lo, lo.addSecs(40), 5);
    QCOMPARE(a.stepSeconds, 10);
    QCOMPARE(a.format, QStringLiteral("HH:mm:ss"));

    a = theme::niceTimeAxis(lo, lo.addDays(90), 5);
    QCOMPARE(a.stepSeconds, 30 * 86400);
    QCOMPARE(a.format, QStringLiteral("MMM d"));
    QVERIFY(a.min <= lo);
    QVERIFY(a.max >= lo.addDays(90));
    QCOMPARE(a.min.time(), QTime(0, 0)); // a day's multiple starts at local midnight
    QVERIFY(a.tickCount <= 6);
}

void TestGuiViews::historyChartShowsItsData()
{
    // A day of snapshots of the 2M demo (FPR about 2e-13) growing 48k names a day.
    HistoryChart chart;
    chart.resize(1000, 500);
    chart.show();
    const Geometry reference;
    chart.setFilter(reference, 0.01);
    QList<Snapshot> snaps;
    const QDateTime t0 = QDateTime::currentDateTimeUtc().addDays(-1);
    for (int i = 0; i <= 24; ++i) {
        Snapshot s;
        s.id = i + 1;
        s.takenAt = t0.addSecs(i * 3600);
        s.estimatedNames = 2e6 + 2000.0 * i;
        s.estimatedFpr = fpr::blocked(s.estimatedNames, reference);
        snaps.append(s);
    }
    chart.setSnapshots(snaps);
    // Every point is inside its axes: the FPR on the log axis, the names on theirs.
    for (const QPointF &p : chart.fprSeries()->points())
        QVERIFY2(p.y() >= chart.fprAxis()->min() && p.y() <= chart.fprAxis()->max(),
                 qPrintable(QStringLiteral("%1 outside %2..%3")
                                .arg(p.y())
                                .arg(chart.fprAxis()->min())
                                .arg(chart.fprAxis()->max())));
    for (const QPointF &p : chart.namesSeries()->points())
        QVERIFY(p.y() >= chart.namesAxis()->min() && p.y() <= chart.namesAxis()->max());
    // Round ticks, labelled with the decimals their step needs (0.025 is not "0.03").
    QVERIFY(roundAxis(chart.namesAxis()));
    QVERIFY(roundAxis(chart.fprAxis()));
    QVERIFY2(chart.fprAxis()->titleText().contains(QLatin1String("1e-13")), qPrintable(chart.fprAxis()->titleText()));
    for (const QValueAxis *a : {chart.namesAxis(), chart.fprAxis()}) {
        const double step = (a->max() - a->min()) / (a->tickCount() - 1);
        const int decimals = a->labelFormat().mid(2, 1).toInt();
        QVERIFY2(std::abs(step * std::pow(10, decimals) - std::round(step * std::pow(10, decimals))) < 1e-6,
                 qPrintable(a->labelFormat()));
    }
    // The history is most of the picture: the forecast runs ahead by at most the span shown when the
    // crossing is years away.
    const double span = chart.namesSeries()->points().last().x() - chart.namesSeries()->points().first().x();
    const double ahead = chart.forecastSeries()->points().last().x() - chart.namesSeries()->points().last().x();
    QVERIFY2(ahead <= span * 1.01, qPrintable(QStringLiteral("%1 ahead of %2").arg(ahead).arg(span)));
    // The legend draws each entry as its series is drawn: the forecast's entry is dashed, not the
    // names' blue square a second time.
    QCOMPARE(chart.chartView()->chart()->legend()->markerShape(), QLegend::MarkerShapeFromSeries);
    // The legend has no entry for what is not drawn, and one per colour.
    for (QLegendMarker *m : chart.chartView()->chart()->legend()->markers())
        if (m->isVisible())
            QVERIFY2(!m->label().startsWith(QLatin1String("capacity")) && m->label() != QLatin1String("snapshot"),
                     qPrintable(m->label())); // 111.7M names at 1%: far off this chart
}

void TestGuiViews::fprChartReadsAtEveryScale()
{
    FprView view;
    view.resize(1000, 700);
    view.show();
    const Geometry reference; // the default is the reference geometry
    view.setGeometry(reference);
    const QDateTime t0 = QDateTime::currentDateTimeUtc();
    const double names = 2e6;
    view.addMeasurement(t0, fpr::blocked(names, reference), names);
    view.addMeasurement(t0.addSecs(5), fpr::blocked(names * 1.001, reference), names * 1.001);
    // The floor sits below today's rate and the curve rises across the chart, not along a floor.
    QVERIFY(view.fprAxis()->min() < fpr::blocked(names, reference));
    const auto points = view.modelSeries()->points();
    QVERIFY(!points.isEmpty());
    QVERIFY2(points.first().x() <= 0.05 * view.namesAxis()->max(), qPrintable(QString::number(points.first().x())));
    QVERIFY(view.todayPoint()->points().first().y() > view.fprAxis()->min());
    // The x range holds the capacity, today and the reference's 200M; its ticks are round.
    QVERIFY(view.namesAxis()->max() >= 200);
    QVERIFY(roundAxis(view.namesAxis()));
    // The log axis has few enough labels to fit the chart's height at any rate: at 200,000 names
    // (3e-18) it had 11 and Qt Charts elided every one to "...".
    const auto fprLabels = [](const FprView &v) {
        return int(std::lround(std::log(1 / v.fprAxis()->min()) / std::log(v.fprAxis()->base()))) + 1;
    };
    QVERIFY2(fprLabels(view) <= 6, qPrintable(QString::number(fprLabels(view))));
    {
        FprView few;
        few.setGeometry(reference);
        few.addMeasurement(t0, fpr::blocked(2e5, reference), 2e5);
        QVERIFY(few.fprAxis()->min() < fpr::blocked(2e5, reference));
        QVERIFY2(fprLabels(few) <= 6, qPrintable(QString::number(fprLabels(few))));
    }
    // Below, the window's refreshes (no history recorded), and a fit that says what it needs.
    QCOMPARE(view.history()->namesSeries()->count(), 2);
    QVERIFY2(view.forecastText().contains(QLatin1String("needs at least 6 over at least 12 hours")),
             qPrintable(view.forecastText()));
    // "now" is named in the legend, never as a label a chart edge can cut.
    QVERIFY(!view.todayPoint()->pointLabelsVisible());
    QVERIFY(view.todayPoint()->name().startsWith(QLatin1String("now: 2.0 M names")));
    // Legend colours match their series, and no two series share one; the entries are drawn as their
    // series are (the target dashed, the capacity dotted, the points as points).
    QCOMPARE(view.modelView()->chart()->legend()->markerShape(), QLegend::MarkerShapeFromSeries);
    QSet<QRgb> colours;
    for (QLegendMarker *m : view.modelView()->chart()->legend()->markers()) {
        auto *xy = qobject_cast<QXYSeries *>(m->series());
        const QColor c = qobject_cast<QScatterSeries *>(xy) ? xy->color() : xy->pen().color();
        QCOMPARE(m->brush().color().rgb(), c.rgb());
        QVERIFY2(!colours.contains(c.rgb()), qPrintable(m->label()));
        colours.insert(c.rgb());
    }
    // A point's tooltip says what it is.
    emit view.todayPoint()->hovered(view.todayPoint()->points().first(), true);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QLatin1String("now: 2.0 M names")), qPrintable(QToolTip::text()));
    // A small filter: the x range follows its geometry (thousands of names), still round.
    const Geometry small = *Geometry::fromCounts(64, 8192, 7);
    view.setGeometry(small);
    view.addMeasurement(t0, fpr::blocked(3000, small), 3000);
    QVERIFY2(view.namesAxis()->titleText().contains(QLatin1String("thousands")),
             qPrintable(view.namesAxis()->titleText()));
    QVERIFY(view.namesAxis()->max() * 1e3 >= fpr::capacity(small, view.target()));
    QVERIFY(view.namesAxis()->max() * 1e3 < 10 * fpr::capacity(small, view.target()));
    QVERIFY(roundAxis(view.namesAxis()));
    // Drawn in the palette: a dark window gets a dark chart.
    theme::applyPalette(QStringLiteral("dark"));
    FprView dark;
    QCOMPARE(dark.modelView()->chart()->backgroundBrush().color(), QApplication::palette().color(QPalette::Base));
    theme::applyPalette(QStringLiteral("light"));
}

void TestGuiViews::longNamesStayBoundedInTheStepThrough()
{
    StepThroughView view;
    view.show();
    view.setStep(StepThroughView::Lowercase);
    auto *field = view.findChild<QLineEdit *>(QStringLiteral("stepName"));
    auto *text = view.findChild<QTextBrowser *>(QStringLiteral("stepText"));
    // A 20,000-character name is shown by its ends and its length, never laid out whole.
    view.setName(QString(20000, QLatin1Char('x')) + QStringLiteral("END"));
    QVERIFY(text->toPlainText().contains(QLatin1String("20,003 characters")));
    QVERIFY(text->toPlainText().size() < 2000);
    QVERIFY(text->toPlainText().contains(QLatin1String("xEND")));
    // A longer paste is cut to the field's limit and said, not cut silently (Qt's own limit, 32,767).
    view.setName(QString(StepThroughView::MaxFieldCharacters + 10, QLatin1Char('y')));
    QCOMPARE(field->text().size(), StepThroughView::MaxFieldCharacters);
    QCOMPARE(view.cutFrom(), qsizetype(StepThroughView::MaxFieldCharacters + 10));
    QVERIFY2(text->toPlainText().contains(QLatin1String("65,546 characters; the field takes 65,536")),
             qPrintable(text->toPlainText()));
    view.setName(QString(40000, QLatin1Char('z')));
    QCOMPARE(field->text().size(), 40000);
    QCOMPARE(view.cutFrom(), qsizetype(0));
    // The core name rule, as bloomctl applies it: blanks only are refused.
    view.setName(QStringLiteral("   "));
    QVERIFY(text->toPlainText().contains(QLatin1String("blank")) ||
            text->toPlainText().contains(QLatin1String("empty")));
}

void TestGuiViews::keyboardAndMenusReachEveryAction()
{
    // Every window quits on Ctrl+Q and has its views on Ctrl+1.. (the Redis window too, menu and all).
    MainWindow main;
    TeachWindow teach;
    RedisWindow redis;
    for (QMainWindow *w : std::initializer_list<QMainWindow *>{&main, &teach, &redis}) {
        QStringList shortcuts;
        for (QAction *a : w->findChildren<QAction *>())
            for (const QKeySequence &k : a->shortcuts())
                shortcuts << k.toString();
        QVERIFY2(shortcuts.contains(QStringLiteral("Ctrl+Q")), w->metaObject()->className());
        if (w != &teach) {
            QVERIFY2(shortcuts.contains(QStringLiteral("F5")), w->metaObject()->className());
            QVERIFY(shortcuts.contains(QStringLiteral("Ctrl+1")));
            QVERIFY(shortcuts.contains(QStringLiteral("Ctrl+3")));
        }
    }
    QVERIFY(main.findChild<QMenu *>(QStringLiteral("menuHelp")));
    QVERIFY(main.aboutText().contains(QLatin1String(BLOOMSCOPE_VERSION)));
    QVERIFY(main.aboutText().contains(QLatin1String(qVersion())));
    QVERIFY(main.aboutText().contains(QLatin1String("libpq</td><td>15.")));
    // Ctrl+2 shows the FPR view.
    main.show();
    QVERIFY(QTest::qWaitForWindowExposed(&main));
    QTest::keyClick(&main, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(main.findChild<QTabWidget *>()->currentIndex(), 1);
    QTest::keyClick(&main, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(main.findChild<QTabWidget *>()->currentIndex(), 0);

    // The heatmap takes the keyboard: Tab reaches it, arrows move between chunks, Enter opens one.
    HeatmapWidget heat;
    FillResult r;
    r.fill.geometry = *Geometry::fromCounts(16, 8192, 7);
    r.fill.setBits.assign(16, 10);
    r.imageColumns = 4;
    r.heatmap = QImage(4, 4, QImage::Format_RGB32);
    heat.setResult(r);
    QCOMPARE(heat.focusPolicy(), Qt::StrongFocus);
    heat.show();
    heat.setFocus();
    QSignalSpy clicked(&heat, &HeatmapWidget::chunkClicked);
    QTest::keyClick(&heat, Qt::Key_Right);
    QTest::keyClick(&heat, Qt::Key_Down);
    QCOMPARE(heat.current(), qint64(5));
    QTest::keyClick(&heat, Qt::Key_Return);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.first().first().toUInt(), 5u);
    QTest::keyClick(&heat, Qt::Key_End);
    QCOMPARE(heat.current(), qint64(15));
    QTest::keyClick(&heat, Qt::Key_Plus);
    QVERIFY(heat.zoom() > 1.0);
    QTest::keyClick(&heat, Qt::Key_0);
    QCOMPARE(heat.zoom(), 1.0);

    // A file saved without its suffix gets it.
    QCOMPARE(withSuffix(QStringLiteral("/tmp/heatmap"), QStringLiteral("png")), QStringLiteral("/tmp/heatmap.png"));
    QCOMPARE(withSuffix(QStringLiteral("/tmp/a.PNG"), QStringLiteral("png")), QStringLiteral("/tmp/a.PNG"));

    // The replay says its clock is simulated, where its speed is set.
    ShardSession shards;
    ReplayPanel replay(&shards);
    auto *typing = replay.findChild<QSpinBox *>(QStringLiteral("typingMs"));
    QVERIFY(typing);
    QVERIFY(typing->prefix().contains(QLatin1String("simulated")));
    QVERIFY(typing->toolTip().contains(QLatin1String("not in real time")));

    // The comparison tab's status line is its own, not the other tab's.
    teach.show();
    teach.showCompare();
    auto *status = teach.statusBar()->findChild<QLabel *>();
    QVERIFY(status);
    QVERIFY2(status->text().startsWith(QLatin1String("Classic vs blocked")), qPrintable(status->text()));
}

void TestGuiViews::everyControlHasAnAccessibleName()
{
    // Screen readers and GUI test drivers find a control by its accessible name, a label's buddy, or
    // (for a button) its text: every control of every window has one.
    MainWindow main;
    TeachWindow teach;
    RedisWindow redis;
    ConnectDialog connect(main.session());
    RebuildDialog rebuild(*ConnectionSpec::parse(QStringLiteral("host=/nonexistent")), FilterSummary{}, 1000);
    OldFiltersDialog old(*ConnectionSpec::parse(QStringLiteral("host=/nonexistent")), FilterRef{});
    QStringList missing;
    for (QWidget *root : std::initializer_list<QWidget *>{&main, &teach, &redis, &connect, &rebuild, &old}) {
        QSet<const QWidget *> buddies;
        for (QLabel *l : root->findChildren<QLabel *>())
            if (l->buddy())
                buddies.insert(l->buddy());
        for (QWidget *w : root->findChildren<QWidget *>()) {
            if (w->parentWidget() &&
                (qobject_cast<QAbstractSpinBox *>(w->parentWidget()) || qobject_cast<QComboBox *>(w->parentWidget())))
                continue; // the line edit inside a spin box or combo box
            const bool control = qobject_cast<QLineEdit *>(w) || qobject_cast<QAbstractSpinBox *>(w) ||
                                 qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSlider *>(w) ||
                                 qobject_cast<QAbstractItemView *>(w) || qobject_cast<QTextEdit *>(w) ||
                                 qobject_cast<QAbstractButton *>(w);
            if (!control || qobject_cast<QScrollBar *>(w) || w->inherits("QTabBar") || w->inherits("QToolButton") ||
                w->inherits("QHeaderView") || w->inherits("QTableCornerButton"))
                continue;
            const auto *button = qobject_cast<QAbstractButton *>(w);
            const bool named =
                !w->accessibleName().isEmpty() || buddies.contains(w) || (button && !button->text().isEmpty());
            if (!named)
                missing << QStringLiteral("%1: %2 '%3'")
                               .arg(QString::fromLatin1(root->metaObject()->className()),
                                    QString::fromLatin1(w->metaObject()->className()), w->objectName());
        }
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QStringLiteral("; "))));
}

void TestGuiViews::longStatusLinesAreCutAndTheWholeLineIsTheTooltip()
{
    // A DBA must be able to read the whole of an error: a status line longer than the window is cut
    // with an ellipsis, never widens the window, and is whole in the tooltip and for screen readers.
    // Text that looks like HTML (a typed name) is shown as typed.
    const QString longLine = QStringLiteral("Add failed: <b>not bold</b> ") + QString(400, QLatin1Char('x')) +
                             QStringLiteral(" the end that must be readable");
    const QString text = longLine + QStringLiteral("\nFix: a second line");
    MainWindow main;
    TeachWindow teach;
    RedisWindow redis;
    for (QMainWindow *w : std::initializer_list<QMainWindow *>{&main, &teach, &redis}) {
        const QString what = QString::fromLatin1(w->metaObject()->className());
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        const int width = w->width();
        auto *status = w->findChild<StatusLabel *>(QStringLiteral("status"));
        QVERIFY2(status, qPrintable(what));
        status->setText(text);
        QTest::qWait(20);
        QCOMPARE(w->width(), width);
        QVERIFY2(w->minimumSizeHint().width() <= 900, qPrintable(what));
        QVERIFY2(status->isCut(), qPrintable(what));
        const QStringList shown = status->shownText().split(QLatin1Char('\n'));
        QCOMPARE(shown.size(), 2);
        QVERIFY2(shown[0].endsWith(QChar(0x2026)) && shown[0].startsWith(QLatin1String("Add failed: <b>not bold</b>")),
                 qPrintable(what + QLatin1String(": ") + shown[0]));
        QCOMPARE(shown[1], QStringLiteral("Fix: a second line"));
        QCOMPARE(status->text(), text);
        QAccessibleInterface *accessible = QAccessible::queryAccessibleInterface(status);
        QVERIFY(accessible);
        QCOMPARE(accessible->text(QAccessible::Name), text);
        // The colour a style sheet gives it (the main window's lost connection, in red) is drawn.
        status->setStyleSheet(QStringLiteral("color: #d00000"));
        const QImage drawn = status->grab().toImage();
        bool red = false;
        for (int y = 0; y < drawn.height() && !red; ++y)
            for (int x = 0; x < drawn.width() && !red; ++x) {
                const QColor c = drawn.pixelColor(x, y);
                red = c.red() > 150 && c.green() < 90 && c.blue() < 90;
            }
        QVERIFY2(red, qPrintable(what));
        status->setStyleSheet(QString());
        QHelpEvent help(QEvent::ToolTip, QPoint(5, 5), status->mapToGlobal(QPoint(5, 5)));
        QApplication::sendEvent(status, &help);
        QTRY_COMPARE(QToolTip::text(), text);
        QToolTip::hideText();
        // A line that fits is drawn whole and has no tooltip of its own.
        status->setText(QStringLiteral("Ready."));
        QVERIFY(!status->isCut());
        QCOMPARE(status->shownText(), QStringLiteral("Ready."));
        w->hide();
    }
}

void TestGuiViews::theLegendFitsAtEverySize()
{
    // Issue 35: the legend's labels overprinted each other at 751 x 450, at 1600 x 1000 and at scale 2,
    // and its caption ran into the map. At every size: the caption, the ramp and each label inside the
    // legend, no two of them touching, and the legend clear of the map.
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    HeatmapLegend *legend = w.legend();
    legend->setScale(706, 1323, 8192, 7, HeatScale::Relative);
    const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR");
    for (const QSize &size : {QSize(640, 418), QSize(751, 450), QSize(1280, 800), QSize(1600, 1000)}) {
        w.resize(size);
        QTest::qWait(50);
        const QString what = QStringLiteral("%1x%2 (window %3x%4, legend %5x%6)")
                                 .arg(size.width())
                                 .arg(size.height())
                                 .arg(w.width())
                                 .arg(w.height())
                                 .arg(legend->width())
                                 .arg(legend->height());
        const HeatmapLegend::Layout l = legend->layoutFor(legend->width());
        QVERIFY2(legend->height() >= l.height, qPrintable(what));
        QVERIFY2(legend->rect().contains(l.caption), qPrintable(what));
        QVERIFY2(legend->rect().contains(l.bar), qPrintable(what));
        QVERIFY2(!l.caption.intersects(l.bar), qPrintable(what));
        QVERIFY2(l.labels.size() >= 2, qPrintable(what));
        for (qsizetype i = 0; i < l.labels.size(); ++i) {
            QVERIFY2(legend->rect().contains(l.labels[i]), qPrintable(what));
            QVERIFY2(!l.labels[i].intersects(l.bar) && !l.labels[i].intersects(l.caption), qPrintable(what));
            for (qsizetype j = i + 1; j < l.labels.size(); ++j)
                QVERIFY2(!l.labels[i].intersects(l.labels[j]), qPrintable(what));
        }
        const QRect map(w.heatmap()->mapTo(&w, QPoint(0, 0)), w.heatmap()->size());
        const QRect drawn(legend->mapTo(&w, QPoint(0, 0)), legend->size());
        QVERIFY2(!map.intersects(drawn), qPrintable(what));
        if (!dir.isEmpty())
            w.grab().save(QStringLiteral("%1/legend-%2x%3-scale%4.png")
                              .arg(dir)
                              .arg(size.width())
                              .arg(size.height())
                              .arg(w.devicePixelRatioF()));
    }
}

void TestGuiViews::menuActionsHaveObjectNames()
{
    // Tests and GUI drivers find an action or a menu by its name, not by text that a translation changes:
    // every menu and every action in it, submenus included, in each of the three main windows.
    MainWindow main;
    TeachWindow teach;
    RedisWindow redis;
    for (QMainWindow *w : std::initializer_list<QMainWindow *>{&main, &teach, &redis}) {
        const QString window = QString::fromLatin1(w->metaObject()->className());
        QStringList unnamed;
        QSet<QString> names;
        std::function<void(QMenu *)> walk = [&](QMenu *menu) {
            if (menu->objectName().isEmpty())
                unnamed << menu->title();
            for (QAction *a : menu->actions()) {
                if (a->isSeparator())
                    continue;
                if (a->menu()) {
                    walk(a->menu());
                    continue;
                }
                if (a->objectName().isEmpty())
                    unnamed << a->text();
                else if (names.contains(a->objectName()))
                    unnamed << a->objectName() + QStringLiteral(" (twice)");
                names.insert(a->objectName());
            }
        };
        for (QAction *menu : w->menuBar()->actions())
            if (menu->menu())
                walk(menu->menu());
        QVERIFY2(!names.isEmpty(), qPrintable(window));
        QVERIFY2(unnamed.isEmpty(), qPrintable(window + QLatin1String(": ") + unnamed.join(QStringLiteral(", "))));
        QVERIFY2(w->findChild<QAction *>(QStringLiteral("actionQuit")), qPrintable(window));
    }
    for (const char *n : {"actionQuit", "actionAdminMode", "actionLoadNames", "actionSampleFpr", "actionRebuild",
                          "actionSwap", "actionOldFilters", "actionRecordSnapshot", "actionExportHeatmap"})
        QVERIFY2(main.findChild<QAction *>(QLatin1String(n)), n);
    for (const char *n : {"menuFile", "menuExport", "menuAdmin", "menuView", "menuHelp"})
        QVERIFY2(main.findChild<QMenu *>(QLatin1String(n)), n);
}

void TestGuiViews::theWindowHasItsIconAndClass()
{
    // Issue 35: no window icon on X11 (_NET_WM_ICON comes from the window's icon) and no StartupWMClass.
    MainWindow main;
    const QIcon icon = main.windowIcon();
    QVERIFY(!icon.isNull());
    const QImage drawn = icon.pixmap(64, 64).toImage();
    QVERIFY(!drawn.isNull());
    QSet<QRgb> colours;
    for (int y = 0; y < drawn.height(); y += 4)
        for (int x = 0; x < drawn.width(); x += 4)
            colours.insert(drawn.pixel(x, y));
    QVERIFY2(colours.size() > 3, "the icon draws nothing");
    QFile desktop(QStringLiteral(BLOOM_SOURCE_DIR "/packaging/org.bloomscope.Bloomscope.desktop"));
    QVERIFY(desktop.open(QIODevice::ReadOnly));
    // Qt's X11 WM_CLASS is the application name (main() sets "Bloomscope").
    QVERIFY(desktop.readAll().contains("\nStartupWMClass=Bloomscope\n"));
}

void TestGuiViews::checkBoxesReadInTheDarkPalette()
{
    // Issue 35: the Pause check box was hard to see in the dark palette (Fusion outlines the box a
    // shade darker than the window). Its outline must reach WCAG's 3:1 for a control's boundary.
    const auto outlineContrast = [](QStyle *style) {
        QCheckBox box(QStringLiteral("Pause"));
        box.setStyle(style);
        box.setPalette(theme::darkPalette());
        box.resize(box.sizeHint());
        const QImage img = box.grab().toImage();
        QStyleOptionButton o;
        o.initFrom(&box);
        const QRect r = style->subElementRect(QStyle::SE_CheckBoxIndicator, &o, &box);
        const QColor window = theme::darkPalette().color(QPalette::Window);
        double best = 0;
        for (int x = r.left(); x <= r.right(); ++x)
            for (int y : {r.top(), r.bottom()})
                best = qMax(
                    best, theme::contrast(
                              img.pixelColor(x * img.width() / box.width(), y * img.height() / box.height()), window));
        return best;
    };
    std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    std::unique_ptr<QStyle> ours(theme::style());
    const double before = outlineContrast(fusion.get()), after = outlineContrast(ours.get());
    qInfo("the check box's outline on the dark window: Fusion %.2f:1, ours %.2f:1", before, after);
    QVERIFY2(after >= 3.0, qPrintable(QString::number(after)));
}

void TestGuiViews::aChunkPastTheLastIsRefused()
{
    // Issue 35: typing 999999 as a chunk silently opened chunk 99999.
    MainWindow main;
    main.show();
    QVERIFY(QTest::qWaitForWindowExposed(&main));
    main.showView(QStringLiteral("chunk"));
    auto *number = main.findChild<QSpinBox *>(QStringLiteral("chunkNumber"));
    QVERIFY(number);
    number->setFocus();
    number->selectAll();
    QTest::keyClicks(number, QStringLiteral("999999"));
    QTest::keyClick(number, Qt::Key_Return);
    QVERIFY2(main.chunkText().contains(QLatin1String("There is no chunk 999,999")) &&
                 main.chunkText().contains(QLatin1String("131,072 chunks")),
             qPrintable(main.chunkText()));
    QVERIFY(!main.chunkText().contains(QLatin1String("99999:")));
}

QTEST_MAIN(TestGuiViews)
#include "tst_gui_views.moc"
