#include "model/placement.h"
#include "model/md5lanes.h"
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

void placeAsciiMany(const Geometry &g, const QByteArrayView *names, qsizetype count, Placement *out)
{
    QByteArrayView lane[md5lanes::Lanes];
    qsizetype slot[md5lanes::Lanes];
    Hash128 digest[md5lanes::Lanes];
    int filled = 0;
    const auto run = [&] {
        md5lanes::hash(lane, filled, true, digest);
        for (int i = 0; i < filled; ++i)
            out[slot[i]] = place(g, digest[i]);
        filled = 0;
    };
    for (qsizetype i = 0; i < count; ++i) {
        if (names[i].size() > md5lanes::MaxBytes) {
            out[i] = placeAscii(g, names[i]);
            continue;
        }
        lane[filled] = names[i];
        slot[filled] = i;
        if (++filled == md5lanes::Lanes)
            run();
    }
    if (filled > 0)
        run();
}

} // namespace bloom
