#pragma once

#include "model/chunkdamage.h"
#include "model/geometry.h"

#include <QDateTime>
#include <QString>

#include <vector>

namespace bloom {

/** The set-bit count of every chunk, read in one server-side bit_count scan. */
struct FillSnapshot {
    Geometry geometry;
    std::vector<quint32> setBits; ///< index = chunk
    QDateTime takenAt;
    qint64 elapsedMs = 0;
    /** Where the read stood in the server's history: the oldest transaction id its snapshot did not
     *  see as finished, as a 64-bit xid (xid8). Every row written later carries an xmin at or after it,
     *  so fillSince() reads only those. Empty when unknown. */
    QString position;
    qint64 rowsRead = 0; ///< rows this read fetched (all of them for fill(), the changed for fillSince())
    /** The table's rows now: fill()'s, or fillSince()'s when asked to count them; -1 when not counted. */
    qint64 rowCount = -1;
    /** Chunks whose row is NULL or missing, counted as 0 set bits above: every figure below is then
     *  wrong for them, and a name placed in one cannot be answered. */
    ChunkDamage damage;

    quint64 totalSetBits() const;
    double meanFill() const;
    double estimatedFpr() const;   ///< mean of (set/B)^k: the reference estimate, computed locally
    double estimatedNames() const; ///< from each chunk's fill
    quint32 minSetBits() const;
    quint32 maxSetBits() const;
};

} // namespace bloom
