#pragma once

#include "model/geometry.h"

#include <QList>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <span>

/** The false-positive models of the reference text, as pure functions. */
namespace bloom::fpr {

/** "1 in 171" for p = 0.00585; "1 in 1.8e+23" when the count would not fit an integer; "never" for 0. */
QString oneIn(double p);

/** Standard Bloom filter: (1 - e^(-kn/m))^k. */
double standard(double n, double m, int k);
/** Best real-valued k for m bits and n items: (m/n) ln 2. */
double optimalK(double m, double n);
/** Bits per item a standard filter with optimal k needs for rate p: -ln p / (ln 2)^2. */
double bitsPerItem(double p);
/** k at that optimum: -log2 p. */
double optimalKForRate(double p);

/**
 * Blocked Bloom filter: chunk loads are Poisson(n/chunks); a chunk holding j names has each bit set
 * with probability 1 - (1 - 1/B)^(kj). FPR = sum_j Poisson(j) * (that)^k.
 */
double blocked(double n, double chunks, double chunkBits, int k);
double blocked(double n, const Geometry &g);

/**
 * The chance that k probes, each uniform over B bins, all land on occupied bins after t uniform
 * throws: E[(X_t / B)^k], X_t the bins occupied (inclusion-exclusion over the probes' distinct bins;
 * absolute error about 1e-14).
 */
double occupiedProbes(double t, double bins, int k);
/**
 * The classic filter's rate without the textbook's shortcut: (1 - e^(-kn/m))^k puts the filter at
 * its expected fill, but the fill varies from one set of names to another, and (fill)^k of a varying
 * fill averages higher. Exact for positions independent and uniform.
 */
double standardExact(qint64 n, double m, int k);
/**
 * The blocked filter's rate, exact likewise: chunk loads Binomial(n, 1/chunks) rather than Poisson,
 * and each chunk's varying fill rather than its expected fill. At 64-bit chunks blocked() reads
 * several percent low; at the reference's 8,192-bit chunks the two agree.
 */
double blockedExact(qint64 n, double chunks, double chunkBits, int k);

/** Poisson(j; lambda), computed in log space (stable for large lambda). */
double poisson(qint64 j, double lambda);

/** What the reference estimate query computes: mean over chunks of (set_bits / B)^k. */
double fromFill(std::span<const quint32> setBitsPerChunk, quint32 chunkBits, int k);

/** Expected set bits in a chunk holding j names: B (1 - (1 - 1/B)^(kj)). */
double expectedSetBits(double j, double chunkBits, int k);
/** Inverse: the number of names that explains `setBits` in one chunk (infinite when full). */
double namesForSetBits(double setBits, double chunkBits, int k);
/** Estimated names in the whole filter: the sum of namesForSetBits over chunks (full chunks capped). */
double estimateNames(std::span<const quint32> setBitsPerChunk, quint32 chunkBits, int k);

/** The number of names at which the blocked FPR of g reaches `target` (bisection). */
double capacity(const Geometry &g, double target);

/** A recommendation from sizing(). */
struct Sizing {
    Geometry geometry;
    double fpr = 0;      ///< blocked FPR at n
    double optimalK = 0; ///< real-valued best k for the chosen size
};

/**
 * The smallest power-of-two filter with `chunkBitsLog2`-bit chunks (8,192 by default) whose blocked
 * FPR at n names is at most `target`, with the integer k that minimises it (ties: the smaller k).
 */
std::optional<Sizing> sizing(double n, double target, int chunkBitsLog2 = 13);

} // namespace bloom::fpr
