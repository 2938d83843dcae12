#include "safeoutput.h"

#include "common/printable.h"

#include <cerrno>
#include <unistd.h>
#include <utility>

namespace bloom::cli {

namespace {

/** Length of the UTF-8 sequence a lead byte starts (1 for ASCII and for a stray byte). */
int sequenceLength(uchar lead)
{
    return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/** The code point of a whole sequence; a lead byte without its continuation bytes stands for itself. */
char32_t decode(const uchar *p, int len)
{
    for (int k = 1; k < len; ++k)
        if ((p[k] & 0xc0) != 0x80)
            return p[0];
    switch (len) {
    case 2:
        return char32_t(p[0] & 0x1f) << 6 | (p[1] & 0x3f);
    case 3:
        return char32_t(p[0] & 0x0f) << 12 | char32_t(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
    case 4:
        return char32_t(p[0] & 0x07) << 18 | char32_t(p[1] & 0x3f) << 12 | char32_t(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
    default:
        return p[0];
    }
}

} // namespace

SafeOutput::SafeOutput(int fd, Mode mode)
    : mFd(fd)
    , mMode(mode)
{
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

SafeOutput::~SafeOutput()
{
    if (!mPending.isEmpty())
        writeAll(escape(std::exchange(mPending, {}), mMode));
}

QByteArray SafeOutput::escape(QByteArrayView utf8, Mode mode, QByteArray *pending)
{
    QByteArray out;
    out.reserve(utf8.size());
    const auto *p = reinterpret_cast<const uchar *>(utf8.data());
    const qsizetype n = utf8.size();
    for (qsizetype i = 0; i < n;) {
        const uchar b = p[i];
        if (b >= 0x20 && b < 0x7f) { // the common case
            out += char(b);
            ++i;
            continue;
        }
        const int len = sequenceLength(b);
        if (i + len > n) {
            if (pending) { // the rest comes with the next write
                *pending = QByteArray(utf8.data() + i, n - i);
                return out;
            }
        }
        int take = int(qMin<qsizetype>(len, n - i));
        const char32_t c = take == len ? decode(p + i, take) : p[i];
        if (c == p[i] && take > 1) // not a whole sequence: one byte at a time
            take = 1;
        if (c == '\n' || c == '\t' || !isControlCharacter(c)) {
            out.append(reinterpret_cast<const char *>(p + i), take);
        } else if (mode == Mode::Json) {
            out += "\\u" + QByteArray::number(uint(c), 16).rightJustified(4, '0');
        } else {
            out += escapeMessage(QString::fromUcs4(&c, 1)).toUtf8();
        }
        i += take;
    }
    if (pending)
        pending->clear();
    return out;
}

qint64 SafeOutput::writeData(const char *data, qint64 len)
{
    QByteArray bytes = mPending;
    bytes.append(data, len);
    writeAll(escape(bytes, mMode, &mPending));
    return len;
}

void SafeOutput::writeRaw(QByteArrayView bytes)
{
    writeAll(bytes);
}

void SafeOutput::writeAll(QByteArrayView bytes)
{
    const char *p = bytes.data();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(mFd, p, size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // a closed pipe: nothing more to say
        p += n;
        left -= n;
    }
}

} // namespace bloom::cli
