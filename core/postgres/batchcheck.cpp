#include "postgres/batchcheck.h"

#include "model/fprmodel.h"
#include "model/md5lanes.h"
#include "postgres/database.h"
#include "postgres/pgcopy.h"
#include "postgres/pgerror.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QtEndian>

#include <libpq-fe.h>

#include <csignal>
#include <pthread.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <thread>

namespace bloom {

namespace {

/** Bytes of filter per name at the crossover. bench_batch, on this project's 2-core machine: the whole
 *  reference filter (128 MiB) comes out by binary COPY in 0.30-0.67 s, the time the pipelined check
 *  takes for 14,500-36,000 names (47,000-54,000 names/s in those runs; 117,000-130,000 on a quiet
 *  machine, which would put it near 60,000). 50,000 names for the reference filter sits between;
 *  below it, at most that many names are held. */
constexpr qint64 CrossoverBytesPerName = 2684;

/** A worker thread leaves Ctrl-C, SIGTERM and SIGHUP to the thread that started it, whose blocking
 *  read (stdin, the server) they must interrupt; workers see the cancel flag. */
void leaveSignalsToCaller()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

/** Runs body(first, end) over [0, count) split among `threads` (the calling thread takes the last
 *  share); small counts stay on the calling thread. */
template<class Body> void parallel(qsizetype count, int threads, const Body &body)
{
    threads = int(qMin<qsizetype>(threads, qMax<qsizetype>(1, count / 2048)));
    if (threads <= 1) {
        body(qsizetype(0), count);
        return;
    }
    std::vector<std::thread> workers;
    const qsizetype share = (count + threads - 1) / threads;
    for (int t = 0; t + 1 < threads; ++t)
        workers.emplace_back([&body, t, share, count] {
            leaveSignalsToCaller();
            body(t * share, qMin(count, (t + 1) * share));
        });
    body(qsizetype(threads - 1) * share, count);
    for (std::thread &w : workers)
        w.join();
}

constexpr char ProbePrefix[] = "bloomscope-fpr-probe-";
constexpr int ProbePrefixBytes = int(sizeof ProbePrefix) - 1;
constexpr int ProbeRandomChars = 25; ///< 124 random bits (60 + 64), five a character
constexpr int ProbeBytes = ProbePrefixBytes + ProbeRandomChars;
static_assert(ProbeBytes <= md5lanes::MaxBytes, "a probe is one MD5 block, hashed eight at a time");

/** A probe name into `out` (ProbeBytes): the prefix and 124 of the 128 random bits in lowercase base32
 *  (a-z, 2-7: nothing for lower() to change). A UUID (36 characters) would make the name two MD5
 *  blocks, which md5lanes does not take: perf showed the scalar MD5 as most of a 10M sample. */
void probeName(quint64 hi, quint64 lo, char *out)
{
    static constexpr char Base32[] = "abcdefghijklmnopqrstuvwxyz234567";
    std::memcpy(out, ProbePrefix, ProbePrefixBytes);
    char *at = out + ProbePrefixBytes;
    for (int i = 0; i < 12; ++i, hi >>= 5)
        *at++ = Base32[hi & 31];
    for (int i = 0; i < 13; ++i, lo >>= 5)
        *at++ = Base32[lo & 31];
}

/** The 95% Wilson score interval of `hits` in `n`. */
void wilson(FprSample &s)
{
    const double n = double(s.probes);
    const double p = s.probes ? double(s.falsePositives) / n : 0.0;
    s.measured = p;
    if (s.probes == 0)
        return;
    const double z = 1.959963984540054;
    const double denom = 1 + z * z / n;
    const double centre = (p + z * z / (2 * n)) / denom;
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom;
    s.low95 = qMax(0.0, centre - half);
    s.high95 = qMin(1.0, centre + half);
}

qint32 be32(const char *p)
{
    return qFromBigEndian<qint32>(p);
}

/**
 * Binary COPY rows of (chunk int4, bits bit(N)) into an image: the stream's header (in the first
 * message), then one row a message, then the trailer. Rows outside the geometry, of another length
 * or a second row for a chunk are errors.
 */
class CopyRows {
public:
    CopyRows(FilterImage &image, QString table)
        : mImage(image)
        , mTable(std::move(table))
    {
    }

