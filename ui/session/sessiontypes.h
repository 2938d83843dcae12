#pragma once

#include "maintenance/history.h"
#include "maintenance/rebuild.h"

#include "common/result.h"
#include "model/explanation.h"
#include "model/fillstats.h"
#include "postgres/connectionspec.h"
#include "postgres/filterstore.h"

#include <QImage>
#include <QMetaType>

#include <tuple>

namespace bloom {

/** What the window shows about the filter it is attached to. */
struct FilterSummary {
    FilterRef ref;
    Geometry geometry;
    QString where; ///< user@host:port/db (never a password)
    QString serverVersion;
    bool readOnly = true;
    bool standby = false;      ///< the server was a hot standby (read-only replica) at connect
    bool mayUpdate = true;     ///< the session's role may UPDATE the table (admin mode can write)
    QString checkSql;          ///< the SQL a check runs, for "show the SQL"
    QString chunkSql;          ///< what reading one chunk's bits runs ($1 the chunk)
    QString lowerSql;          ///< what lowercasing a non-ASCII name on the server runs
    QString referenceCheckSql; ///< the reference's check of one name, with this filter's table and function
    QString addSql;
    QString identity;       ///< the table's and function's oids
    double roundTripMs = 0; ///< of `select 1` right after connecting
    bool followed = false;  ///< re-attached on the same connection because the filter was swapped
};

/** How the heatmap maps set bits to colours. */
enum class HeatScale {
    Auto,     ///< Relative when the chunks' spread is narrow (the emptiest holds >= 1/4 of the fullest), else Absolute
    Absolute, ///< 0 bits .. the fullest chunk
    Relative, ///< the emptiest .. the fullest chunk of this refresh
};

/** One refresh: the fill, its skew report and the heatmap image, all made off the GUI thread. */
struct FillResult {
    FillSnapshot fill;
    SkewReport skew;
    QImage heatmap; ///< one pixel per chunk
    int imageColumns = 0;
    quint32 scaleMin = 0;                  ///< set bits that map to the bottom colour
    quint32 scaleMax = 0;                  ///< set bits that map to the top colour
    HeatScale scale = HeatScale::Absolute; ///< Absolute or Relative, as chosen for this refresh
    bool onWorkerThread = false;
    RebuildState rebuild; ///< a rebuild of this filter, running or interrupted (exists == false: none)
    /** The table's write counter was where it was at the last full read: no row was read, the picture
     *  is that read's (fill.takenAt says when it was made). */
    bool unchanged = false;
    /** The table changed but the last read was too recent for its cost (10x its time): the picture
     *  is that read's until nextFullRead. */
    bool throttled = false;
    /** Only the rows written since the last read were read (fill.rowsRead of them). */
    bool incremental = false;
    /** The chunks whose fill changed since the previous picture of this filter (an incremental read:
     *  the rows written since, a superset), in chunk order; empty after a swap or a reconnect. */
    std::vector<quint32> changedChunks;
    /** While fill.damage is not empty: what it means and the fix, as bloomctl words them. */
    Error damageError;
    QDateTime nextFullRead;
    QDateTime checkedAt;  ///< when this refresh ran (== fill.takenAt for a read)
    QDateTime fullReadAt; ///< the last read of every row
    /** The server's role at this refresh: on a standby, how far its replay is (the picture is the
     *  primary's as replayed). A primary's is read at no cost (inRecovery false). */
    ServerRole role;
};

/** The database steps of the step-through for one name. */
struct StepResult {
    Explanation explanation;
    QByteArray chunkBits; ///< '0'/'1' for the name's chunk
    bool maybe = false;
};

/** The recorded history of the filter (bloomscope_history), all of it or what came after an id. */
struct HistoryResult {
    QList<Snapshot> snapshots; ///< oldest first
    bool append = false;       ///< only the snapshots recorded after the id asked for
    bool available = true;     ///< false: no history table beside the filter
};

/** The chunks written since a recorded snapshot, and a picture that greys out the others. */
struct ChangedSince {
    Snapshot snapshot;
    std::vector<quint32> chunks; ///< in chunk order
    QImage dim;                  ///< one pixel a chunk, laid out as FillResult::heatmap: clear where written
    bool complete = true;        ///< false: VACUUM froze rows since (why says so)
    QString why;
    qint64 elapsedMs = 0;
};

/** How far a sample of the measured FPR is. */
struct SampleProgress {
    qint64 done = 0;
    qint64 total = 0;
    qint64 falsePositives = 0; ///< among the `done` probes
};

/** What the worker was doing when something failed. */
enum class Operation { Refresh, Step, Chunk, Add, Load, Sample, History, ChangedSince, Record };

/** "refresh", "step-through", ... for messages. */
QString operationName(Operation op);

/** Colour of a chunk whose row is NULL or missing: a red the viridis-like ramp never reaches. */
constexpr QRgb DamagedColour = 0xffff1a1a;
/** Colour of a chunk whose set bits are `v` on a scale min..max (a viridis-like ramp). */
QRgb fillColour(quint32 v, quint32 max, quint32 min = 0);
/** The scale a refresh uses for `mode` (Auto resolved): {mode, min, max}. */
std::tuple<HeatScale, quint32, quint32> chooseScale(HeatScale mode, quint32 minSetBits, quint32 maxSetBits);

} // namespace bloom
