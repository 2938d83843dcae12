#pragma once

#include "common/result.h"
#include "postgres/connectionspec.h"
#include "postgres/identifier.h"

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
 * A libpq cancel key of one session, kept apart from the session: whoever holds it may cancel that
 * session's running statement from any thread, however long after. A cancel that arrives when the
 * session is idle or gone does nothing (the server ignores it), so a worker may reconnect or close its
 * session while the GUI thread holds the handle of the old one.
 */
class CancelHandle {
public:
    explicit CancelHandle(PGconn *conn);
    ~CancelHandle();
    CancelHandle(const CancelHandle &) = delete;
    CancelHandle &operator=(const CancelHandle &) = delete;
    /** Asks the server to cancel the statement running now (thread-safe; blocks for a round trip). */
    void cancel() const;

private:
    PGcancel *mCancel = nullptr;
};

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

    /** `spec` with what every Bloomscope session adds unless it is set: connect_timeout and
     *  application_name. Another connection of this session's (a load's second) opens with it. */
    static ConnectionSpec sessionSpec(const ConnectionSpec &spec, const Options &options);

    QSqlDatabase &db() { return mDb; }
    PGconn *pgconn() const { return mPg; }
    const ConnectionSpec &spec() const { return mSpec; }
    bool readOnly() const { return mOptions.readOnly; }
    /** What the session was opened with: another connection of the session's opens with the same. */
    const Options &options() const { return mOptions; }
    QString serverVersion() const { return mServerVersion; }

    /** Asks the server to cancel the statement running on this session (thread-safe). */
    void cancel();
    /** The session's cancel key, for a thread that must be able to cancel even after this session is
     *  closed or replaced (a Cancel button while the worker reconnects). */
    std::shared_ptr<const CancelHandle> cancelHandle() const { return mCancelHandle; }
    /** Async-signal-safe cancel of the session registered with setSignalTarget(). */
    static void cancelFromSignal();
    /** Makes this session the one cancelFromSignal() cancels (bloomctl's Ctrl-C). */
    void setSignalTarget();

    /** Runs one statement (no rows expected). */
    Status exec(const QString &sql);
    /** Turns a failed query into an Error naming `what`, by its SQLSTATE (pg::classify). */
    static Error queryError(const QSqlQuery &q, const QString &what);

    /** The schemas of the connecting role's search_path (current_schemas(false)), read at connect.
     *  The session itself then runs with search_path = pg_catalog, pg_temp: no object another role
     *  owns can shadow a function or operator Bloomscope calls (README "Privileges"). */
    const QStringList &userSchemas() const { return mUserSchemas; }

    /** A string literal for a utility statement that takes no parameters (COMMENT, an INSERT built
     *  with catalog values): libpq's PQescapeLiteral. */
    QString quoteLiteral(const QString &value) const;

    enum class ObjectKind { Table, TextFunction };
    /**
     * Parses a user's name (`name` or `schema.name`, checked as QualifiedName::parse does, errors
     * naming `what`) and fills in its schema: the first of userSchemas() that holds such an object,
     * or else the first of userSchemas() (where CREATE would have put it).
     */
    Result<QualifiedName> resolve(const QString &text, const QString &what, ObjectKind kind);

private:
    explicit Database(QSqlDatabase db, ConnectionSpec spec);

    QSqlDatabase mDb;
    QString mName;
    ConnectionSpec mSpec;
    PGconn *mPg = nullptr;
    PGcancel *mCancel = nullptr;
    std::mutex mCancelMutex;
    std::shared_ptr<const CancelHandle> mCancelHandle;
    Options mOptions; ///< set once the session is open as they ask
    QString mServerVersion;
    QStringList mUserSchemas;
};

} // namespace bloom
