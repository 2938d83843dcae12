#pragma once

#include "common/result.h"
#include "model/binaryrows.h"

#include <QByteArray>
#include <QString>

#include <functional>

typedef struct pg_conn PGconn;

namespace bloom {

/**
 * Runs `copySql` (COPY ... FROM STDIN) on a libpq connection and streams what `produce` writes into
 * it. `produce` returns the rows it sent, or -1 when the sink refused. Cancelled statements come back
 * as ErrorKind::Cancelled.
 */
Result<qint64> copyIn(PGconn *pg, const QString &copySql, const std::function<qint64(const ByteSink &)> &produce);

/**
 * Runs `copySql` (COPY ... TO STDOUT, text format) and calls `line` for every row (without the
 * newline, still escaped). Returns the rows read.
 */
Result<qint64> copyOut(PGconn *pg, const QString &copySql, const std::function<bool(QByteArrayView line)> &line);

/** What updateFromMaskRows() did. */
struct RowsUpdate {
    qint64 rows = 0;          ///< rows `produce` wrote
    qint64 updated = 0;       ///< rows the statements said they updated
    double serverSeconds = 0; ///< time in the statements (the rest is the client's)
};

/**
 * Runs `updateSql`, a statement of two binary array parameters, $1 int4[] and $2 bit[], once per slice
 * of about `sliceBytes` of the mask rows (model/binaryrows.h) that `produce` writes: each row's fields
 * are already an array element's bytes, so nothing is parsed or converted. Slices go in the order the
 * rows came. Nothing is written anywhere else (no temporary table). Cancelled statements come back as
 * ErrorKind::Cancelled.
 */
Result<RowsUpdate> updateFromMaskRows(PGconn *pg, const QByteArray &updateSql,
                                      const std::function<qint64(const ByteSink &)> &produce,
                                      qsizetype sliceBytes = 2 << 20);

/** Runs one statement that returns no rows (BEGIN, SET LOCAL, COMMIT) through libpq; a failure is
 *  classified as copyIn's are (cancelled, connection lost, server) and names `what`. */
Status execCommand(PGconn *pg, const char *sql, const QString &what);

/** Undoes COPY text escaping of one field (\\\\, \\t, \\n, octal, hex); `\\N` (NULL) gives a null array. */
QByteArray copyTextUnescape(QByteArrayView field);

} // namespace bloom
