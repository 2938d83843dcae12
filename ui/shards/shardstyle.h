#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QString>

#include <algorithm>
#include <vector>

namespace bloom::shardstyle {

/** The two paths every Shards chart compares: with the filter in front, and the shards alone. */
inline const QColor WithColour(0x2e, 0x9e, 0x4f);
inline const QColor WithoutColour(0xd9, 0x53, 0x4f);

/** Milliseconds with two decimals below 10 ms, one above. */
inline QString ms(double v)
{
    return QString::number(v, 'f', v < 10 ? 2 : 1);
}

/** "1 shard", "3 shards". */
inline QString shardCount(qint64 n)
{
    return n == 1 ? QCoreApplication::translate("bloom::shardstyle", "1 shard")
                  : QCoreApplication::translate("bloom::shardstyle", "%L1 shards").arg(n);
}

inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[size_t(p * double(v.size() - 1))];
}

} // namespace bloom::shardstyle
