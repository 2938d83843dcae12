#pragma once

#include "model/bitarray.h"
#include "model/chunkdamage.h"
#include "model/fillsnapshot.h"
#include "model/geometry.h"
#include "model/placement.h"

#include <QByteArrayView>

#include <cstdint>
#include <vector>

namespace bloom {

/**
 * A whole filter in memory as one read of its table saw it: every chunk's bits in one BitArray (128 MiB
 * for the reference filter) and what each chunk's row was (bits, NULL, or no row at all). It answers a
 * placed name as the server's check does, and a name in a chunk whose row was NULL or missing is
 * neither free nor maybe (RowVerdict::NullRow / NoRow). Filled once, then read from any thread.
 */
class FilterImage {
public:
    FilterImage() = default;
    /** Every chunk without a row and every bit clear, until rows are stored. */
    explicit FilterImage(const Geometry &g);

    const Geometry &geometry() const { return mGeometry; }
    /** Bytes the image holds (the bits and a byte per chunk). */
    quint64 bytes() const { return mBits.size() + mRows.size(); }

    /** Stores chunk `chunk`'s row: its bits (chunkBits / 8 bytes, bit 0 = 0x80 of the first byte, as a
     *  binary `bit(N)` carries them) or, with `bits` null, a NULL row. False when the chunk already
     *  has a row (a table with two rows for one chunk is not a filter this image can stand for). */
    bool setRow(quint32 chunk, const std::uint8_t *bits);

    /** What `p`'s chunk row says of it, as the server's check would (all k bits set: Maybe). */
    RowVerdict verdict(const Placement &p) const
    {
        const std::uint8_t row = mRows[p.chunk];
        if (row != Whole)
            return row == Null ? RowVerdict::NullRow : RowVerdict::NoRow;
        const std::uint8_t *bits = mBits.data() + size_t(p.chunk) * mChunkBytes;
        for (int j = 0; j < p.k; ++j) {
            const unsigned pos = p.positions[size_t(j)];
            if (!(bits[pos >> 3] & (0x80u >> (pos & 7))))
                return RowVerdict::Free;
        }
        return RowVerdict::Maybe;
    }

    /** out[i] = the verdict of ASCII name names[i] (lowered here, hashed eight at a time through
     *  placeAsciiMany), for i < count. */
    void answerAscii(const QByteArrayView *names, qsizetype count, RowVerdict *out) const;
    /** out[i] = the verdict of names[i], already lowered (by the server's lower()). */
    void answerLowered(const QByteArrayView *names, qsizetype count, RowVerdict *out) const;

    /** The chunks whose row was NULL or missing, in chunk order. */
    ChunkDamage damage() const;
    /** Every chunk's set bits as a fill read would count them (a damaged chunk as 0, and named in the
     *  snapshot's damage), so the estimate beside a sample is the same snapshot's. */
    FillSnapshot fill() const;
    /** Chunks that have a row (bits or NULL). */
    qint64 rows() const { return mRowCount; }

private:
    void prefetch(const Placement *placed, qsizetype count) const;
    enum : std::uint8_t { Missing = 0, Whole = 1, Null = 2 };
    Geometry mGeometry;
    size_t mChunkBytes = 0;
    BitArray mBits;
    std::vector<std::uint8_t> mRows;
    qint64 mRowCount = 0;
};

} // namespace bloom
