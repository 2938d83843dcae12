#include "postgres/pgdriver.h"

#include <QDateTime>
#include <QSqlField>
#include <QSqlRecord>
#include <QVariant>

#include <libpq-fe.h>

#include <cmath>
#include <memory>
#include <vector>

Q_DECLARE_OPAQUE_POINTER(PGconn *)
Q_DECLARE_METATYPE(PGconn *)

namespace bloom {

namespace {

// The type OIDs the rows come back in (pg_type.h is a server header).
constexpr Oid BoolOid = 16, ByteaOid = 17, Int8Oid = 20, Int2Oid = 21, Int4Oid = 23, RegprocOid = 24, XidOid = 28,
              CidOid = 29, Float4Oid = 700, Float8Oid = 701, DateOid = 1082, TimeOid = 1083, TimestampOid = 1114,
              TimestampTzOid = 1184, TimeTzOid = 1266, NumericOid = 1700;

QMetaType metaTypeOf(Oid t)
{
    switch (t) {
    case BoolOid:
        return QMetaType(QMetaType::Bool);
    case Int8Oid:
        return QMetaType(QMetaType::LongLong);
    case Int2Oid:
    case Int4Oid:
    case RegprocOid:
    case XidOid:
    case CidOid:
        return QMetaType(QMetaType::Int);
    case NumericOid:
    case Float4Oid:
    case Float8Oid:
        return QMetaType(QMetaType::Double);
    case DateOid:
        return QMetaType(QMetaType::QDate);
    case TimeOid:
    case TimeTzOid:
        return QMetaType(QMetaType::QTime);
    case TimestampOid:
    case TimestampTzOid:
        return QMetaType(QMetaType::QDateTime);
    case ByteaOid:
        return QMetaType(QMetaType::QByteArray);
    default:
        return QMetaType(QMetaType::QString);
    }
}

/** A statement that must not run inside a transaction block (VACUUM), or one that manages the transaction
 *  itself: neither is wrapped. */
bool runsAlone(const QByteArray &sql)
{
    const QByteArray head = sql.trimmed().left(12).toLower();
    for (const char *word :
         {"vacuum", "begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release", "prepare"})
        if (head.startsWith(word))
            return true;
    return false;
}

/** `?` placeholders as $1, $2, ... outside string literals, quoted identifiers, comments and dollar quotes. */
QByteArray numbered(const QByteArray &sql)
{
    QByteArray out;
    out.reserve(sql.size() + 16);
    int n = 0;
    for (qsizetype i = 0; i < sql.size(); ++i) {
        const char c = sql[i];
        const auto copyUntil = [&](const QByteArray &end) {
            const qsizetype stop = sql.indexOf(end, i + 1);
            const qsizetype last = stop < 0 ? sql.size() : stop + end.size();
            out += sql.mid(i, last - i);
            i = last - 1;
        };
        if (c == '\'')
            copyUntil("'"); // '' inside a literal ends one copy and starts the next
        else if (c == '"')
            copyUntil("\"");
        else if (c == '-' && sql.mid(i, 2) == "--")
            copyUntil("\n");
        else if (c == '/' && sql.mid(i, 2) == "/*")
            copyUntil("*/");
        else if (c == '$' && (i == 0 || !(QChar::isLetterOrNumber(uchar(sql[i - 1])) || sql[i - 1] == '_'))) {
            const qsizetype close = sql.indexOf('$', i + 1);
            const QByteArray tag = close < 0 ? QByteArray() : sql.mid(i, close - i + 1);
            bool isTag = !tag.isEmpty();
            for (qsizetype j = 1; isTag && j + 1 < tag.size(); ++j)
                isTag = QChar::isLetterOrNumber(uchar(tag[j])) || tag[j] == '_';
            if (isTag && !(tag.size() > 2 && QChar::isDigit(uchar(tag[1])))) {
                const qsizetype stop = sql.indexOf(tag, close + 1);
                const qsizetype last = stop < 0 ? sql.size() : stop + tag.size();
                out += sql.mid(i, last - i);
                i = last - 1;
            } else {
                out += c;
            }
        } else if (c == '?')
            out += '$' + QByteArray::number(++n);
        else
            out += c;
    }
    return out;
}

PgDriver::Param paramOf(const QVariant &v)
{
    PgDriver::Param p;
    if (v.isNull() || !v.isValid()) {
        p.null = true;
        return p;
    }
    switch (v.metaType().id()) {
    case QMetaType::Bool:
        p.value = v.toBool() ? "t" : "f";
        break;
    case QMetaType::QByteArray:
        p.value = v.toByteArray();
        p.binary = true; // bytes as they are, whatever type the server infers
        break;
    case QMetaType::Double:
    case QMetaType::Float: {
        const double d = v.toDouble();
        p.value = std::isnan(d)   ? QByteArray("NaN")
                  : std::isinf(d) ? QByteArray(d < 0 ? "-Infinity" : "Infinity")
                                  : QByteArray::number(d, 'g', 17);
        break;
    }
    case QMetaType::QDateTime: {
        const QDateTime dt = v.toDateTime();
        p.value = dt.toOffsetFromUtc(dt.offsetFromUtc()).toString(Qt::ISODateWithMs).toUtf8();
        break;
    }
    case QMetaType::QDate:
        p.value = v.toDate().toString(Qt::ISODate).toUtf8();
        break;
    case QMetaType::QTime:
        p.value = v.toTime().toString(Qt::ISODateWithMs).toUtf8();
        break;
    default:
        p.value = v.toString().toUtf8();
    }
    return p;
}

QSqlError errorOf(const QString &what, PGconn *conn, const PGresult *r, QSqlError::ErrorType type)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    const QString text = QString::fromUtf8(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
    return QSqlError(what, text.isEmpty() ? QString::fromUtf8(PQerrorMessage(conn)) : text, type,
                     state ? QString::fromLatin1(state) : QString());
}

/** One statement's rows, all of them read at once (no forward-only streaming: a raw libpq statement on
 *  the same connection cannot cut them short). */
class PgResult : public QSqlResult {
public:
    explicit PgResult(const PgDriver *driver)
        : QSqlResult(driver)
        , mDriver(driver)
    {
    }
    ~PgResult() override { clearResult(); }

protected:
    QVariant handle() const override { return {}; }
    bool reset(const QString &query) override
    {
        clearResult();
        return process(mDriver->run(query.toUtf8(), nullptr));
    }
    bool prepare(const QString &query) override
    {
        clearResult();
        mSql = numbered(query.toUtf8());
        return true;
    }
    bool exec() override
    {
        clearResult();
        QList<PgDriver::Param> params;
        for (const QVariant &v : boundValues())
            params << paramOf(v);
        return process(mDriver->run(mSql, &params));
    }
    bool fetch(int i) override
    {
        if (!isActive() || !isSelect() || i < 0 || i >= mRows)
            return false;
        setAt(i);
        return true;
    }
    bool fetchFirst() override { return fetch(0); }
    bool fetchLast() override { return fetch(mRows - 1); }
    QVariant data(int i) override
    {
        if (!mResult || i < 0 || i >= PQnfields(mResult) || at() < 0)
            return {};
        const Oid type = PQftype(mResult, i);
        const QMetaType meta = metaTypeOf(type);
        if (PQgetisnull(mResult, at(), i))
            return QVariant(meta, nullptr);
        const char *v = PQgetvalue(mResult, at(), i);
        const QByteArray raw = QByteArray::fromRawData(v, PQgetlength(mResult, at(), i));
        switch (meta.id()) {
        case QMetaType::Bool:
            return v[0] == 't';
        case QMetaType::LongLong:
            if (v[0] == '-')
                return raw.toLongLong();
            return raw.toULongLong(); // as QPSQL gives it (bit_count() and count(*) come back unsigned)
        case QMetaType::Int:
            return raw.toInt();
        case QMetaType::Double: {
            if (type == NumericOid && numericalPrecisionPolicy() == QSql::HighPrecision)
                return QString::fromLatin1(raw);
            bool ok = false;
            double d = raw.toDouble(&ok);
            if (!ok) {
                if (qstricmp(v, "NaN") == 0)
                    d = qQNaN();
                else if (qstricmp(v, "Infinity") == 0)
                    d = qInf();
                else if (qstricmp(v, "-Infinity") == 0)
                    d = -qInf();
                else
                    return {};
            }
            if (type == NumericOid && numericalPrecisionPolicy() == QSql::LowPrecisionInt64)
                return qlonglong(d);
            if (type == NumericOid && numericalPrecisionPolicy() == QSql::LowPrecisionInt32)
                return int(d);
            return d;
        }
        case QMetaType::QDate:
            return QDate::fromString(QString::fromLatin1(raw), Qt::ISODate);
        case QMetaType::QTime:
            return QTime::fromString(QString::fromLatin1(raw), Qt::ISODate);
        case QMetaType::QDateTime: {
            const QString text = QString::fromLatin1(raw);
            const QString time = text.mid(11);
            if (!time.contains(QLatin1Char('-')) && !time.contains(QLatin1Char('+')) &&
                !time.endsWith(QLatin1Char('Z')))
                return QDateTime::fromString(text + QLatin1Char('Z'), Qt::ISODate); // without a zone: UTC
            // In UTC whatever the server's TimeZone (no session sets it): the instant as sent, at offset 0.
            const QDateTime at = QDateTime::fromString(text, Qt::ISODate);
            return at.isValid() && at.offsetFromUtc() != 0 ? at.toOffsetFromUtc(0) : at;
        }
        case QMetaType::QByteArray: {
            size_t len = 0;
            unsigned char *bytes = PQunescapeBytea(reinterpret_cast<const unsigned char *>(v), &len);
            const QByteArray out(reinterpret_cast<const char *>(bytes), qsizetype(len));
            PQfreemem(bytes);
            return out;
        }
        default:
            return QString::fromUtf8(raw);
        }
    }
    bool isNull(int i) override { return !mResult || at() < 0 || PQgetisnull(mResult, at(), i); }
    int size() override { return isSelect() ? mRows : -1; }
    int numRowsAffected() override { return mResult ? QByteArray(PQcmdTuples(mResult)).toInt() : -1; }
    QSqlRecord record() const override
    {
        QSqlRecord r;
        if (!mResult || !isSelect())
            return r;
        for (int i = 0; i < PQnfields(mResult); ++i)
            r.append(QSqlField(QString::fromUtf8(PQfname(mResult, i)), metaTypeOf(PQftype(mResult, i))));
        return r;
    }
    QVariant lastInsertId() const override { return {}; }

private:
    bool process(PGresult *r)
    {
        mResult = r;
        const ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
            mRows = st == PGRES_TUPLES_OK ? PQntuples(r) : 0;
            setSelect(st == PGRES_TUPLES_OK);
            setActive(true);
            return true;
        }
        setLastError(errorOf(QStringLiteral("the statement failed"), mDriver->handle().value<PGconn *>(), r,
                             QSqlError::StatementError));
        setSelect(false);
        setActive(false);
        return false;
    }
    void clearResult()
    {
        if (mResult)
            PQclear(mResult);
        mResult = nullptr;
        mRows = 0;
        setAt(QSql::BeforeFirstRow);
        setActive(false);
    }

