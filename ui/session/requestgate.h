#pragma once

#include "postgres/database.h"

#include <QSet>

#include <atomic>
#include <memory>
#include <mutex>

namespace bloom {

/**
 * The requests of one worker thread as the GUI thread and that worker share them: which request runs
 * now, the cancels asked for (a request cancelled before it starts never runs), the flag the batch
 * loops test, and the cancel key of the session the worker runs on. A cancel names its request's
 * token, so it never stops another request, and it reaches the server through a CancelHandle that
 * stays valid while the worker reconnects or closes its session. Every call is thread-safe.
 */
class RequestGate {
public:
    // The worker's side.
    /** Marks `token` as running; false when it was cancelled before it started, or the gate closed. */
    bool begin(int token);
    /** The running request ended (answered or failed): a later cancel of it does nothing. */
    void end();
    /** The session the worker runs on now (nullptr: none): what a cancel of the running request reaches. */
    void setConnection(std::shared_ptr<const CancelHandle> handle);
    /** For FilterStore::setCancelFlag(): true while the running request is cancelled. */
    const std::atomic<bool> *flag() const { return &mFlag; }

    // Any thread.
    /** Cancels `token`: its running statement and batch loops now, or the request before it starts. */
    void cancel(int token);
    /** Cancels whatever runs and every request after it (the owner is going away). */
    void close();
    /** The request running now (0: none). */
    int running() const;

private:
    mutable std::mutex mMutex;
    int mRunning = 0;
    QSet<int> mCancelled;
    bool mClosed = false;
    std::atomic<bool> mFlag{false};
    std::shared_ptr<const CancelHandle> mHandle;
};

/** begin() and end() of one request, however the worker's slot returns. */
class GateScope {
public:
    GateScope(RequestGate &gate, int token)
        : mGate(gate)
        , mOpen(gate.begin(token))
    {
    }
    ~GateScope() { mGate.end(); }
    GateScope(const GateScope &) = delete;
    GateScope &operator=(const GateScope &) = delete;
    /** false: cancelled before it started; the slot answers with a Cancelled failure. */
    explicit operator bool() const { return mOpen; }

private:
    RequestGate &mGate;
    bool mOpen;
};

} // namespace bloom
