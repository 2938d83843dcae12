#pragma once

#include "local/localcluster.h"
#include "postgres/filtersql.h"

#include <QTest>

namespace bloom::test {

/** Reads one of bloomcore's SQL resources (":/sql/NAME"). */
using bloom::sqlResource;

/** Starts a private cluster for a test case; fails the test (never skips) when it cannot. */
inline bool startCluster(LocalCluster &cluster)
{
    auto s = cluster.start();
    if (!s) {
        qWarning("%s", qPrintable(s.error().toString()));
        return false;
    }
    return true;
}

} // namespace bloom::test
