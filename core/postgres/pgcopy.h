#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QString>

#include <functional>

typedef struct pg_conn PGconn;

namespace bloom {

/** Where a COPY producer writes its bytes; returns false when the copy must stop. */
using CopySink = std::function<bool(const char *data, qsizetype size)>;

/**
 * Runs `copySql` (COPY ... FROM STDIN) on a libpq connection and streams what `produce` writes into
 * it. `produce` returns the rows it sent, or -1 when the sink refused. Cancelled statements come back
 * as ErrorKind::Cancelled.
 */
Result<qint64> copyIn(PGconn *pg, const QString &copySql, const std::function<qint64(const CopySink &)> &produce);

/**
 * Runs `copySql` (COPY ... TO STDOUT, text format) and calls `line` for every row (without the
 * newline, still escaped). Returns the rows read.
 */
Result<qint64> copyOut(PGconn *pg, const QString &copySql, const std::function<bool(QByteArrayView line)> &line);

/** What updateFromCopyRows() did. */
struct RowsUpdate {
    qint64 rows = 0;          ///< rows `produce` wrote
    qint64 updated = 0;       ///< rows the statements said they updated
    double serverSeconds = 0; ///< time in the statements (the rest is the client's)
};

/**
 * Runs `updateSql`, a statement of two binary array parameters, $1 int4[] and $2 bit[], once per slice
 * of about `sliceBytes` of the binary COPY rows (int4, bit) that `produce` writes: each row's fields
 * are already an array element's bytes, so nothing is parsed or converted. Slices go in the order the
 * rows came. Nothing is written anywhere else (no temporary table). Cancelled statements come back as
 * ErrorKind::Cancelled.
 */
Result<RowsUpdate> updateFromCopyRows(PGconn *pg, const QByteArray &updateSql,
                                      const std::function<qint64(const CopySink &)> &produce,
                                      qsizetype sliceBytes = 2 << 20);

/** Runs one statement that returns no rows (BEGIN, SET LOCAL, COMMIT) through libpq; a failure is
 *  classified as copyIn's are (cancelled, connection lost, server) and names `what`. */
Status execCommand(PGconn *pg, const char *sql, const QString &what);

/** Undoes COPY text escaping of one field (\\\\, \\t, \\n, octal, hex); `\\N` (NULL) gives a null array. */
QByteArray copyTextUnescape(QByteArrayView field);

/** Big-endian writers for binary COPY. */
inline void putBe16(char *&at, quint16 v)
{
    *at++ = char(v >> 8);
    *at++ = char(v);
}
inline void putBe32(char *&at, quint32 v)
{
    *at++ = char(v >> 24);
    *at++ = char(v >> 16);
    *at++ = char(v >> 8);
    *at++ = char(v);
}
/** The 19-byte binary COPY header. */
inline void putCopyHeader(char *&at)
{
    memcpy(at, "PGCOPY\n\377\r\n\0", 11);
    at += 11;
    putBe32(at, 0);
    putBe32(at, 0);
}

} // namespace bloom
