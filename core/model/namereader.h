#pragma once

#include "model/name.h"

#include <QByteArray>
#include <QIODevice>
#include <QList>
#include <QString>

namespace bloom {

/** An input line that was not used, and why (1-based line number). */
struct BadLine {
    qint64 line = 0;
    QString reason;
};

/**
 * Reads names one per line (UTF-8, LF or CRLF) in batches. Bad lines (empty, NUL, invalid UTF-8,
 * too long) are reported with their line number and skipped, never silently dropped.
 */
class NameReader {
public:
    static constexpr qsizetype MaxNameBytes = bloom::MaxNameBytes;
    static constexpr qsizetype BlockSize = 1 << 20;

    explicit NameReader(QIODevice *in)
        : mIn(in)
    {
    }

    /** Appends up to `max` valid names to `out`; false at the end of input. */
    bool next(qsizetype max, QList<QByteArray> &out);

    qint64 linesRead() const { return mLine; }
    qint64 bytesRead() const { return mBytes; }
    const QList<BadLine> &badLines() const { return mBad; }

private:
    bool fillBuffer();
    void take(QByteArrayView line, QList<QByteArray> &out, qsizetype &taken);

    QIODevice *mIn;
    QByteArray mBuffer;
    qsizetype mPos = 0;
    bool mEof = false;
    bool mSkippingLongLine = false;
    qint64 mLine = 0;
    qint64 mBytes = 0;
    QList<BadLine> mBad;
};

} // namespace bloom