    /** One CopyData message; an error stops the read. */
    std::optional<Error> take(const char *data, qsizetype size)
    {
        const char *p = data;
        const char *const end = data + size;
        if (!mHeader) {
            if (size < 19 || std::memcmp(p, "PGCOPY\n\377\r\n\0", 11) != 0)
                return malformed();
            const qint32 extension = be32(p + 15);
            if (extension < 0 || extension > size - 19)
                return malformed();
            p += 19 + extension;
            mHeader = true;
        }
        const Geometry &g = mImage.geometry();
        const qint32 rowBytes = qint32(4 + g.chunkBits() / 8);
        while (p < end) {
            if (mEnded || end - p < 2)
                return malformed();
            const qint16 fields = qFromBigEndian<qint16>(p);
            p += 2;
            if (fields == -1) {
                mEnded = true;
                continue;
            }
            if (fields != 2 || end - p < 12 || be32(p) != 4)
                return malformed();
            const qint32 chunk = be32(p + 4);
            const qint32 length = be32(p + 8);
            p += 12;
            if (chunk < 0 || quint32(chunk) >= g.chunks())
                return foreign(QStringLiteral("%1 has a row for chunk %2, outside 0..%3")
                                   .arg(mTable, QString::number(chunk), QString::number(g.chunks() - 1)));
            const std::uint8_t *bits = nullptr;
            if (length != -1) {
                if (length < 4 || end - p < length)
                    return malformed();
                if (length != rowBytes || quint32(be32(p)) != g.chunkBits())
                    return foreign(QStringLiteral("chunk %1 of %2 has %3 bits, the filter %4")
                                       .arg(QString::number(chunk), mTable, QString::number(be32(p)),
                                            QString::number(g.chunkBits())));
                bits = reinterpret_cast<const std::uint8_t *>(p + 4);
                p += length;
            }
            if (!mImage.setRow(quint32(chunk), bits))
                return foreign(QStringLiteral("%1 has two rows for chunk %2").arg(mTable, QString::number(chunk)));
            ++mRows;
        }
        return std::nullopt;
    }
    bool ended() const { return mEnded; }

private:
    Error malformed() const
    {
        return makeError(ErrorKind::Server, QStringLiteral("reading %1: the binary COPY stream is not as expected "
                                                           "(after %2 rows)")
                                                .arg(mTable, QString::number(mRows)));
    }
    Error foreign(const QString &what) const
    {
        Error e =
            makeError(ErrorKind::ForeignFilter, what + QStringLiteral(" (the table changed since it was attached)"),
                      QStringLiteral("run the command again: it attaches anew"));
        e.retry = Error::Retry::Attach;
        return e;
    }

