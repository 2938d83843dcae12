#include "model/fprmodel.h"

#include <cmath>

namespace bloom::fpr {

QString oneIn(double p)
{
    if (!(p > 0))
        return QStringLiteral("never");
    const double n = 1.0 / p;
    if (n >= 1e12)
        return QStringLiteral("1 in %1").arg(n, 0, 'g', 2);
    return QStringLiteral("1 in %L1").arg(qRound64(n));
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

double poisson(qint64 j, double lambda)
{
    if (lambda <= 0)
        return j == 0 ? 1.0 : 0.0;
    return std::exp(double(j) * std::log(lambda) - lambda - std::lgamma(double(j) + 1.0));
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
    const double lambda = n / chunks;
    const double spread = 12.0 * std::sqrt(lambda) + 20.0;
    const qint64 lo = qMax<qint64>(0, qint64(std::floor(lambda - spread)));
    const qint64 hi = qint64(std::ceil(lambda + spread));
    double sum = 0;
    for (qint64 j = lo; j <= hi; ++j) {
        const double fill = 1.0 - std::pow(1.0 - 1.0 / chunkBits, double(k) * double(j));
        sum += poisson(j, lambda) * std::pow(fill, double(k));
    }
    return sum;
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

} // namespace bloom::fpr
