#pragma once

#include "model/chunkbitmap.h"

#include <atomic>
#include <functional>

namespace bloom {

/**
 * Places names [0, count) and ORs them into a ChunkBitmap on every core, through SharedBits (blocks
 * sorted by chunk range, each range ORed under its lock: no atomic operation per bit). `name(i, buffer)`
 * writes name i (ASCII, at most `maxNameBytes`) into buffer and returns its length. progress(done,
 * count) is called from the calling thread every 50 ms; returns false when `cancel` stopped it (what
 * was ORed in stays).
 */
bool fillBitmap(ChunkBitmap &bits, qint64 count, const std::function<int(qint64, char *)> &name, int maxNameBytes,
                const std::function<void(qint64, qint64)> &progress = {}, const std::atomic<bool> *cancel = nullptr,
                int threads = 0);

} // namespace bloom
