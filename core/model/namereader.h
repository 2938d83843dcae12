#pragma once

#include "model/name.h"

#include <QByteArray>
#include <QIODevice>
#include <QList>
#include <QString>

#include <vector>

namespace bloom {

/** An input line that was not used, and why (1-based line number). */
struct BadLine {
    qint64 line = 0;
    QString reason;
};

/** Whole lines of input and where each usable name lies in them: no name is copied. */
struct NameBlock {
    struct Span {
        qint32 offset = 0;
        qint32 size = 0;
        bool ascii = false; ///< placed on the client; any other name needs the server's lower()
    };
    QByteArray bytes;
    std::vector<Span> names;

    size_t size() const { return names.size(); }
    QByteArrayView name(size_t i) const { return QByteArrayView(bytes).sliced(names[i].offset, names[i].size); }
    /** Copies a checked name in. */
    void append(QByteArrayView name, bool ascii)
    {
        names.push_back({qint32(bytes.size()), qint32(name.size()), ascii});
        bytes.append(name.data(), name.size());
    }
};

/**
 * Reads names one per line (UTF-8, LF or CRLF) in batches. Bad lines (empty, NUL, invalid UTF-8,
 * too long) are reported with their line number and skipped, never silently dropped: the first
 * MaxBadLinesKept are kept, the rest counted (a file of bad lines costs no memory).
 */
class NameReader {
public:
    static constexpr qsizetype MaxNameBytes = bloom::MaxNameBytes;
    static constexpr qsizetype BlockSize = 1 << 20;
    static constexpr qsizetype MaxBadLinesKept = 1000;

    explicit NameReader(QIODevice *in)
        : mIn(in)
    {
    }

    /** Appends up to `max` valid names to `out`; false at the end of input. */
    bool next(qsizetype max, QList<QByteArray> &out);
    /** Replaces `out` with the next whole lines read (about BlockSize bytes) and their names, checked as
     *  next() checks them; false at the end of input (`out` may still hold the last names). */
    bool nextBlock(NameBlock &out);

    qint64 linesRead() const { return mLine; }
    qint64 bytesRead() const { return mBytes; }
    /** The first MaxBadLinesKept bad lines. */
    const QList<BadLine> &badLines() const { return mBad; }
    /** Every bad line, kept or only counted. */
    qint64 badLineCount() const { return mBadCount; }

private:
    bool fillBuffer();
    void take(QByteArrayView line, QList<QByteArray> &out, qsizetype &taken);
    void scan(NameBlock &out);

    QIODevice *mIn;
    QByteArray mBuffer;
    qsizetype mPos = 0;
    bool mEof = false;
    bool mSkippingLongLine = false;
    qint64 mLine = 0;
    qint64 mBytes = 0;
    QList<BadLine> mBad;
    qint64 mBadCount = 0;

    void addBad(QString reason);
};

} // namespace bloom
