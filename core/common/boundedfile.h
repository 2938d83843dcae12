#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QString>

namespace bloom {

/**
 * The whole of a small file the program was given (a session, a shard map), read only when it is a
 * regular file of at most `maxBytes`: a FIFO, a device (/dev/zero), a directory or a file past the
 * cap is refused at once with an error that names it and the fix, never read or waited on. `what`
 * names the file's role in the error ("the session", "the shard map").
 */
Result<QByteArray> readBoundedFile(const QString &path, qint64 maxBytes, const QString &what);

} // namespace bloom
