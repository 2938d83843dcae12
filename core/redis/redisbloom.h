#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

namespace bloom::redisbloom {

/**
 * The Redis bitmap filter of the reference (UsernameBloomFilter.js): one bitmap key, m bits, k = 2.
 * Its positions are what that JavaScript computes, number semantics included:
 *  - sha256: the 64 hex digits parsed by parseInt(hex, 16) into a double (rounded to nearest,
 *    ties to even), then `% m` in doubles (exact);
 *  - FNV-1a over the UTF-16 code units (charCodeAt): `hash ^= c` works on ToInt32(hash), and
 *    `hash *= 16777619` multiplies doubles, rounding once the product passes 2^53; the end is
 *    `(hash >>> 0) % m`.
 * The name is hashed as given (no lowercasing), as UTF-8 for sha256.
 */
constexpr quint64 ReferenceBits = 10'000'000;
inline const char ReferenceKey[] = "username_bloom_filter_key";

/** JavaScript's parseInt(hex, 16) for a string of hex digits, as a double (Infinity past the
 *  largest double, as in JavaScript). */
double parseHexAsJs(QByteArrayView hex);

/** Both positions of a name, with the values a step-through shows. */
struct Positions {
    QByteArray sha256Hex;
    double sha256Number = 0; ///< parseInt(hex, 16)
    quint64 sha256 = 0;      ///< sha256Number % m
    quint32 fnvUnsigned = 0; ///< hash >>> 0
    quint64 fnv = 0;         ///< fnvUnsigned % m
};

/** The positions of a valid UTF-8 name in a filter of m bits. */
Positions positions(QByteArrayView utf8, quint64 m = ReferenceBits);

/** The FNV value (hash >>> 0) the JavaScript computes, for tests and explanations. */
quint32 fnvAsJs(const QString &name);

/** One round of the JavaScript FNV loop, for the step-through. */
struct FnvStep {
    quint16 unit = 0;     ///< charCodeAt(i)
    qint32 xored = 0;     ///< ToInt32(hash) ^ unit
    double product = 0;   ///< xored * 16777619 as a double
    bool rounded = false; ///< the exact product needed more than 53 bits: low bits were lost
};
QList<FnvStep> fnvSteps(const QString &name);

} // namespace bloom::redisbloom
