#pragma once

#include "model/binaryrows.h"

#include <cstdint>
#include <functional>

namespace bloom {

/**
 * The merged masks of a dense load, one row per touched chunk: what a bulk load writes. A ChunkBitmap
 * and a PlacementLog hold the same rows for the same names.
 */
class MaskRowsSource {
public:
    virtual ~MaskRowsSource() = default;
    virtual qint64 names() const = 0;
    virtual qint64 touchedChunks() const = 0;
    /** Touched chunks in [first, end). */
    virtual qint64 touchedIn(quint32 first, quint32 end) const = 0;
    /** The mask rows (model/binaryrows.h) of the touched chunks in [first, end), in pieces of about
     *  `pieceBytes`; returns the rows written, or -1 when `sink` stopped it. */
    virtual qint64 writeRows(const ByteSink &sink, qsizetype pieceBytes, quint32 first, quint32 end) const = 0;

protected:
    /** The mask rows of chunks [first, end) of `chunkBits`-bit masks: `mask(chunk, out)` writes a
     *  chunk's mask bytes to `out` and returns true, or false when the chunk is not written. */
    static qint64 writeChunkRows(const ByteSink &sink, qsizetype pieceBytes, quint32 first, quint32 end, int chunkBits,
                                 const std::function<bool(quint32, std::uint8_t *)> &mask);
};

} // namespace bloom
