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
