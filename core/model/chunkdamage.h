#pragma once

#include "common/result.h"
#include "model/geometry.h"

#include <QString>

#include <vector>

namespace bloom {

/** What a name's chunk row says: all k bits set, one clear, or nothing (a NULL row, no row). */
enum class RowVerdict : quint8 { Free, Maybe, NullRow, NoRow };

/**
 * Chunk rows a filter cannot answer from: rows whose bits are NULL (a column without NOT NULL, a bad
 * restore) and chunks with no row at all. A name placed in one is neither "free" nor "maybe"; only
 * adding that chunk's names again (a rebuild from the sources) makes the filter whole. An empty row
 * does not: it makes every name of its chunk a silent false negative.
 */
struct ChunkDamage {
    std::vector<quint32> nullChunks;    ///< rows whose bits are NULL, in chunk order
    std::vector<quint32> missingChunks; ///< chunk numbers with no row, in chunk order

    bool empty() const { return nullChunks.empty() && missingChunks.empty(); }
    qsizetype count() const { return qsizetype(nullChunks.size() + missingChunks.size()); }
    /** A row of `chunk` was read with these bits: NULL (`null`) or a value (the chunk is whole). */
    void rowRead(quint32 chunk, bool null);
    /** Rows were read again: `nulls` with NULL bits, `whole` with a value (any order). */
    void rowsRead(std::vector<quint32> nulls, std::vector<quint32> whole);
    /** `chunk` was looked for and has no row. */
    void rowMissing(quint32 chunk);

    /** "chunk 71962 is NULL; 21 chunks have no row (0, 1, 2, 3, 4 and 16 more)". */
    QString describe() const;
    /** What a message about the damage names: the table as a DBA types it and as SQL quotes it, and
     *  its geometry (the fix's statements use them). */
    struct Table {
        QString text;   ///< public.username_filter
        QString quoted; ///< "public"."username_filter"
        Geometry geometry;
    };
    /** The whole filter's damage as an error (ErrorKind::DamagedFilter) for a command that reads
     *  every chunk. */
    Error error(const Table &table) const;
    /** The error of a name or a read that needs `chunk`, whose row is NULL (`null`) or missing. */
    static Error chunkError(quint32 chunk, bool null, const Table &table);
    /** What restores correctness, in two steps: every damaged row set to all ones at once (its names
     *  check maybe, never free: the statements for NULL rows and for missing ones), then the chunks'
     *  names added again by a rebuild from the sources and a swap. Never an empty row. */
    static QString fix(const Table &table, bool nulls, bool missing);

    bool operator==(const ChunkDamage &) const = default;
};

} // namespace bloom
