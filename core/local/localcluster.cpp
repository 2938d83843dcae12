#include "local/localcluster.h"
#include "postgres/pgconn.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace bloom {

int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    int port = 0;
    socklen_t len = sizeof addr;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

namespace {

QString tail(const QString &path, int lines)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QStringList all = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    return all.mid(qMax(0, all.size() - lines)).join(QLatin1Char('\n'));
}

} // namespace

LocalCluster::LocalCluster() = default;

LocalCluster::~LocalCluster()
{
    (void)stop();
}

QString LocalCluster::dataDir() const
{
    return mBaseDir + QStringLiteral("/data");
}

QString LocalCluster::logFile() const
{
    return mBaseDir + QStringLiteral("/server.log");
}

QString LocalCluster::connectionString(const QString &database) const
{
    return QStringLiteral("host=%1 port=%2 user=%3 dbname=%4")
        .arg(quoteConninfoValue(mBaseDir), QString::number(mPort), quoteConninfoValue(mOptions.superuser),
             quoteConninfoValue(database));
}

QString LocalCluster::tcpConnectionString(const QString &database, const QString &user) const
{
    return QStringLiteral("host=127.0.0.1 port=%1 user=%2 dbname=%3")
        .arg(QString::number(mPort), quoteConninfoValue(user), quoteConninfoValue(database));
}

Result<QString> LocalCluster::findBinDir()
{
    const auto hasTools = [](const QString &dir) {
        return QFile::exists(dir + QStringLiteral("/initdb")) && QFile::exists(dir + QStringLiteral("/pg_ctl"));
    };
    const QString env = qEnvironmentVariable("BLOOMSCOPE_PG_BINDIR");
    if (!env.isEmpty()) {
        if (hasTools(env))
            return env;
        return makeError(ErrorKind::Cluster,
                         QStringLiteral("BLOOMSCOPE_PG_BINDIR=%1 holds no initdb and pg_ctl").arg(env),
                         QStringLiteral("point it at PostgreSQL's bin directory, or unset it"));
    }
    QDir lib(QStringLiteral("/usr/lib/postgresql"));
    QStringList versions = lib.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    std::sort(versions.begin(), versions.end(),
              [](const QString &a, const QString &b) { return a.toInt() > b.toInt(); });
    for (const QString &v : versions) {
        const QString dir = lib.filePath(v + QStringLiteral("/bin"));
        if (hasTools(dir))
            return dir;
    }
    QProcess pgConfig;
    pgConfig.start(QStringLiteral("pg_config"), {QStringLiteral("--bindir")});
    if (pgConfig.waitForFinished(5000) && pgConfig.exitCode() == 0) {
        const QString dir = QString::fromLocal8Bit(pgConfig.readAllStandardOutput()).trimmed();
        if (hasTools(dir))
            return dir;
    }
    return makeError(ErrorKind::Cluster, QStringLiteral("no PostgreSQL server binaries (initdb, pg_ctl) found"),
                     QStringLiteral("install them (Debian: apt-get install postgresql-15, or run "
                                    "packaging/setup), or set BLOOMSCOPE_PG_BINDIR"));
}

Status LocalCluster::runTool(const QString &tool, const QStringList &args, int timeoutMs, QString *output) const
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("PGDATA"));
    if (mDropPrivileges) {
        env.insert(QStringLiteral("HOME"), mBaseDir);
        const uid_t uid = mRunAsUid;
        const gid_t gid = mRunAsGid;
        p.setChildProcessModifier([uid, gid] {
            // Runs in the forked child before exec: become the unprivileged server user.
            if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)
                ::_exit(126);
        });
    }
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(mBaseDir);
    p.start(mBinDir + QLatin1Char('/') + tool, args);
    if (!p.waitForStarted(10000))
        return makeError(ErrorKind::Cluster, QStringLiteral("could not run %1: %2").arg(tool, p.errorString()));
    const bool finished = p.waitForFinished(timeoutMs);
    const QString out = QString::fromLocal8Bit(p.readAll());
    if (output)
        *output = out;
    if (!finished) {
        p.kill();
        p.waitForFinished(2000);
        return makeError(ErrorKind::Cluster, QStringLiteral("%1 did not finish in %2 s:\n%3")
                                                 .arg(tool, QString::number(timeoutMs / 1000), out.trimmed()));
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return makeError(
            ErrorKind::Cluster,
            QStringLiteral("%1 failed (exit %2):\n%3").arg(tool, QString::number(p.exitCode()), out.trimmed()));
    return success();
}

