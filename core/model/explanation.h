#pragma once

#include "model/geometry.h"
#include "model/hash128.h"
#include "model/name.h"
#include "model/placement.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace bloom {

/** One cut of the 128 hash bits: the chunk slice or one position slice (as the reference's table). */
struct HashSlice {
    bool isChunk = false;
    int index = -1;    ///< position slice number 0..k-1; -1 for the chunk slice
    int firstBit = 0;  ///< 1-based, inclusive, as SQL substring() and the reference table
    int lastBit = 0;   ///< 1-based, inclusive
    QString bits;      ///< the slice as '0'/'1'
    quint32 value = 0; ///< chunk number or bit position
};

/**
 * Every step from a name to its bits, for the step-through view and `bloomctl explain`.
 * `lowering` says whether `normalized` is exact or an offline guess for a non-ASCII name.
 */
struct Explanation {
    Geometry geometry;
    QString name;
    QString normalized;
    Lowering lowering = Lowering::Ascii;
    Hash128 hash;
    Placement placement;
    QList<HashSlice> slices; ///< the chunk slice first, then the k position slices in hash order

    bool exact() const { return lowering != Lowering::Approximate; }
    QString md5Hex() const { return hash.hex(); }
    QList<int> setBits() const { return placement.setBits(); }

    /** Builds the explanation of `name` whose lowercase form is `normalized` (UTF-8). */
    static Explanation build(const Geometry &g, const QString &name, const QByteArray &normalized, Lowering lowering);
    /** Offline: lowercases on the client (exact for ASCII, marked approximate otherwise). */
    static Explanation offline(const Geometry &g, const QString &name);

    QJsonObject toJson() const;
    /** The reference text's layout: md5, then one line per slice with its bit range, bits and value. */
    QString toText() const;
};

} // namespace bloom
