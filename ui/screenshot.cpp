#include "screenshot.h"

#include "mainwindow.h"
#include "redis/rediswindow.h"
#include "shards/replaypanel.h"
#include "shards/shardsession.h"
#include "shards/typingview.h"
#include "step/stepthroughview.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>

namespace bloom::screenshot {

void saveAndExit(QWidget *window, const QString &file, int code)
{
    const bool ok = window->grab().save(file);
    std::fprintf(ok ? stdout : stderr, ok ? "bloomscope: wrote %s\n" : "bloomscope: cannot write %s\n",
                 qPrintable(file));
    QApplication::exit(ok ? code : 1);
}

void whenReady(MainWindow &window, const Plan &plan)
{
    MainWindow *w = &window;
    const auto grab = [w, plan] { QTimer::singleShot(plan.delayMs, w, [w, plan] { saveAndExit(w, plan.file); }); };
    QObject::connect(
        w, &MainWindow::refreshed, w,
        [w, plan, grab] {
            if (plan.view == QLatin1String("step") && !w->stepView()->answered()) {
                // The database's answer: a verdict, or the error in its place (a damaged chunk row).
                QObject::connect(w->stepView(), &StepThroughView::resultReady, w, grab, Qt::SingleShotConnection);
                QObject::connect(w->stepView(), &StepThroughView::failedToAnswer, w, grab, Qt::SingleShotConnection);
            } else if (plan.view == QLatin1String("shards") && w->shardSession()) {
                // The shards view's picture: the name typed key by key, a replay of 300 names, an audit.
                const auto replay = [w, grab, plan] {
                    TypingView *t = w->typingView();
                    t->typeText(plan.name);
                    t->replay()->setReplaySize(300);
                    QObject::connect(
                        t->replay(), &ReplayPanel::replayFinished, w,
                        [t, grab] {
                            QObject::connect(t, &TypingView::auditShown, t, grab, Qt::SingleShotConnection);
                            t->runAudit();
                        },
                        Qt::SingleShotConnection);
                    t->replay()->startReplay();
                };
                if (w->shardSession()->isOpen())
                    replay();
                else
                    QObject::connect(w->shardSession(), &ShardSession::opened, w, replay, Qt::SingleShotConnection);
            } else if (plan.view == QLatin1String("chunk")) {
                w->showChunk(plan.chunk);
                QTimer::singleShot(300, w, grab);
            } else {
                grab();
            }
        },
        Qt::SingleShotConnection);
    QObject::connect(w, &MainWindow::failedToStart, qApp, [](const QString &why) {
        std::fprintf(stderr, "bloomscope: %s\n", qPrintable(why));
        QApplication::exit(1);
    });
    // A connection that fails is the picture (the window says why) and exit code 1, at once: it
    // waited five minutes for data that could not come.
    QObject::connect(w, &MainWindow::openFailed, w, [w, plan](const QString &why) {
        std::fprintf(stderr, "bloomscope: %s\n", qPrintable(why));
        QTimer::singleShot(200, w, [w, plan] { saveAndExit(w, plan.file, 1); });
    });
    if (!plan.connecting)
        grab();
    QTimer::singleShot(300000, qApp, [] {
        std::fprintf(stderr, "bloomscope: no data within 5 minutes; no screenshot\n");
        QApplication::exit(1);
    });
    // The README's pictures have one size, whatever the screen; and it is not the user's size to keep.
    w->setRemembersGeometry(false);
    w->resize(1280, 800);
}

void whenReady(RedisWindow &window, const QString &file, const QString &view)
{
    RedisWindow *w = &window;
    window.resize(1280, 800);
    const auto grab = [w, file] { QTimer::singleShot(400, w, [w, file] { saveAndExit(w, file); }); };
    QObject::connect(
        w, &RedisWindow::refreshed, w,
        [w, grab, view] {
            if (view == QLatin1String("step") && !w->hasStep())
                QObject::connect(w, &RedisWindow::stepReady, w, grab, Qt::SingleShotConnection);
            else
                grab();
        },
        Qt::SingleShotConnection);
    QObject::connect(w, &RedisWindow::failedToStart, qApp, [](const QString &why) {
        std::fprintf(stderr, "bloomscope: %s\n", qPrintable(why));
        QApplication::exit(1);
    });
}

void after(QWidget &window, const QString &file, int ms)
{
    QWidget *w = &window;
    window.resize(1280, 800);
    QTimer::singleShot(ms, w, [w, file] { saveAndExit(w, file); });
}

} // namespace bloom::screenshot