    const PgDriver *mDriver;
    QByteArray mSql;
    PGresult *mResult = nullptr;
    int mRows = 0;
};

} // namespace

PgDriver::PgDriver(QObject *parent)
    : QSqlDriver(parent)
{
}

PgDriver::~PgDriver()
{
    close();
}

void PgDriver::setPooled(bool pooled, bool readOnly)
{
    mPooled = pooled;
    mReadOnly = readOnly;
}

bool PgDriver::hasFeature(DriverFeature f) const
{
    switch (f) {
    case Transactions:
    case QuerySize:
    case PreparedQueries:
    case PositionalPlaceholders:
    case LowPrecisionNumbers:
    case Unicode:
    case BLOB:
        return true;
    default:
        return false;
    }
}

bool PgDriver::open(const QString &, const QString &, const QString &, const QString &, int, const QString &connOpts)
{
    close();
    // client_encoding as a start-up parameter: a pooler keeps it per client (no SET on a server connection).
    mConn = PQconnectdb((connOpts + QStringLiteral(" client_encoding=UTF8")).toUtf8().constData());
    if (PQstatus(mConn) != CONNECTION_OK) {
        setLastError(QSqlError(QStringLiteral("cannot connect"), QString::fromUtf8(PQerrorMessage(mConn)),
                               QSqlError::ConnectionError));
        PQfinish(mConn);
        mConn = nullptr;
        setOpenError(true);
        return false;
    }
    setOpen(true);
    setOpenError(false);
    return true;
}

