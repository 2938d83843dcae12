#pragma once

#include "common/result.h"
#include "local/localcluster.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>

namespace bloom::test {

/**
 * Debian's PgBouncer in front of a LocalCluster, started as LocalCluster starts its server: as the
 * `postgres` system user when the test runs as root (PgBouncer refuses root), on 127.0.0.1 and a free
 * port only (no Unix socket), with its own ini and auth file in a temporary directory; stopped with the
 * object. It reaches the server over the cluster's private socket (trust there); clients authenticate
 * to it with SCRAM against its auth file.
 */
class LocalPgBouncer {
public:
    struct Options {
        QString poolMode = QStringLiteral("session");
        int poolSize = 2;
        QString user, password; ///< the one client it lets in
        QStringList settings;   ///< more "name = value" lines of its [pgbouncer] section
    };

    ~LocalPgBouncer()
    {
        if (mProcess.state() != QProcess::NotRunning) {
            mProcess.terminate(); // SIGTERM: shut down at once
            if (!mProcess.waitForFinished(10000))
                mProcess.kill();
            mProcess.waitForFinished(5000);
        }
    }

    Status start(const LocalCluster &cluster, const Options &o)
    {
        if (!mDir.isValid())
            return makeError(ErrorKind::Cluster, QStringLiteral("no temporary directory for PgBouncer"));
        const QString binary = QStringLiteral("/usr/sbin/pgbouncer");
        if (!QFile::exists(binary))
            return makeError(ErrorKind::Cluster, QStringLiteral("%1 is not installed").arg(binary),
                             QStringLiteral("apt-get install pgbouncer (packaging/setup does)"));
        mPort = freeLoopbackPort();
        mUser = o.user;
        const QString dir = mDir.path();
        QFile users(dir + QStringLiteral("/userlist.txt"));
        if (!users.open(QIODevice::WriteOnly))
            return makeError(ErrorKind::Cluster, users.errorString());
        users.write(QStringLiteral("\"%1\" \"%2\"\n").arg(o.user, o.password).toUtf8());
        users.close();
        QFile ini(dir + QStringLiteral("/pgbouncer.ini"));
        if (!ini.open(QIODevice::WriteOnly))
            return makeError(ErrorKind::Cluster, ini.errorString());
        QString text = QStringLiteral("[databases]\n* = host=%1 port=%2\n\n[pgbouncer]\n"
                                      "listen_addr = 127.0.0.1\nlisten_port = %3\nunix_socket_dir =\n"
                                      "auth_type = scram-sha-256\nauth_file = %4/userlist.txt\n"
                                      "pool_mode = %5\ndefault_pool_size = %6\nmax_client_conn = 100\n"
                                      "logfile = %4/pgbouncer.log\npidfile =\n")
                           .arg(cluster.socketDir())
                           .arg(cluster.port())
                           .arg(mPort)
                           .arg(dir, o.poolMode)
                           .arg(o.poolSize);
        for (const QString &s : o.settings)
            text += s + QLatin1Char('\n');
        ini.write(text.toUtf8());
        ini.close();
        // The client's password file (libpq wants it 0600).
        QFile pass(passfile());
        if (!pass.open(QIODevice::WriteOnly))
            return makeError(ErrorKind::Cluster, pass.errorString());
        pass.write(QStringLiteral("127.0.0.1:%1:*:%2:%3\n").arg(mPort).arg(o.user, o.password).toUtf8());
        pass.close();
        pass.setPermissions(QFile::ReadOwner | QFile::WriteOwner);

        if (::geteuid() == 0) {
            const passwd *pw = ::getpwnam("postgres");
            if (!pw)
                return makeError(ErrorKind::Cluster, QStringLiteral("no 'postgres' user to run PgBouncer as"));
            const uid_t uid = pw->pw_uid;
            const gid_t gid = pw->pw_gid;
            for (const QString &f :
                 {dir, dir + QStringLiteral("/userlist.txt"), dir + QStringLiteral("/pgbouncer.ini")})
                if (::chown(QFile::encodeName(f).constData(), uid, gid) != 0)
                    return makeError(ErrorKind::Cluster, QStringLiteral("cannot hand %1 to postgres").arg(f));
            mProcess.setChildProcessModifier([uid, gid] {
                if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)
                    ::_exit(126);
            });
        }
        mProcess.setProcessChannelMode(QProcess::MergedChannels);
        mProcess.start(binary, {dir + QStringLiteral("/pgbouncer.ini")});
        if (!mProcess.waitForStarted(10000))
            return makeError(ErrorKind::Cluster,
                             QStringLiteral("PgBouncer did not start: %1").arg(mProcess.errorString()));
        // Up when its port takes a connection (bounded).
        const QDeadlineTimer deadline(15000);
        while (!deadline.hasExpired()) {
            if (mProcess.state() == QProcess::NotRunning)
                return makeError(
                    ErrorKind::Cluster,
                    QStringLiteral("PgBouncer exited: %1\n%2").arg(QString::fromLocal8Bit(mProcess.readAll()), log()));
            if (listening())
                return success();
            QThread::msleep(20);
        }
        return makeError(ErrorKind::Cluster, QStringLiteral("PgBouncer did not listen within 15 s:\n%1").arg(log()));
    }

    int port() const { return mPort; }
    QString passfile() const { return mDir.path() + QStringLiteral("/client.pgpass"); }
    /** A client's connection string through PgBouncer (the password from passfile()). */
    QString conninfo(const QString &database) const
    {
        return QStringLiteral("host=127.0.0.1 port=%1 user=%2 dbname=%3 passfile=%4 sslmode=disable")
            .arg(mPort)
            .arg(mUser, database, passfile());
    }
    QString log() const
    {
        QFile f(mDir.path() + QStringLiteral("/pgbouncer.log"));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }

private:
    bool listening() const
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(quint16(mPort));
        const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
        ::close(fd);
        return ok;
    }

    QTemporaryDir mDir{QDir::tempPath() + QStringLiteral("/bloomscope-pgbouncer-XXXXXX")};
    QProcess mProcess;
    int mPort = 0;
    QString mUser;
};

} // namespace bloom::test
