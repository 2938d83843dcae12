#include "model/sharedbits.h"

#include <algorithm>

namespace bloom {

SharedBits::SharedBits(const Geometry &g, std::uint8_t *bits, std::uint8_t *touched)
    : mGeometry(g)
    , mBits(bits)
    , mTouched(touched)
    , mShift(std::max(0, g.chunkLog2() - 8))
    , mRanges(int(std::min<quint64>(Ranges, (quint64(g.chunks()) + (1u << mShift) - 1) >> mShift)))
    , mLocks(new std::mutex[size_t(Ranges)])
{
}

SharedBits::Writer::Writer(SharedBits &to, int blockNames)
    : mTo(to)
    , mK(to.mGeometry.k())
    , mStride(2 + to.mGeometry.k())
    , mBlock(std::max(1, blockNames))
    , mRecords(size_t(mBlock) * size_t(mStride))
    , mSorted(size_t(mBlock) * size_t(mStride))
    , mStart(size_t(Ranges) + 1)
{
}

void SharedBits::Writer::addAscii(const QByteArrayView *names, qsizetype count)
{
    constexpr qsizetype Step = 256;
    Placement placed[Step];
    for (qsizetype from = 0; from < count; from += Step) {
        const qsizetype n = std::min(Step, count - from);
        placeAsciiMany(mTo.mGeometry, names + from, n, placed);
        for (qsizetype i = 0; i < n; ++i)
            add(placed[i]);
    }
}

void SharedBits::Writer::flush()
{
    if (mCount == 0)
        return;
    const int shift = mTo.mShift;
    const auto chunkOf = [](const std::uint16_t *r) { return (std::uint32_t(r[0]) << 16) | r[1]; };
    // Counting sort of the records by range.
    std::fill(mStart.begin(), mStart.end(), 0);
    for (int i = 0; i < mCount; ++i)
        ++mStart[size_t(chunkOf(mRecords.data() + size_t(i) * size_t(mStride)) >> shift) + 1];
    for (int r = 0; r < Ranges; ++r)
        mStart[size_t(r) + 1] += mStart[size_t(r)];
    std::vector<int> at(mStart.begin(), mStart.end() - 1);
    for (int i = 0; i < mCount; ++i) {
        const std::uint16_t *rec = mRecords.data() + size_t(i) * size_t(mStride);
        const int to = at[size_t(chunkOf(rec) >> shift)]++;
        std::copy_n(rec, mStride, mSorted.data() + size_t(to) * size_t(mStride));
    }
    // Range by range, under its lock; starting at a range that depends on the block spreads the
    // writers over the array instead of queueing them at range 0.
    const size_t chunkBytes = mTo.mGeometry.chunkBits() / 8;
    const int first = int((mAdded / mBlock) % mTo.mRanges);
    for (int n = 0; n < mTo.mRanges; ++n) {
        const int r = (first + n) % mTo.mRanges;
        if (mStart[size_t(r)] == mStart[size_t(r) + 1])
            continue;
        std::lock_guard lock(mTo.mLocks[size_t(r)]);
        for (int i = mStart[size_t(r)]; i < mStart[size_t(r) + 1]; ++i) {
            const std::uint16_t *rec = mSorted.data() + size_t(i) * size_t(mStride);
            const std::uint32_t chunk = chunkOf(rec);
            std::uint8_t *bits = mTo.mBits + size_t(chunk) * chunkBytes;
            for (int j = 0; j < mK; ++j) {
                const unsigned pos = rec[2 + j];
                bits[pos >> 3] = std::uint8_t(bits[pos >> 3] | (0x80u >> (pos & 7)));
            }
            if (mTo.mTouched)
                mTo.mTouched[chunk] = 1;
        }
    }
    mAdded += mCount;
    mCount = 0;
}

} // namespace bloom
