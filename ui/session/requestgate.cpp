#include "session/requestgate.h"

namespace bloom {

bool RequestGate::begin(int token)
{
    std::lock_guard lock(mMutex);
    mRunning = token;
    const bool cancelled = mClosed || mCancelled.remove(token);
    // A worker runs its requests in the order asked: a cancel of an earlier one came after its end.
    mCancelled.removeIf([token](int t) { return t < token; });
    mFlag.store(cancelled);
    return !cancelled;
}

void RequestGate::end()
{
    std::lock_guard lock(mMutex);
    mRunning = 0;
    if (!mClosed)
        mFlag.store(false);
}

void RequestGate::setConnection(std::shared_ptr<const CancelHandle> handle)
{
    std::lock_guard lock(mMutex);
    mHandle = std::move(handle);
}

void RequestGate::cancel(int token)
{
    // Under the lock: the worker cannot end this request and start the next one (on the same
    // session) between the test and the cancel, so the statement cancelled is this request's.
    std::lock_guard lock(mMutex);
    if (token != mRunning) {
        mCancelled.insert(token);
        return;
    }
    mFlag.store(true);
    if (mHandle)
        mHandle->cancel();
}

void RequestGate::close()
{
    std::lock_guard lock(mMutex);
    mClosed = true;
    mFlag.store(true);
    if (mRunning && mHandle)
        mHandle->cancel();
}

int RequestGate::running() const
{
    std::lock_guard lock(mMutex);
    return mRunning;
}

} // namespace bloom
