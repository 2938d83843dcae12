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
 * names into at once without an atomic operation per bit: each thread's Writer gathers a block of
 * placements, sorts it by chunk range (counting sort, records of 2 + k 16-bit words) and ORs it in range
 * by range, each under that range's lock. A range is 1/256 of the array (512 KiB for the reference
 * filter), so each piece of the OR stays in cache. With `touched`, a byte per chunk is set too.
 */
class SharedBits {
public:
    static constexpr int Ranges = 256;

    SharedBits(const Geometry &g, std::uint8_t *bits, std::uint8_t *touched = nullptr);

    class Writer {
    public:
        explicit Writer(SharedBits &to, int blockNames = 1 << 16);
        ~Writer() { flush(); }
        Writer(const Writer &) = delete;
        Writer &operator=(const Writer &) = delete;

        void add(const Placement &p)
        {
            std::uint16_t *r = mRecords.data() + size_t(mCount) * size_t(mStride);
            r[0] = std::uint16_t(p.chunk >> 16);
            r[1] = std::uint16_t(p.chunk);
            for (int j = 0; j < mK; ++j)
                r[2 + j] = p.positions[size_t(j)];
            if (++mCount == mBlock)
                flush();
        }
        /** add(placeAscii(names[i])) for i < count, hashed eight at a time (placeAsciiMany). The caller
         *  must have checked isAscii() of every name. */
        void addAscii(const QByteArrayView *names, qsizetype count);
        /** ORs what is gathered in; the destructor does too. */
        void flush();
        qint64 added() const { return mAdded; }

    private:
        SharedBits &mTo;
        int mK, mStride, mBlock;
        int mCount = 0;
        qint64 mAdded = 0;
        std::vector<std::uint16_t> mRecords, mSorted;
        std::vector<int> mStart;
    };

private:
    Geometry mGeometry;
    std::uint8_t *mBits;
    std::uint8_t *mTouched;
    int mShift;  ///< chunk >> mShift is the range
    int mRanges; ///< ranges in use (fewer for a filter of under 256 chunks)
    std::unique_ptr<std::mutex[]> mLocks;
};

} // namespace bloom
