#pragma once

#include "common/result.h"

#include <QString>

#include <atomic>
#include <mutex>
#include <thread>

namespace bloom {

/**
 * The demo database coming alive: new names arrive through the reference's own add statement at
 * `rate` a second (demo names from `firstName` on, so none was added before), and a snapshot is
 * recorded in bloomscope_history every `recordEveryMs` on a clock `clockFactor` times faster than the
 * wall clock, so the FPR tab's history and forecast have days in them within a minute. One thread with
 * its own connections, stopped (and joined) by stop() or the destructor.
 */
class DemoActivity {
public:
    struct Options {
        double rate = 1000;        ///< names a second
        double clockFactor = 3600; ///< simulated seconds a real second (3600: an hour a second)
        int recordEveryMs = 2000;
        qint64 firstName = 0; ///< demoName() index of the first new name
    };

    DemoActivity(const QString &conninfo, const Options &options);
    ~DemoActivity();
    DemoActivity(const DemoActivity &) = delete;
    DemoActivity &operator=(const DemoActivity &) = delete;

    void start();
    void stop();
    qint64 namesAdded() const { return mAdded.load(); }
    qint64 snapshots() const { return mSnapshots.load(); }
    /** The last thing that went wrong (the activity goes on), or empty. */
    QString lastError() const;

private:
    void run();
    void setError(const QString &e);

    QString mConninfo;
    Options mOptions;
    std::thread mThread;
    std::atomic<bool> mStop{false};
    std::atomic<qint64> mAdded{0};
    std::atomic<qint64> mSnapshots{0};
    mutable std::mutex mErrorMutex;
    QString mError;
};

} // namespace bloom
