#include "connect/demorunner.h"

#include "local/demo.h"
#include "session/sessiontypes.h"

#include <QProgressDialog>

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

void DemoRunner::showProgress(QWidget *window, qint64 names, int shards)
{
    const QString text =
        shards == 0 ? tr("Starting a private PostgreSQL and loading %L1 generated names...").arg(names)
        : shards == 1
            ? tr("Starting a private PostgreSQL with 1 shard database and loading %L1 generated names...").arg(names)
            : tr("Starting a private PostgreSQL with %1 shard databases and loading %L2 generated names...")
                  .arg(QString::number(shards), QLocale().toString(names));
    auto *progress = new QProgressDialog(text, tr("Cancel"), 0, 1000, window);
    progress->setObjectName(QStringLiteral("demoProgress"));
    progress->setWindowTitle(tr("Demo database"));
    progress->setMinimumDuration(0);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(progress, &QProgressDialog::canceled, this, &DemoRunner::cancel);
    connect(this, &DemoRunner::progress, progress, [progress](qint64 done, qint64 total) {
        progress->setValue(int(1000.0 * double(done) / double(qMax<qint64>(1, total))));
    });
    // Closed because the demo answered: that close must not "cancel" what has ended (QProgressDialog's
    // close emits canceled()).
    const auto done = [progress] {
        progress->blockSignals(true);
        progress->close();
    };
    connect(this, &DemoRunner::ready, progress, done);
    connect(this, &DemoRunner::failed, progress, done);
}

} // namespace bloom
