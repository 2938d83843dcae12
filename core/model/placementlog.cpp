#include "model/placementlog.h"

#include "model/chunkbitmap.h"
#include "model/sharedbits.h"

#include <algorithm>
#include <cstring>

namespace bloom {

PlacementLog::PlacementLog(const Geometry &g, int lanes)
    : mGeometry(g)
    , mLanes(size_t(std::max(1, lanes)))
{
}

qsizetype PlacementLog::bytesFor(const Geometry &g, qint64 names)
{
    return qsizetype(names) * qsizetype(2 + g.k()) * qsizetype(sizeof(std::uint16_t));
}

void PlacementLog::add(int lane, const Placement &p)
{
    std::vector<std::uint16_t> &to = mLanes[size_t(lane)];
    to.push_back(std::uint16_t(p.chunk >> 16));
    to.push_back(std::uint16_t(p.chunk));
    to.insert(to.end(), p.positions.begin(), p.positions.begin() + mGeometry.k());
}

void PlacementLog::addAscii(int lane, const QByteArrayView *names, qsizetype count)
{
    constexpr qsizetype Step = 256;
    Placement placed[Step];
    std::vector<std::uint16_t> &to = mLanes[size_t(lane)];
    // Grown by doubling: a reserve of just what a block needs reallocated the lane for every block
    // (a million names from a pipe, in 64 KiB blocks, spent 2-3 s in the kernel).
    if (const size_t need = to.size() + size_t(count) * size_t(stride()); need > to.capacity())
        to.reserve(std::max(need, 2 * to.capacity()));
    for (qsizetype from = 0; from < count; from += Step) {
        const qsizetype n = std::min(Step, count - from);
        placeAsciiMany(mGeometry, names + from, n, placed);
        for (qsizetype i = 0; i < n; ++i)
            add(lane, placed[i]);
    }
}

qint64 PlacementLog::appended() const
{
    size_t words = 0;
    for (const auto &lane : mLanes)
        words += lane.size();
    return qint64(words / size_t(stride()));
}

void PlacementLog::orLaneInto(int lane, SharedBits::Writer &to)
{
    const size_t s = size_t(stride());
    std::vector<std::uint16_t> &from = mLanes[size_t(lane)];
    Placement p;
    p.k = mGeometry.k();
    for (size_t at = 0; at + s <= from.size(); at += s) {
        p.chunk = std::uint32_t(from[at]) << 16 | from[at + 1];
        std::copy_n(from.data() + at + 2, p.k, p.positions.begin());
        to.add(p);
    }
    std::vector<std::uint16_t>().swap(from);
}

bool PlacementLog::suits(const Geometry &g)
{
    return (quint64(g.chunks()) + 1) * sizeof(std::uint32_t) <= ChunkBitmap::bytesFor(g) / 8;
}

void PlacementLog::finish()
{
    // A counting sort by chunk (a count per chunk fits: suits()): one pass counts, one places each
    // name's positions at its chunk's next slot.
    const size_t s = size_t(stride()), k = size_t(mGeometry.k());
    mStart.assign(size_t(mGeometry.chunks()) + 1, 0);
    size_t count = 0;
    for (const auto &lane : mLanes)
        for (size_t at = 0; at + s <= lane.size(); at += s, ++count)
            ++mStart[size_t(std::uint32_t(lane[at]) << 16 | lane[at + 1]) + 1];
    mTouched = 0;
    for (size_t c = 1; c < mStart.size(); ++c) {
        mTouched += mStart[c] != 0;
        mStart[c] += mStart[c - 1];
    }
    mPositions.resize(count * k);
    std::vector<std::uint32_t> next(mStart.begin(), mStart.end() - 1);
    for (auto &lane : mLanes) {
        for (size_t at = 0; at + s <= lane.size(); at += s)
            std::copy_n(lane.data() + at + 2, k,
                        mPositions.data() + size_t(next[size_t(std::uint32_t(lane[at]) << 16 | lane[at + 1])]++) * k);
        std::vector<std::uint16_t>().swap(lane);
    }
    mNames = qint64(count);
}

qint64 PlacementLog::touchedIn(quint32 first, quint32 end) const
{
    end = qMin(end, mGeometry.chunks());
    qint64 n = 0;
    for (quint32 c = first; c < end; ++c)
        n += mStart[c + 1] != mStart[c];
    return n;
}

qint64 PlacementLog::writeRows(const ByteSink &sink, qsizetype pieceBytes, quint32 first, quint32 end) const
{
    // The rows a ChunkBitmap of the same names writes: each mask is built in the piece itself.
    const size_t maskBytes = mGeometry.chunkBits() / 8, k = size_t(mGeometry.k());
    return writeChunkRows(sink, pieceBytes, first, qMin(end, mGeometry.chunks()), mGeometry.chunkBits(),
                          [this, maskBytes, k](quint32 chunk, std::uint8_t *mask) {
                              if (mStart[chunk + 1] == mStart[chunk])
                                  return false;
                              std::memset(mask, 0, maskBytes);
                              for (size_t i = mStart[chunk]; i < mStart[chunk + 1]; ++i)
                                  for (size_t j = 0; j < k; ++j) {
                                      const unsigned pos = mPositions[i * k + j];
                                      mask[pos >> 3] = std::uint8_t(mask[pos >> 3] | (0x80u >> (pos & 7)));
                                  }
                              return true;
                          });
}

} // namespace bloom
