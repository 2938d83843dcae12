#pragma once

#include "localcluster.h"

#include <QFile>
#include <QTest>

namespace bloom::test {

/** Reads one of bloomcore's SQL resources (":/sql/NAME"). */
inline QString sqlResource(const QString &name)
{
    QFile f(QStringLiteral(":/sql/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing resource :/sql/%s", qPrintable(name));
    return QString::fromUtf8(f.readAll());
}

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
