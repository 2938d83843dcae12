#include "model/sharedbits.h"

#include <algorithm>

namespace bloom {

SharedBits::SharedBits(const Geometry &g, std::uint8_t *bits, std::uint8_t *touched)
    : mGeometry(g)
    , mBits(bits)
    , mTouched(touched)
    , mShift(std::clamp(g.chunkLog2() - 8, 0, 16))
    , mRanges(int((quint64(g.chunks()) + (quint64(1) << mShift) - 1) >> mShift))
    , mLocks(new std::mutex[size_t(mRanges)])
{
}

SharedBits::Writer::Writer(SharedBits &to, qsizetype bufferNames)
    : mTo(to)
    , mK(to.mGeometry.k())
    , mStride(1 + to.mGeometry.k())
    , mShift(to.mShift)
    , mPerRange(int(std::clamp<qsizetype>(bufferNames / to.mRanges, 1, 1 << 20)))
    , mOffsetMask((1u << to.mShift) - 1)
    , mBuckets(size_t(to.mRanges) * size_t(mPerRange) * size_t(mStride))
    , mSorted(size_t(mPerRange) * size_t(mStride))
    , mFill(size_t(to.mRanges), 0)
    , mStart((size_t(1) << to.mShift) + 1)
{
    // A chunk's offset in its range is one 16-bit word: ranges hold at most 2^16 chunks (past
    // 2^24 chunks there are more than 256 ranges).
}

qsizetype SharedBits::Writer::bufferBytes(const Geometry &g, qsizetype bufferNames)
{
    const qsizetype ranges = qsizetype(std::max<quint64>(Ranges, quint64(g.chunks()) >> 16));
    const qsizetype perRange = std::clamp<qsizetype>(bufferNames / ranges, 1, 1 << 20);
    return (ranges + 1) * perRange * qsizetype(1 + g.k()) *
           2; // the buckets and one to sort into // the buckets and one bucket to sort into
}

qsizetype SharedBits::Writer::bufferFor(const Geometry &g, int writers)
{
    const qsizetype budget = qsizetype(g.totalBytes() / 8) / std::max(1, writers);
    const qsizetype perName = bufferBytes(g, DefaultBufferNames) / DefaultBufferNames + 1;
    return std::clamp<qsizetype>(budget / perName, 4096, DefaultBufferNames);
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
    for (int r = 0; r < mTo.mRanges; ++r)
        if (mFill[size_t(r)] > 0)
            flushRange(r);
}

void SharedBits::Writer::flushRange(int range)
{
    const int count = mFill[size_t(range)];
    const std::uint16_t *bucket = mBuckets.data() + size_t(range) * size_t(mPerRange) * size_t(mStride);
    const size_t stride = size_t(mStride);
    // Counting sort of the bucket by chunk, so the OR walks the range forward.
    const size_t inRange = size_t(1) << mShift;
    std::fill_n(mStart.begin(), inRange + 1, 0);
    for (int i = 0; i < count; ++i)
        ++mStart[size_t(bucket[size_t(i) * stride]) + 1];
    for (size_t c = 0; c < inRange; ++c)
        mStart[c + 1] += mStart[c];
    for (int i = 0; i < count; ++i) {
        const std::uint16_t *rec = bucket + size_t(i) * stride;
        std::copy_n(rec, stride, mSorted.data() + size_t(mStart[rec[0]]++) * stride);
    }
    const size_t chunkBytes = mTo.mGeometry.chunkBits() / 8;
    const std::uint32_t base = std::uint32_t(range) << mShift;
    std::uint8_t *rangeBits = mTo.mBits + size_t(base) * chunkBytes;
    std::lock_guard lock(mTo.mLocks[size_t(range)]);
    for (int i = 0; i < count; ++i) {
        const std::uint16_t *rec = mSorted.data() + size_t(i) * stride;
        std::uint8_t *bits = rangeBits + size_t(rec[0]) * chunkBytes;
        for (int j = 0; j < mK; ++j) {
            const unsigned pos = rec[1 + j];
            bits[pos >> 3] = std::uint8_t(bits[pos >> 3] | (0x80u >> (pos & 7)));
        }
        if (mTo.mTouched)
            mTo.mTouched[base + rec[0]] = 1;
    }
    mAdded += count;
    mFill[size_t(range)] = 0;
}

} // namespace bloom
