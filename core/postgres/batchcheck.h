#pragma once

#include "common/result.h"
#include "model/filterimage.h"
#include "model/namereader.h"
#include "postgres/filterstore.h"

#include <QDateTime>
#include <QList>

#include <atomic>
#include <functional>
#include <memory>

namespace bloom {

/**
 * Many names answered at once: `check -`, `fpr --sample`, `audit --sample` and (later) the GUI's
 * sample. Past a crossover (crossover(): where reading the whole table costs what the pipelined
 * per-name check of that many names costs) the filter is read once by binary COPY in a read-only
 * REPEATABLE READ snapshot into a FilterImage, and every name is answered from memory on every core;
 * the answers are then as of that snapshot (snapshot()). Below it, each name goes through
 * FilterStore::check as before. Either way names stream through in blocks: memory is the image plus a
 * block, whatever the number of names. Names that are not ASCII are lowered by the server in batches
 * (FilterStore::serverLower), exactly as the per-name path lowers them. A name whose chunk row is NULL
 * or missing is a DamagedFilter error, never "free". The store's cancel flag stops it within a block.
 * Used from one thread (the store's); it starts its own workers.
 */
class BatchCheck {
public:
    /** Names past which one read of the whole filter is cheaper than the pipelined check: measured by
     *  bench_batch, proportional to the filter's size. BLOOMSCOPE_BATCH_CROSSOVER (a number of names)
     *  overrides it: 0 always reads the filter, a huge value never does. */
    static qint64 crossover(const Geometry &g);

    explicit BatchCheck(FilterStore &store);
    ~BatchCheck();
    BatchCheck(const BatchCheck &) = delete;
    BatchCheck &operator=(const BatchCheck &) = delete;

    /** Overrides crossover() for this batch (names); -1 goes back to it. */
    void setCrossover(qint64 names) { mCrossover = names; }
    qint64 effectiveCrossover() const;
    /** Threads that answer from memory (default: every core). */
    void setThreads(int n) { mThreads = qMax(1, n); }

    /** Reads the whole filter now: one binary COPY in a read-only repeatable-read snapshot, after
     *  checking there that the table and function are still the ones attach() found (a swap since:
     *  attaches again and reads the new pair). Rows of the wrong length or outside the geometry fail. */
    Status read();
    /** Whether answers come from memory (read() ran). */
    bool inMemory() const { return bool(mImage); }
    /** The time of the read's snapshot (statement_timestamp() of the statement that took it). */
    const QDateTime &snapshot() const { return mSnapshot; }
    /** The image read(), for callers that answer on their own; null before read(). */
    const FilterImage *image() const { return mImage.get(); }
    /** Seconds read() took. */
    double readSeconds() const { return mReadSeconds; }

    /**
     * Answers every name `reader` gives, a block at a time: sink(block, verdicts, count) gets the
     * block's first `count` names' verdicts (Free or Maybe) in order. Reads up to the crossover
     * before deciding; below it the names go through FilterStore::check. A name whose chunk row is
     * NULL or missing stops it with a DamagedFilter error after the names before it were given to the
     * sink. Bad lines are the reader's. Returns the names answered.
     */
    using BlockSink = std::function<Status(const NameBlock &block, const RowVerdict *verdicts, qsizetype count)>;
    Result<qint64> checkStream(NameReader &reader, const BlockSink &sink);

    /** Verdicts of names already in memory (true: maybe), as FilterStore::place + check give them:
     *  from the image when read() ran or the names are past the crossover. */
    Result<QList<bool>> check(const QList<QByteArray> &names);

    /**
     * fpr --sample: `probes` never-added names, made, answered and dropped a block at a time on every
     * core ('bloomscope-fpr-probe-' + 124 random bits as 25 lowercase base32 characters: one MD5 block,
     * hashed eight at a time; the per-name path's probes end in a random UUID instead). progress(done,
     * total, falsePositives) every 20 ms from the calling thread (falsePositives is -1 on the per-name
     * path, whose FilterStore::sampleFpr reports no count). Past the crossover from memory, the estimate
     * and the model beside it from the same image; else through FilterStore::sampleFpr.
     */
    using SampleProgressFn = std::function<void(qint64 done, qint64 total, qint64 falsePositives)>;
    Result<FprSample> sampleFpr(qint64 probes, const SampleProgressFn &progress = {});

private:
    bool cancelled() const;
    Error cancelledError(const QString &what) const;
    Status readOnce(bool *swapped);
    /** Verdicts of one block's names from the image (the ones not ASCII lowered by the server first). */
    Status answerBlock(const NameBlock &block, std::vector<RowVerdict> &out);
    /** The same block through the per-name path (FilterStore::place + rowVerdicts). */
    Status answerBlockPerName(const NameBlock &block, std::vector<RowVerdict> &out);
    /** Gives the block's verdicts to the sink up to the first damaged chunk, which is the error. */
    Status deliver(const NameBlock &block, const std::vector<RowVerdict> &verdicts, const BlockSink &sink);

    FilterStore &mStore;
    qint64 mCrossover = -1;
    int mThreads;
    std::unique_ptr<FilterImage> mImage;
    QDateTime mSnapshot;
    double mReadSeconds = 0;
};

} // namespace bloom
