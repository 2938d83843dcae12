#include "shards/shardworker.h"

#include "shards/shardpool.h"

#include <QElapsedTimer>

namespace bloom {

QString shardTaskName(ShardTask task)
{
    switch (task) {
    case ShardTask::Check:
        return QObject::tr("check");
    case ShardTask::Replay:
        return QObject::tr("replay");
    case ShardTask::Audit:
        return QObject::tr("audit");
    case ShardTask::LastAudit:
        return QObject::tr("reading of the last audit");
    }
    return {};
}

ShardWorker::ShardWorker(const std::atomic<bool> *cancel)
    : mCancel(cancel)
{
}

ShardWorker::~ShardWorker() = default;

void ShardWorker::open(const ConnectionSpec &filter, const FilterRef &ref, const ShardMap &map, bool readOnly)
{
    mPool.reset();
    mStore.reset();
    mDb.reset();
    Database::Options o;
    o.readOnly = readOnly;
    auto db = Database::open(filter, o);
    if (!db) {
        emit openFailed(db.error());
        return;
    }
    auto store = std::make_unique<FilterStore>(**db, ref);
    if (auto s = store->attach(); !s) {
        emit openFailed(s.error());
        return;
    }
    auto pool = std::make_unique<ShardPool>(map);
    if (auto s = pool->connect(); !s) {
        emit openFailed(s.error());
        return;
    }
    mDb = std::move(db).value();
    mStore = std::move(store);
    mPool = std::move(pool);
    mMap = map;
    emit opened(mPool->size());
    readLastAudit();
}

void ShardWorker::check(int token, const QByteArray &text)
{
    if (!mPool)
        return;
    auto k = checkKeystroke(*mStore, *mPool, text);
    if (!k)
        emit failed(ShardTask::Check, k.error());
    else
        emit checked(token, *k);
}

void ShardWorker::replay(const ReplayRequest &request)
{
    if (!mPool)
        return;
    auto names = replayNames(mMap, request.names, request.takenShare, request.seed);
    if (!names) {
        emit failed(ShardTask::Replay, names.error());
        return;
    }
    ReplayResult result;
    result.shards = mPool->size();
    ReplayPoint point;
    point.total = names->size();
    qsizetype current = 0;
    qint64 nameWith = 0, nameWithout = 0;
    bool nameTaken = false;
    QElapsedTimer sinceEmit;
    sinceEmit.start();
    const auto finishName = [&] {
        const QByteArray &n = names->at(current);
        if (!nameTaken && n.size() == 12 && nameWithout > result.freeNameWithout) {
            result.freeNameWithout = nameWithout;
            result.freeNameWith = nameWith;
        }
        point.namesDone = current + 1;
        nameWith = nameWithout = 0;
        nameTaken = false;
    };
    auto report = simulate(*mStore, *mPool, *names, request.options, [&](qsizetype index, const KeystrokeCheck &k) {
        if (index != current) {
            finishName();
            current = index;
            if (sinceEmit.elapsed() >= 100) { // the chart redraws ten times a second at most
                emit replayProgress(point);
                sinceEmit.restart();
            }
        }
        nameWith += k.queriesWithFilter;
        nameWithout += k.queriesWithout;
        nameTaken = nameTaken || (k.taken && k.text.size() == names->at(index).size());
        point.queriesWith += k.queriesWithFilter;
        point.queriesWithout += k.queriesWithout;
        result.filterMs.push_back(k.filterPathMs);
        result.shardsMs.push_back(k.shardsOnlyMs);
        return !mCancel->load();
    });
    if (!report) {
        emit failed(ShardTask::Replay, report.error());
        return;
    }
    if (!names->isEmpty())
        finishName();
    emit replayProgress(point);
    result.report = *report;
    emit replayFinished(result);
}

void ShardWorker::runAudit(qint64 perShard)
{
    if (!mPool)
        return;
    mStore->setCancelFlag(mCancel);
    auto r = audit(*mStore, mMap, perShard, qMax<qint64>(perShard * mMap.shards.size(), 10000));
    mStore->setCancelFlag(nullptr);
    if (!r) {
        emit failed(ShardTask::Audit, r.error());
        return;
    }
    AuditState state;
    state.known = true;
    state.report = *r;
    if (mDb->readOnly())
        state.recordError = tr("not recorded: this session is read-only (admin mode records audits)");
    else if (auto s = recordAudit(*mDb, mStore->tableName(), *r); !s)
        state.recordError =
            tr("not recorded: %1").arg(s.error().kind == ErrorKind::Refused ? s.error().toString() : s.error().message);
    emit auditRead(state);
}

void ShardWorker::readLastAudit()
{
    if (!mDb)
        return;
    auto last = lastAudit(*mDb, mStore->tableName());
    if (!last) {
        emit failed(ShardTask::LastAudit, last.error());
        return;
    }
    AuditState state;
    state.known = last->has_value();
    if (state.known)
        state.report = **last;
    emit auditRead(state);
}

} // namespace bloom
