#include "model/parallelfill.h"

#include "model/placement.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace bloom {

bool fillBitmap(ChunkBitmap &bits, qint64 count, const std::function<int(qint64, char *)> &name, int maxNameBytes,
                const std::function<void(qint64, qint64)> &progress, const std::atomic<bool> *cancel, int threads)
{
    constexpr qint64 Block = 1 << 14; // names a thread takes at a time
    const int t = threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
    SharedBits shared = bits.shared();
    std::atomic<qint64> next{0}, done{0};
    std::atomic<bool> stop{false};
    const qsizetype bufferNames = SharedBits::Writer::bufferFor(bits.geometry(), t);
    const auto work = [&] {
        SharedBits::Writer writer(shared, bufferNames);
        // A block's names side by side in one buffer, so they can be hashed eight at a time.
        const size_t stride = size_t(maxNameBytes) + 1;
        std::vector<char> buffer(size_t(Block) * stride);
        std::vector<QByteArrayView> names(static_cast<size_t>(Block));
        for (;;) {
            const qint64 from = next.fetch_add(Block);
            if (from >= count || stop.load(std::memory_order_relaxed))
                break;
            const qint64 to = std::min(count, from + Block);
            for (qint64 i = from; i < to; ++i) {
                char *at = buffer.data() + size_t(i - from) * stride;
                names[size_t(i - from)] = QByteArrayView(at, name(i, at));
            }
            writer.addAscii(names.data(), to - from);
            done.fetch_add(to - from, std::memory_order_relaxed);
        }
        writer.flush();
    };
    std::vector<std::thread> pool;
    for (int i = 0; i < t; ++i)
        pool.emplace_back(work);
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
