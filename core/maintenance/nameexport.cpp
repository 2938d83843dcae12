#include "maintenance/nameexport.h"

#include "model/name.h"
#include "model/namereader.h"
#include "model/placement.h"
#include "model/sharedbits.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"

#include <QElapsedTimer>
#include <QFile>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace bloom {

namespace {

/** A bounded queue of name batches from the source readers to the hashers. */
class BatchQueue {
public:
    explicit BatchQueue(size_t capacity)
        : mCapacity(capacity)
    {
    }
    void push(NameBlock batch)
    {
        std::unique_lock lock(mMutex);
        mNotFull.wait(lock, [this] { return mItems.size() < mCapacity || mClosed; });
        mItems.push_back(std::move(batch));
        mNotEmpty.notify_one();
    }
    bool pop(NameBlock &out)
    {
        std::unique_lock lock(mMutex);
        mNotEmpty.wait(lock, [this] { return !mItems.empty() || mClosed; });
        if (mItems.empty())
            return false;
        out = std::move(mItems.front());
        mItems.pop_front();
        mNotFull.notify_one();
        return true;
    }
    /** A consumed batch back for reuse: its buffers keep their capacity, so a reader does not grow a
     *  new one (and fault its pages in) every 50,000 names. */
    void recycle(NameBlock &&batch)
    {
        batch.bytes.resize(0); // clear() would free it
        batch.names.clear();
        std::lock_guard lock(mMutex);
        if (mSpare.size() < mCapacity)
            mSpare.push_back(std::move(batch));
    }
    /** An empty batch, reused when one is spare. */
    NameBlock fresh()
    {
        std::lock_guard lock(mMutex);
        if (mSpare.empty())
            return {};
        NameBlock b = std::move(mSpare.back());
        mSpare.pop_back();
        return b;
    }
    void close()
    {
        std::lock_guard lock(mMutex);
        mClosed = true;
        mNotEmpty.notify_all();
        mNotFull.notify_all();
    }

private:
    std::mutex mMutex;
    std::condition_variable mNotEmpty, mNotFull;
    std::deque<NameBlock> mItems;
    std::vector<NameBlock> mSpare;
    size_t mCapacity;
    bool mClosed = false;
};
} // namespace

QByteArrayView copyFirstField(QByteArrayView line)
{
    const void *tab = memchr(line.data(), '\t', size_t(line.size()));
    return tab ? line.first(static_cast<const char *>(tab) - line.data()) : line;
}

void NameExport::setBits(BitArray &bits, const Geometry &g, const Placement &p)
{
    const size_t base = size_t(p.chunk) * (g.chunkBits() / 8);
    for (int j = 0; j < p.k; ++j) {
        const unsigned pos = p.positions[size_t(j)];
        std::atomic_ref<std::uint8_t>(bits[base + (pos >> 3)])
            .fetch_or(std::uint8_t(0x80u >> (pos & 7)), std::memory_order_relaxed);
    }
}

NameExport::NameExport(const Geometry &geometry, BitArray &bits)
    : mGeometry(geometry)
    , mBits(bits)
{
}

