#include "model/chunkbitmap.h"

#include "postgres/pgcopy.h"

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

qint64 ChunkBitmap::writeCopy(const CopyPieceSink &sink, qsizetype pieceBytes, quint32 first, quint32 end) const
{
    end = qMin(end, mGeometry.chunks());
    const size_t maskBytes = mGeometry.chunkBits() / 8;
    const size_t rowBytes = 2 + 4 + 4 + 4 + 4 + maskBytes;
    std::vector<char> buffer(size_t(pieceBytes) + rowBytes + 32);
    char *at = buffer.data();
    putCopyHeader(at);
    qint64 rows = 0;
    for (quint32 c = first; c < end; ++c) {
        if (!mTouchedFlags[c])
            continue;
        putBe16(at, 2);
        putBe32(at, 4);
        putBe32(at, c);
        putBe32(at, quint32(4 + maskBytes));
        putBe32(at, mGeometry.chunkBits());
        memcpy(at, mBits.data() + size_t(c) * maskBytes, maskBytes);
        at += maskBytes;
        ++rows;
        if (at - buffer.data() >= pieceBytes) {
            if (!sink(buffer.data(), at - buffer.data()))
                return -1;
            at = buffer.data();
        }
    }
    putBe16(at, 0xFFFF);
    return sink(buffer.data(), at - buffer.data()) ? rows : -1;
}

} // namespace bloom