Status LocalCluster::start(const Options &options)
{
    if (mRunning)
        return success();
    mOptions = options;
    auto bin = findBinDir();
    if (!bin)
        return bin.error();
    mBinDir = *bin;

    if (options.baseDir.isEmpty()) {
        reapOrphans(QDir::tempPath());
        mTemp = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/bloomscope-pg-XXXXXX"));
        if (!mTemp->isValid())
            return makeError(ErrorKind::Cluster,
                             QStringLiteral("cannot create a temporary directory in %1").arg(QDir::tempPath()),
                             QStringLiteral("set TMPDIR to a writable directory"));
        mBaseDir = mTemp->path();
        QFile owner(mBaseDir + QStringLiteral("/owner.pid")); // for reapOrphans() of a later start
        if (owner.open(QIODevice::WriteOnly))
            owner.write(QByteArray::number(qint64(::getpid())) + '\n');
    } else {
        mBaseDir = QDir(options.baseDir).absolutePath();
        if (!QDir().mkpath(mBaseDir))
            return makeError(ErrorKind::Cluster, QStringLiteral("cannot create %1").arg(mBaseDir));
    }

    mDropPrivileges = ::geteuid() == 0;
    if (mDropPrivileges) {
        const passwd *pw = ::getpwnam("postgres");
        if (!pw)
            return makeError(ErrorKind::Cluster,
                             QStringLiteral("running as root, and there is no 'postgres' system user to run the "
                                            "server as (PostgreSQL refuses to run as root)"),
                             QStringLiteral("install postgresql-15 (it creates the user) or run as a normal user"));
        mRunAsUid = pw->pw_uid;
        mRunAsGid = pw->pw_gid;
        if (::chown(QFile::encodeName(mBaseDir).constData(), mRunAsUid, mRunAsGid) != 0)
            return makeError(ErrorKind::Cluster, QStringLiteral("cannot hand %1 to the postgres user").arg(mBaseDir));
        // The server user must be able to reach its directory through every parent.
        QFile::setPermissions(mBaseDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }

    if (!QFile::exists(dataDir() + QStringLiteral("/PG_VERSION"))) {
        if (auto s = options.standbyOf.isEmpty() ? initdb() : baseBackup(); !s)
            return s;
    }

    const bool pickPort = options.port == 0;
    for (int attempt = 0; attempt < 5; ++attempt) {
        const int port = pickPort ? freeLoopbackPort() : options.port;
        if (port == 0)
            return makeError(ErrorKind::Cluster, QStringLiteral("no free loopback port found"));
        auto s = startServer(port);
        if (s) {
            mPort = port;
            mRunning = true;
            return success();
        }
        const bool busy = s.error().message.contains(QLatin1String("already in use"));
        if (!busy || !pickPort)
            return s;
    }
    return makeError(ErrorKind::Cluster, QStringLiteral("every loopback port tried was busy"));
}

Status LocalCluster::initdb()
{
    QString out;
    auto s = runTool(QStringLiteral("initdb"),
                     {QStringLiteral("-D"), dataDir(), QStringLiteral("-U"), mOptions.superuser, QStringLiteral("-E"),
                      QStringLiteral("UTF8"), QStringLiteral("--locale=") + mOptions.locale,
                      QStringLiteral("--auth-local=trust"), QStringLiteral("--auth-host=scram-sha-256"),
                      QStringLiteral("--no-sync"), QStringLiteral("--no-instructions")},
                     120000, &out);
    if (!s)
        return makeError(
            ErrorKind::Cluster, QStringLiteral("initdb failed in %1: %2").arg(dataDir(), s.error().message),
            QStringLiteral("check that the directory is writable and the locale %1 exists").arg(mOptions.locale));
    // Only the private socket is trusted; TCP on loopback always needs a password.
    QFile hba(dataDir() + QStringLiteral("/pg_hba.conf"));
    if (!hba.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return makeError(ErrorKind::Cluster, QStringLiteral("cannot write %1").arg(hba.fileName()));
    hba.write("# written by Bloomscope's LocalCluster\n"
              "local all all trust\n"
              "local replication all trust\n"
              "host  all all 127.0.0.1/32 scram-sha-256\n");
    hba.close();
    if (mDropPrivileges)
        (void)::chown(QFile::encodeName(hba.fileName()).constData(), mRunAsUid, mRunAsGid);
    return success();
}

Status LocalCluster::baseBackup()
{
    // The primary's files (its pg_hba.conf included) and the WAL of the copy; -R writes standby.signal
    // and primary_conninfo, so the server follows the primary over its private socket.
    QString out;
    auto s = runTool(QStringLiteral("pg_basebackup"),
                     {QStringLiteral("-D"), dataDir(), QStringLiteral("-R"), QStringLiteral("-X"),
                      QStringLiteral("stream"), QStringLiteral("-c"), QStringLiteral("fast"),
                      QStringLiteral("--no-sync"), QStringLiteral("-d"), mOptions.standbyOf},
                     120000, &out);
    if (!s)
        return makeError(ErrorKind::Cluster,
                         QStringLiteral("pg_basebackup of %1 failed: %2").arg(mOptions.standbyOf, s.error().message),
                         QStringLiteral("the primary must allow replication connections on its socket "
                                        "(local replication ... in pg_hba.conf) and run with wal_level replica"));
    return success();
}

Status LocalCluster::startServer(int port)
{
    QStringList serverArgs{QStringLiteral("-c listen_addresses=127.0.0.1"),
                           QStringLiteral("-p %1").arg(port),
                           QStringLiteral("-c unix_socket_directories='%1'").arg(mBaseDir),
                           QStringLiteral("-c fsync=off"),
                           QStringLiteral("-c full_page_writes=off"),
                           QStringLiteral("-c shared_buffers=256MB"),
                           QStringLiteral("-c max_connections=100")};
    for (const QString &setting : mOptions.settings)
        serverArgs << QStringLiteral("-c ") + setting;
    QString out;
    auto s = runTool(QStringLiteral("pg_ctl"),
                     {QStringLiteral("-D"), dataDir(), QStringLiteral("-l"), logFile(), QStringLiteral("-w"),
                      QStringLiteral("-t"), QString::number(mOptions.startTimeoutSeconds), QStringLiteral("-o"),
                      serverArgs.join(QLatin1Char(' ')), QStringLiteral("start")},
                     (mOptions.startTimeoutSeconds + 10) * 1000, &out);
    if (!s) {
        const QString log = tail(logFile(), 15);
        if (log.contains(QLatin1String("already in use")))
            return makeError(ErrorKind::Cluster, QStringLiteral("port %1 is already in use").arg(port),
                             QStringLiteral("choose another port, or 0 for a free one"));
        return makeError(ErrorKind::Cluster,
                         QStringLiteral("the local PostgreSQL server did not start: %1\nserver log (%2):\n%3")
                             .arg(s.error().message, logFile(), log));
    }
    return success();
}

int LocalCluster::reapOrphans(const QString &tempDir)
{
    int reaped = 0;
    const QDir dir(tempDir);
    for (const QString &name : dir.entryList({QStringLiteral("bloomscope-pg-*")}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString base = dir.absoluteFilePath(name);
        QFile owner(base + QStringLiteral("/owner.pid"));
        if (!owner.open(QIODevice::ReadOnly))
            continue;
        const pid_t ownerPid = pid_t(owner.readAll().trimmed().toLongLong());
        if (ownerPid <= 0 || ::kill(ownerPid, 0) == 0 || errno != ESRCH)
            continue; // its owner is alive (or not ours to judge)
        QFile pidFile(base + QStringLiteral("/data/postmaster.pid"));
        if (pidFile.open(QIODevice::ReadOnly)) {
            const QList<QByteArray> lines = pidFile.readAll().split('\n');
            const pid_t postmaster = pid_t(lines.value(0).trimmed().toLongLong());
            const QString dataDir = QString::fromLocal8Bit(lines.value(1).trimmed());
            if (postmaster > 0 &&
                QDir(dataDir).canonicalPath() == QDir(base + QStringLiteral("/data")).canonicalPath() &&
                ::kill(postmaster, SIGQUIT) == 0) { // immediate shutdown
                for (int i = 0; i < 100 && ::kill(postmaster, 0) == 0; ++i)
                    QThread::msleep(100);
            }
        }
        if (QDir(base).removeRecursively())
            ++reaped;
    }
    return reaped;
}

Status LocalCluster::stop()
{
    if (!mRunning)
        return success();
    mRunning = false;
    const QString mode = mTemp ? QStringLiteral("immediate") : QStringLiteral("fast");
    return runTool(
        QStringLiteral("pg_ctl"),
        {QStringLiteral("-D"), dataDir(), QStringLiteral("-m"), mode, QStringLiteral("-w"), QStringLiteral("stop")},
        60000, nullptr);
}

Status LocalCluster::exec(const QString &database, const QString &sql) const
{
    PgConn conn(connectionString(database)); // our own private cluster: set-up SQL as written
    if (!conn.ok())
        return makeError(ErrorKind::Connection, conn.errorMessage());
    return conn.exec(sql);
}

Status LocalCluster::createDatabase(const QString &name, const QString &encoding) const
{
    PgConn conn(connectionString(), PgConn::SearchPath::Pinned);
    if (!conn.ok())
        return makeError(ErrorKind::Connection, conn.errorMessage());
    // A non-UTF-8 encoding only goes with the C locale.
    const bool utf8 = encoding.compare(QLatin1String("UTF8"), Qt::CaseInsensitive) == 0;
    return conn.exec(QStringLiteral("create database %1 template template0 encoding %2 locale %3")
                         .arg(conn.quoteIdentifier(name), conn.quoteLiteral(encoding),
                              conn.quoteLiteral(utf8 ? mOptions.locale : QStringLiteral("C"))));
}

} // namespace bloom