Result<ExportReport> NameExport::run(const QList<ConnectionSpec> &sources, const QString &query,
                                     const QStringList &files)
{
    QElapsedTimer clock;
    clock.start();
    const Geometry &g = mGeometry;
    if (mBits.size() != size_t(g.totalBytes()))
        mBits.reset(size_t(g.totalBytes()));
    ExportReport report;
    const qsizetype sourceCount = sources.size() + files.size();
    std::vector<qint64> perSource(static_cast<size_t>(sourceCount), 0); // each reader writes its own slot
    BatchQueue queue(8);
    std::atomic<qint64> exported{0};
    std::mutex errorMutex;
    QList<Error> errors;
    QList<QByteArray> nonAscii;
    const auto fail = [&](Error e) {
        std::lock_guard lock(errorMutex);
        errors.append(std::move(e));
    };

    // Hashers: every core places names and ORs their bits into the array (sorted by chunk range, a
    // range at a time under its lock: no atomic operation per bit).
    SharedBits shared(g, mBits.data());
    const int hashers = qMax(1, int(std::thread::hardware_concurrency()));
    const qsizetype bufferNames = SharedBits::Writer::bufferFor(g, hashers);
    std::vector<std::thread> pool;
    for (int h = 0; h < hashers; ++h)
        pool.emplace_back([&] {
            SharedBits::Writer writer(shared, bufferNames);
            NameBlock batch;
            QList<QByteArray> mine;
            std::vector<QByteArrayView> ascii;
            while (queue.pop(batch)) {
                ascii.clear();
                for (size_t i = 0; i < batch.size(); ++i) {
                    const QByteArrayView n = batch.name(i);
                    if (batch.names[i].ascii)
                        ascii.push_back(n);
                    else
                        mine.append(n.toByteArray());
                }
                writer.addAscii(ascii.data(), qsizetype(ascii.size()));
                exported += qint64(batch.size());
                queue.recycle(std::move(batch));
            }
            writer.flush();
            std::lock_guard lock(errorMutex);
            nonAscii += mine;
        });

    // Readers: each shard in a repeatable-read, read-only snapshot, with COPY ... TO STDOUT.
    std::vector<std::thread> readers;
    std::atomic<int> finishedReaders{0};
    std::mutex finishedMutex;
    std::condition_variable readerFinished;
    struct Finished {
        std::atomic<int> &count;
        std::mutex &mutex;
        std::condition_variable &cv;
        ~Finished()
        {
            std::lock_guard lock(mutex);
            ++count;
            cv.notify_all();
        }
    };
    for (qsizetype si = 0; si < sources.size(); ++si)
        readers.emplace_back([&, si] {
            const ConnectionSpec &source = sources[si];
            Finished finished{finishedReaders, finishedMutex, readerFinished};
            PgConn conn(source.toConninfo(), PgConn::SearchPath::CatalogFirst);
            if (!conn.ok()) {
                fail(makeError(ErrorKind::Connection,
                               QStringLiteral("source %1: %2").arg(source.describe(), conn.errorMessage())));
                return;
            }
            if (auto s = conn.exec(QStringLiteral("begin isolation level repeatable read read only")); !s) {
                fail(s.error());
                return;
            }
            NameBlock batch;
            qint64 valid = 0;
            auto rows =
                copyOut(conn.handle(), QStringLiteral("copy (%1) to stdout").arg(query), [&](QByteArrayView line) {
                    QByteArrayView field = copyFirstField(line);
                    QByteArray unescaped;
                    if (memchr(field.data(), '\\', size_t(field.size()))) {
                        unescaped = copyTextUnescape(field); // rare: escapes or NULL
                        if (unescaped.isNull())
                            return !cancelled();
                        field = unescaped;
                    }
                    if (isPlainAsciiName(field)) {
                        batch.append(field, true);
                        ++valid;
                    } else if (validateName(field).ok()) {
                        batch.append(field, isAscii(field));
                        ++valid;
                    }
                    if (batch.size() >= 50000)
                        queue.push(std::exchange(batch, queue.fresh()));
                    return !cancelled();
                });
            if (!rows)
                fail(makeError(rows.error().kind,
                               QStringLiteral("source %1: %2").arg(source.describe(), rows.error().message)));
            queue.push(std::move(batch));
            perSource[size_t(si)] = valid;
            (void)conn.exec(QStringLiteral("commit"));
        });
    for (qsizetype fi = 0; fi < files.size(); ++fi)
        readers.emplace_back([&, fi] {
            const QString &path = files[fi];
            Finished finished{finishedReaders, finishedMutex, readerFinished};
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                fail(makeError(ErrorKind::Io, QStringLiteral("cannot read %1: %2").arg(path, f.errorString())));
                return;
            }
            NameReader reader(&f);
            bool more = true;
            qint64 valid = 0;
            while (more && !cancelled()) {
                NameBlock batch = queue.fresh();
                more = reader.nextBlock(batch);
                valid += qint64(batch.size());
                queue.push(std::move(batch));
            }
            perSource[size_t(sources.size() + fi)] = valid;
        });
    // Progress from this thread while the readers run; the last reader's end wakes it at once.
    for (;;) {
        {
            std::unique_lock lock(finishedMutex);
            if (readerFinished.wait_for(lock, std::chrono::milliseconds(100),
                                        [&] { return finishedReaders.load() == int(readers.size()); }))
                break;
        }
        if (mProgress)
            mProgress(exported.load());
    }
    if (mProgress)
        mProgress(exported.load());
    for (auto &t : readers)
        t.join();
    queue.close();
    for (auto &t : pool)
        t.join();
    report.names = exported.load();
    for (const auto &n : perSource)
        report.perSource.append(n);
    report.nonAscii = std::move(nonAscii);
    report.seconds = double(clock.nsecsElapsed()) / 1e9;
    if (!errors.isEmpty())
        return errors.first();
    if (cancelled())
        return makeError(ErrorKind::Cancelled, QStringLiteral("rebuild cancelled during the export"));
    return report;
}

} // namespace bloom
