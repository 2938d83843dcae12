#pragma once

#include "common/result.h"

#include <QString>
#include <QtGlobal>

namespace bloom {

/**
 * The shape of a blocked Bloom filter: 2^c chunks of 2^b bits, k bits per name, all cut from one
 * 128-bit MD5. The default is the reference filter: 131,072 chunks of 8,192 bits, k = 7.
 */
class Geometry {
public:
    static constexpr int HashBits = 128;
    static constexpr int MaxChunkLog2 = 30; // chunk numbers are SQL int
    static constexpr int MinBitsLog2 = 3;   // 8 bits per chunk
    static constexpr int MaxBitsLog2 = 16;  // 65,536 bits (8 KiB) per chunk
    static constexpr int MaxK = 32;

    /** The reference geometry (c = 17, b = 13, k = 7). */
    constexpr Geometry() = default;

    /** Validates and builds a geometry from log2(chunks), log2(bits per chunk) and k. */
    static Result<Geometry> create(int chunkLog2, int bitsLog2, int k);
    /** Same, from counts that must be powers of two (as `bloomctl init --chunks N --chunk-bits B`). */
    static Result<Geometry> fromCounts(qint64 chunks, qint64 chunkBits, int k);

    int chunkLog2() const { return mChunkLog2; }
    int bitsLog2() const { return mBitsLog2; }
    int k() const { return mK; }

    quint32 chunks() const { return quint32(1) << mChunkLog2; }
    quint32 chunkBits() const { return quint32(1) << mBitsLog2; }
    quint64 totalBits() const { return quint64(chunks()) * chunkBits(); }
    quint64 totalBytes() const { return totalBits() / 8; }
    /** Hash bits consumed: c + k*b (108 of 128 for the reference). */
    int hashBitsUsed() const { return mChunkLog2 + mK * mBitsLog2; }
    /** Estimated on-disk size of the table and its primary key, in bytes (heap pages + btree). */
    quint64 tableSizeEstimate() const;
    /** The heap alone, rows packed with no dead tuples at the table's fillfactor (the baseline for
     *  bloat: a table with fillfactor 90 keeps a tenth of each page free on purpose). */
    quint64 heapSizeEstimate(int fillfactor = 100) const;

    bool isReference() const { return *this == Geometry(); }
    /** "131072 chunks x 8192 bits, k=7 (2^30 bits, 128 MiB)" */
    QString describe() const;

    friend bool operator==(const Geometry &, const Geometry &) = default;

private:
    constexpr Geometry(int c, int b, int k)
        : mChunkLog2(c)
        , mBitsLog2(b)
        , mK(k)
    {
    }

    int mChunkLog2 = 17;
    int mBitsLog2 = 13;
    int mK = 7;
};

/** "128 MiB", "1.5 GiB", "812 B" */
QString formatBytes(quint64 bytes);
/** 2000000 -> "2,000,000" (the same in every locale: for logs, errors and --json text). */
QString formatCount(qint64 n);

} // namespace bloom
