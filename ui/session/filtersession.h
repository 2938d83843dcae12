#pragma once

#include "session/requestgate.h"
#include "session/sessiontypes.h"

#include <QObject>
#include <QSet>
#include <QThread>

namespace bloom {

class FilterWorker;
class SampleWorker;

/**
 * The GUI's handle on one filter: a worker thread with its own connection, and a second one for the
 * sample of the measured FPR. Requests return at once with a token; every answer, a result or a
 * failure, carries its request's token, and an answer to a request asked again since (a refresh, a
 * keystroke, a history read) is dropped. cancel(token) stops that request and no other.
 */
class FilterSession : public QObject {
    Q_OBJECT
public:
    explicit FilterSession(QObject *parent = nullptr);
    ~FilterSession() override;

    /** Connects anew; until that succeeds the current session (if any) stays as it is. */
    void open(const ConnectionSpec &spec, const FilterRef &ref, bool readOnly);
    /** What refresh() does while one is running. */
    enum class IfBusy {
        Skip,  ///< nothing: a timer's tick (a slow server skips ticks instead of queueing them)
        Follow ///< one more refresh once it ends: what was just written or chosen is read, not a state before it
    };
    /** Starts a refresh now and returns true; while one is running returns false and does what `ifBusy` says. */
    bool refresh(IfBusy ifBusy = IfBusy::Follow);
    /** The heatmap's colour scale from the next refresh on. */
    void setHeatScale(HeatScale scale) { mScale = scale; }
    HeatScale heatScale() const { return mScale; }
    void step(const QString &name);
    void chunk(quint32 chunk);
    /** The writes and the sample: each returns its request's token (answered by added/loaded/sampled/
     *  recorded or failed with that token). */
    int add(const QStringList &names);
    int load(const QString &path);
    /** On a connection of its own: refreshes go on meanwhile. */
    int sample(qint64 probes);
    /** Reads the history recorded after `afterId` (0: all, and any older request's answer is dropped);
     *  false when a read is already on its way and `afterId` > 0. */
    bool history(qint64 afterId = 0);
    /** The chunks written since `snapshot`; a newer request drops the answer to an older one. */
    void changedSince(const Snapshot &snapshot);
    /** Records a snapshot; `publicationOk`: even when a publication sends a new history table to
     *  subscribers (they ran the SQL of the refusal). */
    int record(bool publicationOk = false);
    /** Stops the request `token` (its batch loops, and the server cancels its statement), or keeps it
     *  from starting; it then fails as Cancelled. Other requests go on. */
    void cancel(int token);
    /** The write and sample requests asked and not answered yet. */
    bool busy() const { return !mPending.isEmpty(); }
    /** Which operation a pending request is (Refresh for a token that is not pending). */
    Operation pendingOperation(int token) const { return mPending.value(token, Operation::Refresh); }
    QList<int> pendingTokens() const { return mPending.keys(); }

    bool isOpen() const { return mOpen; }
    bool refreshing() const { return mRefreshing; }
    const FilterSummary &summary() const { return mSummary; }
    /** The connection of the open session (with the password it was opened with, in memory only). */
    const ConnectionSpec &spec() const { return mSpec; }

signals:
    void opened(const bloom::FilterSummary &summary);
    void openFailed(const bloom::Error &error);
    void refreshed(const bloom::FillResult &result);
    void stepReady(const bloom::StepResult &result);
    void chunkReady(quint32 chunk, const QByteArray &bits);
    void added(int token, qint64 names);
    void loadProgress(int token, const bloom::LoadProgress &progress);
    void loaded(int token, const bloom::LoadReport &report);
    void sampled(int token, const bloom::FprSample &sample);
    void sampleProgress(int token, const bloom::SampleProgress &progress);
    void historyReady(const bloom::HistoryResult &result);
    void changedSinceReady(const bloom::ChangedSince &result);
    void recorded(int token, const bloom::Snapshot &snapshot);
    /** A request failed (stale ones are dropped, as stale results are); `lost`: the connection is gone. */
    void failed(bloom::Operation operation, int token, const bloom::Error &error, bool lost);

    // To the workers (queued).
    void requestOpen(const bloom::ConnectionSpec &spec, const bloom::FilterRef &ref, bool readOnly);
    void requestRefresh(int token, bloom::HeatScale scale);
    void requestStep(int token, const QString &name);
    void requestChunk(int token, quint32 chunk);
    void requestAdd(int token, const QStringList &names);
    void requestLoad(int token, const QString &path);
    void requestSample(int token, const bloom::ConnectionSpec &spec, const bloom::FilterRef &ref, qint64 probes);
    void requestHistory(int token, qint64 afterId);
    void requestChangedSince(int token, const bloom::Snapshot &snapshot);
    void requestRecord(int token, bool publicationOk);

private:
    /** Whether a failure of `op` with `token` is still the answer someone waits for. */
    bool current(Operation op, int token) const;
    int pend(Operation op);

    RequestGate mGate;       ///< the worker's requests
    RequestGate mSampleGate; ///< the sampler's
    QThread mThread;
    QThread mSampleThread;
    FilterWorker *mWorker = nullptr;
    SampleWorker *mSampler = nullptr;
    FilterSummary mSummary;
    ConnectionSpec mSpec;
    QList<ConnectionSpec> mOpens;   ///< of the opens not answered yet, oldest first
    QHash<int, Operation> mPending; ///< write and sample requests not answered yet
    int mNextToken = 0;
    bool mOpen = false;
    bool mRefreshing = false;
    bool mRefreshAgain = false;
    int mRefreshToken = 0;
    HeatScale mScale = HeatScale::Auto;
    int mStepToken = 0;
    int mChunkToken = 0;
    int mHistoryToken = 0;
    bool mHistoryBusy = false;
    int mChangedToken = 0;
};

} // namespace bloom
