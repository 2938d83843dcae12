#include "monitor/textfile.h"

#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bloom::monitor {

namespace {

Error ioError(const QString &what, int err)
{
    return makeError(ErrorKind::Io, QStringLiteral("%1: %2").arg(what, QString::fromLocal8Bit(std::strerror(err))));
}

} // namespace

Status writeFileAtomically(const QString &dir, const QString &name, const QByteArray &content)
{
    const QString target = QDir(dir).filePath(name);
    QByteArray tmp = QFile::encodeName(QDir(dir).filePath(QLatin1Char('.') + name + QStringLiteral(".XXXXXX")));
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) {
        const int err = errno;
        Error e = ioError(QStringLiteral("cannot create a file in %1").arg(dir), err);
        if (err == ENOENT || err == ENOTDIR)
            e.fix = QStringLiteral("give --textfile the directory node_exporter's textfile collector reads "
                                   "(--collector.textfile.directory; /var/lib/prometheus/node-exporter on Debian)");
        else if (err == EACCES || err == EPERM || err == EROFS)
            e.fix = QStringLiteral("run as a user who may write there (the bloomscope-metrics@ unit runs as root "
                                   "for Debian's root-owned directory) or give --textfile a directory of your own");
        return e;
    }
    const auto fail = [&tmp, fd](const QString &what) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.constData());
        return ioError(what, err);
    };
    for (qsizetype done = 0; done < content.size();) {
        const ssize_t n = ::write(fd, content.constData() + done, size_t(content.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Status(fail(QStringLiteral("cannot write %1").arg(QFile::decodeName(tmp))));
        done += n;
    }
    // mkstemp's 0600 would keep node_exporter (its own user) from reading the file.
    if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0)
        return Status(fail(QStringLiteral("cannot sync %1").arg(QFile::decodeName(tmp))));
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.constData());
        return ioError(QStringLiteral("cannot close %1").arg(QFile::decodeName(tmp)), err);
    }
    if (::rename(tmp.constData(), QFile::encodeName(target).constData()) != 0) {
        const int err = errno;
        ::unlink(tmp.constData());
        return ioError(QStringLiteral("cannot rename into %1").arg(target), err);
    }
    // The rename itself is durable once the directory is synced.
    if (const int dfd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return Done{};
}

QString textfileName(const QString &database, const QString &table)
{
    QString out = QStringLiteral("bloomscope_") + database + QLatin1Char('_') + table;
    for (QChar &ch : out) {
        const char16_t u = ch.unicode();
        const bool keep = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' ||
                          u == '.' || u == '-';
        if (!keep)
            ch = QLatin1Char('_');
    }
    return out + QStringLiteral(".prom");
}

} // namespace bloom::monitor
