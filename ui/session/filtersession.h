#pragma once

#include "session/sessiontypes.h"

#include <QObject>
#include <QThread>

#include <atomic>

namespace bloom {

class FilterWorker;

/**
 * The GUI's handle on one filter: a worker thread with its own connection. Requests return at once;
 * results arrive as signals. Each request carries a token so a stale answer is dropped.
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
    void add(const QStringList &names);
    void load(const QString &path);
    void sample(qint64 probes);
    /** Reads the history recorded after `afterId` (0: all, and any older request's answer is dropped);
     *  false when a read is already on its way and `afterId` > 0. */
    bool history(qint64 afterId = 0);
    /** The chunks written since `snapshot`; a newer request drops the answer to an older one. */
    void changedSince(const Snapshot &snapshot);
    /** Records a snapshot; `publicationOk`: even when a publication sends a new history table to
     *  subscribers (they ran the SQL of the refusal). */
    void record(bool publicationOk = false);
    /** Stops the running operation: the batch loops stop and the server cancels its statement. */
    void cancel();

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
    void added(qint64 names);
    void loadProgress(const bloom::LoadProgress &progress);
    void loaded(const bloom::LoadReport &report);
    void sampled(const bloom::FprSample &sample);
    void sampleProgress(qint64 done, qint64 total);
    void historyReady(const bloom::HistoryResult &result);
    void changedSinceReady(const bloom::ChangedSince &result);
    void recorded(const bloom::Snapshot &snapshot);
    void failed(bloom::Operation operation, const bloom::Error &error, bool lost);

    // To the worker (queued).
    void requestOpen(const bloom::ConnectionSpec &spec, const bloom::FilterRef &ref, bool readOnly);
    void requestRefresh(int token, bloom::HeatScale scale);
    void requestStep(int token, const QString &name);
    void requestChunk(int token, quint32 chunk);
    void requestAdd(const QStringList &names);
    void requestLoad(const QString &path);
    void requestSample(qint64 probes);
    void requestHistory(int token, qint64 afterId);
    void requestChangedSince(int token, const bloom::Snapshot &snapshot);
    void requestRecord(bool publicationOk);

private:
    QThread mThread;
    FilterWorker *mWorker = nullptr;
    std::atomic<bool> mCancel{false};
    FilterSummary mSummary;
    ConnectionSpec mSpec;
    QList<ConnectionSpec> mPending;
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
