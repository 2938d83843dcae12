#include "postgres/pgcopy.h"
#include "postgres/pgarray.h"
#include "postgres/pgerror.h"

#include <libpq-fe.h>

#include <QElapsedTimer>

#include <cstring>
#include <memory>
#include <optional>

namespace bloom {

Status execCommand(PGconn *pg, const char *sql, const QString &what)
{
    return pg::script(pg, QString::fromUtf8(sql), what);
}

Result<qint64> copyIn(PGconn *pg, const QString &copySql, const std::function<qint64(const ByteSink &)> &produce)
{
    std::unique_ptr<PGresult, decltype(&PQclear)> start(PQexec(pg, copySql.toUtf8().constData()), &PQclear);
    if (PQresultStatus(start.get()) != PGRES_COPY_IN)
        return pg::errorOf(pg, start.get(), QStringLiteral("COPY"));
    const qint64 rows = produce([pg](const char *d, qsizetype n) { return PQputCopyData(pg, d, int(n)) == 1; });
    const bool sent = rows >= 0;
    PQputCopyEnd(pg, sent ? nullptr : "bloomscope: the copy was stopped");
    std::optional<Error> error;
    while (PGresult *r = PQgetResult(pg)) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && !error)
            error = pg::errorOf(pg, r, QStringLiteral("COPY"));
        PQclear(r);
    }
    if (error)
        return *error;
    if (!sent)
        return pg::errorOf(pg, nullptr, QStringLiteral("COPY"));
    return rows;
}

namespace {

constexpr Oid Int4ArrayOid = 1007, Int4Oid = 23, BitArrayOid = 1561, BitOid = 1560;

quint32 be32(const char *p)
{
    const auto *u = reinterpret_cast<const unsigned char *>(p);
    return quint32(u[0]) << 24 | quint32(u[1]) << 16 | quint32(u[2]) << 8 | quint32(u[3]);
}

} // namespace

Result<RowsUpdate> updateFromMaskRows(PGconn *pg, const QByteArray &updateSql,
                                      const std::function<qint64(const ByteSink &)> &produce, qsizetype sliceBytes)
{
    RowsUpdate done;
    BinaryArray chunks(Int4Oid), masks(BitOid);
    QByteArray pending; // an unfinished row between two pieces
    qsizetype headerLeft = 19;
    bool ended = false;
    std::optional<Error> failure;
    QElapsedTimer server;
    const auto run = [&]() -> bool {
        if (chunks.count() == 0)
            return true;
        const char *values[2] = {chunks.data(), masks.data()};
        const int lengths[2] = {int(chunks.size()), int(masks.size())};
        const int formats[2] = {1, 1};
        const Oid types[2] = {Int4ArrayOid, BitArrayOid};
        server.start();
        std::unique_ptr<PGresult, decltype(&PQclear)> r(
            PQexecParams(pg, updateSql.constData(), 2, types, values, lengths, formats, 0), &PQclear);
        done.serverSeconds += double(server.nsecsElapsed()) / 1e9;
        if (PQresultStatus(r.get()) != PGRES_COMMAND_OK) {
            failure = pg::errorOf(pg, r.get(), QStringLiteral("UPDATE"));
            return false;
        }
        done.updated += QByteArray(PQcmdTuples(r.get())).toLongLong();
        chunks.clear();
        masks.clear();
        return true;
    };
    const auto malformed = [&](const char *why) {
        failure = makeError(ErrorKind::Server,
                            QStringLiteral("Bloomscope wrote mask rows it cannot send: %1").arg(QLatin1String(why)),
                            QStringLiteral("a bug: please report it; the statement's transaction is rolled back"));
        return false;
    };
    // Takes the rows whole in [p, end); returns where an unfinished one starts.
    const auto take = [&](const char *p, const char *end) -> const char * {
        const qsizetype skip = qMin<qsizetype>(headerLeft, end - p);
        p += skip;
        headerLeft -= skip;
        while (p < end && !ended) {
            if (end - p < 2)
                return p;
            const auto fields = quint16(quint16(quint8(p[0])) << 8 | quint8(p[1]));
            if (fields == 0xFFFF) {
                ended = true;
                return end;
            }
            if (fields != 2) {
                malformed("a row of other than two fields");
                return nullptr;
            }
            if (end - p < 2 + 8 + 4)
                return p;
            if (be32(p + 2) != 4) {
                malformed("a chunk that is not an int4");
                return nullptr;
            }
            const quint32 maskLength = be32(p + 10);
            if (maskLength > quint32(64 << 20)) {
                malformed("a mask that is null or too long");
                return nullptr;
            }
            if (end - p < 14 + qsizetype(maskLength))
                return p;
            chunks.appendField(p + 2, 8);
            masks.appendField(p + 10, 4 + qsizetype(maskLength));
            ++done.rows;
            p += 14 + qsizetype(maskLength);
            if (masks.size() >= sliceBytes && !run())
                return nullptr;
        }
        return p;
    };
    const qint64 produced = produce([&](const char *d, qsizetype n) {
        if (failure)
            return false;
        if (pending.isEmpty()) {
            const char *rest = take(d, d + n);
            if (!rest)
                return false;
            pending.append(rest, d + n - rest);
            return true;
        }
        pending.append(d, n);
        const char *rest = take(pending.constData(), pending.constData() + pending.size());
        if (!rest)
            return false;
        pending.remove(0, rest - pending.constData());
        return true;
    });
    if (!failure && !run())
        return *failure;
    if (failure)
        return *failure;
    if (produced < 0 || produced != done.rows || !ended || !pending.isEmpty())
        return makeError(ErrorKind::Server,
                         QStringLiteral("Bloomscope wrote %1 mask rows and sent %2 (%3)")
                             .arg(QString::number(produced), QString::number(done.rows),
                                  ended ? QStringLiteral("complete") : QStringLiteral("no end marker")),
                         QStringLiteral("a bug: please report it; the statement's transaction is rolled back"));
    return done;
}

Result<qint64> copyOut(PGconn *pg, const QString &copySql, const std::function<bool(QByteArrayView)> &line)
{
    std::unique_ptr<PGresult, decltype(&PQclear)> start(PQexec(pg, copySql.toUtf8().constData()), &PQclear);
    if (PQresultStatus(start.get()) != PGRES_COPY_OUT)
        return pg::errorOf(pg, start.get(), QStringLiteral("COPY out"));
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
    std::optional<Error> error;
    while (PGresult *r = PQgetResult(pg)) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && !error)
            error = pg::errorOf(pg, r, QStringLiteral("COPY out"));
        PQclear(r);
    }
    if (error)
        return *error;
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
