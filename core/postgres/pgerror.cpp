#include "postgres/pgerror.h"

#include <QCoreApplication>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <libpq-fe.h>

#include <memory>

namespace bloom::pg {

namespace {

PGconn *handleOf(const QSqlQuery &q)
{
    const QSqlDriver *driver = q.driver();
    if (!driver)
        return nullptr;
    const QVariant h = driver->handle();
    if (h.isValid() && (qstrcmp(h.typeName(), "pg_conn*") == 0 || qstrcmp(h.typeName(), "PGconn*") == 0))
        return *static_cast<PGconn *const *>(h.constData());
    return nullptr;
}

bool classIs(QByteArrayView state, const char *cls)
{
    return state.size() == 5 && state.startsWith(cls);
}

} // namespace

bool inHotStandby(PGconn *pg)
{
    const char *v = pg ? PQparameterStatus(pg, "in_hot_standby") : nullptr;
    return v && qstrcmp(v, "on") == 0;
}

QString standbyWriteFix()
{
    return QStringLiteral("this server is a standby (read-only replica): connect to the primary; the standby shows "
                          "the write once it has replayed it");
}

Failure failureOf(PGconn *pg, const PGresult *r)
{
    Failure f;
    if (r) {
        if (const char *s = PQresultErrorField(r, PG_DIAG_SQLSTATE))
            f.sqlState = s;
        if (const char *m = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY))
            f.message = QString::fromUtf8(m).trimmed();
        else
            f.message = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
        if (const char *d = PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL))
            f.detail = QString::fromUtf8(d).trimmed();
        if (const char *h = PQresultErrorField(r, PG_DIAG_MESSAGE_HINT))
            f.hint = QString::fromUtf8(h).trimmed();
    }
    if (f.message.isEmpty() && pg)
        f.message = QString::fromUtf8(PQerrorMessage(pg)).trimmed();
    if (f.message.isEmpty())
        f.message = QStringLiteral("no answer from the server");
    f.connectionLost = !pg || PQstatus(pg) != CONNECTION_OK;
    f.inHotStandby = inHotStandby(pg);
    return f;
}

Failure failureOf(const QSqlQuery &q)
{
    const QSqlError e = q.lastError();
    Failure f;
    f.sqlState = e.nativeErrorCode().toLatin1();
    f.message = e.databaseText().trimmed();
    if (f.message.isEmpty())
        f.message = e.text().trimmed();
    if (f.message.isEmpty())
        f.message = QStringLiteral("no answer from the server");
    PGconn *pg = handleOf(q);
    f.connectionLost = pg ? PQstatus(pg) != CONNECTION_OK : e.type() == QSqlError::ConnectionError;
    f.inHotStandby = inHotStandby(pg);
    return f;
}

ErrorKind kindOf(QByteArrayView s)
{
    if (s == "57014") // query_canceled (a cancel request, or statement_timeout)
        return ErrorKind::Cancelled;
    if (classIs(s, "08") || s == "57P01" || s == "57P02" || s == "57P03" || s == "53300")
        return ErrorKind::Connection; // connection exceptions, the server shutting down, too many connections
    if (classIs(s, "28"))
        return ErrorKind::Authentication;
    if (s == "3D000" || s == "57P04") // invalid_catalog_name, database_dropped
        return ErrorKind::MissingDatabase;
    if (s == "42P01" || s == "42883" || s == "3F000") // undefined table, function, schema
        return ErrorKind::MissingFilter;
    if (s == "22021" || s == "22P05" || s == "22001") // bad UTF-8, untranslatable, a name too long
        return ErrorKind::BadInput;
    return ErrorKind::Server;
}

