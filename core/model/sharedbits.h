#pragma once

#include "model/geometry.h"
#include "model/placement.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace bloom {

/**
 * A dense bit array of a geometry (chunk-major, MSB first, as a bit(N) row) that many threads OR
 * names into at once without an atomic operation per bit. The array is cut into ranges (1/256 of it,
 * 512 KiB for the reference filter; ranges of 2^16 chunks past 2^24 chunks); each thread's Writer keeps a bucket of
 * placements per range and, when a bucket is full, ORs it in under that range's lock in chunk order: the range's cache
 * lines are then visited once each, in address order, instead of a cache miss per bit. With `touched`, a byte per chunk
 * is set too.
 */
class SharedBits {
public:
    static constexpr int Ranges = 256;

    SharedBits(const Geometry &g, std::uint8_t *bits, std::uint8_t *touched = nullptr);

    class Writer {
    public:
        /** A writer that holds up to `bufferNames` placements before they are ORed in (bufferBytes()
         *  tells what that costs; a bucket of a few thousand names per range pays off). */
        explicit Writer(SharedBits &to, qsizetype bufferNames = DefaultBufferNames);
        ~Writer() { flush(); }
        Writer(const Writer &) = delete;
        Writer &operator=(const Writer &) = delete;

        static constexpr qsizetype DefaultBufferNames = 1 << 20;
        /** The memory a writer of `bufferNames` placements takes for geometry g. */
        static qsizetype bufferBytes(const Geometry &g, qsizetype bufferNames);
        /** The names each of `writers` writers gathers so that together they take at most 1/8 of the
         *  array (the rebuild's and the load's memory budget), 4,096 to 2^20 names each (bench_placement:
         *  1.4-1.7x the fill rate of 64k-name writers at 1-2M names on the reference's 2x array). */
        static qsizetype bufferFor(const Geometry &g, int writers);

        void add(const Placement &p)
        {
            const std::uint32_t range = p.chunk >> mShift;
            int &n = mFill[range];
            std::uint16_t *r = mBuckets.data() + (size_t(range) * size_t(mPerRange) + size_t(n)) * size_t(mStride);
            r[0] = std::uint16_t(p.chunk & mOffsetMask);
            for (int j = 0; j < mK; ++j)
                r[1 + j] = p.positions[size_t(j)];
            if (++n == mPerRange)
                flushRange(int(range));
        }
        /** add(placeAscii(names[i])) for i < count, hashed eight at a time (placeAsciiMany). The caller
         *  must have checked isAscii() of every name. */
        void addAscii(const QByteArrayView *names, qsizetype count);
        /** ORs what is gathered in; the destructor does too. */
        void flush();
        qint64 added() const { return mAdded; }

    private:
        void flushRange(int range);

        SharedBits &mTo;
        int mK, mStride, mShift, mPerRange;
        std::uint32_t mOffsetMask;
        qint64 mAdded = 0;
        std::vector<std::uint16_t> mBuckets, mSorted;
        std::vector<int> mFill, mStart;
    };

private:
    Geometry mGeometry;
    std::uint8_t *mBits;
    std::uint8_t *mTouched;
    int mShift;  ///< chunk >> mShift is the range
    int mRanges; ///< ranges in use (fewer for a filter of under 256 chunks, more past 2^24)
    std::unique_ptr<std::mutex[]> mLocks;
};

} // namespace bloom
