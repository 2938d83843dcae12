#pragma once

#include "common/result.h"
#include "postgres/connectionspec.h"

#include <QSqlDatabase>
#include <QString>

#include <memory>
#include <mutex>

typedef struct pg_conn PGconn;
typedef struct pg_cancel PGcancel;
class QSqlError;
class QSqlQuery;

namespace bloom {

/**
 * One PostgreSQL session through Qt's QPSQL driver, with its libpq handle for COPY and cancel.
 * Used only in the thread that opened it; cancel() is the one call that is safe from any thread
 * (and from a signal handler, through cancelFromSignal()).
 */
class Database {
public:
    struct Options {
        bool readOnly = false;          ///< the session runs with default_transaction_read_only
        int connectTimeoutSeconds = 10; ///< unless the connection string sets connect_timeout
    };

    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    /** Connects, classifies any failure (unreachable, authentication, database, driver), checks UTF-8. */
    static Result<std::unique_ptr<Database>> open(const ConnectionSpec &spec, const Options &options);
    static Result<std::unique_ptr<Database>> open(const ConnectionSpec &spec) { return open(spec, Options{}); }

    QSqlDatabase &db() { return mDb; }
    PGconn *pgconn() const { return mPg; }
    const ConnectionSpec &spec() const { return mSpec; }
    bool readOnly() const { return mReadOnly; }
    QString serverVersion() const { return mServerVersion; }

    /** Asks the server to cancel the statement running on this session (thread-safe). */
    void cancel();
    /** Async-signal-safe cancel of the session registered with setSignalTarget(). */
    static void cancelFromSignal();
    /** Makes this session the one cancelFromSignal() cancels (bloomctl's Ctrl-C). */
    void setSignalTarget();

    /** Runs one statement (no rows expected). */
    Status exec(const QString &sql);
    /** Turns a failed query into an Error: cancelled, missing object, or a server error naming `what`. */
    static Error queryError(const QSqlQuery &q, const QString &what);
    /** The SQLSTATE of a failed query ("57014", ...), or empty. */
    static QString sqlState(const QSqlError &e);

    /** Quotes an identifier for SQL ("a""b"); `schema.name` is quoted part by part. */
    QString quoteIdentifier(const QString &name) const;

private:
    explicit Database(QSqlDatabase db, ConnectionSpec spec);

    QSqlDatabase mDb;
    QString mName;
    ConnectionSpec mSpec;
    PGconn *mPg = nullptr;
    PGcancel *mCancel = nullptr;
    std::mutex mCancelMutex;
    bool mReadOnly = false;
    QString mServerVersion;
};

} // namespace bloom
