#include "model/filterimage.h"

#include <bit>
#include <cstring>

namespace bloom {

FilterImage::FilterImage(const Geometry &g)
    : mGeometry(g)
    , mChunkBytes(g.chunkBits() / 8)
    , mBits(g.totalBytes())
    , mRows(g.chunks(), Missing)
{
}

bool FilterImage::setRow(quint32 chunk, const std::uint8_t *bits)
{
    if (mRows[chunk] != Missing)
        return false;
    ++mRowCount;
    if (!bits) {
        mRows[chunk] = Null;
        return true;
    }
    std::memcpy(mBits.data() + size_t(chunk) * mChunkBytes, bits, mChunkBytes);
    mRows[chunk] = Whole;
    return true;
}

void FilterImage::answerAscii(const QByteArrayView *names, qsizetype count, RowVerdict *out) const
{
    // A few dozen names at a time: their placements stay on the stack, in the cache.
    constexpr qsizetype Group = 64;
    Placement placed[Group];
    for (qsizetype at = 0; at < count; at += Group) {
        const qsizetype n = qMin(Group, count - at);
        placeAsciiMany(mGeometry, names + at, n, placed);
        prefetch(placed, n);
        for (qsizetype i = 0; i < n; ++i)
            out[at + i] = verdict(placed[i]);
    }
}

void FilterImage::prefetch(const Placement *placed, qsizetype count) const
{
    // Each name's bits are random lines of a random chunk of a large array: ask for all of the group's
    // lines before reading any, so that their cache misses overlap instead of following each other.
    for (qsizetype i = 0; i < count; ++i) {
        const std::uint8_t *bits = mBits.data() + size_t(placed[i].chunk) * mChunkBytes;
        for (int j = 0; j < placed[i].k; ++j)
            __builtin_prefetch(bits + (placed[i].positions[size_t(j)] >> 3));
    }
}

void FilterImage::answerLowered(const QByteArrayView *names, qsizetype count, RowVerdict *out) const
{
    for (qsizetype i = 0; i < count; ++i)
        out[i] = verdict(placeLowered(mGeometry, names[i]));
}

FillSnapshot FilterImage::fill() const
{
    FillSnapshot f;
    f.geometry = mGeometry;
    f.setBits.resize(mRows.size());
    for (size_t c = 0; c < mRows.size(); ++c) {
        const std::uint8_t *bits = mBits.data() + c * mChunkBytes;
        quint32 n = 0;
        size_t i = 0;
        for (; i + 8 <= mChunkBytes; i += 8) {
            std::uint64_t w;
            std::memcpy(&w, bits + i, 8);
            n += quint32(std::popcount(w));
        }
        for (; i < mChunkBytes; ++i)
            n += quint32(std::popcount(unsigned(bits[i])));
        f.setBits[c] = n;
    }
    f.rowsRead = mRowCount;
    f.rowCount = mRowCount;
    f.damage = damage();
    return f;
}

ChunkDamage FilterImage::damage() const
{
    ChunkDamage d;
    for (quint32 c = 0; c < quint32(mRows.size()); ++c) {
        if (mRows[c] == Null)
            d.nullChunks.push_back(c);
        else if (mRows[c] == Missing)
            d.missingChunks.push_back(c);
    }
    return d;
}

} // namespace bloom
