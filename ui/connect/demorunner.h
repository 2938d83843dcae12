#pragma once

#include "common/result.h"
#include "local/demoactivity.h"
#include "local/localcluster.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <thread>

class QWidget;

namespace bloom {

/** Starts the demo database (a private LocalCluster with the reference filter and generated names)
 *  off the GUI thread, and keeps the cluster running until it is destroyed. */
class DemoRunner : public QObject {
    Q_OBJECT
public:
    explicit DemoRunner(QObject *parent = nullptr);
    ~DemoRunner() override;

    /** With shards > 0, also that many shard databases holding the names as users. With a traffic
     *  rate > 0 the demo then lives (DemoActivity: sign-ups and snapshots on an accelerated clock). */
    void start(qint64 names, int shards = 0, double trafficRate = 0, double clockFactor = 3600);
    const DemoActivity *activity() const { return mActivity.get(); }
    void cancel() { mCancel.store(true); }
    /** A progress dialog over `window` for the start about to be asked: its Cancel cancels the start,
     *  and it closes (without cancelling) when the demo is ready or failed. */
    void showProgress(QWidget *window, qint64 names, int shards);
    bool running() const { return mCluster && mCluster->isRunning(); }

signals:
    void progress(qint64 done, qint64 total);
    void ready(const QString &conninfo, const QString &shardMapPath);
    void failed(const bloom::Error &error);

private:
    std::unique_ptr<LocalCluster> mCluster;
    std::unique_ptr<DemoActivity> mActivity; ///< declared after the cluster: stopped before it
    std::thread mThread;
    std::atomic<bool> mCancel{false};
};

} // namespace bloom
