#include "model/placement.h"
#include "model/name.h"

#include <algorithm>

namespace bloom {

QList<int> Placement::setBits() const
{
    QList<int> out;
    out.reserve(k);
    for (int i = 0; i < k; ++i)
        out.append(positions[size_t(i)]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

Placement placeAscii(const Geometry &g, QByteArrayView asciiName)
{
    char buffer[256];
    if (asciiName.size() <= qsizetype(sizeof buffer)) {
        const qsizetype n = asciiLowerInto(asciiName, buffer);
        return placeLowered(g, QByteArrayView(buffer, n));
    }
    return placeLowered(g, asciiLower(asciiName));
}

} // namespace bloom
