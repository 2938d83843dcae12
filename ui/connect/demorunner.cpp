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
}

void DemoRunner::start(qint64 names, int shards)
{
    if (mThread.joinable())
        mThread.join();
    mCancel.store(false);
    mCluster = std::make_unique<LocalCluster>();
    LocalCluster *cluster = mCluster.get();
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
        if (r)
            emit ready(*r, QString());
        else
            emit failed(r.error());
    });
}

} // namespace bloom
