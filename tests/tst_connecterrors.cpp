// Connection failures told apart by cause (issue 34, item 5): a server with TLS on (ssl=on, a private CA
// made here with openssl) and one without, and each certificate problem gets its own message and fix
// instead of "cannot reach the server ... check host and port". The same cases run through bloomctl in
// German (client and server), where libpq's and the server's words differ: the cause never comes from them.
#include "postgres/database.h"
#include "testcluster.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <pwd.h>
#include <unistd.h>

using namespace bloom;

class TestConnectErrors : public QObject {
    Q_OBJECT
private:
    QTemporaryDir mDir;
    LocalCluster mTls, mPlain;
    QString mLocales;

    QString file(const QString &name) const { return mDir.filePath(name); }
    bool openssl(const QStringList &args)
    {
        QProcess p;
        p.setWorkingDirectory(mDir.path());
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("openssl"), args);
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning("openssl %s: %s", qPrintable(args.join(QLatin1Char(' '))), p.readAll().constData());
            return false;
        }
        return true;
    }
    /** A key and a certificate for `cn` signed by the CA `ca` (a self-signed CA when `ca` is empty). */
    bool certificate(const QString &name, const QString &cn, const QString &ca, const QString &san = {})
    {
        const QStringList key{QStringLiteral("-newkey"),    QStringLiteral("ec"),
                              QStringLiteral("-pkeyopt"),   QStringLiteral("ec_paramgen_curve:prime256v1"),
                              QStringLiteral("-nodes"),     QStringLiteral("-keyout"),
                              name + QStringLiteral(".key")};
        if (ca.isEmpty())
            return openssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-days"),
                                       QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=") + cn,
                                       QStringLiteral("-out"), name + QStringLiteral(".crt")} +
                           key);
        if (!openssl(QStringList{QStringLiteral("req"), QStringLiteral("-new"), QStringLiteral("-subj"),
                                 QStringLiteral("/CN=") + cn, QStringLiteral("-out"), name + QStringLiteral(".csr")} +
                     key))
            return false;
        QStringList sign{QStringLiteral("x509"),        QStringLiteral("-req"),       QStringLiteral("-in"),
                         name + QStringLiteral(".csr"), QStringLiteral("-CA"),        ca + QStringLiteral(".crt"),
                         QStringLiteral("-CAkey"),      ca + QStringLiteral(".key"),  QStringLiteral("-set_serial"),
                         QStringLiteral("2"),           QStringLiteral("-days"),      QStringLiteral("2"),
                         QStringLiteral("-out"),        name + QStringLiteral(".crt")};
        if (!san.isEmpty()) {
            QFile ext(file(name + QStringLiteral(".ext")));
            if (!ext.open(QIODevice::WriteOnly))
                return false;
            ext.write("subjectAltName=" + san.toUtf8() + '\n');
            ext.close();
            sign << QStringLiteral("-extfile") << name + QStringLiteral(".ext");
        }
        return openssl(sign);
    }
    QString tls(const QString &host, const QString &user, const QString &more) const
    {
        return QStringLiteral("host=%1 port=%2 dbname=postgres user=%3 connect_timeout=5 %4")
            .arg(host)
            .arg(mTls.port())
            .arg(user, more);
    }
    /** certuser's certificate and key, which the server's pg_hba.conf asks for. */
    QString clientCert() const
    {
        return QStringLiteral("sslcert=%1 sslkey=%2")
            .arg(file(QStringLiteral("client.crt")), file(QStringLiteral("client.key")));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(mDir.isValid());
        // A German locale (localedef, as tst_pgerror makes it): the server speaks it, and bloomctl's libpq.
        mLocales = file(QStringLiteral("locales"));
        QVERIFY(QDir().mkpath(mLocales));
        QProcess def;
        def.start(QStringLiteral("localedef"), {QStringLiteral("-i"), QStringLiteral("de_DE"), QStringLiteral("-f"),
                                                QStringLiteral("UTF-8"), mLocales + QStringLiteral("/de_DE.UTF-8")});
        QVERIFY(def.waitForFinished(60000));
        QVERIFY2(def.exitCode() == 0, def.readAllStandardError().constData());
        QProcess cp;
        cp.start(QStringLiteral("cp"), {QStringLiteral("-r"), QStringLiteral("/usr/lib/locale/C.utf8"), mLocales});
        QVERIFY(cp.waitForFinished(60000) && cp.exitCode() == 0);
        qputenv("LOCPATH", mLocales.toLocal8Bit());

        // A private CA, the server's certificate for "localhost" only, certuser's client certificate, and
        // a second CA that signed neither.
        QVERIFY(certificate(QStringLiteral("ca"), QStringLiteral("Bloomscope test CA"), {}));
        QVERIFY(certificate(QStringLiteral("other-ca"), QStringLiteral("Another CA"), {}));
        QVERIFY(certificate(QStringLiteral("server"), QStringLiteral("localhost"), QStringLiteral("ca"),
                            QStringLiteral("DNS:localhost")));
        QVERIFY(certificate(QStringLiteral("client"), QStringLiteral("certuser"), QStringLiteral("ca")));
        for (const char *key : {"server.key", "client.key"})
            QVERIFY(QFile::setPermissions(file(QLatin1String(key)), QFile::ReadOwner | QFile::WriteOwner));
        if (::geteuid() == 0) { // the server runs as postgres: its key and the directory are handed to it
            const passwd *pw = ::getpwnam("postgres");
            QVERIFY(pw);
            for (const QString &f : {mDir.path(), file(QStringLiteral("server.key")),
                                     file(QStringLiteral("server.crt")), file(QStringLiteral("ca.crt"))})
                QCOMPARE(::chown(QFile::encodeName(f).constData(), pw->pw_uid, pw->pw_gid), 0);
        }
        LocalCluster::Options o;
        o.settings << QStringLiteral("ssl=on") << QStringLiteral("ssl_cert_file=") + file(QStringLiteral("server.crt"))
                   << QStringLiteral("ssl_key_file=") + file(QStringLiteral("server.key"))
                   << QStringLiteral("ssl_ca_file=") + file(QStringLiteral("ca.crt"))
                   << QStringLiteral("lc_messages=de_DE.UTF-8");
        auto s = mTls.start(o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        // certuser logs in with its certificate only; everyone else over TCP with a password.
        QFile hba(mTls.dataDir() + QStringLiteral("/pg_hba.conf"));
        QVERIFY(hba.open(QIODevice::WriteOnly | QIODevice::Truncate));
        hba.write("local all all trust\n"
                  "hostssl all certuser 127.0.0.1/32 cert\n"
                  "host all all 127.0.0.1/32 scram-sha-256\n");
        hba.close();
        QVERIFY(mTls.exec(QStringLiteral("postgres"),
                          QStringLiteral("create role certuser login; create role pwuser login password 'right'; "
                                         "select pg_reload_conf()"))
                    .ok());
        LocalCluster::Options plain;
        plain.settings << QStringLiteral("lc_messages=de_DE.UTF-8");
        QVERIFY(mPlain.start(plain).ok());
        QVERIFY(
            mPlain.exec(QStringLiteral("postgres"), QStringLiteral("create role pwuser login password 'right'")).ok());
    }

    /** The set-up works: certuser with its certificate, over verify-full, and pwuser with its password. */
    void theRightCredentialsConnect()
    {
        for (const QString &conninfo : {tls(QStringLiteral("localhost"), QStringLiteral("certuser"),
                                            QStringLiteral("sslmode=verify-full sslrootcert=%1 %2")
                                                .arg(file(QStringLiteral("ca.crt")), clientCert())),
                                        tls(QStringLiteral("localhost"), QStringLiteral("pwuser"),
                                            QStringLiteral("password=right sslmode=verify-full sslrootcert=%1")
                                                .arg(file(QStringLiteral("ca.crt"))))}) {
            auto db = Database::open(ConnectionSpec::parse(conninfo).value());
            QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().toString()));
        }
    }

    void eachCauseHasItsMessage_data()
    {
        QTest::addColumn<QString>("conninfo");
        QTest::addColumn<ErrorKind>("kind");
        QTest::addColumn<QString>("says");
        QTest::addColumn<QString>("fix");
        const QString ca = file(QStringLiteral("ca.crt"));
        const QString noCert = QStringLiteral("sslcert=%1 sslkey=%1").arg(file(QStringLiteral("missing.crt")));
        QTest::newRow("no client certificate")
            << tls(QStringLiteral("localhost"), QStringLiteral("certuser"),
                   QStringLiteral("sslmode=verify-full sslrootcert=%1 %2").arg(ca, noCert))
            << ErrorKind::Connection << QStringLiteral("TLS: the server wants a client certificate")
            << QStringLiteral("sslcert and sslkey");
        QTest::newRow("no root certificate") << tls(QStringLiteral("localhost"), QStringLiteral("certuser"),
                                                    QStringLiteral("sslmode=verify-full sslrootcert=%1 %2")
                                                        .arg(file(QStringLiteral("missing-root.crt")), clientCert()))
                                             << ErrorKind::Connection
                                             << QStringLiteral("the root certificate file %1 does not exist")
                                                    .arg(file(QStringLiteral("missing-root.crt")))
                                             << QStringLiteral("sslrootcert=FILE");
        QTest::newRow("another CA's root") << tls(QStringLiteral("localhost"), QStringLiteral("certuser"),
                                                  QStringLiteral("sslmode=verify-ca sslrootcert=%1 %2")
                                                      .arg(file(QStringLiteral("other-ca.crt")), clientCert()))
                                           << ErrorKind::Connection << QStringLiteral("was not issued by the CA in")
                                           << QStringLiteral("openssl s_client");
        QTest::newRow("a host name the certificate does not name")
            << tls(QStringLiteral("127.0.0.1"), QStringLiteral("certuser"),
                   QStringLiteral("sslmode=verify-full sslrootcert=%1 %2").arg(ca, clientCert()))
            << ErrorKind::Connection << QStringLiteral("does not name the host 127.0.0.1")
            << QStringLiteral("sslmode=verify-ca");
        QTest::newRow("no TLS on the server")
            << QStringLiteral("host=127.0.0.1 port=%1 dbname=postgres user=pwuser password=right sslmode=require")
                   .arg(mPlain.port())
            << ErrorKind::Connection << QStringLiteral("does not offer TLS, and sslmode=require requires it")
            << QStringLiteral("ssl on");
        QTest::newRow("wrong password")
            << tls(QStringLiteral("localhost"), QStringLiteral("pwuser"),
                   QStringLiteral("password=wrong sslmode=verify-full sslrootcert=%1").arg(ca))
            << ErrorKind::Authentication << QStringLiteral("authentication failed") << QStringLiteral(".pgpass");
        QTest::newRow("no password") << tls(QStringLiteral("localhost"), QStringLiteral("pwuser"),
                                            QStringLiteral("passfile=%1 sslmode=verify-full sslrootcert=%2")
                                                .arg(file(QStringLiteral("none")), ca))
                                     << ErrorKind::Authentication
                                     << QStringLiteral("for a password, and none was given")
                                     << QStringLiteral(".pgpass");
        QTest::newRow("no such database")
            << QStringLiteral(
                   "host=localhost port=%1 dbname=nosuchdb user=certuser sslmode=verify-full sslrootcert=%2 %3")
                   .arg(mTls.port())
                   .arg(ca, clientCert())
            << ErrorKind::MissingDatabase << QStringLiteral("nosuchdb") << QStringLiteral("createdb");
        QTest::newRow("nothing listens")
            << QStringLiteral("host=127.0.0.1 port=1 dbname=postgres user=pwuser sslmode=verify-full sslrootcert=%1")
                   .arg(ca)
            << ErrorKind::Connection << QStringLiteral("cannot reach the server") << QStringLiteral("listens");
        QTest::newRow("no such socket directory")
            << QStringLiteral("host=/nonexistent-bloomscope port=1 dbname=postgres user=pwuser")
            << ErrorKind::Connection << QStringLiteral("cannot reach the server") << QStringLiteral("listens");
    }
    void eachCauseHasItsMessage()
    {
        QFETCH(QString, conninfo);
        QFETCH(ErrorKind, kind);
        QFETCH(QString, says);
        QFETCH(QString, fix);
        auto db = Database::open(ConnectionSpec::parse(conninfo).value());
        QVERIFY(!db.ok());
        const Error &e = db.error();
        QVERIFY2(e.kind == kind, qPrintable(errorKindName(e.kind) + QStringLiteral(": ") + e.toString()));
        QVERIFY2(e.message.contains(says), qPrintable(e.toString()));
        QVERIFY2(e.fix.contains(fix), qPrintable(e.toString()));
        if (kind != ErrorKind::Connection || !says.startsWith(QLatin1String("cannot reach")))
            QVERIFY2(!e.toString().contains(QLatin1String("cannot reach")), qPrintable(e.toString()));
        QVERIFY(!e.toString().contains(QLatin1String("password=right")));

        // bloomctl in German: libpq's words are German, so are the server's; the cause is the same.
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LOCPATH"), mLocales);
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("de_DE.UTF-8"));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("de"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(BLOOMCTL_PATH), {QStringLiteral("--db"), conninfo, QStringLiteral("info")});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        qInfo("%s\n  in German: %s", qPrintable(e.toString()), err.trimmed().constData());
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains(says.toUtf8()), err.constData());
        QVERIFY2(err.contains(fix.toUtf8()), err.constData());
        if (const QByteArray tag = QTest::currentDataTag();
            tag == "nothing listens" || tag == "no such socket directory") // libpq did speak German
            QVERIFY2(err.contains("Verbindung"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestConnectErrors)
#include "tst_connecterrors.moc"