    FilterImage &mImage;
    QString mTable;
    bool mHeader = false;
    bool mEnded = false;
    qint64 mRows = 0;
};

} // namespace

qint64 BatchCheck::crossover(const Geometry &g)
{
    bool ok = false;
    const qint64 forced = qEnvironmentVariable("BLOOMSCOPE_BATCH_CROSSOVER").toLongLong(&ok);
    if (ok && forced >= 0)
        return forced;
    return qMax<qint64>(1000, qint64(g.totalBytes()) / CrossoverBytesPerName);
}

BatchCheck::BatchCheck(FilterStore &store)
    : mStore(store)
    , mThreads(int(qMax(1u, std::thread::hardware_concurrency())))
{
}

BatchCheck::~BatchCheck() = default;

qint64 BatchCheck::effectiveCrossover() const
{
    return mCrossover >= 0 ? mCrossover : crossover(mStore.geometry());
}

bool BatchCheck::cancelled() const
{
    return mStore.cancelled();
}

Error BatchCheck::cancelledError(const QString &what) const
{
    return mStore.cancelledError(what);
}

Status BatchCheck::read()
{
    if (auto s = mStore.requireAttached(); !s)
        return s;
    bool swapped = false;
    Status s = readOnce(&swapped);
    if (!s && swapped) { // a swap since attach(): the new pair, as every other path follows one
        if (auto a = mStore.attach(); !a)
            return a;
        s = readOnce(&swapped);
    }
    return s;
}

Status BatchCheck::readOnce(bool *swapped)
{
    *swapped = false;
    PGconn *pg = mStore.mDb.pgconn();
    if (!pg)
        return makeError(
            ErrorKind::Server,
            QStringLiteral("reading %1 whole needs the session's libpq connection").arg(mStore.tableText()));
    QElapsedTimer timer;
    timer.start();
    const QString what = QStringLiteral("reading %1").arg(mStore.tableText());
    // One snapshot for the check of the pair and the rows: read only, repeatable read. Inside a
    // transaction the caller runs, that transaction's snapshot.
    const bool own = PQtransactionStatus(pg) == PQTRANS_IDLE;
    if (own)
        if (auto s = execCommand(pg, "begin isolation level repeatable read read only", what); !s)
            return s;
    struct Rollback {
        PGconn *pg;
        bool armed;
        ~Rollback()
        {
            if (armed)
                PQclear(PQexec(pg, "rollback"));
        }
    } rollback{pg, own};

    const QByteArray table = mStore.mTable.toUtf8(), function = mStore.mFunction.toUtf8();
    const char *params[2] = {table.constData(), function.constData()};
    std::unique_ptr<PGresult, decltype(&PQclear)> id(
        PQexecParams(pg,
                     "select extract(epoch from statement_timestamp())::float8::text, "
                     "coalesce(to_regclass($1::text)::oid::text, '-') || '/' || "
                     "coalesce(to_regprocedure($2::text || '(text)')::oid::text, '-')",
                     2, nullptr, params, nullptr, nullptr, 0),
        &PQclear);
    if (PQresultStatus(id.get()) != PGRES_TUPLES_OK || PQntuples(id.get()) != 1)
        return pg::errorOf(pg, id.get(), what);
    const double epoch = QByteArray(PQgetvalue(id.get(), 0, 0)).toDouble();
    const QString identity = QString::fromUtf8(PQgetvalue(id.get(), 0, 1));
    if (identity != mStore.identity()) {
        *swapped = true;
        Error e = makeError(ErrorKind::MissingFilter,
                            QStringLiteral("%1 or %2 is no longer the pair that was attached (a swap?)")
                                .arg(mStore.tableText(), mStore.functionText()),
                            QStringLiteral("run the command again: it attaches anew"));
        e.retry = Error::Retry::Attach;
        return e;
    }

    auto image = std::make_unique<FilterImage>(mStore.geometry());
    CopyRows rows(*image, mStore.tableText());
    const QByteArray copy =
        QStringLiteral("copy %1 (chunk, bits) to stdout (format binary)").arg(mStore.mTable).toUtf8();
    std::unique_ptr<PGresult, decltype(&PQclear)> start(PQexec(pg, copy.constData()), &PQclear);
    if (PQresultStatus(start.get()) != PGRES_COPY_OUT)
        return pg::errorOf(pg, start.get(), what);
    std::optional<Error> bad;
    bool cancelSent = false;
    for (;;) {
        char *buf = nullptr;
        const int n = PQgetCopyData(pg, &buf, 0);
        if (n < 0)
            break; // -1: the end; -2: an error, which PQgetResult gives
        if (!bad)
            bad = rows.take(buf, n);
        PQfreemem(buf);
        if ((bad || cancelled()) && !cancelSent) { // the rest is not needed: stop the server's side
            mStore.mDb.cancel();
            cancelSent = true;
        }
    }
    std::optional<Error> failed;
    while (PGresult *r = PQgetResult(pg)) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && !failed)
            failed = pg::errorOf(pg, r, what);
        PQclear(r);
    }
    if (bad)
        return *bad;
    if (cancelled())
        return cancelledError(what);
    if (failed)
        return *failed;
    if (!rows.ended())
        return makeError(ErrorKind::Server, what + QStringLiteral(": the COPY stream ended without its trailer"));
    if (own) {
        rollback.armed = false;
        if (auto s = execCommand(pg, "commit", what); !s)
            return s;
    }
    // What the read saw is the filter's damage now: NULL rows and chunks without a row.
    mStore.mDamage = image->damage();
    mImage = std::move(image);
    mSnapshot = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(epoch * 1000)), Qt::UTC);
    mReadSeconds = double(timer.nsecsElapsed()) / 1e9;
    return success();
}

