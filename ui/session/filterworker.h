#pragma once

#include "session/sessiontypes.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <optional>

namespace bloom {

/**
 * Lives in FilterSession's worker thread and owns that thread's connection: every database call of
 * the GUI runs here. Results go back as value types in queued signals, tagged with the caller's token.
 */
class FilterWorker : public QObject {
    Q_OBJECT
public:
    explicit FilterWorker(std::atomic<bool> *cancel);
    ~FilterWorker() override;

    /** Cancels the statement running now (called from the GUI thread). */
    void cancelRunning();

public slots:
    void open(const bloom::ConnectionSpec &spec, const bloom::FilterRef &ref, bool readOnly);
    void refresh(int token, bloom::HeatScale scale);
    void step(int token, const QString &name);
    void chunk(int token, quint32 chunk);
    void add(const QStringList &names);
    void load(const QString &path);
    void sample(qint64 probes);
    /** The history recorded after `afterId` (0: all of it). */
    void history(int token, qint64 afterId);
    /** The chunks written since `snapshot` (its read position). */
    void changedSince(int token, const bloom::Snapshot &snapshot);
    /** Records a snapshot now (a write: needs admin mode). */
    void record(bool publicationOk);
    void close();

signals:
    void opened(const bloom::FilterSummary &summary);
    void openFailed(const bloom::Error &error);
    void refreshed(int token, const bloom::FillResult &result);
    void stepReady(int token, const bloom::StepResult &result);
    void chunkReady(int token, quint32 chunk, const QByteArray &bits);
    void added(qint64 names);
    void loadProgress(const bloom::LoadProgress &progress);
    void loaded(const bloom::LoadReport &report);
    void sampled(const bloom::FprSample &sample);
    void sampleProgress(qint64 done, qint64 total);
    void historyReady(int token, const bloom::HistoryResult &result);
    void changedSinceReady(int token, const bloom::ChangedSince &result);
    void recorded(const bloom::Snapshot &snapshot);
    /** Any operation failed; `lost` when the connection is gone (the session retries). */
    void failed(bloom::Operation operation, const bloom::Error &error, bool lost);

private:
    /** Connected, and attached to the objects the names lead to now (following a swap). */
    bool ensureOpen(Operation operation);
    Result<std::pair<std::unique_ptr<Database>, std::unique_ptr<FilterStore>>>
    connectStore(const ConnectionSpec &spec, const FilterRef &ref, bool readOnly);
    FilterSummary summary() const;
    /** Makes `store` the session's filter; when its oids differ from the last one shown, says so
     *  (opened with `followed`). */
    void adopt(std::unique_ptr<FilterStore> store);
    void report(Operation operation, const Error &e);

    std::unique_ptr<Database> mDb;
    std::unique_ptr<FilterStore> mStore;
    ConnectionSpec mSpec;
    FilterRef mRef;
    bool mReadOnly = true;
    bool mConfigured = false;
    QString mLastIdentity; ///< of the filter last shown, to tell a reconnect that finds it swapped
    /** The last read (full or of the changes), and the write counter and scale it was made at. */
    std::optional<FillResult> mLast;
    QDateTime mLastFullReadAt;
    bool mMustRead = false; ///< our own write since the last read: read whatever the counter says
    std::optional<FilterStore::WriteCounter> mLastCounter; ///< at the last read; none when unknown
    HeatScale mLastScale = HeatScale::Auto;
    static constexpr qint64 FullReadEverySeconds = 300;
    static constexpr qint64 ReadCostFactor = 10;
    std::atomic<bool> *mCancel;
    std::atomic<Database *> mRunning{nullptr};
};

} // namespace bloom
