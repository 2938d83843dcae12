#include "demorunner.h"

#include "demo.h"
#include "sessiontypes.h"

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

void DemoRunner::start(qint64 names)
{
    if (mThread.joinable())
        mThread.join();
    mCancel.store(false);
    mCluster = std::make_unique<LocalCluster>();
    LocalCluster *cluster = mCluster.get();
    mThread = std::thread([this, cluster, names] {
        auto r = startDemo(
            *cluster, names, [this](qint64 done, qint64 total) { emit progress(done, total); }, &mCancel);
        // Signals from this thread are queued to the receivers' (GUI) thread.
        if (r)
            emit ready(*r);
        else
            emit failed(r.error());
    });
}

} // namespace bloom
