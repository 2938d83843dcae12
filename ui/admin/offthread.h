#pragma once

#include "postgres/database.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

namespace bloom {

/**
 * One job of a dialog's at a time on a thread of its own (which opens its own connection). The job's
 * answer and its progress reach the GUI thread as calls queued to this object, so they are dropped
 * with it; and it never dies before its thread: the destructor cancels the job (the flag its loops
 * test, and the statement running on the session the job registered) and joins the thread.
 */
class OffThread : public QObject {
    Q_OBJECT
public:
    explicit OffThread(QObject *parent = nullptr);
    ~OffThread() override;

    bool running() const { return mRunning; }
    /** For the job's loops (Rebuilder::setCancelFlag and the like). */
    const std::atomic<bool> *cancelFlag() const { return &mCancel; }
    /** From the job's thread: the session whose statement a cancel stops (null: none any more). */
    void setConnection(std::shared_ptr<const CancelHandle> handle);
    /** Any thread: stops the job (it answers, usually with a Cancelled error). */
    void cancel();
    /** Cancels the job and waits for its thread; its answer is then dropped. */
    void cancelAndWait();
    /** From the job's thread: runs `f` on this object's thread, unless this object is gone by then. */
    void post(std::function<void()> f);

    /** Runs `work` on a new thread, then `done(result)` on this object's thread (unless it is gone). */
    template<class T> void run(std::function<T()> work, std::function<void(T)> done)
    {
        join();
        mCancel.store(false);
        mRunning = true;
        mThread.reset(QThread::create([this, work = std::move(work), done = std::move(done)]() mutable {
            T result = work();
            setConnection(nullptr);
            post([this, done = std::move(done), result = std::move(result)]() mutable {
                mRunning = false;
                done(std::move(result));
                emit finished();
            });
        }));
        mThread->setObjectName(QStringLiteral("bloomscope-job"));
        mThread->start();
    }

signals:
    /** The job answered (after its `done` ran). */
    void finished();

private:
    void join();

    std::unique_ptr<QThread> mThread;
    std::atomic<bool> mCancel{false};
    bool mRunning = false;
    std::mutex mMutex;
    std::shared_ptr<const CancelHandle> mHandle;
};

} // namespace bloom
