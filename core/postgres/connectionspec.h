#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace bloom {

/**
 * A libpq connection string or URI, parsed by libpq itself (PQconninfoParse). Empty means "libpq's
 * defaults": the PG* environment variables, ~/.pgpass and the service file apply as in psql.
 */
class ConnectionSpec {
public:
    ConnectionSpec() = default;

    /** Parses `key=value ...`, `postgresql://...` or a bare database name (a word without `=` that is not
     *  a URI, as psql takes it); a bad string gives a Connection error. */
    static Result<ConnectionSpec> parse(const QString &conninfo);

    /** The option, or empty when it was not given. */
    QString value(const QString &keyword) const;
    void set(const QString &keyword, const QString &value);
    bool has(const QString &keyword) const { return !value(keyword).isEmpty(); }

    /** key=value form with every value quoted as libpq wants; includes any password given. */
    QString toConninfo() const;
    /** The same connection with any password removed (for a record that outlives the session:
     *  reconnecting then takes the password from ~/.pgpass or the service file, as libpq does). */
    ConnectionSpec withoutPassword() const;
    /** For titles and logs: user@host:port/dbname, never the password (libpq defaults shown as such). */
    QString describe() const;

private:
    QList<QPair<QString, QString>> mOptions;
};

/**
 * Overwrites, in place, every password given on the command line with 'x', in every spelling libpq
 * accepts: `password=...` and `sslpassword=...` in a key=value string (whitespace around '=', quoted
 * or backslash-escaped values), `user:PASSWORD@` and `?password=` in a URI (a percent-encoded key such
 * as `passwor%64=` too), alone or as `--option=VALUE`. `ps` and /proc/PID/cmdline then show none.
 * Returns how many were scrubbed.
 */
int scrubPasswordsInArgv(int argc, char **argv);

/**
 * The command line as the process got it, copied before the passwords in argv are scrubbed: the
 * first thing each program's main() makes, so that a password is readable in /proc/PID/cmdline for
 * as short a time as possible (docs/operations.md "Privileges"). The programs read their arguments from here.
 */
class ProcessArguments {
public:
    /** Copies argv, then scrubPasswordsInArgv(argc, argv). */
    ProcessArguments(int argc, char **argv);
    /** The arguments argv still holds, as they were given, without the program's name: after
     *  Q(Core)Application took its own options out of argv. */
    QList<QByteArray> remaining(int argc, char **argv) const;
    int scrubbed() const { return mScrubbed; }

private:
    QList<std::pair<const char *, QByteArray>> mOriginal;
    int mScrubbed = 0;
};

} // namespace bloom