namespace {

/** What a user can do about a failure of class `s` that is not a lost session or a cancel; `f` is the
 *  context (a session on a standby). */
QString fixFor(QByteArrayView s, const Failure &f)
{
    if (s == "40P01" || s == "40001")
        return QStringLiteral("another session wrote the same rows at the same time; run it again");
    if (s == "25006" && f.inHotStandby)
        return standbyWriteFix();
    if (s == "25006") // the session's, the role's or the database's default_transaction_read_only
        return QStringLiteral("the transaction is read-only: the session is read-only (in the window, Admin > Admin "
                              "mode writes), or default_transaction_read_only is on for this role or database");
    if (s == "42501")
        return QStringLiteral("this role lacks the privilege the message names: ask the object's owner to grant it "
                              "(docs/operations.md \"Privileges\")");
    if (s == "55P03")
        return QStringLiteral("another session holds a lock on it (see pg_locks); run it again when that ends");
    if (s == "53100")
        return QStringLiteral("the server's disk is full: free space there, then run it again");
    if (s == "25P02")
        return QStringLiteral("a bug: a statement ran in a transaction that had already failed; please report it");
    return {};
}

/** classify() of the primary message. */
Error classifyPrimary(const Failure &f, const QString &what)
{
    Error e;
    e.sqlState = QString::fromLatin1(f.sqlState);
    const QByteArrayView s = f.sqlState;
    // A session that is gone fails every statement, whatever SQLSTATE (if any) came with the last one.
    e.kind = f.connectionLost && kindOf(s) != ErrorKind::Cancelled ? ErrorKind::Connection : kindOf(s);
    if (s == "40P01" || s == "40001")
        e.retry = Error::Retry::Transaction;
    if (e.kind == ErrorKind::Connection)
        e.fix = QStringLiteral("check that the server is up; nothing was committed by the failed step");
    else
        e.fix = fixFor(s, f);
    if (what.isEmpty()) { // the caller words the context itself (PgConn)
        e.message = f.message;
        return e;
    }
    switch (e.kind) {
    case ErrorKind::Cancelled:
        e.message = QStringLiteral("%1: cancelled").arg(what);
        break;
    case ErrorKind::Connection:
        e.message = QStringLiteral("%1: lost the connection: %2").arg(what, f.message);
        break;
    case ErrorKind::MissingFilter:
    case ErrorKind::MissingDatabase:
        e.message = QStringLiteral("%1: %2").arg(what, f.message);
        break;
    default:
        e.message = QStringLiteral("%1 failed: %2").arg(what, f.message);
    }
    return e;
}

/** classify() of a failed connection: the cause from how far it got and the server's SQLSTATE. */
Error classifyConnect(const Failure &f)
{
    const ConnectStage &c = *f.connect;
    const QString &where = c.where;
    const QString &said = f.message;
    const QByteArrayView state = f.sqlState;
    const auto unreachable = [&] {
        return makeError(
            ErrorKind::Connection,
            QCoreApplication::translate("bloom", "cannot reach the server at %1: %2").arg(where, said),
            QCoreApplication::translate("bloom", "check host and port, that the server is running, and that it listens "
                                                 "there (listen_addresses, firewalls)"));
    };
    if (c.gaveUp || (!c.secondWorked && !c.reachedServer))
        return unreachable();
    if (c.secondWorked) // say what the first attempt said
        return makeError(
            ErrorKind::Connection, QCoreApplication::translate("bloom", "cannot connect to %1: %2").arg(where, said),
            QCoreApplication::translate("bloom", "the server accepted a second attempt at once: try again"));
    if (state == "28P01" || (c.usedPassword && classIs(state, "28")))
        return makeError(ErrorKind::Authentication,
                         QCoreApplication::translate("bloom", "authentication failed for %1: %2").arg(where, said),
                         QCoreApplication::translate(
                             "bloom", "check the user name and password; keep the password in ~/.pgpass "
                                      "(chmod 600), a service file, or PGPASSWORD, never on the command line"));
    if (c.needsPassword)
        return makeError(
            ErrorKind::Authentication,
            QCoreApplication::translate("bloom", "the server asks %1 for a password, and none was given: %2")
                .arg(where, said),
            QCoreApplication::translate("bloom", "keep the password in ~/.pgpass (chmod 600), a service file, or "
                                                 "PGPASSWORD (the window asks for it), never on the command line"));
    if (state == "28000") {
        if (c.tlsUsed && !c.clientCertExists)
            return makeError(
                ErrorKind::Connection,
                QCoreApplication::translate(
                    "bloom", "TLS: the server wants a client certificate from %1, and none was sent (%2 does not "
                             "exist): %3")
                    .arg(where, c.clientCert, said),
                QCoreApplication::translate(
                    "bloom", "put the client's certificate and key where sslcert and sslkey point (by default "
                             "~/.postgresql/postgresql.crt and postgresql.key, the key chmod 600), issued by the CA "
                             "in the server's ssl_ca_file for the user name as its CN"));
        return makeError(
            ErrorKind::Authentication,
            QCoreApplication::translate("bloom", "the server refused %1: %2").arg(where, said),
            QCoreApplication::translate("bloom",
                                        "check user=... (does the role exist?) and the server's pg_hba.conf: it "
                                        "needs a line for this user, database and address%1")
                .arg(c.tlsUsed
                         ? QCoreApplication::translate("bloom", " (a cert line also wants the certificate's CN to be "
                                                                "the user name)")
                         : QString()));
    }
    if (state == "3D000")
        return makeError(
            ErrorKind::MissingDatabase, QCoreApplication::translate("bloom", "%1: %2").arg(where, said),
            QCoreApplication::translate("bloom", "check dbname=..., or create the database (createdb NAME)"));
    if (state == "53300")
        return makeError(
            ErrorKind::Connection,
            QCoreApplication::translate("bloom", "%1 has no connection free: %2").arg(where, said),
            QCoreApplication::translate("bloom", "try again when sessions have ended, or raise max_connections or the "
                                                 "role's connection limit"));
    if (state == "57P03")
        return makeError(
            ErrorKind::Connection,
            QCoreApplication::translate("bloom", "%1 is not accepting connections now: %2").arg(where, said),
            QCoreApplication::translate("bloom",
                                        "the server is starting, stopping, or in recovery without hot_standby: try "
                                        "again shortly"));
    if (!state.isEmpty()) {
        Error e =
            makeError(kindOf(state), QCoreApplication::translate("bloom", "cannot connect to %1: %2").arg(where, said));
        if (e.kind == ErrorKind::Server)
            e.kind = ErrorKind::Connection;
        e.sqlState = QString::fromLatin1(f.sqlState);
        return e;
    }
    if (c.failedInTls) {
        const bool verifies = c.sslMode == QLatin1String("verify-ca") || c.sslMode == QLatin1String("verify-full");
        if (verifies && !c.rootCertExists)
            return makeError(
                ErrorKind::Connection,
                QCoreApplication::translate("bloom",
                                            "TLS: cannot verify the certificate of %1: the root certificate file %2 "
                                            "does not exist (sslmode=%3): %4")
                    .arg(where, c.rootCert, c.sslMode, said),
                QCoreApplication::translate("bloom", "put there the certificate of the CA that signed the server's "
                                                     "certificate, or name it with sslrootcert=FILE"));
        if (c.serverOffersTls == false)
            return makeError(
                ErrorKind::Connection,
                QCoreApplication::translate("bloom", "TLS: %1 does not offer TLS, and sslmode=%2 requires it: %3")
                    .arg(where, c.sslMode, said),
                QCoreApplication::translate("bloom",
                                            "turn ssl on in the server's postgresql.conf (with ssl_cert_file and "
                                            "ssl_key_file), or, only on a network you trust, connect with "
                                            "sslmode=prefer"));
        if (c.passesWithCaAlone == true)
            return makeError(
                ErrorKind::Connection,
                QCoreApplication::translate(
                    "bloom", "TLS: the server's certificate does not name the host %1 (sslmode=verify-full "
                             "checks the name; its CA is the one in %2): %3")
                    .arg(c.host, c.rootCert, said),
                QCoreApplication::translate(
                    "bloom", "connect with a host name the certificate names (its subject alternative names, "
                             "or CN), or have the server's certificate issued for %1; sslmode=verify-ca "
                             "checks the CA alone")
                    .arg(c.host));
        return makeError(
            ErrorKind::Connection,
            QCoreApplication::translate("bloom",
                                        "TLS: the certificate of %1 was not issued by the CA in %2 (sslmode=%3): %4")
                .arg(where, c.rootCert, c.sslMode, said),
            QCoreApplication::translate("bloom",
                                        "sslrootcert must hold the certificate of the CA that signed the server's "
                                        "certificate (ask its DBA; openssl s_client -starttls postgres -connect "
                                        "HOST:PORT -showcerts shows the chain the server sends)%1")
                .arg(verifies
                         ? QString()
                         : QCoreApplication::translate("bloom", "; with sslmode=%1 libpq verifies against %2 because "
                                                                "that file exists")
                               .arg(c.sslMode, c.rootCert)));
    }
    return makeError(ErrorKind::Connection,
                     QCoreApplication::translate("bloom", "cannot connect to %1: %2").arg(where, said));
}

} // namespace