Status BatchCheck::answerBlock(const NameBlock &block, std::vector<RowVerdict> &out)
{
    const FilterImage &image = *mImage;
    out.resize(block.size());
    // Names that are not ASCII: the server's lower(), in one batch for the block, as place() does.
    QList<QByteArray> others;
    std::vector<size_t> where;
    for (size_t i = 0; i < block.size(); ++i)
        if (!block.names[i].ascii) {
            others.append(block.name(i).toByteArray());
            where.push_back(i);
        }
    if (!others.isEmpty()) {
        auto lowered = mStore.serverLower(others);
        if (!lowered)
            return lowered.error();
        for (size_t j = 0; j < where.size(); ++j)
            out[where[j]] = image.verdict(placeLowered(image.geometry(), lowered->at(qsizetype(j))));
    }
    parallel(qsizetype(block.size()), mThreads, [&](qsizetype from, qsizetype to) {
        constexpr int Group = 256;
        QByteArrayView views[Group];
        size_t slot[Group];
        RowVerdict verdicts[Group];
        int n = 0;
        const auto flush = [&] {
            image.answerAscii(views, n, verdicts);
            for (int k = 0; k < n; ++k)
                out[slot[k]] = verdicts[k];
            n = 0;
        };
        for (qsizetype i = from; i < to; ++i) {
            if (!block.names[size_t(i)].ascii)
                continue;
            views[n] = block.name(size_t(i));
            slot[n] = size_t(i);
            if (++n == Group)
                flush();
        }
        if (n > 0)
            flush();
    });
    return success();
}

Status BatchCheck::deliver(const NameBlock &block, const std::vector<RowVerdict> &verdicts, const BlockSink &sink)
{
    size_t first = 0;
    while (first < verdicts.size() && (verdicts[first] == RowVerdict::Free || verdicts[first] == RowVerdict::Maybe))
        ++first;
    if (first > 0 || verdicts.empty())
        if (auto s = sink(block, verdicts.data(), qsizetype(first)); !s)
            return s;
    if (first == verdicts.size())
        return success();
    // The name's chunk row is NULL or missing: neither free nor maybe, as on every other path.
    const QByteArrayView name = block.name(first);
    quint32 chunk = 0;
    if (block.names[first].ascii) {
        chunk = placeAscii(mImage->geometry(), name).chunk;
    } else {
        auto lowered = mStore.serverLower({name.toByteArray()});
        if (!lowered)
            return lowered.error();
        chunk = placeLowered(mImage->geometry(), lowered->first()).chunk;
    }
    const bool null = verdicts[first] == RowVerdict::NullRow;
    return ChunkDamage::chunkError(chunk, null, mStore.damagedTable());
}

Result<qint64> BatchCheck::checkStream(NameReader &reader, const BlockSink &sink)
{
    const qint64 cross = effectiveCrossover();
    std::vector<NameBlock> pending; // read ahead up to the crossover, to choose the way
    qint64 buffered = 0;
    bool more = true;
    if (!inMemory()) {
        while (more && buffered <= cross) {
            NameBlock b;
            more = reader.nextBlock(b);
            if (cancelled())
                return cancelledError(QStringLiteral("reading names"));
            buffered += qint64(b.size());
            pending.push_back(std::move(b));
        }
        if (!more && buffered <= cross) { // few names: one pipelined check of each, as before
            QList<QByteArray> names;
            names.reserve(buffered);
            for (const NameBlock &b : pending)
                for (size_t i = 0; i < b.size(); ++i)
                    names.append(b.name(i).toByteArray());
            auto placed = mStore.place(names);
            if (!placed)
                return placed.error();
            auto verdicts = mStore.check(*placed);
            if (!verdicts)
                return verdicts.error();
            qsizetype at = 0;
            std::vector<RowVerdict> v;
            for (const NameBlock &b : pending) {
                v.resize(b.size());
                for (size_t i = 0; i < b.size(); ++i)
                    v[i] = verdicts->at(at++) ? RowVerdict::Maybe : RowVerdict::Free;
                if (auto s = sink(b, v.data(), qsizetype(v.size())); !s)
                    return s.error();
            }
            return buffered;
        }
        if (auto s = read(); !s)
            return s.error();
    }
    qint64 answered = 0;
    std::vector<RowVerdict> verdicts;
    const auto answer = [&](const NameBlock &b) -> Status {
        if (cancelled())
            return cancelledError(QStringLiteral("checking names"));
        if (auto s = answerBlock(b, verdicts); !s)
            return s;
        if (auto s = deliver(b, verdicts, sink); !s)
            return s;
        answered += qint64(b.size());
        return success();
    };
    for (const NameBlock &b : pending)
        if (auto s = answer(b); !s)
            return s.error();
    pending.clear();
    NameBlock block;
    while (more) {
        more = reader.nextBlock(block);
        if (cancelled())
            return cancelledError(QStringLiteral("reading names"));
        if (auto s = answer(block); !s)
            return s.error();
    }
    return answered;
}

