#pragma once

#include "model/geometry.h"
#include "model/placement.h"

#include <QByteArray>

#include <cstdint>
#include <functional>
#include <vector>

namespace bloom {

/**
 * Names merged into one OR-mask per chunk, streamed as binary COPY rows in chunk order: however
 * many names of a batch share a chunk, the chunk gets one row with all their bits (no duplicate
 * UPDATE targets). Holds only chunk numbers and positions; each mask is built as it is sent.
 */
class MaskBatch {
public:
    explicit MaskBatch(const Geometry &g)
        : mGeometry(g)
    {
    }

    void add(const Placement &p);
    qsizetype names() const { return qsizetype(mChunks.size()); }
    bool isEmpty() const { return mChunks.empty(); }
    void clear();

    /**
     * Writes the COPY stream (header, rows in chunk order, trailer) in pieces of about `pieceBytes`
     * to `sink`, which returns false to stop. Returns the number of distinct chunks, or -1 if stopped.
     */
    qint64 writeRows(const std::function<bool(const char *, qsizetype)> &sink, qsizetype pieceBytes = 1 << 20) const;
    /** Moves the names whose chunk is at or above `firstChunk` into a new batch. */
    MaskBatch splitFrom(std::uint32_t firstChunk);

    /** The whole stream in one array (for tests and small batches). */
    QByteArray rowsData() const;

private:
    Geometry mGeometry;
    std::vector<std::uint32_t> mChunks;    ///< per name
    std::vector<std::uint16_t> mPositions; ///< k per name
};

} // namespace bloom
