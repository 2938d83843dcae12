#pragma once

#include "model/geometry.h"
#include "model/maskrows.h"
#include "model/placement.h"
#include "model/sharedbits.h"

#include <QByteArrayView>

#include <cstdint>
#include <vector>

namespace bloom {

/**
 * The placements of a load's names as a list, for loads that are small beside the filter: a million
 * names are 18 MB here and 128 MiB as a ChunkBitmap of the reference filter. Fresh memory is what a
 * dense bitmap costs (perf on a 1M load: half of the client's time was the kernel zeroing the
 * bitmap's pages as they were first written, 11-363 ms for 128 MiB from one run to the next), so a
 * load starts with a log and moves to a ChunkBitmap only when the log would outgrow a quarter of it.
 *
 * Appends are made through lanes, one per thread (a lane is used by one thread at a time); finish()
 * sorts the names by chunk, and the rows are then written in chunk order as a ChunkBitmap writes them.
 */
class PlacementLog final : public MaskRowsSource {
public:
    PlacementLog(const Geometry &g, int lanes);

    /** Whether a log suits g: its count per chunk takes at most an eighth of g's bitmap (chunks of
     *  256 bits or more). */
    static bool suits(const Geometry &g);
    /** Bytes the log takes for `names` names (before finish()). */
    static qsizetype bytesFor(const Geometry &g, qint64 names);

    void add(int lane, const Placement &p);
    /** add(placeAscii(names[i])) for i < count, eight names at a time (placeAsciiMany). The caller
     *  must have checked isAscii() of every name. */
    void addAscii(int lane, const QByteArrayView *names, qsizetype count);
    /** Names appended to all lanes so far. */
    qint64 appended() const;
    /** Adds lane `lane`'s names to `to` (a writer of the bitmap the load moves to) and empties the
     *  lane; lanes may be moved on threads of their own, each with its own writer. */
    void orLaneInto(int lane, SharedBits::Writer &to);
    /** After the appends: the names sorted by chunk; the MaskRowsSource functions need it. */
    void finish();

    qint64 names() const override { return mNames; }
    qint64 touchedChunks() const override { return mTouched; }
    qint64 touchedIn(quint32 first, quint32 end) const override;
    qint64 writeRows(const ByteSink &sink, qsizetype pieceBytes, quint32 first, quint32 end) const override;

private:
    /** A record: the chunk in two 16-bit words, then the k positions. */
    int stride() const { return 2 + mGeometry.k(); }

    Geometry mGeometry;
    std::vector<std::vector<std::uint16_t>> mLanes;
    std::vector<std::uint32_t> mStart;     ///< after finish(): chunk c's names are [mStart[c], mStart[c + 1])
    std::vector<std::uint16_t> mPositions; ///< after finish(): each name's k positions, by chunk
    qint64 mNames = 0;
    qint64 mTouched = 0;
};

} // namespace bloom
