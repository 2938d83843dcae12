#pragma once

#include "common/result.h"
#include "session/sessiontypes.h"

#include <QImage>
#include <QPalette>

namespace bloom {

/** The heatmap as a picture to keep: `title` over the map (one cell a chunk, scaled up without
 *  smoothing so a cell stays a chunk) and its colour scale under it, as the window's legend draws it. */
QImage heatmapPicture(const FillResult &r, const QString &title, const QPalette &palette);
/** Every chunk's fill as CSV: chunk,set_bits,chunk_bits,fill,chunk_fpr. */
Status writeFillCsv(const FillSnapshot &f, const QString &path);

} // namespace bloom
