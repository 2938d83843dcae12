#include "model/namereader.h"
#include "model/name.h"

#include <cstring>

namespace bloom {

bool NameReader::fillBuffer()
{
    if (mEof)
        return false;
    if (mPos > 0) {
        mBuffer.remove(0, mPos);
        mPos = 0;
    }
    const qsizetype old = mBuffer.size();
    mBuffer.resize(old + BlockSize);
    // read() returns what is there (a pipe may give less than asked); 0 or -1 is the end (or an
    // interrupted read at Ctrl-C, which the caller tells apart by its cancel flag).
    const qint64 n = mIn->read(mBuffer.data() + old, BlockSize);
    if (n <= 0) {
        mBuffer.resize(old);
        mEof = true;
        return false;
    }
    mBuffer.resize(old + qsizetype(n));
    mBytes += n;
    return true;
}

void NameReader::take(QByteArrayView line, QList<QByteArray> &out, qsizetype &taken)
{
    ++mLine;
    if (line.endsWith('\r'))
        line.chop(1);
    if (auto s = validateName(line); !s) {
        addBad(s.error().message);
        return;
    }
    out.append(line.toByteArray());
    ++taken;
}

bool NameReader::next(qsizetype max, QList<QByteArray> &out)
{
    qsizetype taken = 0;
    while (taken < max) {
        const qsizetype nl = mBuffer.indexOf('\n', mPos);
        if (nl >= 0) {
            if (mSkippingLongLine)
                mSkippingLongLine = false; // the rest of a line already reported
            else
                take(QByteArrayView(mBuffer).sliced(mPos, nl - mPos), out, taken);
            mPos = nl + 1;
            continue;
        }
        if (mBuffer.size() - mPos > MaxNameBytes + 1) { // + 1: a name of exactly 1 MiB may end in "\r"
            // No newline within the limit: report the line once and drop bytes up to its end.
            if (!mSkippingLongLine) {
                ++mLine;
                addBad(QStringLiteral("the name is longer than 1 MiB (1,048,576 bytes), the limit"));
                mSkippingLongLine = true;
            }
            mPos = mBuffer.size();
        }
        if (!fillBuffer()) {
            if (mPos < mBuffer.size() && !mSkippingLongLine) // a last line without '\n'
                take(QByteArrayView(mBuffer).sliced(mPos), out, taken);
            mPos = mBuffer.size();
            return false;
        }
    }
    return true;
}

bool NameReader::nextBlock(NameBlock &out)
{
    out.names.clear();
    out.bytes.resize(0);
    for (;;) {
        const qsizetype last = mBuffer.lastIndexOf('\n');
        if (last >= mPos) { // whole lines: hand them over, keep the unfinished one
            out.bytes.resize(last + 1 - mPos);
            std::memcpy(out.bytes.data(), mBuffer.constData() + mPos, size_t(out.bytes.size()));
            mPos = last + 1;
            scan(out);
            return true;
        }
        if (mBuffer.size() - mPos > MaxNameBytes + 1) { // as in next(): one report, the rest dropped
            if (!mSkippingLongLine) {
                ++mLine;
                addBad(QStringLiteral("the name is longer than 1 MiB (1,048,576 bytes), the limit"));
                mSkippingLongLine = true;
            }
            mPos = mBuffer.size();
        }
        if (!fillBuffer()) {
            if (mPos < mBuffer.size() && !mSkippingLongLine) { // a last line without '\n'
                out.bytes = mBuffer.sliced(mPos);
                scan(out);
            }
            mPos = mBuffer.size();
            return false;
        }
    }
}

void NameReader::scan(NameBlock &out)
{
    const char *const begin = out.bytes.constData();
    const char *const end = begin + out.bytes.size();
    const char *p = begin;
    if (mSkippingLongLine) { // the block starts with the end of a line already reported
        const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        p = nl ? nl + 1 : end;
        mSkippingLongLine = false;
    }
    while (p < end) {
        const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        const char *lineEnd = nl ? nl : end;
        ++mLine;
        if (lineEnd > p && lineEnd[-1] == '\r')
            --lineEnd;
        const auto size = qsizetype(lineEnd - p);
        const QByteArrayView line(p, size);
        if (isPlainAsciiName(line)) {
            out.names.push_back({qint32(p - begin), qint32(size), true});
        } else if (auto s = validateName(line); !s) {
            addBad(s.error().message);
        } else {
            out.names.push_back({qint32(p - begin), qint32(size), isAscii(line)});
        }
        p = nl ? nl + 1 : end;
    }
}

void NameReader::addBad(QString reason)
{
    if (mBad.size() < MaxBadLinesKept)
        mBad.append({mLine, std::move(reason)});
    ++mBadCount;
}

} // namespace bloom