void PgDriver::close()
{
    if (mConn)
        PQfinish(mConn);
    mConn = nullptr;
    setOpen(false);
    setOpenError(false);
}

QSqlResult *PgDriver::createResult() const
{
    return new PgResult(this);
}

QVariant PgDriver::handle() const
{
    return QVariant::fromValue(mConn);
}

QByteArray PgDriver::beginSql() const
{
    return QByteArray(mReadOnly ? "begin read only" : "begin") +
           "; select pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true)";
}

bool PgDriver::simple(const char *sql, QSqlError::ErrorType type, const QString &what)
{
    if (!mConn)
        return false;
    std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(mConn, sql), &PQclear);
    const ExecStatusType st = PQresultStatus(r.get());
    // A COMMIT of a transaction that had failed reports ROLLBACK, not an error.
    if ((st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) && qstrcmp(PQcmdStatus(r.get()), "ROLLBACK") != 0)
        return true;
    setLastError(errorOf(what, mConn, r.get(), type));
    return false;
}

bool PgDriver::beginTransaction()
{
    return simple(mPooled ? beginSql().constData() : "begin", QSqlError::TransactionError,
                  QStringLiteral("cannot begin a transaction"));
}

bool PgDriver::commitTransaction()
{
    return simple("commit", QSqlError::TransactionError, QStringLiteral("cannot commit the transaction"));
}

