#include "model/parallelfill.h"

#include "model/placement.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <thread>
#include <vector>

namespace bloom {

namespace {

/** Names a thread places in one round, and the chunk ranges its block is sorted into. */
constexpr qint64 BlockNames = 1 << 18;
constexpr int Ranges = 256;

} // namespace

bool fillBitmap(ChunkBitmap &bits, qint64 count, const std::function<int(qint64, char *)> &name, int maxNameBytes,
                const std::function<void(qint64, qint64)> &progress, const std::atomic<bool> *cancel, int threads)
{
    const Geometry &g = bits.geometry();
    const int t = threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
    const quint32 chunks = g.chunks();
    // A range is chunks / Ranges chunks (one at least); thread `o` owns ranges [o * Ranges / t, ...).
    const int shift = std::max(0, g.chunkLog2() - 8);
    const int ranges = int(std::min<quint64>(Ranges, (quint64(chunks) + (1u << shift) - 1) >> shift));
    struct Block {
        std::vector<Placement> placed, sorted;
        std::vector<qint64> start; ///< of each range in `sorted`, and the end
    };
    std::vector<Block> blocks(static_cast<size_t>(t));
    std::atomic<qint64> done{0};
    std::atomic<bool> stop{false};
    const qint64 rounds = (count + BlockNames * t - 1) / (BlockNames * t);
    std::barrier sync(t);
    const auto work = [&](int me) {
        Block &mine = blocks[size_t(me)];
        mine.placed.reserve(size_t(BlockNames));
        mine.sorted.resize(size_t(BlockNames));
        mine.start.assign(size_t(ranges) + 1, 0);
        std::vector<char> buffer(size_t(maxNameBytes) + 1);
        for (qint64 r = 0; r < rounds; ++r) {
            // Place this round's block and sort it by range (a counting sort).
            mine.placed.clear();
            const qint64 from = (r * t + me) * BlockNames, to = std::min(count, from + BlockNames);
            if (!stop.load(std::memory_order_relaxed))
                for (qint64 i = from; i < to; ++i)
                    mine.placed.push_back(placeAscii(g, QByteArrayView(buffer.data(), name(i, buffer.data()))));
            std::fill(mine.start.begin(), mine.start.end(), 0);
            for (const Placement &p : mine.placed)
                ++mine.start[size_t(p.chunk >> shift) + 1];
            for (int k = 0; k < ranges; ++k)
                mine.start[size_t(k) + 1] += mine.start[size_t(k)];
            std::vector<qint64> at(mine.start.begin(), mine.start.end() - 1);
            for (const Placement &p : mine.placed)
                mine.sorted[size_t(at[size_t(p.chunk >> shift)]++)] = p;
            sync.arrive_and_wait();
            // OR in the ranges this thread owns, from every block: no other thread writes them.
            for (int k = me * ranges / t; k < (me + 1) * ranges / t; ++k)
                for (const Block &b : blocks)
                    for (qint64 j = b.start[size_t(k)]; j < b.start[size_t(k) + 1]; ++j)
                        bits.orIn(b.sorted[size_t(j)]);
            done.fetch_add(qint64(mine.placed.size()));
            sync.arrive_and_wait();
        }
    };
    std::vector<std::thread> pool;
    for (int me = 0; me < t; ++me)
        pool.emplace_back(work, me);
    while (done.load() < count) {
        if (cancel && cancel->load()) {
            stop.store(true);
            break;
        }
        if (progress)
            progress(done.load(), count);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (std::thread &th : pool)
        th.join();
    bits.finishConcurrent(done.load());
    return !stop.load();
}

} // namespace bloom
