#pragma once

#include "common/result.h"

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

    /** Parses `key=value ...` or `postgresql://...`; a bad string gives a Connection error. */
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
 * Overwrites, in place, every password given on the command line (`password=...` in a conninfo,
 * `user:PASSWORD@` or `?password=` in a URI) with 'x', so that `ps` and /proc/PID/cmdline no longer
 * show it while a long load runs (psql's and many tools' practice). Call it after the arguments
 * were parsed into strings. Returns how many were scrubbed.
 */
int scrubPasswordsInArgv(int argc, char **argv);

} // namespace bloom
