#include "model/fprmodel.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace bloom::fpr {

QString oneIn(double p)
{
    if (!(p > 0))
        return QCoreApplication::translate("bloom", "never");
    const double n = 1.0 / p;
    if (n >= 1e12)
        return QCoreApplication::translate("bloom", "1 in %1").arg(n, 0, 'g', 2);
    return QCoreApplication::translate("bloom", "1 in %L1").arg(qRound64(n));
}

double standard(double n, double m, int k)
{
    return std::pow(1.0 - std::exp(-double(k) * n / m), double(k));
}

double optimalK(double m, double n)
{
    return m / n * std::log(2.0);
}

double bitsPerItem(double p)
{
    const double ln2 = std::log(2.0);
    return -std::log(p) / (ln2 * ln2);
}

double optimalKForRate(double p)
{
    return -std::log2(p);
}

namespace {

/**
 * log Poisson(j; lambda). For small j, j log(lambda) - lambda - lgamma(j + 1). For large j those terms
 * are about 36 j each and cancel to a few units, so the doubles' rounding alone moved the result by a
 * factor (4% at lambda = 1e14); there Stirling's series is arranged so that nothing large cancels:
 * j log(lambda / j) + (j - lambda) is about -(lambda - j)^2 / 2j, computed through log1p.
 */
double logPoisson(double j, double lambda)
{
    if (j < 1e5)
        return j * std::log(lambda) - lambda - std::lgamma(j + 1.0);
    const double d = (lambda - j) / j;
    return (j * std::log1p(d) - (lambda - j)) - 0.5 * std::log(2.0 * std::numbers::pi * j) - 1.0 / (12.0 * j);
}

/** Terms summed by blocked() at most: past them the sum steps over j (the sum is smooth there). */
constexpr double MaxBlockedTerms = 4096;

} // namespace

double poisson(qint64 j, double lambda)
{
    if (lambda <= 0)
        return j == 0 ? 1.0 : 0.0;
    if (j < 0)
        return 0.0;
    return std::exp(logPoisson(double(j), lambda));
}

double expectedSetBits(double j, double chunkBits, int k)
{
    return chunkBits * (1.0 - std::pow(1.0 - 1.0 / chunkBits, double(k) * j));
}

double namesForSetBits(double setBits, double chunkBits, int k)
{
    if (setBits >= chunkBits)
        return INFINITY;
    return std::log1p(-setBits / chunkBits) / (double(k) * std::log1p(-1.0 / chunkBits));
}

double blocked(double n, double chunks, double chunkBits, int k)
{
    // The chunk loads' distribution, summed over lambda +- 12 sd (and 20 more for small lambda). Its
    // width grows as sqrt(lambda): past MaxBlockedTerms terms (lambda ~ 2,000 and up, e.g. a forecast
    // of 10^11 names or the sizing of one chunk) the sum takes every h-th j with weight h. h is then
    // at most a 170th of a standard deviation, over which neither factor changes measurably
    // (tst_fprmodel: 1e-9 against the full sum); the full sum had taken 20 s at 10^11 names.
    const double lambda = n / chunks;
    if (!(lambda > 0))
        return 0.0;
    const double spread = 12.0 * std::sqrt(lambda) + 20.0;
    const double lo = std::max(0.0, std::floor(lambda - spread));
    const double hi = std::ceil(lambda + spread);
    const double h = std::max(1.0, std::ceil((hi - lo + 1) / MaxBlockedTerms));
    const double perBit = std::log1p(-1.0 / chunkBits) * double(k); // log (1 - 1/B)^k
    double sum = 0;
    for (double j = lo; j <= hi; j += h) {
        const double fill = -std::expm1(perBit * j); // 1 - (1 - 1/B)^(kj)
        sum += std::exp(logPoisson(j, lambda) + double(k) * std::log(fill));
    }
    return std::min(1.0, sum * h);
}

double blocked(double n, const Geometry &g)
{
    return blocked(n, g.chunks(), g.chunkBits(), g.k());
}

double fromFill(std::span<const quint32> setBitsPerChunk, quint32 chunkBits, int k)
{
    if (setBitsPerChunk.empty())
        return 0;
    double sum = 0;
    for (quint32 s : setBitsPerChunk)
        sum += std::pow(double(s) / chunkBits, double(k));
    return sum / double(setBitsPerChunk.size());
}

double estimateNames(std::span<const quint32> setBitsPerChunk, quint32 chunkBits, int k)
{
    double total = 0;
    for (quint32 s : setBitsPerChunk) {
        // A full chunk says only "at least this many": count it as one bit short of full.
        const double bits = s >= chunkBits ? chunkBits - 1.0 : double(s);
        total += namesForSetBits(bits, chunkBits, k);
    }
    return total;
}

