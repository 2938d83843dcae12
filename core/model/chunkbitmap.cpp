#include "model/chunkbitmap.h"

#include <algorithm>
#include <cstring>

namespace bloom {

ChunkBitmap::ChunkBitmap(const Geometry &g)
    : mGeometry(g)
    , mBits(size_t(g.totalBytes()))
    , mTouchedFlags(size_t(g.chunks()), 0)
{
}

void ChunkBitmap::add(const Placement &p)
{
    std::uint8_t *chunk = mBits.data() + size_t(p.chunk) * (mGeometry.chunkBits() / 8);
    for (int j = 0; j < p.k; ++j) {
        const unsigned pos = p.positions[size_t(j)];
        chunk[pos >> 3] = std::uint8_t(chunk[pos >> 3] | (0x80u >> (pos & 7)));
    }
    if (!mTouchedFlags[p.chunk]) {
        mTouchedFlags[p.chunk] = 1;
        ++mTouched;
    }
    ++mNames;
}

void ChunkBitmap::finishConcurrent(qint64 names)
{
    mNames += names;
    mTouched = touchedIn(0, mGeometry.chunks());
}

void ChunkBitmap::touchAll()
{
    std::fill(mTouchedFlags.begin(), mTouchedFlags.end(), std::uint8_t(1));
    mTouched = qint64(mGeometry.chunks());
}

qint64 ChunkBitmap::touchedIn(quint32 first, quint32 end) const
{
    end = qMin(end, mGeometry.chunks());
    qint64 n = 0;
    for (quint32 c = first; c < end; ++c)
        n += mTouchedFlags[c];
    return n;
}

qint64 ChunkBitmap::writeRows(const ByteSink &sink, qsizetype pieceBytes, quint32 first, quint32 end) const
{
    const size_t maskBytes = mGeometry.chunkBits() / 8;
    return writeChunkRows(sink, pieceBytes, first, qMin(end, mGeometry.chunks()), mGeometry.chunkBits(),
                          [this, maskBytes](quint32 c, std::uint8_t *out) {
                              if (!mTouchedFlags[c])
                                  return false;
                              memcpy(out, mBits.data() + size_t(c) * maskBytes, maskBytes);
                              return true;
                          });
}

} // namespace bloom
