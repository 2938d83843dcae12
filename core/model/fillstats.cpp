#include "model/fillstats.h"
#include "model/fprmodel.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace bloom {

namespace {

double normalCdf(double x)
{
    return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

/** Mean and variance of the set bits after n uniform throws into B bits (occupancy problem). */
std::pair<double, double> occupancy(double n, double b)
{
    const double q1 = std::pow(1.0 - 1.0 / b, n);
    const double q2 = std::pow(1.0 - 2.0 / b, n);
    const double mean = b * (1.0 - q1);
    const double var = qMax(0.0, b * q1 + b * (b - 1.0) * q2 - b * b * q1 * q1);
    return {mean, var};
}

} // namespace

SkewReport analyzeSkew(const FillSnapshot &fill, int maxBins, int maxOutliers)
{
    SkewReport r;
    const auto &bits = fill.setBits;
    if (bits.empty())
        return r;
    const double chunks = double(bits.size());
    const double b = fill.geometry.chunkBits();
    const int k = fill.geometry.k();
    r.names = fill.estimatedNames();
    r.lambda = r.names / chunks;

    double sum = 0, sum2 = 0;
    for (quint32 s : bits) {
        sum += s;
        sum2 += double(s) * s;
    }
    r.observedMean = sum / chunks;
    r.observedSd = std::sqrt(qMax(0.0, sum2 / chunks - r.observedMean * r.observedMean));

    // The model's mixture over chunk loads j.
    struct Component {
        double weight, mean, sd;
    };
    std::vector<Component> mix;
    const double spread = 12.0 * std::sqrt(r.lambda) + 20.0;
    const qint64 jLo = qMax<qint64>(0, qint64(std::floor(r.lambda - spread)));
    const qint64 jHi = qint64(std::ceil(r.lambda + spread));
    double m1 = 0, m2 = 0;
    for (qint64 j = jLo; j <= jHi; ++j) {
        const double w = fpr::poisson(j, r.lambda);
        if (w < 1e-15)
            continue;
        const auto [mean, var] = occupancy(double(k) * double(j), b);
        mix.push_back({w, mean, std::sqrt(var)});
        m1 += w * mean;
        m2 += w * (var + mean * mean);
    }
    r.expectedMean = m1;
    r.expectedSd = std::sqrt(qMax(0.0, m2 - m1 * m1));

    const quint32 lo = *std::min_element(bits.begin(), bits.end());
    const quint32 hi = *std::max_element(bits.begin(), bits.end());
    quint32 width = qMax<quint32>(1, (hi - lo + quint32(maxBins)) / quint32(maxBins));
    // Few names a chunk put set bits on a comb near multiples of k: bins of a multiple of k avoid aliasing.
    if (width * 2 >= quint32(k))
        width = (width + quint32(k) - 1) / quint32(k) * quint32(k);
    for (quint32 at = lo; at <= hi; at += width)
        r.bins.append(SkewBin{at, qMin(hi, at + width - 1), 0, 0});
    for (quint32 s : bits)
        ++r.bins[qsizetype((s - lo) / width)].observed;
    for (SkewBin &bin : r.bins) {
        double p = 0;
        for (const Component &c : mix) {
            if (c.sd < 1e-9)
                p += (c.mean >= bin.lo - 0.5 && c.mean < bin.hi + 0.5) ? c.weight : 0.0;
            else
                p += c.weight * (normalCdf((bin.hi + 0.5 - c.mean) / c.sd) - normalCdf((bin.lo - 0.5 - c.mean) / c.sd));
        }
        bin.expected = p * chunks;
        if (bin.expected >= 5) {
            const double d = double(bin.observed) - bin.expected;
            r.chiSquare += d * d / bin.expected;
            ++r.chiSquareBins;
        }
    }

    // A chunk is an outlier when the model expects fewer than `rareChunks` chunks in the whole filter
    // to be that full (or that empty): tail probabilities of the mixture, once per distinct value.
    const auto tails = [&mix](double s) {
        double upper = 0, lower = 0;
        for (const Component &c : mix) {
            if (c.sd < 1e-9) {
                upper += c.mean >= s - 0.5 ? c.weight : 0.0;
                lower += c.mean <= s + 0.5 ? c.weight : 0.0;
            } else {
                upper += c.weight * (1.0 - normalCdf((s - 0.5 - c.mean) / c.sd));
                lower += c.weight * normalCdf((s + 0.5 - c.mean) / c.sd);
            }
        }
        return qMin(upper, lower);
    };
    const double rareChunks = 1e-3;
    QHash<quint32, bool> rare;
    for (size_t c = 0; c < bits.size(); ++c) {
        auto it = rare.find(bits[c]);
        if (it == rare.end())
            it = rare.insert(bits[c], tails(double(bits[c])) * chunks < rareChunks);
        if (*it) {
            const double z = r.expectedSd > 0 ? (double(bits[c]) - r.expectedMean) / r.expectedSd : 0.0;
            r.outliers.append(SkewOutlier{quint32(c), bits[c], z});
        }
    }
    std::sort(r.outliers.begin(), r.outliers.end(),
              [](const SkewOutlier &a, const SkewOutlier &b) { return std::abs(a.z) > std::abs(b.z); });
    r.outlierCount = r.outliers.size();
    if (r.outliers.size() > maxOutliers)
        r.outliers.resize(maxOutliers);
    return r;
}

} // namespace bloom
