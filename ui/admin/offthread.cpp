#include "admin/offthread.h"

namespace bloom {

OffThread::OffThread(QObject *parent)
    : QObject(parent)
{
}

OffThread::~OffThread()
{
    cancelAndWait();
}

void OffThread::setConnection(std::shared_ptr<const CancelHandle> handle)
{
    std::lock_guard lock(mMutex);
    mHandle = std::move(handle);
    if (mHandle && mCancel.load())
        mHandle->cancel(); // cancelled while it connected
}

void OffThread::cancel()
{
    mCancel.store(true);
    std::lock_guard lock(mMutex);
    if (mHandle)
        mHandle->cancel();
}

void OffThread::cancelAndWait()
{
    if (!mThread)
        return;
    cancel();
    join();
    mRunning = false;
}

void OffThread::join()
{
    if (mThread) {
        mThread->wait();
        mThread.reset();
    }
}

void OffThread::post(std::function<void()> f)
{
    QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
}

} // namespace bloom
