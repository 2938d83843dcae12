#include "postgres/connectfailure.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QRegularExpression>

#include <libpq-fe.h>

#include <cerrno>
#include <poll.h>
#include <pwd.h>
#include <unistd.h>

namespace bloom::pg {

namespace {

/** The server's SQLSTATE in a message libpq formatted with PQERRORS_VERBOSE ("FATAL:  28P01: ..."): the
 *  severity is the server's word, the code never is. */
QByteArray sqlStateIn(const QString &message)
{
    static const QRegularExpression re(QStringLiteral(":  ([0-9A-Z]{5}): "));
    const auto m = re.match(message);
    return m.hasMatch() ? m.captured(1).toLatin1() : QByteArray();
}

/** Where libpq looks for a file of ~/.postgresql when its option is empty: the home directory of
 *  $HOME or, as libpq 15 does, of the user. */
QStringList defaultPaths(const QString &name)
{
    QStringList out;
    const QString home = qEnvironmentVariable("HOME");
    if (!home.isEmpty())
        out << home + QStringLiteral("/.postgresql/") + name;
    if (const passwd *pw = ::getpwuid(::geteuid()); pw && pw->pw_dir)
        out << QFile::decodeName(pw->pw_dir) + QStringLiteral("/.postgresql/") + name;
    out.removeDuplicates();
    return out;
}

/** The file an option names, or the first default that exists (else the first default); `exists`
 *  says whether it does. */
QString fileOf(const QMap<QString, QString> &options, const QString &key, const QString &defaultName, bool *exists)
{
    const QString given = options.value(key);
    if (!given.isEmpty()) {
        *exists = QFile::exists(given);
        return given;
    }
    const QStringList candidates = defaultPaths(defaultName);
    for (const QString &c : candidates)
        if (QFile::exists(c)) {
            *exists = true;
            return c;
        }
    *exists = false;
    return candidates.value(0, QStringLiteral("~/.postgresql/") + defaultName);
}

} // namespace

ConnectAttempt attemptConnect(const QString &conninfo, int timeoutMs, bool beforeCredentials)
{
    ConnectAttempt a;
    PGconn *c = PQconnectStart(conninfo.toUtf8().constData());
    if (!c) {
        a.message = QStringLiteral("out of memory");
        return a;
    }
    if (PQconninfoOption *options = PQconninfo(c)) {
        for (PQconninfoOption *o = options; o->keyword; ++o)
            if (o->val)
                a.options.insert(QString::fromUtf8(o->keyword), QString::fromUtf8(o->val));
        PQconninfoFree(options);
    }
    // The server's refusal then carries its SQLSTATE in the message; nothing else of libpq gives it.
    PQsetErrorVerbosity(c, PQERRORS_VERBOSE);
    const QDeadlineTimer deadline(timeoutMs);
    ConnStatusType last = PQstatus(c);
    PostgresPollingStatusType st = PQstatus(c) == CONNECTION_BAD ? PGRES_POLLING_FAILED : PGRES_POLLING_WRITING;
    bool stopped = false;
    while (st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED) {
        last = PQstatus(c);
        a.tlsUsed = a.tlsUsed || PQsslInUse(c);
        if (beforeCredentials && last == CONNECTION_AWAITING_RESPONSE) {
            stopped = true; // the start-up packet is sent; a password would follow the server's answer
            break;
        }
        pollfd fd{PQsocket(c), short(st == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
        int r = 0;
        do {
            const qint64 left = deadline.remainingTime();
            r = left == 0 ? 0 : ::poll(&fd, 1, left < 0 ? -1 : int(left));
        } while (r < 0 && errno == EINTR);
        if (r <= 0) {
            a.timedOut = r == 0;
            break;
        }
        st = PQconnectPoll(c);
    }
    a.tlsUsed = a.tlsUsed || PQsslInUse(c);
    a.connected = st == PGRES_POLLING_OK;
    // How far the attempt that failed got: past the socket's connect, the server was there.
    // (A socket that could not even be connected, a Unix socket that is not there, fails in PQconnectStart.)
    a.reachedServer =
        a.connected || stopped || (last != CONNECTION_STARTED && last != CONNECTION_NEEDED && last != CONNECTION_BAD);
    a.failedInTls = !a.connected && !stopped && last == CONNECTION_SSL_STARTUP;
    a.startupSent = a.connected || stopped;
    a.needsPassword = PQconnectionNeedsPassword(c);
    a.usedPassword = PQconnectionUsedPassword(c);
    a.message = QString::fromUtf8(PQerrorMessage(c)).trimmed();
    a.sqlState = sqlStateIn(a.message);
    PQfinish(c);
    return a;
}

Failure connectFailure(const ConnectionSpec &tried, const ConnectionSpec &shown, const QString &said, qint64 elapsedMs,
                       int timeoutMs)
{
    Failure f;
    f.message = said;
    ConnectStage &c = f.connect.emplace();
    c.where = shown.describe();
    // An attempt that used up the connect timeout got no answer: trying again would only wait as long.
    if (timeoutMs > 0 && elapsedMs >= timeoutMs - 250) {
        c.gaveUp = true;
        return f;
    }
    const ConnectAttempt a = attemptConnect(tried.toConninfo(), qMax(2000, timeoutMs));
    f.sqlState = a.sqlState;
    c.secondWorked = a.connected;
    c.reachedServer = a.reachedServer;
    c.failedInTls = a.failedInTls;
    c.tlsUsed = a.tlsUsed;
    c.needsPassword = a.needsPassword;
    c.usedPassword = a.usedPassword;
    c.sslMode = a.options.value(QStringLiteral("sslmode"), QStringLiteral("prefer"));
    c.host = a.options.value(QStringLiteral("host"));
    c.clientCert = fileOf(a.options, QStringLiteral("sslcert"), QStringLiteral("postgresql.crt"), &c.clientCertExists);
    c.rootCert = fileOf(a.options, QStringLiteral("sslrootcert"), QStringLiteral("root.crt"), &c.rootCertExists);
    const bool verifies = c.sslMode == QLatin1String("verify-ca") || c.sslMode == QLatin1String("verify-full");
    if (!a.failedInTls || (verifies && !c.rootCertExists))
        return f;
    // Probes that stop before any password is sent: does the server speak TLS at all (no verification),
    // and does it pass with the CA alone (verify-ca)?
    const int probeMs = qBound(2000, timeoutMs, 5000);
    ConnectionSpec bare = tried;
    bare.set(QStringLiteral("sslmode"), QStringLiteral("require"));
    bare.set(QStringLiteral("sslrootcert"), QStringLiteral("/nonexistent/bloomscope-no-root.crt")); // no check
    c.serverOffersTls = attemptConnect(bare.toConninfo(), probeMs, true).tlsUsed;
    if (*c.serverOffersTls && c.sslMode == QLatin1String("verify-full")) {
        ConnectionSpec caOnly = tried;
        caOnly.set(QStringLiteral("sslmode"), QStringLiteral("verify-ca"));
        c.passesWithCaAlone = attemptConnect(caOnly.toConninfo(), probeMs, true).tlsUsed;
    }
    return f;
}

} // namespace bloom::pg
