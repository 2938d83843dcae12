#pragma once

#include "common/result.h"
#include "local/localcluster.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <thread>

namespace bloom {

/** Starts the demo database (a private LocalCluster with the reference filter and generated names)
 *  off the GUI thread, and keeps the cluster running until it is destroyed. */
class DemoRunner : public QObject {
    Q_OBJECT
public:
    explicit DemoRunner(QObject *parent = nullptr);
    ~DemoRunner() override;

    /** With shards > 0, also that many shard databases holding the names as users. */
    void start(qint64 names, int shards = 0);
    void cancel() { mCancel.store(true); }
    bool running() const { return mCluster && mCluster->isRunning(); }

signals:
    void progress(qint64 done, qint64 total);
    void ready(const QString &conninfo, const QString &shardMapPath);
    void failed(const bloom::Error &error);

private:
    std::unique_ptr<LocalCluster> mCluster;
    std::thread mThread;
    std::atomic<bool> mCancel{false};
};

} // namespace bloom
