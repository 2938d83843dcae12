#include "postgres/pgconn.h"

#include "common/printable.h"
#include "postgres/identifier.h"
#include "postgres/pgerror.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <libpq-fe.h>

#include <atomic>
#include <cstdio>
#include <memory>

#include <cerrno>
#include <poll.h>

namespace bloom {

QString libpqVersion()
{
    const int v = PQlibVersion(); // 150005 = 15.5 (10 and later: major * 10000 + minor)
    return QStringLiteral("%1.%2").arg(QString::number(v / 10000), QString::number(v % 10000));
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

namespace {
std::atomic<bool> gJsonNotices{false};
} // namespace

void setNoticesAsJson(bool json)
{
    gJsonNotices = json;
}

void escapeNotices(PGconn *conn)
{
    PQsetNoticeProcessor(
        conn,
        [](void *, const char *message) {
            QString said = QString::fromUtf8(message);
            QByteArray text;
            if (gJsonNotices) {
                while (said.endsWith(QLatin1Char('\n')))
                    said.chop(1);
                text = QJsonDocument(
                           QJsonObject{{QStringLiteral("notice"), QJsonObject{{QStringLiteral("message"), said}}}})
                           .toJson(QJsonDocument::Compact) +
                       '\n';
            } else {
                text = escapeMessage(said).toUtf8();
            }
            std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
        },
        nullptr);
}

namespace {

const char *searchPathSql(PgConn::SearchPath path)
{
    if (path == PgConn::SearchPath::Pinned)
        return "select pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false)";
    if (path == PgConn::SearchPath::CatalogFirst)
        return "select pg_catalog.set_config('search_path', 'pg_catalog, ' || "
               "pg_catalog.current_setting('search_path') || ', pg_temp', false)";
    return nullptr;
}

/** Waits until `pg`'s socket is ready for `events`, the deadline passes, or `abandon` is set (looked at
 *  every 50 ms): true when it is ready. */
bool waitSocket(PGconn *pg, short events, const QDeadlineTimer &deadline, const std::atomic<bool> *abandon)
{
    pollfd fd{PQsocket(pg), events, 0};
    if (fd.fd < 0)
        return false;
    for (;;) {
        if (abandon && abandon->load())
            return false;
        const qint64 left = deadline.remainingTime();
        if (left == 0)
            return false;
        const int r = ::poll(&fd, 1, int(qMin<qint64>(50, left < 0 ? 50 : left)));
        if (r > 0)
            return true;
        if (r < 0 && errno != EINTR)
            return false;
    }
}

} // namespace

bool PgConn::connectWithin(const QString &conninfo, const char *first, const Wait &wait)
{
    const QDeadlineTimer deadline(wait.ms);
    const auto gaveUp = [&](const QString &stage) {
        const QString when = wait.abandon && wait.abandon->load()
                                 ? QStringLiteral("yet when it was no longer needed")
                                 : QStringLiteral("within %1 s").arg(double(wait.ms) / 1000, 0, 'g', 3);
        mError = QStringLiteral("no %1 %2; a connection pooler such as PgBouncer holds a client's first "
                                "statement in its queue until a server connection is free")
                     .arg(stage, when);
        PQfinish(mConn);
        mConn = nullptr;
        return false;
    };
    mConn = PQconnectStart(conninfo.toUtf8().constData());
    if (mConn)
        escapeNotices(mConn);
    if (!mConn || PQstatus(mConn) == CONNECTION_BAD)
        return false;
    // libpq's own connect_timeout applies to its blocking connect only: this loop keeps the deadline.
    for (PostgresPollingStatusType st = PGRES_POLLING_WRITING; st != PGRES_POLLING_OK;) {
        if (st == PGRES_POLLING_FAILED)
            return false; // PQerrorMessage says why
        if (!waitSocket(mConn, st == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline, wait.abandon))
            return gaveUp(QStringLiteral("connection"));
        st = PQconnectPoll(mConn);
    }
    if (!PQsendQuery(mConn, first))
        return false;
    for (;;) {
        if (!PQconsumeInput(mConn))
            return false;
        if (!PQisBusy(mConn))
            break;
        if (!waitSocket(mConn, POLLIN, deadline, wait.abandon))
            return gaveUp(QStringLiteral("answer"));
    }
    bool good = true;
    while (PGresult *r = PQgetResult(mConn)) {
        good = good && PQresultStatus(r) == PGRES_TUPLES_OK;
        PQclear(r);
    }
    return good;
}

PgConn::PgConn(const QString &conninfo, SearchPath path, Wait wait)
{
    const char *first = searchPathSql(path);
    if (!connectWithin(conninfo, first ? first : "select 1", wait)) {
        if (mConn && mError.isEmpty())
            mError = QString::fromUtf8(PQerrorMessage(mConn)).trimmed();
        if (mConn)
            PQfinish(mConn);
        mConn = nullptr;
        return;
    }
    PQsetClientEncoding(mConn, "UTF8");
    mCancel = PQgetCancel(mConn);
}

PgConn::PgConn(const QString &conninfo, SearchPath path)
{
    mConn = PQconnectdb(conninfo.toUtf8().constData());
    if (mConn)
        escapeNotices(mConn);
    if (ok()) {
        PQsetClientEncoding(mConn, "UTF8");
        mCancel = PQgetCancel(mConn);
        const char *sql = searchPathSql(path);
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
    if (!mError.isEmpty())
        return mError;
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
