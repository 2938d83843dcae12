#include "session/filtersession.h"
#include "session/filterworker.h"
#include "session/sampleworker.h"

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
    qRegisterMetaType<SampleProgress>();
    qRegisterMetaType<ConnectionSpec>();
    qRegisterMetaType<FilterRef>();
    qRegisterMetaType<Operation>();
    qRegisterMetaType<HeatScale>();
    qRegisterMetaType<HistoryResult>();
    qRegisterMetaType<ChangedSince>();
    qRegisterMetaType<Snapshot>();

    mThread.setObjectName(QStringLiteral("bloomscope-db"));
    mWorker = new FilterWorker(&mGate); // no parent: it moves to the thread and dies with it
    mWorker->moveToThread(&mThread);
    connect(&mThread, &QThread::finished, mWorker, &QObject::deleteLater);
    mSampleThread.setObjectName(QStringLiteral("bloomscope-sample"));
    mSampler = new SampleWorker(&mSampleGate);
    mSampler->moveToThread(&mSampleThread);
    connect(&mSampleThread, &QThread::finished, mSampler, &QObject::deleteLater);

    connect(this, &FilterSession::requestOpen, mWorker, &FilterWorker::open);
    connect(this, &FilterSession::requestRefresh, mWorker, &FilterWorker::refresh);
    connect(this, &FilterSession::requestStep, mWorker, &FilterWorker::step);
    connect(this, &FilterSession::requestChunk, mWorker, &FilterWorker::chunk);
    connect(this, &FilterSession::requestAdd, mWorker, &FilterWorker::add);
    connect(this, &FilterSession::requestLoad, mWorker, &FilterWorker::load);
    connect(this, &FilterSession::requestHistory, mWorker, &FilterWorker::history);
    connect(this, &FilterSession::requestChangedSince, mWorker, &FilterWorker::changedSince);
    connect(this, &FilterSession::requestRecord, mWorker, &FilterWorker::record);
    connect(this, &FilterSession::requestSample, mSampler, &SampleWorker::sample);

    // Each open() answers once, in order: opened (the session now is the new one) or openFailed (the
    // session is the one before, untouched). A `followed` opened is the same session after a swap.
    connect(mWorker, &FilterWorker::opened, this, [this](const FilterSummary &s) {
        if (!s.followed && !mOpens.isEmpty())
            mSpec = mOpens.takeFirst();
        mSummary = s;
        mOpen = true;
        emit opened(s);
    });
    connect(mWorker, &FilterWorker::openFailed, this, [this](const Error &e) {
        if (!mOpens.isEmpty())
            mOpens.removeFirst();
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
    // The writes and the sample: answered once each, by token.
    connect(mWorker, &FilterWorker::recorded, this, [this](int token, const Snapshot &s) {
        mPending.remove(token);
        emit recorded(token, s);
    });
    connect(mWorker, &FilterWorker::added, this, [this](int token, qint64 n) {
        mPending.remove(token);
        emit added(token, n);
    });
    connect(mWorker, &FilterWorker::loadProgress, this, &FilterSession::loadProgress);
    connect(mWorker, &FilterWorker::loaded, this, [this](int token, const LoadReport &r) {
        mPending.remove(token);
        emit loaded(token, r);
    });
    connect(mSampler, &SampleWorker::progress, this, &FilterSession::sampleProgress);
    connect(mSampler, &SampleWorker::sampled, this, [this](int token, const FprSample &s) {
        mPending.remove(token);
        emit sampled(token, s);
    });
    const auto onFailed = [this](Operation op, int token, const Error &e, bool lost) {
        if (!current(op, token))
            return; // the answer to a request asked again since: dropped, as a stale result is
        if (op == Operation::Refresh) {
            mRefreshing = false;
            mRefreshAgain = false; // the lost-connection retry (the timer's next tick) reads again
        }
        if (op == Operation::History)
            mHistoryBusy = false;
        mPending.remove(token);
        emit failed(op, token, e, lost);
    };
    connect(mWorker, &FilterWorker::failed, this, onFailed);
    connect(mSampler, &SampleWorker::failed, this, onFailed);
    mThread.start();
    mSampleThread.start();
}

FilterSession::~FilterSession()
{
    // Whatever runs is cancelled and every request still queued fails at once; then both threads end.
    mGate.close();
    mSampleGate.close();
    mThread.requestInterruption();
    mSampleThread.requestInterruption();
    QMetaObject::invokeMethod(mWorker, &FilterWorker::close, Qt::BlockingQueuedConnection);
    mThread.quit();
    mSampleThread.quit();
    mThread.wait();
    mSampleThread.wait();
}

bool FilterSession::current(Operation op, int token) const
{
    switch (op) {
    case Operation::Refresh:
        return token == mRefreshToken;
    case Operation::Step:
        return token == mStepToken;
    case Operation::Chunk:
        return token == mChunkToken;
    case Operation::History:
        return token == mHistoryToken;
    case Operation::ChangedSince:
        return token == mChangedToken;
    case Operation::Add:
    case Operation::Load:
    case Operation::Sample:
    case Operation::Record:
        return mPending.contains(token);
    }
    return false;
}

int FilterSession::pend(Operation op)
{
    const int token = ++mNextToken;
    mPending.insert(token, op);
    return token;
}

void FilterSession::open(const ConnectionSpec &spec, const FilterRef &ref, bool readOnly)
{
    mOpens.append(spec);
    emit requestOpen(spec, ref, readOnly);
}

bool FilterSession::refresh(IfBusy ifBusy)
{
    if (mRefreshing) {
        mRefreshAgain = mRefreshAgain || ifBusy == IfBusy::Follow;
        return false;
    }
    mRefreshing = true;
    mRefreshToken = ++mNextToken;
    emit requestRefresh(mRefreshToken, mScale);
    return true;
}

void FilterSession::step(const QString &name)
{
    mStepToken = ++mNextToken;
    emit requestStep(mStepToken, name);
}

void FilterSession::chunk(quint32 chunk)
{
    mChunkToken = ++mNextToken;
    emit requestChunk(mChunkToken, chunk);
}

int FilterSession::add(const QStringList &names)
{
    const int token = pend(Operation::Add);
    emit requestAdd(token, names);
    return token;
}

int FilterSession::load(const QString &path)
{
    const int token = pend(Operation::Load);
    emit requestLoad(token, path);
    return token;
}

int FilterSession::sample(qint64 probes)
{
    const int token = pend(Operation::Sample);
    emit requestSample(token, mSpec, mSummary.ref, probes);
    return token;
}

bool FilterSession::history(qint64 afterId)
{
    if (mHistoryBusy && afterId > 0)
        return false;
    mHistoryBusy = true;
    mHistoryToken = ++mNextToken;
    emit requestHistory(mHistoryToken, afterId);
    return true;
}

void FilterSession::changedSince(const Snapshot &snapshot)
{
    mChangedToken = ++mNextToken;
    emit requestChangedSince(mChangedToken, snapshot);
}

int FilterSession::record(bool publicationOk)
{
    const int token = pend(Operation::Record);
    emit requestRecord(token, publicationOk);
    return token;
}

void FilterSession::cancel(int token)
{
    const auto op = mPending.constFind(token);
    if (op == mPending.cend())
        return; // answered already: nothing runs under that token
    (*op == Operation::Sample ? mSampleGate : mGate).cancel(token);
}

} // namespace bloom
