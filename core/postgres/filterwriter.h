// The one way Bloomscope writes names into a filter table.
#pragma once

#include "common/result.h"
#include "model/binaryrows.h"
#include "model/geometry.h"
#include "model/namelist.h"
#include "postgres/helpertrust.h"

#include <QString>

#include <functional>

typedef struct pg_conn PGconn;

namespace bloom {

/** Writes a piece's mask rows (model/binaryrows.h) to the sink; returns the rows, or -1 when stopped. */
using MaskRows = std::function<qint64(const ByteSink &)>;

/** The mask rows one transaction writes, a piece at a time: next() sets its argument to the next
 *  piece's rows and returns false after the last; rewind() goes back to the first, for a retry. */
struct MaskPieces {
    std::function<bool(MaskRows *)> next;
    std::function<void()> rewind;
    /** One piece. */
    static MaskPieces one(MaskRows rows);
};

/** Where a write goes, and what it must find there: the same for every connection a write uses. */
struct WriteTarget {
    QString table;        ///< quoted schema.table
    QString tableText;    ///< schema.table as a DBA types it, for messages
    quint32 tableOid = 0; ///< the table attach() read: a write that finds another one under the name is refused
    Geometry geometry;    ///< the table's, as attach() read it
    /** The table's schema (unquoted): where its helpers live is decided from it (decideHelperTrust), and
     *  the recorder called is only ever the one that decision allows. */
    QString liveSchema;
    /** A filter that serves checks (any table but a rebuilt one before its swap): its writes take the
     *  lock and the guard below and record names for a rebuild. A rebuild's drain writes the table it
     *  built, which nobody else writes and which no rebuild records for. */
    bool serving = true;
};

/** What a transaction of a write did. */
struct WriteStats {
    qint64 updated = 0;    ///< chunk rows updated
    double seconds = 0;    ///< in the statements and the commit (the rest is the client's)
    bool recorded = false; ///< the names went to a rebuild's pending table in this transaction
};

/**
 * The one write path of names into a filter: every writer (bloomctl add, load, signup; the window's
 * add and load; a rebuild's drain) ORs its masks in through a FilterWriter. A transaction of it:
 *
 *   begin; set local ...; lock table T in row exclusive mode;
 *   the guard: T still is the table attach() read (a swap renames another one in: the write is refused
 *     with Error::Retry::Attach, nothing written); whether a rebuild of T records names;
 *   while one does: its names into the rebuild's pending table (bloomscope_record_names), unless the
 *     write recorded them ahead;
 *   update T f set bits = f.bits | m.mask ... (array parameters, a slice a statement, chunk order);
 *     a chunk without a usable row (missing, or NULL bits) fails the write naming it;
 *   commit (a deadlock or serialization failure runs the transaction again).
 *
 * The lock is what makes the guard true until the commit: a rebuild's set-up takes SHARE and its swap
 * EXCLUSIVE on T, both of which wait for this transaction, so a rebuild either starts before the guard
 * looks (and the names are recorded) or after the commit (and the export or the drain of the swap
 * comes after the write), and a swap's final drain sees every name recorded.
 */
class FilterWriter {
public:
    explicit FilterWriter(WriteTarget target);

    /** The names this write adds (the caller keeps them alive), for a rebuild that records names.
     *  Without names, a rebuild that records for the table makes the write fail rather than lose them. */
    void setNames(const NameList *names) { mNames = names; }

    /**
     * For a write of several transactions (a load's steps, on several connections): records the names
     * in a transaction of its own when a rebuild of the table records names, before anything is
     * written. The write's transactions then only check that the same recorder is still the one. A
     * name recorded ahead of a write that then fails costs the new filter a false positive, never a
     * false negative.
     */
    Status recordAhead(PGconn *pg);

    /** One transaction of the write on `pg` (the caller's own transaction when `own` is false: then
     *  nothing is begun, committed or retried). Safe to call from several threads at once, each with
     *  its own connection. */
    Status transaction(PGconn *pg, bool own, const MaskPieces &pieces, WriteStats *stats) const;

    const WriteTarget &target() const { return mTarget; }

    /** The statement that ORs masks into `table` (quoted): $1 int4[] chunks, $2 bit[] masks. */
    static QString orMasksStatement(const QString &table);
    /** The SQL of one transaction, for "show the SQL" and confirmations. */
    QString sqlText() const;

    /** Bytes of names a recorder call carries at most (a pending row holds one call's names). */
    static constexpr qsizetype RecordSliceBytes = 8 << 20;
    static constexpr qsizetype RecordSliceNames = 100000;

private:
    using Guard = HelperTrust;
    /** The guard: the one trust decision (decideHelperTrust), read under the write's lock. */
    Result<Guard> readGuard(PGconn *pg) const;
    /** Refuses a write into another table than attach() read, or during a rebuild that records nothing. */
    Status check(const Guard &g) const;
    /** Refuses a write the guard does not allow; records the names when it must. */
    Status apply(PGconn *pg, const Guard &g, WriteStats *stats) const;
    /** Calls the recorder the guard allows with `names` (none: only asks); `forThisTable` is its answer. */
    Status record(PGconn *pg, const Guard &g, const NameList *names, bool *forThisTable) const;
    /** `e` of the set-up (its lock), with the fix for a role that may update only the bits column. */
    Error lockError(Error e) const;
    /** The error of a write that found chunks without a usable row. */
    Error damagedChunks(PGconn *pg, qint64 rows, qint64 updated) const;

    WriteTarget mTarget;
    const NameList *mNames = nullptr;
    bool mAhead = false;        ///< recordAhead() ran
    quint32 mAheadRecorder = 0; ///< the recorder it found (0: none)
};

} // namespace bloom
