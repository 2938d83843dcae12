#include "common/boundedfile.h"

#include <QFile>
#include <QLocale>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bloom {

namespace {

QString kindOf(mode_t mode)
{
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO (named pipe)");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(mode))
        return QStringLiteral("a block device");
    if (S_ISDIR(mode))
        return QStringLiteral("a directory");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

QString bytes(qint64 n)
{
    return QLocale(QLocale::English).toString(n) + QStringLiteral(" bytes");
}

} // namespace

Result<QByteArray> readBoundedFile(const QString &path, qint64 maxBytes, const QString &what)
{
    const QByteArray native = QFile::encodeName(path);
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return makeError(
            ErrorKind::Io,
            QStringLiteral("cannot read %1 %2: %3").arg(what, path, QString::fromLocal8Bit(std::strerror(errno))));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return makeError(
            ErrorKind::Io,
            QStringLiteral("cannot read %1 %2: %3").arg(what, path, QString::fromLocal8Bit(std::strerror(errno))));
    if (!S_ISREG(st.st_mode))
        return makeError(
            ErrorKind::BadInput,
            QStringLiteral("%1 %2 is %3, not a regular file: nothing was read").arg(what, path, kindOf(st.st_mode)),
            S_ISFIFO(st.st_mode) ? QStringLiteral("give the path of a file (save the pipe's output to a file first)")
                                 : QStringLiteral("give the path of a regular file"));
    if (st.st_size > maxBytes)
        return makeError(ErrorKind::BadInput,
                         QStringLiteral("%1 %2 is %3; it may be at most %4: nothing was read")
                             .arg(what, path, bytes(st.st_size), bytes(maxBytes)),
                         QStringLiteral("check that it is the right file"));
    // A regular file may still grow while it is read: never read past the cap.
    QByteArray out;
    out.resize(qsizetype(st.st_size) + 1);
    qsizetype got = 0;
    for (;;) {
        if (got == out.size()) {
            if (got > maxBytes)
                return makeError(ErrorKind::BadInput,
                                 QStringLiteral("%1 %2 grew past %3 while it was read: nothing was used")
                                     .arg(what, path, bytes(maxBytes)),
                                 QStringLiteral("check that it is the right file"));
            out.resize(qMin<qint64>(maxBytes + 1, qint64(out.size()) * 2 + 4096));
        }
        const ssize_t r = ::read(fd, out.data() + got, size_t(out.size() - got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return makeError(
                ErrorKind::Io,
                QStringLiteral("cannot read %1 %2: %3").arg(what, path, QString::fromLocal8Bit(std::strerror(errno))));
        if (r == 0)
            break;
        got += r;
    }
    if (got > maxBytes)
        return makeError(
            ErrorKind::BadInput,
            QStringLiteral("%1 %2 grew past %3 while it was read: nothing was used").arg(what, path, bytes(maxBytes)),
            QStringLiteral("check that it is the right file"));
    out.resize(got);
    return out;
}

} // namespace bloom
