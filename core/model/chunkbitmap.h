#pragma once

#include "model/bitarray.h"
#include "model/geometry.h"
#include "model/maskrows.h"
#include "model/placement.h"
#include "model/sharedbits.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace bloom {

/**
 * The bits of many names ORed into one dense copy of the filter (geometry.bits() / 8 bytes: 128 MiB
 * for the reference filter) with a flag per chunk touched. A bulk load of any size then writes each
 * touched chunk once, as one binary COPY row in chunk order.
 */
class ChunkBitmap final : public MaskRowsSource {
public:
    explicit ChunkBitmap(const Geometry &g);

    /** Bytes a ChunkBitmap of g needs. */
    static quint64 bytesFor(const Geometry &g) { return g.totalBytes() + g.chunks(); }

    void add(const Placement &p);
    /** The bits and touched flags for many threads at once (SharedBits::Writer); finishConcurrent()
     *  then brings names() and touchedChunks() up to date. */
    SharedBits shared() { return SharedBits(mGeometry, mBits.data(), mTouchedFlags.data()); }
    /** After the shared() writers: `names` were added; the touched chunks are counted. */
    void finishConcurrent(qint64 names);
    /** Marks every chunk touched, so writeRows() writes the whole table (a table written from empty). */
    void touchAll();
    const Geometry &geometry() const { return mGeometry; }
    qint64 names() const override { return mNames; }
    qint64 touchedChunks() const override { return mTouched; }
    bool isEmpty() const { return mNames == 0; }

    qint64 writeRows(const ByteSink &sink, qsizetype pieceBytes, quint32 first, quint32 end) const override;
    /** The whole table's rows, in pieces of 1 MiB. */
    qint64 writeRows(const ByteSink &sink) const { return writeRows(sink, 1 << 20, 0, mGeometry.chunks()); }
    qint64 touchedIn(quint32 first, quint32 end) const override;

private:
    Geometry mGeometry;
    BitArray mBits;
    std::vector<std::uint8_t> mTouchedFlags;
    qint64 mNames = 0;
    qint64 mTouched = 0;
};

} // namespace bloom
