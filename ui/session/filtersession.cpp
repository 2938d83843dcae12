#include "session/filtersession.h"
#include "session/filterworker.h"

#include <utility>

namespace bloom {

FilterSession::FilterSession(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<Error>();
    qRegisterMetaType<FilterSummary>();
    qRegisterMetaType<FillResult>();
    qRegisterMetaType<StepResult>();
    qRegisterMetaType<LoadProgress>();
    qRegisterMetaType<LoadReport>();
    qRegisterMetaType<FprSample>();
    qRegisterMetaType<ConnectionSpec>();
    qRegisterMetaType<FilterRef>();
    qRegisterMetaType<Operation>();
    qRegisterMetaType<HeatScale>();
    qRegisterMetaType<HistoryResult>();
    qRegisterMetaType<ChangedSince>();
    qRegisterMetaType<Snapshot>();

    mThread.setObjectName(QStringLiteral("bloomscope-db"));
    mWorker = new FilterWorker(&mCancel); // no parent: it moves to the thread and dies with it
    mWorker->moveToThread(&mThread);
    connect(&mThread, &QThread::finished, mWorker, &QObject::deleteLater);

    connect(this, &FilterSession::requestOpen, mWorker, &FilterWorker::open);
    connect(this, &FilterSession::requestRefresh, mWorker, &FilterWorker::refresh);
    connect(this, &FilterSession::requestStep, mWorker, &FilterWorker::step);
    connect(this, &FilterSession::requestChunk, mWorker, &FilterWorker::chunk);
    connect(this, &FilterSession::requestAdd, mWorker, &FilterWorker::add);
    connect(this, &FilterSession::requestLoad, mWorker, &FilterWorker::load);
    connect(this, &FilterSession::requestSample, mWorker, &FilterWorker::sample);
    connect(this, &FilterSession::requestHistory, mWorker, &FilterWorker::history);
    connect(this, &FilterSession::requestChangedSince, mWorker, &FilterWorker::changedSince);
    connect(this, &FilterSession::requestRecord, mWorker, &FilterWorker::record);

    // Each open() answers once, in order: opened (the session now is the new one) or openFailed (the
    // session is the one before, untouched). A `followed` opened is the same session after a swap.
    connect(mWorker, &FilterWorker::opened, this, [this](const FilterSummary &s) {
        if (!s.followed && !mPending.isEmpty())
            mSpec = mPending.takeFirst();
        mSummary = s;
        mOpen = true;
        emit opened(s);
    });
    connect(mWorker, &FilterWorker::openFailed, this, [this](const Error &e) {
        if (!mPending.isEmpty())
            mPending.removeFirst();
        emit openFailed(e);
    });
    connect(mWorker, &FilterWorker::refreshed, this, [this](int token, const FillResult &r) {
        if (token == mRefreshToken) {
            mRefreshing = false;
            emit refreshed(r);
            if (std::exchange(mRefreshAgain, false))
                refresh();
        }
    });
    connect(mWorker, &FilterWorker::stepReady, this, [this](int token, const StepResult &r) {
        if (token == mStepToken) // a newer keystroke asked since: drop this answer
            emit stepReady(r);
    });
    connect(mWorker, &FilterWorker::chunkReady, this, [this](int token, quint32 c, const QByteArray &bits) {
        if (token == mChunkToken)
            emit chunkReady(c, bits);
    });
    connect(mWorker, &FilterWorker::historyReady, this, [this](int token, const HistoryResult &r) {
        if (token != mHistoryToken)
            return; // asked before a reconnect or a fresh read: not this picture's
        mHistoryBusy = false;
        emit historyReady(r);
    });
    connect(mWorker, &FilterWorker::changedSinceReady, this, [this](int token, const ChangedSince &r) {
        if (token == mChangedToken)
            emit changedSinceReady(r);
    });
    connect(mWorker, &FilterWorker::recorded, this, &FilterSession::recorded);
    connect(mWorker, &FilterWorker::added, this, &FilterSession::added);
    connect(mWorker, &FilterWorker::loadProgress, this, &FilterSession::loadProgress);
    connect(mWorker, &FilterWorker::loaded, this, &FilterSession::loaded);
    connect(mWorker, &FilterWorker::sampled, this, &FilterSession::sampled);
    connect(mWorker, &FilterWorker::sampleProgress, this, &FilterSession::sampleProgress);
    connect(mWorker, &FilterWorker::failed, this, [this](Operation op, const Error &e, bool lost) {
        if (op == Operation::Refresh) {
            mRefreshing = false;
            mRefreshAgain = false; // the lost-connection retry (the timer's next tick) reads again
        }
        if (op == Operation::History)
            mHistoryBusy = false;
        emit failed(op, e, lost);
    });
    mThread.start();
}

FilterSession::~FilterSession()
{
    cancel();
    mThread.requestInterruption();
    QMetaObject::invokeMethod(mWorker, &FilterWorker::close, Qt::BlockingQueuedConnection);
    mThread.quit();
    mThread.wait();
}

void FilterSession::open(const ConnectionSpec &spec, const FilterRef &ref, bool readOnly)
{
    mPending.append(spec);
    emit requestOpen(spec, ref, readOnly);
}

bool FilterSession::refresh(IfBusy ifBusy)
{
    if (mRefreshing) {
        mRefreshAgain = mRefreshAgain || ifBusy == IfBusy::Follow;
        return false;
    }
    mRefreshing = true;
    emit requestRefresh(++mRefreshToken, mScale);
    return true;
}

void FilterSession::step(const QString &name)
{
    emit requestStep(++mStepToken, name);
}

void FilterSession::chunk(quint32 chunk)
{
    emit requestChunk(++mChunkToken, chunk);
}

void FilterSession::add(const QStringList &names)
{
    emit requestAdd(names);
}

void FilterSession::load(const QString &path)
{
    emit requestLoad(path);
}

void FilterSession::sample(qint64 probes)
{
    emit requestSample(probes);
}

bool FilterSession::history(qint64 afterId)
{
    if (mHistoryBusy && afterId > 0)
        return false;
    mHistoryBusy = true;
    emit requestHistory(++mHistoryToken, afterId);
    return true;
}

void FilterSession::changedSince(const Snapshot &snapshot)
{
    emit requestChangedSince(++mChangedToken, snapshot);
}

void FilterSession::record(bool publicationOk)
{
    emit requestRecord(publicationOk);
}

void FilterSession::cancel()
{
    mCancel.store(true);
    mWorker->cancelRunning();
}

} // namespace bloom
