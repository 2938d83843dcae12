// What stood in the way of a connection, found from what libpq reports about the attempt (how far it
// got, TLS, the password, the server's SQLSTATE), never from the words of its message: libpq's own
// messages follow the client's locale, the server's its lc_messages. The facts go into a pg::Failure;
// pg::classify (pgerror.h), the one classifier, says the cause and its fix.
#pragma once

#include "postgres/connectionspec.h"
#include "postgres/pgerror.h"

#include <QByteArray>
#include <QMap>
#include <QString>

namespace bloom::pg {

/** What one connection attempt reached, as libpq tells it. */
struct ConnectAttempt {
    bool connected = false;     ///< it worked
    bool reachedServer = false; ///< a socket connected (TCP or Unix): something listens there
    bool startupSent = false;   ///< the server has the start-up packet (TLS negotiated, if at all)
    bool failedInTls = false;   ///< it failed while negotiating TLS (libpq's CONNECTION_SSL_STARTUP)
    bool tlsUsed = false;       ///< TLS was up at some point (PQsslInUse)
    bool needsPassword = false; ///< the server asked for a password and none was at hand
    bool usedPassword = false;  ///< a password was sent
    bool timedOut = false;
    QByteArray sqlState;            ///< of the server's refusal (a FATAL at start-up), or empty
    QString message;                ///< libpq's message, as it said it
    QMap<QString, QString> options; ///< every connection option as libpq resolved it (service, PG*, defaults)
};

/**
 * Connects to `conninfo` with libpq's asynchronous connect, watching each step, within `timeoutMs`.
 * With `beforeCredentials` it stops once the server has the start-up packet (TLS negotiated, if at
 * all), before any password is sent: a probe.
 */
ConnectAttempt attemptConnect(const QString &conninfo, int timeoutMs, bool beforeCredentials = false);

/**
 * The facts of a connection that failed, for pg::classify(): `tried` is what was connected to (options
 * included), `shown` what the messages name, `said` what the failed attempt said (kept in the message,
 * in whatever language), `elapsedMs` how long it took: an attempt that used up `timeoutMs` got no
 * answer and is not made again. Otherwise it is made once more with libpq to see how far it gets, and a
 * failure in TLS is told apart by probes that stop before any password is sent (does the server offer
 * TLS at all; does the handshake pass with the CA alone).
 */
Failure connectFailure(const ConnectionSpec &tried, const ConnectionSpec &shown, const QString &said, qint64 elapsedMs,
                       int timeoutMs);

} // namespace bloom::pg
