#include "postgres/pgcopy.h"

#include <libpq-fe.h>

#include <memory>

namespace bloom {

namespace {

Error copyError(const QString &what, const QString &text)
{
    const bool cancelled = text.contains(QLatin1String("canceling statement"));
    const bool lost = text.contains(QLatin1String("server closed the connection")) ||
                      text.contains(QLatin1String("terminating connection")) ||
                      text.contains(QLatin1String("no connection"));
    return makeError(cancelled ? ErrorKind::Cancelled
                     : lost    ? ErrorKind::Connection
                               : ErrorKind::Server,
                     QStringLiteral("%1 failed: %2").arg(what, text));
}

} // namespace

Result<qint64> copyIn(PGconn *pg, const QString &copySql, const std::function<qint64(const CopySink &)> &produce)
{
    std::unique_ptr<PGresult, decltype(&PQclear)> start(PQexec(pg, copySql.toUtf8().constData()), &PQclear);
    if (PQresultStatus(start.get()) != PGRES_COPY_IN)
        return copyError(QStringLiteral("COPY"), QString::fromUtf8(PQresultErrorMessage(start.get())).trimmed());
    const qint64 rows = produce([pg](const char *d, qsizetype n) { return PQputCopyData(pg, d, int(n)) == 1; });
    const bool sent = rows >= 0;
    PQputCopyEnd(pg, sent ? nullptr : "bloomscope: the copy was stopped");
    QString error = sent ? QString() : QString::fromUtf8(PQerrorMessage(pg)).trimmed();
    while (PGresult *r = PQgetResult(pg)) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && error.isEmpty())
            error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
        PQclear(r);
    }
    if (!error.isEmpty())
        return copyError(QStringLiteral("COPY"), error);
    return rows;
}

Result<qint64> copyOut(PGconn *pg, const QString &copySql, const std::function<bool(QByteArrayView)> &line)
{
    std::unique_ptr<PGresult, decltype(&PQclear)> start(PQexec(pg, copySql.toUtf8().constData()), &PQclear);
    if (PQresultStatus(start.get()) != PGRES_COPY_OUT)
        return copyError(QStringLiteral("COPY out"), QString::fromUtf8(PQresultErrorMessage(start.get())).trimmed());
    qint64 rows = 0;
    bool stopped = false;
    for (;;) {
        char *buf = nullptr;
        const int n = PQgetCopyData(pg, &buf, 0);
        if (n < 0)
            break; // -1: done; -2: error, reported by PQgetResult
        if (!stopped) {
            QByteArrayView row(buf, n);
            if (row.endsWith('\n'))
                row.chop(1);
            if (!line(row))
                stopped = true;
            ++rows;
        }
        PQfreemem(buf);
    }
    QString error;
    while (PGresult *r = PQgetResult(pg)) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && error.isEmpty())
            error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
        PQclear(r);
    }
    if (!error.isEmpty())
        return copyError(QStringLiteral("COPY out"), error);
    if (stopped)
        return makeError(ErrorKind::Cancelled, QStringLiteral("export stopped"));
    return rows;
}

QByteArray copyTextUnescape(QByteArrayView f)
{
    if (f == "\\N")
        return QByteArray();
    if (!f.contains('\\'))
        return f.toByteArray();
    QByteArray out;
    out.reserve(f.size());
    for (qsizetype i = 0; i < f.size(); ++i) {
        const char c = f[i];
        if (c != '\\' || i + 1 >= f.size()) {
            out += c;
            continue;
        }
        const char e = f[++i];
        switch (e) {
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'v':
            out += '\v';
            break;
        case 'x': {
            int v = 0, digits = 0;
            while (digits < 2 && i + 1 < f.size() && isxdigit(static_cast<unsigned char>(f[i + 1]))) {
                v = v * 16 + QByteArray(1, f[++i]).toInt(nullptr, 16);
                ++digits;
            }
            out += char(v);
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                int v = e - '0';
                for (int d = 0; d < 2 && i + 1 < f.size() && f[i + 1] >= '0' && f[i + 1] <= '7'; ++d)
                    v = v * 8 + (f[++i] - '0');
                out += char(v);
            } else {
                out += e;
            }
        }
    }
    return out;
}

} // namespace bloom
