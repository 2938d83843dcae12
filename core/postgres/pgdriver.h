// Bloomscope's own Qt Sql driver over libpq: every Database session runs through it, so that nothing a
// session does outlives its transaction on a pooled server connection (issue 34, item 1).
#pragma once

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlResult>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace bloom {

/**
 * A QSqlDriver over one libpq connection. Unlike Qt's QPSQL it sets nothing at open (QPSQL sets
 * DateStyle, TimeZone and bytea_output for the session) and prepares no named statement: a prepared
 * QSqlQuery runs with PQexecParams (the unnamed statement, parsed with its parameters in one round
 * trip). With setPooled() it keeps no session state at all: each transaction, the implicit one of a
 * single statement included, begins with `set local search_path` and, for a read-only session,
 * `begin read only`. handle() is the PGconn* (type name "PGconn*"), for COPY and cancel.
 */
class PgDriver : public QSqlDriver {
    Q_OBJECT
public:
    explicit PgDriver(QObject *parent = nullptr);
    ~PgDriver() override;

    /** Behind a pooler: wrap every statement outside a transaction in one of its own that sets
     *  what the session needs locally (search_path; read only when `readOnly`). */
    void setPooled(bool pooled, bool readOnly);
    bool pooled() const { return mPooled; }

    bool hasFeature(DriverFeature f) const override;
    bool open(const QString &db, const QString &user, const QString &password, const QString &host, int port,
              const QString &connOpts) override;
    void close() override;
    QSqlResult *createResult() const override;
    QVariant handle() const override;
    bool beginTransaction() override;
    bool commitTransaction() override;
    bool rollbackTransaction() override;

    /** Runs `sql` (text parameters, or binary where `formats` says; none: the simple query protocol, which
     *  takes several statements) inside a transaction of its own when pooled and idle. Never null. */
    struct Param {
        QByteArray value;
        bool null = false;
        bool binary = false;
    };
    PGresult *run(const QByteArray &sql, const QList<Param> *params) const;

private:
    /** What begins a transaction on a pooled session: BEGIN [READ ONLY] and the local search_path. */
    QByteArray beginSql() const;
    bool simple(const char *sql, QSqlError::ErrorType type, const QString &what);

    PGconn *mConn = nullptr;
    bool mPooled = false;
    bool mReadOnly = false;
};

} // namespace bloom
