#include "shards/shardsession.h"

#include "shards/shardworker.h"

namespace bloom {

ShardSession::ShardSession(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<Error>();
    qRegisterMetaType<KeystrokeCheck>();
    qRegisterMetaType<ReplayPoint>();
    qRegisterMetaType<ReplayResult>();
    qRegisterMetaType<AuditState>();
    qRegisterMetaType<ShardTask>();
    mThread.setObjectName(QStringLiteral("bloomscope-shards"));
    mWorker = new ShardWorker(&mCancel); // no parent: it moves to the thread and dies with it
    mWorker->moveToThread(&mThread);
    connect(&mThread, &QThread::finished, mWorker, &QObject::deleteLater);
    connect(mWorker, &ShardWorker::opened, this, [this](int shards) {
        mOpen = true;
        mShards = shards;
        emit opened(shards);
    });
    connect(mWorker, &ShardWorker::openFailed, this, [this](const Error &e) {
        mOpen = false;
        emit openFailed(e);
    });
    connect(mWorker, &ShardWorker::checked, this, &ShardSession::checked);
    connect(mWorker, &ShardWorker::replayProgress, this, &ShardSession::replayProgress);
    connect(mWorker, &ShardWorker::replayFinished, this, [this](const ReplayResult &r) {
        mBusy = false;
        emit replayFinished(r);
    });
    connect(mWorker, &ShardWorker::auditRead, this, [this](const AuditState &s) {
        mBusy = false;
        emit auditRead(s);
    });
    connect(mWorker, &ShardWorker::failed, this, [this](ShardTask task, const Error &e) {
        mBusy = false;
        emit failed(task, e);
    });
    mThread.start();
}

ShardSession::~ShardSession()
{
    mCancel.store(true);
    mThread.quit();
    mThread.wait();
}

void ShardSession::open(const ConnectionSpec &filter, const FilterRef &ref, const ShardMap &map, bool readOnly)
{
    mOpen = false;
    QMetaObject::invokeMethod(
        mWorker, [w = mWorker, filter, ref, map, readOnly] { w->open(filter, ref, map, readOnly); },
        Qt::QueuedConnection);
}

int ShardSession::check(const QByteArray &text)
{
    const int token = ++mToken;
    QMetaObject::invokeMethod(
        mWorker, [w = mWorker, token, text] { w->check(token, text); }, Qt::QueuedConnection);
    return token;
}

void ShardSession::replay(const ReplayRequest &request)
{
    mCancel.store(false);
    mBusy = true;
    QMetaObject::invokeMethod(
        mWorker, [w = mWorker, request] { w->replay(request); }, Qt::QueuedConnection);
}

void ShardSession::audit(qint64 perShard)
{
    mCancel.store(false);
    mBusy = true;
    QMetaObject::invokeMethod(
        mWorker, [w = mWorker, perShard] { w->runAudit(perShard); }, Qt::QueuedConnection);
}

void ShardSession::readLastAudit()
{
    QMetaObject::invokeMethod(
        mWorker, [w = mWorker] { w->readLastAudit(); }, Qt::QueuedConnection);
}

} // namespace bloom