bool PgDriver::rollbackTransaction()
{
    return simple("rollback", QSqlError::TransactionError, QStringLiteral("cannot roll the transaction back"));
}

PGresult *PgDriver::run(const QByteArray &sql, const QList<Param> *params) const
{
    const bool wrap = mPooled && PQtransactionStatus(mConn) == PQTRANS_IDLE && !runsAlone(sql);
    if (wrap) {
        PGresult *b = PQexec(mConn, beginSql().constData());
        if (PQresultStatus(b) != PGRES_TUPLES_OK) {
            if (PQtransactionStatus(mConn) != PQTRANS_IDLE)
                PQclear(PQexec(mConn, "rollback"));
            return b;
        }
        PQclear(b);
    }
    PGresult *r = nullptr;
    if (!params) {
        r = PQexec(mConn, sql.constData());
    } else {
        std::vector<const char *> values;
        std::vector<int> lengths, formats;
        for (const Param &p : *params) {
            values.push_back(p.null ? nullptr : p.value.constData());
            lengths.push_back(int(p.value.size()));
            formats.push_back(p.binary ? 1 : 0);
        }
        r = PQexecParams(mConn, sql.constData(), int(params->size()), nullptr, values.data(), lengths.data(),
                         formats.data(), 0);
    }
    // A pooled session's transaction that began a transaction of its own ("begin" through exec()) sets
    // its search_path too.
    if (mPooled && !wrap && sql.trimmed().left(5).toLower() == "begin" && PQresultStatus(r) == PGRES_COMMAND_OK)
        PQclear(PQexec(mConn, "select pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true)"));
    if (wrap) {
        const ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
            PGresult *c = PQexec(mConn, "commit");
            if (PQresultStatus(c) != PGRES_COMMAND_OK || qstrcmp(PQcmdStatus(c), "ROLLBACK") == 0) {
                PQclear(r);
                return c;
            }
            PQclear(c);
        } else if (PQtransactionStatus(mConn) != PQTRANS_IDLE) {
            PQclear(PQexec(mConn, "rollback"));
        }
    }
    return r ? r : PQmakeEmptyPGresult(mConn, PGRES_FATAL_ERROR);
}

} // namespace bloom
