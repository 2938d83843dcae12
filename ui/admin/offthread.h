#pragma once

#include <QObject>
#include <QThread>

#include <functional>

namespace bloom {

/** Runs `work` on a new thread (which opens its own connection) and `done` back on ctx's thread. */
template<class T> void runOffThread(QObject *ctx, std::function<T()> work, std::function<void(T)> done)
{
    QThread *t = QThread::create([ctx, work = std::move(work), done = std::move(done)]() mutable {
        T result = work();
        QMetaObject::invokeMethod(
            ctx, [done, result] { done(result); }, Qt::QueuedConnection);
    });
    QObject::connect(t, &QThread::finished, t, &QObject::deleteLater);
    t->start();
}

} // namespace bloom