Error classify(const Failure &fIn, const QString &what)
{
    if (fIn.connect)
        return classifyConnect(fIn);
    Failure f = fIn;
    if (!f.detail.isEmpty())
        f.message += QStringLiteral(" (%1)").arg(f.detail);
    Error e = classifyPrimary(f, what);
    if (e.fix.isEmpty() && !f.hint.isEmpty())
        e.fix = f.hint;
    return e;
}

Error errorOf(PGconn *pg, const PGresult *r, const QString &what)
{
    return classify(failureOf(pg, r), what);
}

Status script(PGconn *pg, const QString &sql, const QString &what)
{
    // PQexec returns the result of the last statement that ran: the failed one's when one fails (the
    // rest are not run), so its SQLSTATE and message are the server's own.
    std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(pg, sql.toUtf8().constData()), &PQclear);
    const ExecStatusType st = PQresultStatus(r.get());
    if (r && (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || st == PGRES_EMPTY_QUERY))
        return success();
    return errorOf(pg, r.get(), what);
}

Status one(PGconn *pg, const QString &sql, const QString &what)
{
    std::unique_ptr<PGresult, decltype(&PQclear)> r(
        PQexecParams(pg, sql.toUtf8().constData(), 0, nullptr, nullptr, nullptr, nullptr, 0), &PQclear);
    const ExecStatusType st = PQresultStatus(r.get());
    if (r && (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK))
        return success();
    return errorOf(pg, r.get(), what);
}

} // namespace bloom::pg
