#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QString>

namespace bloom::monitor {

/**
 * Writes `content` to `dir`/`name` so that a reader (node_exporter's textfile collector) never sees it
 * half-written: a temporary file in `dir` (".name.XXXXXX", which the collector's *.prom glob skips),
 * fsync, mode 0644, rename over `name`, fsync of `dir`. The temporary file is removed on any failure.
 */
Status writeFileAtomically(const QString &dir, const QString &name, const QByteArray &content);

/** The textfile collector's file name for a filter: bloomscope_<database>_<table>.prom, every character
 *  outside [A-Za-z0-9_.-] made '_' (a schema's dot kept). */
QString textfileName(const QString &database, const QString &table);

} // namespace bloom::monitor
