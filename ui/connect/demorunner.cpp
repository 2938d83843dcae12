#include "connect/demorunner.h"

#include "local/demo.h"
#include "session/sessiontypes.h"

namespace bloom {

DemoRunner::DemoRunner(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<Error>();
}

DemoRunner::~DemoRunner()
{
    mCancel.store(true);
    if (mThread.joinable())
        mThread.join();
    mActivity.reset(); // its connections close before the cluster stops
}

void DemoRunner::start(qint64 names, int shards, double trafficRate, double clockFactor)
{
    if (mThread.joinable())
        mThread.join();
    mActivity.reset();
    mCancel.store(false);
    mCluster = std::make_unique<LocalCluster>();
    LocalCluster *cluster = mCluster.get();
    if (trafficRate > 0) // it comes alive once the demo is ready, on the GUI thread that owns it
        connect(
            this, &DemoRunner::ready, this,
            [this, names, trafficRate, clockFactor](const QString &conninfo) {
                mActivity = std::make_unique<DemoActivity>(
                    conninfo, DemoActivity::Options{trafficRate, clockFactor, 2000, names});
                mActivity->start();
            },
            Qt::SingleShotConnection);
    mThread = std::thread([this, cluster, names, shards] {
        const auto report = [this](qint64 done, qint64 total) { emit progress(done, total); };
        // Signals from this thread are queued to the receivers' (GUI) thread.
        if (shards > 0) {
            auto map = startShardedDemo(*cluster, names, shards, report, &mCancel);
            if (map)
                emit ready(cluster->connectionString(QStringLiteral("bloomscope_demo")), *map);
            else
                emit failed(map.error());
            return;
        }
        auto r = startDemo(*cluster, names, report, &mCancel);
        if (!r) {
            emit failed(r.error());
            return;
        }
        emit ready(*r, QString());
    });
}

} // namespace bloom
