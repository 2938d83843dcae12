#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
typedef struct pg_cancel PGcancel;

namespace bloom {

/** Quotes a value for a libpq key=value connection string ('...' with \\ and \' escaped). */
QString quoteConninfoValue(const QString &value);

/** The server's NOTICE and WARNING messages on `conn` go to stderr with their control characters
 *  escaped (escapeMessage()); libpq's default prints them as they are, escape sequences and all. */
void escapeNotices(PGconn *conn);
/** Whether escapeNotices() writes each message as a JSON object ({"notice":{"message":...}}), one a line:
 *  bloomctl --json, whose every line on stderr is one. Set once, before any connection. */
void setNoticesAsJson(bool json);

/** The libpq the program runs with, "15.5" (PQlibVersion). */
QString libpqVersion();

/**
 * A plain libpq connection (RAII), for the few things Qt Sql cannot do: set-up statements with
 * several commands, and raw COPY. The filter store itself goes through QPSQL.
 */
class PgConn {
public:
    /** The session's search_path. Bloomscope's own sessions never leave it as the server set it:
     *  Pinned for the filter and local clusters, CatalogFirst where a user's query or shard table
     *  names are resolved (docs/operations.md "Privileges"). AsConfigured is for tests that act as the application. */
    enum class SearchPath { AsConfigured, CatalogFirst, Pinned };
    explicit PgConn(const QString &conninfo, SearchPath path = SearchPath::AsConfigured);
    /** How long an optional connection may take to be usable: connected and answering its first
     *  statement. A pooler (PgBouncer) accepts a client at once and holds its first statement in a queue
     *  until a server connection is free (query_wait_timeout, 120 s by default): only an answer tells. */
    struct Wait {
        int ms = 3000;
        const std::atomic<bool> *abandon = nullptr; ///< once true, gives up within about 50 ms
    };
    /** Connects and runs the session's first statement within `wait`; else not ok(), with the reason. */
    PgConn(const QString &conninfo, SearchPath path, Wait wait);
    ~PgConn();
    PgConn(const PgConn &) = delete;
    PgConn &operator=(const PgConn &) = delete;

    bool ok() const;
    QString errorMessage() const;
    PGconn *handle() const { return mConn; }

    /** Runs one or more statements (simple query protocol); the first error fails. */
    Status exec(const QString &sql) const;
    /** Runs one statement with text parameters and returns the first column of every row. */
    Result<QList<QByteArray>> column(const QString &sql, const QList<QByteArray> &params = {}) const;
    /** Same, every column of every row (text format); a statement without rows (an UPDATE) gives none. */
    Result<QList<QList<QByteArray>>> rows(const QString &sql, const QList<QByteArray> &params = {}) const;

    /** quoteIdent(): one part, never split on '.'. */
    QString quoteIdentifier(const QString &ident) const;
    QString quoteLiteral(const QString &value) const;

    /** Asks the server to cancel the statement running on this connection (safe from any thread). */
    void cancel() const;

private:
    /** Connects without blocking past the deadline (libpq's async connect), then sends `first` and waits
     *  for its answer: false, with mError, when either does not come in time. */
    bool connectWithin(const QString &conninfo, const char *first, const Wait &wait);

    PGconn *mConn = nullptr;
    PGcancel *mCancel = nullptr;
    QString mError; ///< why a bounded connect gave up (no libpq message says it)
};

} // namespace bloom