Result<QList<bool>> BatchCheck::check(const QList<QByteArray> &names)
{
    if (!inMemory() && qint64(names.size()) <= effectiveCrossover()) {
        auto placed = mStore.place(names);
        if (!placed)
            return placed.error();
        return mStore.check(*placed);
    }
    if (!inMemory())
        if (auto s = read(); !s)
            return s.error();
    QList<bool> out;
    out.reserve(names.size());
    constexpr qsizetype Block = 1 << 16;
    NameBlock block;
    std::vector<RowVerdict> verdicts;
    for (qsizetype at = 0; at < names.size(); at += Block) {
        if (cancelled())
            return cancelledError(QStringLiteral("checking names"));
        block.names.clear();
        block.bytes.resize(0);
        for (qsizetype i = at; i < qMin(names.size(), at + Block); ++i)
            block.append(names[i], isAscii(names[i]));
        if (auto s = answerBlock(block, verdicts); !s)
            return s.error();
        if (auto s =
                deliver(block, verdicts, [](const NameBlock &, const RowVerdict *, qsizetype) { return success(); });
            !s)
            return s.error();
        for (RowVerdict v : verdicts)
            out.append(v == RowVerdict::Maybe);
    }
    return out;
}

Result<FprSample> BatchCheck::sampleFpr(qint64 probes, const SampleProgressFn &progress)
{
    if (auto s = mStore.requireAttached(); !s)
        return s.error();
    if (!inMemory() && probes <= effectiveCrossover()) // the per-name path; it holds at most the crossover's probes
        return mStore.sampleFpr(probes, [&progress](qint64 done, qint64 total, qint64 falsePositives) {
            if (progress)
                progress(done, total, falsePositives);
        });
    if (!inMemory())
        if (auto s = read(); !s)
            return s.error();
    // A damaged chunk: a probe placed there has no answer, and the estimate and the model beside the
    // measure would count it as empty; the per-name path says so too (at a probe or at its fill).
    const FillSnapshot fill = mImage->fill();
    if (!fill.damage.empty())
        return mStore.damageError(fill.damage);

    // Every core makes, answers and drops its share of probes, a group at a time: no probe is kept.
    const FilterImage &image = *mImage;
    const int threads = int(qMax<qint64>(1, qMin<qint64>(mThreads, probes / 4096)));
    std::atomic<qint64> done{0}, falsePositives{0};
    std::atomic<int> running{threads};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        const qint64 from = probes * t / threads, to = probes * (t + 1) / threads;
        workers.emplace_back([&, from, to] {
            leaveSignalsToCaller();
            quint32 seed[8];
            QRandomGenerator::system()->fillRange(seed);
            std::seed_seq seq(std::begin(seed), std::end(seed));
            std::mt19937_64 random(seq);
            constexpr int Group = 4096;
            std::vector<char> names(size_t(Group) * ProbeBytes);
            std::vector<QByteArrayView> views(Group);
            std::vector<RowVerdict> verdicts(Group);
            for (qint64 at = from; at < to; at += Group) {
                if (cancelled())
                    break;
                const int n = int(qMin<qint64>(Group, to - at));
                for (int i = 0; i < n; ++i) {
                    char *name = names.data() + size_t(i) * ProbeBytes;
                    const quint64 hi = random(), lo = random();
                    probeName(hi, lo, name);
                    views[size_t(i)] = QByteArrayView(name, ProbeBytes);
                }
                image.answerAscii(views.data(), n, verdicts.data());
                qint64 maybe = 0;
                for (int i = 0; i < n; ++i)
                    maybe += verdicts[size_t(i)] == RowVerdict::Maybe;
                falsePositives.fetch_add(maybe, std::memory_order_relaxed);
                done.fetch_add(n, std::memory_order_relaxed);
            }
            running.fetch_sub(1);
        });
    }
    while (running.load() > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (progress)
            progress(done.load(), probes, falsePositives.load());
    }
    for (std::thread &w : workers)
        w.join();
    if (cancelled() || done.load() < probes)
        return cancelledError(QStringLiteral("sampling the FPR after %L1 of %L2 probes")
                                  .arg(QLocale().toString(done.load()), QLocale().toString(probes)));
    FprSample out;
    out.probes = probes;
    out.falsePositives = falsePositives.load();
    wilson(out);
    out.estimated = fill.estimatedFpr();
    out.model = fpr::blocked(fill.estimatedNames(), image.geometry());
    return out;
}

} // namespace bloom
