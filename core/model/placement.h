#pragma once

#include "model/geometry.h"
#include "model/hash128.h"

#include <QByteArrayView>
#include <QList>

#include <array>
#include <cstdint>

namespace bloom {

/** Where one name lives: its chunk and its k positions inside it, in hash order (duplicates kept). */
struct Placement {
    std::uint32_t chunk = 0;
    int k = 0;
    std::array<std::uint16_t, Geometry::MaxK> positions{};

    /** The positions sorted with duplicates removed (what `get_bit(mask, i) = 1` lists). */
    QList<int> setBits() const;
    friend bool operator==(const Placement &, const Placement &) = default;
};

/** The reference placement of a hash: first c bits the chunk, then k slices of b bits. */
inline Placement place(const Geometry &g, const Hash128 &h)
{
    Placement p;
    p.chunk = h.bits(0, g.chunkLog2());
    p.k = g.k();
    const int b = g.bitsLog2();
    int at = g.chunkLog2();
    for (int i = 0; i < p.k; ++i, at += b)
        p.positions[size_t(i)] = std::uint16_t(h.bits(at, b));
    return p;
}

/** Placement of a name that is already lowercased (by the client for ASCII, or by the server). */
inline Placement placeLowered(const Geometry &g, QByteArrayView lowered)
{
    return place(g, Hash128::md5(lowered));
}

/**
 * Placement of an ASCII name, lowercasing it on a stack buffer for short names (no allocation).
 * The caller must have checked isAscii(): a non-ASCII name needs the database's lower().
 */
Placement placeAscii(const Geometry &g, QByteArrayView asciiName);

/**
 * out[i] = placeAscii(g, names[i]) for i < count, eight names at a time through md5lanes (names of
 * over 55 bytes one at a time). The caller must have checked isAscii() of every name.
 */
void placeAsciiMany(const Geometry &g, const QByteArrayView *names, qsizetype count, Placement *out);

} // namespace bloom
