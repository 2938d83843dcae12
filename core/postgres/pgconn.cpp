#include "postgres/pgconn.h"

#include "common/printable.h"
#include "postgres/identifier.h"
#include "postgres/pgerror.h"

#include <libpq-fe.h>

#include <cstdio>
#include <memory>

namespace bloom {

QString libpqVersion()
{
    const int v = PQlibVersion(); // 150005 = 15.5 (10 and later: major * 10000 + minor)
    return QStringLiteral("%1.%2").arg(v / 10000).arg(v % 10000);
}

QString quoteConninfoValue(const QString &value)
{
    if (!value.isEmpty() && !value.contains(QLatin1Char(' ')) && !value.contains(QLatin1Char('\'')) &&
        !value.contains(QLatin1Char('\\')))
        return value;
    QString out = QStringLiteral("'");
    for (QChar c : value) {
        if (c == QLatin1Char('\'') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out + QLatin1Char('\'');
}

void escapeNotices(PGconn *conn)
{
    PQsetNoticeProcessor(
        conn,
        [](void *, const char *message) {
            const QByteArray text = escapeMessage(QString::fromUtf8(message)).toUtf8();
            std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
        },
        nullptr);
}

PgConn::PgConn(const QString &conninfo, SearchPath path)
{
    mConn = PQconnectdb(conninfo.toUtf8().constData());
    if (mConn)
        escapeNotices(mConn);
    if (ok()) {
        PQsetClientEncoding(mConn, "UTF8");
        mCancel = PQgetCancel(mConn);
        const char *sql = nullptr;
        if (path == SearchPath::Pinned)
            sql = "select pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false)";
        else if (path == SearchPath::CatalogFirst)
            sql = "select pg_catalog.set_config('search_path', 'pg_catalog, ' || "
                  "pg_catalog.current_setting('search_path') || ', pg_temp', false)";
        if (sql) {
            std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(mConn, sql), &PQclear);
            if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) { // never run on with the server's search_path
                PQfinish(mConn);
                mConn = nullptr;
            }
        }
    }
}

PgConn::~PgConn()
{
    if (mCancel)
        PQfreeCancel(mCancel);
    if (mConn)
        PQfinish(mConn);
}

void PgConn::cancel() const
{
    char buf[256];
    if (mCancel)
        PQcancel(mCancel, buf, sizeof buf);
}

bool PgConn::ok() const
{
    return mConn && PQstatus(mConn) == CONNECTION_OK;
}

QString PgConn::errorMessage() const
{
    return mConn ? QString::fromUtf8(PQerrorMessage(mConn)).trimmed() : QStringLiteral("out of memory");
}

Status PgConn::exec(const QString &sql) const
{
    std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(mConn, sql.toUtf8().constData()), &PQclear);
    const ExecStatusType st = PQresultStatus(r.get());
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        return pg::errorOf(mConn, r.get(), {});
    return success();
}

Result<QList<QByteArray>> PgConn::column(const QString &sql, const QList<QByteArray> &params) const
{
    auto all = rows(sql, params);
    if (!all)
        return all.error();
    QList<QByteArray> out;
    out.reserve(all->size());
    for (const QList<QByteArray> &row : *all)
        out.append(row.value(0));
    return out;
}

Result<QList<QList<QByteArray>>> PgConn::rows(const QString &sql, const QList<QByteArray> &params) const
{
    std::vector<const char *> values;
    for (const QByteArray &p : params)
        values.push_back(p.isNull() ? nullptr : p.constData());
    std::unique_ptr<PGresult, decltype(&PQclear)> r(
        PQexecParams(mConn, sql.toUtf8().constData(), int(values.size()), nullptr, values.data(), nullptr, nullptr, 0),
        &PQclear);
    const ExecStatusType status = PQresultStatus(r.get());
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK)
        return pg::errorOf(mConn, r.get(), {});
    QList<QList<QByteArray>> out;
    const int n = PQntuples(r.get());
    const int cols = PQnfields(r.get());
    out.reserve(n);
    for (int i = 0; i < n; ++i) {
        QList<QByteArray> row;
        row.reserve(cols);
        for (int c = 0; c < cols; ++c)
            row.append(QByteArray(PQgetvalue(r.get(), i, c), PQgetlength(r.get(), i, c)));
        out.append(std::move(row));
    }
    return out;
}

QString PgConn::quoteIdentifier(const QString &ident) const
{
    return quoteIdent(ident);
}

QString PgConn::quoteLiteral(const QString &value) const
{
    const QByteArray utf8 = value.toUtf8();
    char *q = PQescapeLiteral(mConn, utf8.constData(), size_t(utf8.size()));
    const QString out = QString::fromUtf8(q);
    PQfreemem(q);
    return out;
}

} // namespace bloom
