#pragma once

#include "shards/shardtypes.h"

#include <QObject>
#include <QThread>

#include <atomic>

namespace bloom {

class ShardWorker;

/** The GUI thread's handle on a ShardWorker: requests go out queued, answers come back as signals;
 *  a keystroke answer older than the newest request is still delivered (the log shows every check). */
class ShardSession : public QObject {
    Q_OBJECT
public:
    explicit ShardSession(QObject *parent = nullptr);
    ~ShardSession() override;

    void open(const ConnectionSpec &filter, const FilterRef &ref, const ShardMap &map, bool readOnly);
    bool isOpen() const { return mOpen; }
    int shards() const { return mShards; }
    int check(const QByteArray &text);
    void replay(const ReplayRequest &request);
    void audit(qint64 perShard);
    void readLastAudit();
    /** Stops a replay after its current check. */
    void cancel() { mCancel.store(true); }
    bool busy() const { return mBusy; }

signals:
    void opened(int shards);
    void openFailed(const bloom::Error &error);
    void checked(int token, const bloom::KeystrokeCheck &check);
    void replayProgress(const bloom::ReplayPoint &point);
    void replayFinished(const bloom::ReplayResult &result);
    void auditRead(const bloom::AuditState &state);
    void failed(bloom::ShardTask task, const bloom::Error &error);

private:
    QThread mThread;
    ShardWorker *mWorker = nullptr;
    std::atomic<bool> mCancel{false};
    bool mOpen = false;
    bool mBusy = false;
    int mShards = 0;
    int mToken = 0;
};

} // namespace bloom
