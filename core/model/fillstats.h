#pragma once

#include "model/fillsnapshot.h"

#include <QList>

namespace bloom {

/** One bar of the fill histogram: chunks with lo..hi set bits, observed and expected by the model. */
struct SkewBin {
    quint32 lo = 0, hi = 0;
    qint64 observed = 0;
    double expected = 0;
};

/** A chunk whose fill the model does not explain (a bad hash or a hot chunk shows up here). */
struct SkewOutlier {
    quint32 chunk = 0;
    quint32 setBits = 0;
    double z = 0;
};

/**
 * The fill histogram beside the spread the model expects: chunk loads are Poisson(n/chunks) and,
 * given j names, the set bits of a chunk follow the occupancy distribution of k*j throws into B bits.
 */
struct SkewReport {
    double names = 0;  ///< estimated from the fill
    double lambda = 0; ///< names per chunk
    double observedMean = 0, observedSd = 0;
    double expectedMean = 0, expectedSd = 0;
    QList<SkewBin> bins;
    QList<SkewOutlier> outliers; ///< chunks the model expects fewer than 0.001 of, largest |z| first
    qsizetype outlierCount = 0;  ///< before truncation to maxOutliers
    double chiSquare = 0;        ///< over bins expecting at least 5 chunks
    int chiSquareBins = 0;
};

/** Histogram in at most maxBins bins; outliers are fills so extreme that the model expects fewer than
 *  0.001 chunks like them in the whole filter. */
SkewReport analyzeSkew(const FillSnapshot &fill, int maxBins = 40, int maxOutliers = 10);

} // namespace bloom
