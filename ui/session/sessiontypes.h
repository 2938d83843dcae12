#pragma once

#include "maintenance/rebuild.h"

#include "common/result.h"
#include "model/explanation.h"
#include "model/fillstats.h"
#include "postgres/connectionspec.h"
#include "postgres/filterstore.h"

#include <QImage>
#include <QMetaType>

namespace bloom {

/** What the window shows about the filter it is attached to. */
struct FilterSummary {
    FilterRef ref;
    Geometry geometry;
    QString where; ///< user@host:port/db (never a password)
    QString serverVersion;
    bool readOnly = true;
    QString checkSql; ///< the SQL a check runs, for "show the SQL"
    QString chunkSql;
    QString addSql;
};

/** One refresh: the fill, its skew report and the heatmap image, all made off the GUI thread. */
struct FillResult {
    FillSnapshot fill;
    SkewReport skew;
    QImage heatmap; ///< one pixel per chunk
    int imageColumns = 0;
    quint32 scaleMax = 0; ///< set bits that map to the top colour
    bool onWorkerThread = false;
    RebuildState rebuild; ///< a rebuild of this filter, running or interrupted (exists == false: none)
};

/** The database steps of the step-through for one name. */
struct StepResult {
    Explanation explanation;
    QByteArray chunkBits; ///< '0'/'1' for the name's chunk
    bool maybe = false;
};

/** What the worker was doing when something failed. */
enum class Operation { Refresh, Step, Chunk, Add, Load, Sample };

/** "refresh", "step-through", ... for messages. */
QString operationName(Operation op);

/** Colour of a chunk whose set bits are `v` on a scale 0..max (a viridis-like ramp). */
QRgb fillColour(quint32 v, quint32 max);

} // namespace bloom
