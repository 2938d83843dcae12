// The one classifier of PostgreSQL failures: whatever path a statement took (QPSQL, libpq, COPY, a
// multi-statement script), its SQLSTATE decides the ErrorKind, the fix and whether it may be retried.
#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QString>

#include <optional>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
class QSqlError;
class QSqlQuery;

namespace bloom::pg {

/** How far a failed connection attempt got and what stood in its way, as libpq and the probes of
 *  pg::connectFailure() (postgres/connectfailure.h) found it: never from the words of a message. */
struct ConnectStage {
    QString where;              ///< the connection as the messages name it (ConnectionSpec::describe())
    bool gaveUp = false;        ///< the attempt used up connect_timeout: nothing answered
    bool secondWorked = false;  ///< a second attempt connected at once
    bool reachedServer = false; ///< a socket connected (TCP or Unix): something listens there
    bool failedInTls = false;   ///< it failed while negotiating TLS
    bool tlsUsed = false;       ///< TLS was up at some point
    bool needsPassword = false; ///< the server asked for a password and none was at hand
    bool usedPassword = false;  ///< a password was sent
    QString sslMode, host;      ///< as libpq resolved them (service file, PG* variables, defaults)
    QString clientCert;         ///< the client certificate libpq would send (sslcert or ~/.postgresql's)
    bool clientCertExists = true;
    QString rootCert; ///< the root certificate libpq verifies against (sslrootcert or ~/.postgresql's)
    bool rootCertExists = true;
    std::optional<bool> serverOffersTls;   ///< a probe with sslmode=require got TLS up
    std::optional<bool> passesWithCaAlone; ///< a probe with sslmode=verify-ca passed the handshake
};

/** What a failed statement (or connection attempt) said, read from libpq or from QPSQL. */
struct Failure {
    QByteArray sqlState;         ///< five characters ("40P01"), or empty when the server sent none
    QString message;             ///< the server's primary message (or libpq's), trimmed
    QString detail, hint;        ///< the server's DETAIL and HINT, if any
    bool connectionLost = false; ///< the session is gone (libpq's status, whatever the language)
    /** The session is on a hot standby (libpq's in_hot_standby, reported by PostgreSQL 14 and later and
     *  kept current through a promotion): a read-only transaction there is the server's, not the session's. */
    bool inHotStandby = false;
    /** Set when the failure is a connection attempt's: classify() then says its cause (TLS and which
     *  certificate, authentication, a missing database, an unreachable server) with that cause's fix. */
    std::optional<ConnectStage> connect;
};

/** Whether the server of `pg` says it is a hot standby (its in_hot_standby parameter). */
bool inHotStandby(PGconn *pg);

/** The message and fix of a write on a standby, the same whichever way it was found (up front or by
 *  SQLSTATE 25006 on a session in recovery). */
QString standbyWriteFix();

/** The failure of a libpq result (`r` may be null: then the connection's own message). */
Failure failureOf(PGconn *pg, const PGresult *r);
/** The failure of a QPSQL query; its connection's status is read through the driver's libpq handle. */
Failure failureOf(const QSqlQuery &q);

/** The kind a SQLSTATE is (the table tst_pgerror checks), for a session that is still up. */
ErrorKind kindOf(QByteArrayView sqlState);

/**
 * The Error of a failure while doing `what` ("adding to username_filter"): its kind from the SQLSTATE
 * (never from the message's words, which follow the server's lc_messages), a fix for the classes a
 * user can act on, `sqlState` kept, and `retry` set for deadlocks and serialization failures. With an
 * empty `what` the message is the server's alone (the caller gives the context). A failed connection
 * (`f.connect` set) is classified by how far it got; its message names ConnectStage::where.
 */
Error classify(const Failure &f, const QString &what);

/** classify(failureOf(pg, r), what). */
Error errorOf(PGconn *pg, const PGresult *r, const QString &what);

/** Runs one or more statements with the simple query protocol (one implicit transaction unless they
 *  say otherwise) and reports the statement that failed, as the server said it: QPSQL's exec() of
 *  such a script can report success when a statement failed. */
Status script(PGconn *pg, const QString &sql, const QString &what);

/** Runs exactly one statement with the extended protocol (no second statement can ride along). */
Status one(PGconn *pg, const QString &sql, const QString &what);

} // namespace bloom::pg
