#include "local/localredis.h"

#include "local/localcluster.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

namespace bloom {

LocalRedis::LocalRedis() = default;

LocalRedis::~LocalRedis()
{
    stop();
}

Status LocalRedis::start()
{
    const QString exe = QStandardPaths::findExecutable(QStringLiteral("redis-server"));
    if (exe.isEmpty())
        return makeError(ErrorKind::Cluster, QStringLiteral("redis-server is not installed"),
                         QStringLiteral("run packaging/setup (Debian package redis-server)"));
    mDir = std::make_unique<QTemporaryDir>(QStringLiteral("/tmp/bloomscope-redis-XXXXXX"));
    if (!mDir->isValid())
        return makeError(ErrorKind::Io, QStringLiteral("cannot create a directory for redis-server"));
    QString lastError;
    for (int attempt = 0; attempt < 5; ++attempt) {
        mPort = freeLoopbackPort();
        mServer = std::make_unique<QProcess>();
        mServer->setProcessChannelMode(QProcess::MergedChannels);
        mServer->start(exe, {QStringLiteral("--port"), QString::number(mPort), QStringLiteral("--bind"),
                             QStringLiteral("127.0.0.1"), QStringLiteral("--protected-mode"), QStringLiteral("yes"),
                             QStringLiteral("--unixsocket"), mDir->filePath(QStringLiteral("redis.sock")),
                             QStringLiteral("--unixsocketperm"), QStringLiteral("700"), QStringLiteral("--save"),
                             QString(), QStringLiteral("--appendonly"), QStringLiteral("no"), QStringLiteral("--dir"),
                             mDir->path(), QStringLiteral("--daemonize"), QStringLiteral("no")});
        if (!mServer->waitForStarted(10000))
            return makeError(ErrorKind::Cluster,
                             QStringLiteral("redis-server did not start: %1").arg(mServer->errorString()));
        for (int i = 0; i < 100; ++i) {
            if (mServer->state() != QProcess::Running)
                break;
            if (auto c = RedisConn::open(target(), 1); c.ok())
                return success();
            QThread::msleep(50);
        }
        lastError = QString::fromUtf8(mServer->readAll()).trimmed();
        mServer->kill();
        mServer->waitForFinished(5000);
    }
    return makeError(ErrorKind::Cluster, QStringLiteral("redis-server did not answer: %1").arg(lastError.right(400)));
}

void LocalRedis::stop()
{
    if (mServer && mServer->state() == QProcess::Running) {
        mServer->terminate(); // SIGTERM: redis-server exits (nothing to save)
        if (!mServer->waitForFinished(5000)) {
            mServer->kill();
            mServer->waitForFinished(5000);
        }
    }
    mServer.reset();
}

bool LocalRedis::isRunning() const
{
    return mServer && mServer->state() == QProcess::Running;
}

QString LocalRedis::url() const
{
    return QStringLiteral("redis://127.0.0.1:%1").arg(mPort);
}

QString LocalRedis::socketUrl() const
{
    return QStringLiteral("unix://%1").arg(mDir ? mDir->filePath(QStringLiteral("redis.sock")) : QString());
}

RedisTarget LocalRedis::target() const
{
    RedisTarget t;
    t.port = mPort;
    return t;
}

} // namespace bloom
