#pragma once

#include "common/result.h"
#include "postgres/connectionspec.h"
#include "postgres/identifier.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QString>

#include <memory>
#include <mutex>
#include <optional>

typedef struct pg_conn PGconn;
typedef struct pg_cancel PGcancel;
class QSqlError;
class QSqlQuery;

namespace bloom {

/** Where the server stands in replication: a primary, or a hot standby and how far its replay is. */
struct ServerRole {
    bool inRecovery = false; ///< pg_is_in_recovery(): a hot standby (read-only replica)
    /** now() - pg_last_xact_replay_timestamp(): how long ago the last transaction it replayed committed
     *  on the primary (it grows while the primary writes nothing); none before the first replay. */
    std::optional<double> replayLagSeconds;
    QString replayLsn;          ///< pg_last_wal_replay_lsn(), "0/3000148"
    qint64 replayLsnBytes = -1; ///< the same as a byte position: it moves with every replayed write
    qint64 receivedAhead = 0;   ///< WAL received but not yet replayed, in bytes
    /** A logical-replication subscriber (this database has an enabled subscription): its name (the one
     *  furthest behind when there are several) and now() - latest_end_time of its apply worker, how
     *  long ago the last change it confirmed to the publisher was sent (none while no worker runs). */
    QString subscription;
    std::optional<double> subscriptionLagSeconds;

    /** "standby (read-only replica), replay lag 2.1 s", or "primary". */
    QString describe() const;
    /** "subscriber of sub_one, lag 0.4 s", or empty when this database subscribes to nothing. */
    QString describeSubscription() const;
};

/** What stands between Bloomscope and the server, as Database::open() found it. */
enum class Pooling {
    None,        ///< a server backend of its own
    Session,     ///< a pooler (PgBouncer pool_mode = session): one server connection for the whole session
    Transaction, ///< a pooler that hands the server connection to another client after each transaction
};

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
 * One PostgreSQL session through Bloomscope's own Qt Sql driver (PgDriver, over libpq), with its libpq
 * handle for COPY and cancel.
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
     *  fallback_application_name (PGAPPNAME or an application_name of `spec` win). Another connection of this session's
     * (a load's second) opens with it. */
    static ConnectionSpec sessionSpec(const ConnectionSpec &spec, const Options &options);

    QSqlDatabase &db() { return mDb; }
    PGconn *pgconn() const { return mPg; }
    const ConnectionSpec &spec() const { return mSpec; }
    bool readOnly() const { return mOptions.readOnly; }
    /** What the session was opened with: another connection of the session's opens with the same. */
    const Options &options() const { return mOptions; }
    QString serverVersion() const { return mServerVersion; }
    /** Whether the server was a hot standby (pg_is_in_recovery()) at connect, or at the last readRole(). */
    bool inRecovery() const { return mInRecovery; }
    /** The server's role now, and on a standby how far its replay is (one statement, no table read). */
    Result<ServerRole> readRole();
    /** Refuses `what` (a write: "adding to T") up front on a standby, with the fix. */
    Status requirePrimary(const QString &what) const;

    /** Whether a pooler stands in between, and its mode: found at open by the port the server listens on
     *  against the one connected to, then by which backend a second connection gets (docs/operations.md "Real
     * deployments"). */
    Pooling pooling() const { return mPooling; }
    /** "a transaction pool (...)", "a session pool (...)" or empty: for info and the status bar. */
    QString describePooling() const;
    /** Refuses `what` ("rebuilding T") on a transaction pool: it needs a session of its own (`why`: an
     *  advisory lock held across transactions, a temporary table, LISTEN), with the fix. */
    Status requireSession(const QString &what, const QString &why) const;

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
     *  owns can shadow a function or operator Bloomscope calls (docs/operations.md "Privileges"). Behind a
     *  pooler every transaction sets it locally instead (PgDriver::setPooled()). */
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
    /** Pooling::Session or ::Transaction, behind a pooler: `backend` is this session's first backend. */
    Pooling probePooling(const QString &conninfo, int backend);

    QSqlDatabase mDb;
    QString mName;
    ConnectionSpec mSpec;
    PGconn *mPg = nullptr;
    PGcancel *mCancel = nullptr;
    std::mutex mCancelMutex;
    std::shared_ptr<const CancelHandle> mCancelHandle;
    Options mOptions; ///< set once the session is open as they ask
    QString mServerVersion;
    bool mInRecovery = false;
    Pooling mPooling = Pooling::None;
    QStringList mUserSchemas;
};

} // namespace bloom