double capacity(const Geometry &g, double target)
{
    double lo = 0;
    double hi = double(g.totalBits());
    while (blocked(hi, g) < target)
        hi *= 2;
    for (int i = 0; i < 100 && hi - lo > 0.5; ++i) {
        const double mid = (lo + hi) / 2;
        (blocked(mid, g) < target ? lo : hi) = mid;
    }
    return lo;
}

std::optional<Sizing> sizing(double n, double target, int chunkBitsLog2)
{
    if (!(n > 0) || !(target > 0 && target < 1))
        return std::nullopt;
    for (int c = 0; c <= Geometry::MaxChunkLog2; ++c) {
        // No k does better than a classic filter of the same bits at its optimal k, exp(-(m/n) ln^2 2)
        // (a blocked filter's rate is the classic one's or worse): a size below that is skipped unsummed.
        const double bits = std::ldexp(1.0, c + chunkBitsLog2);
        const double ln2 = std::log(2.0);
        if (std::exp(-bits / n * ln2 * ln2) > target)
            continue;
        std::optional<Sizing> best;
        for (int k = 1; k <= Geometry::MaxK; ++k) {
            auto g = Geometry::create(c, chunkBitsLog2, k);
            if (!g)
                break;
            const double p = blocked(n, *g);
            if (!best || p < best->fpr)
                best = Sizing{*g, p, optimalK(double(g->totalBits()), n)};
        }
        if (best && best->fpr <= target)
            return best;
    }
    return std::nullopt;
}

double occupiedProbes(double t, double bins, int k)
{
    if (t <= 0 || k < 1)
        return 0;
    // P = sum_d S(k, d) * B(B-1)..(B-d+1) / B^k * P(d given bins all occupied), and the latter by
    // inclusion-exclusion: sum_i (-1)^i C(d, i) (1 - i/B)^t.
    std::vector<std::vector<double>> stirling(size_t(k) + 1, std::vector<double>(size_t(k) + 1, 0.0));
    stirling[0][0] = 1;
    for (int n = 1; n <= k; ++n)
        for (int d = 1; d <= n; ++d)
            stirling[size_t(n)][size_t(d)] =
                d * stirling[size_t(n - 1)][size_t(d)] + stirling[size_t(n - 1)][size_t(d - 1)];
    double total = 0;
    for (int d = 1; d <= k && d <= bins; ++d) {
        double distinct = stirling[size_t(k)][size_t(d)] * std::pow(bins, d - k); // S(k,d) B^(d-k) ...
        for (int i = 0; i < d; ++i)
            distinct *= 1.0 - i / bins; // ... times (B)_d / B^d
        double occupied = 0, binom = 1;
        for (int i = 0; i <= d; ++i) {
            const double empty = i / bins >= 1.0 ? 0.0 : std::exp(t * std::log1p(-i / bins));
            occupied += (i % 2 ? -binom : binom) * empty;
            binom = binom * (d - i) / (i + 1);
        }
        total += distinct * occupied;
    }
    return std::clamp(total, 0.0, 1.0);
}

double standardExact(qint64 n, double m, int k)
{
    return occupiedProbes(double(n) * k, m, k);
}

double blockedExact(qint64 n, double chunks, double chunkBits, int k)
{
    if (n <= 0)
        return 0;
    if (chunks <= 1)
        return occupiedProbes(double(n) * k, chunkBits, k);
    // A chunk's load is Binomial(n, 1/chunks); sum outward from the mode while the loads carry weight.
    const double p = 1.0 / chunks, lp = std::log(p), lq = std::log1p(-p);
    const double lgn = std::lgamma(double(n) + 1);
    const auto weight = [&](qint64 j) {
        return std::exp(lgn - std::lgamma(double(j) + 1) - std::lgamma(double(n - j) + 1) + j * lp + (n - j) * lq);
    };
    const qint64 mode = std::min<qint64>(n, qint64(double(n + 1) * p));
    double total = 0;
    for (qint64 j = mode; j <= n; ++j) {
        const double w = weight(j);
        total += w * occupiedProbes(double(j) * k, chunkBits, k);
        if (w < 1e-18 && j > mode)
            break;
    }
    for (qint64 j = mode - 1; j >= 0; --j) {
        const double w = weight(j);
        total += w * occupiedProbes(double(j) * k, chunkBits, k);
        if (w < 1e-18)
            break;
    }
    return std::clamp(total, 0.0, 1.0);
}

} // namespace bloom::fpr
