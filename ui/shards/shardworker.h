#pragma once

#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "shards/shardtypes.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace bloom {

/**
 * Lives on the shard session's thread with its own filter connection and one connection per shard:
 * keystroke checks, the replay, audits. Every call blocks only this thread.
 */
class ShardWorker : public QObject {
    Q_OBJECT
public:
    explicit ShardWorker(const std::atomic<bool> *cancel);
    ~ShardWorker() override;

    void open(const ConnectionSpec &filter, const FilterRef &ref, const ShardMap &map, bool readOnly);
    void check(int token, const QByteArray &text);
    void replay(const ReplayRequest &request);
    void runAudit(qint64 perShard);
    void readLastAudit();

signals:
    void opened(int shards);
    void openFailed(const bloom::Error &error);
    void checked(int token, const bloom::KeystrokeCheck &check);
    void replayProgress(const bloom::ReplayPoint &point);
    void replayFinished(const bloom::ReplayResult &result);
    void auditRead(const bloom::AuditState &state);
    void failed(bloom::ShardTask task, const bloom::Error &error);

private:
    const std::atomic<bool> *mCancel;
    std::unique_ptr<Database> mDb;
    std::unique_ptr<FilterStore> mStore;
    std::unique_ptr<ShardPool> mPool;
    ShardMap mMap;
};

} // namespace bloom
