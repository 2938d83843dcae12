#pragma once

#include "common/result.h"

#include <QString>
#include <QStringList>

#include <memory>

class QTemporaryDir;

namespace bloom {

/** A loopback port that is free right now (bound to port 0, read back, closed); 0 if none. */
int freeLoopbackPort();

/**
 * A private, throw-away PostgreSQL cluster: initdb (UTF-8) into a temporary or given directory, a
 * server on 127.0.0.1 and a private Unix socket, stopped on destruction. Runs the server as the
 * `postgres` system user when the process is root (initdb refuses root).
 */
class LocalCluster {
public:
    struct Options {
        QString baseDir; ///< empty: a new temporary directory, removed on destruction
        int port = 0;    ///< 0: pick a free loopback port
        QString superuser = QStringLiteral("bloomscope");
        QString locale = QStringLiteral("C.UTF-8");
        QStringList settings; ///< extra "name=value" server settings
        int startTimeoutSeconds = 60;
        /** A primary's connection string (its private socket): the data directory is then a base
         *  backup of it (pg_basebackup -R), and the server starts as its streaming hot standby. */
        QString standbyOf;
    };

    LocalCluster();
    ~LocalCluster();
    LocalCluster(const LocalCluster &) = delete;
    LocalCluster &operator=(const LocalCluster &) = delete;

    Status start(const Options &options);
    Status start() { return start(Options{}); }
    /** Stops the server (fast for a kept directory, immediate for a temporary one). */
    Status stop();
    bool isRunning() const { return mRunning; }

    int port() const { return mPort; }
    QString superuser() const { return mOptions.superuser; }
    QString socketDir() const { return mBaseDir; }
    QString dataDir() const;
    QString logFile() const;
    /** libpq connection string for the superuser over the private socket (trust auth). */
    QString connectionString(const QString &database = QStringLiteral("postgres")) const;
    /** libpq connection string over TCP 127.0.0.1 (scram-sha-256: needs a role with a password). */
    QString tcpConnectionString(const QString &database, const QString &user) const;

    /** Runs SQL as the superuser through libpq (for set-up: roles, databases, fixtures). */
    Status exec(const QString &database, const QString &sql) const;
    /** Creates a database (quoted identifier) with the given encoding, template0. */
    Status createDatabase(const QString &name, const QString &encoding = QStringLiteral("UTF8")) const;

    /**
     * Stops and removes the temporary clusters (bloomscope-pg-* in `tempDir`) whose owning process is
     * gone: a demo or test killed with SIGKILL cannot stop its server, so the next start does. Only
     * directories with an owner.pid file are touched, and a server only if its postmaster.pid names
     * that directory. Returns how many were reaped.
     */
    static int reapOrphans(const QString &tempDir);

    /** Where initdb and pg_ctl are: $BLOOMSCOPE_PG_BINDIR, `pg_config --bindir`, newest /usr/lib/postgresql.
     */
    static Result<QString> findBinDir();

private:
    Status initdb();
    /** The data directory as a base backup of options.standbyOf, set up to follow it (standby.signal). */
    Status baseBackup();
    Status startServer(int port);
    Status runTool(const QString &tool, const QStringList &args, int timeoutMs, QString *output) const;

    Options mOptions;
    std::unique_ptr<QTemporaryDir> mTemp;
    QString mBaseDir;
    QString mBinDir;
    int mPort = 0;
    bool mRunning = false;
    unsigned mRunAsUid = 0;
    unsigned mRunAsGid = 0;
    bool mDropPrivileges = false;
};

} // namespace bloom
