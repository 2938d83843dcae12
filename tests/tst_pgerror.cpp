// The one classifier (issue 32): every PostgreSQL failure, whichever path it took (QPSQL, libpq, a
// multi-statement script, COPY), is classified by its SQLSTATE into an ErrorKind and bloomctl's exit
// code. The server here speaks German (lc_messages = de_DE.UTF-8): no English word decides anything.
#include "local/localcluster.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"
#include "postgres/pgerror.h"
#include "testcluster.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <libpq-fe.h>

#include <atomic>
#include <thread>

using namespace bloom;

Q_DECLARE_METATYPE(bloom::ErrorKind)
Q_DECLARE_METATYPE(bloom::Error::Retry)

class TestPgError : public QObject {
    Q_OBJECT
private:
    QTemporaryDir mDir;
    LocalCluster mCluster;
    std::unique_ptr<Database> mDb;

    /** The failure `sql` raises, through each path; the paths' errors must agree. */
    QList<std::pair<QString, Error>> failuresOf(const QString &sql)
    {
        QList<std::pair<QString, Error>> out;
        {
            QSqlQuery q(mDb->db());
            if (q.exec(sql))
                qFatal("QPSQL ran %s", qPrintable(sql));
            out.append({QStringLiteral("QPSQL"), Database::queryError(q, QStringLiteral("the test"))});
        }
        {
            auto s = pg::script(mDb->pgconn(), QStringLiteral("select 1; %1; select 2").arg(sql),
                                QStringLiteral("the test"));
            out.append({QStringLiteral("a script"), s.ok() ? Error{} : s.error()});
        }
        {
            PgConn c(mCluster.connectionString(QStringLiteral("t")), PgConn::SearchPath::Pinned);
            auto s = c.exec(sql);
            out.append({QStringLiteral("PgConn"), s.ok() ? Error{} : s.error()});
        }
        {
            // The statement run inside a COPY's query: the error arrives in COPY's protocol.
            PgConn c(mCluster.connectionString(QStringLiteral("t")), PgConn::SearchPath::Pinned);
            auto s = copyOut(c.handle(), QStringLiteral("copy (select public.fails()) to stdout"),
                             [](QByteArrayView) { return true; });
            out.append({QStringLiteral("COPY"), s.ok() ? Error{} : s.error()});
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(mDir.isValid());
        // A German locale for the server's messages, generated here (localedef, from Debian's locales
        // package) beside the C.UTF-8 the cluster runs with; the server finds both through LOCPATH.
        const QString locales = mDir.filePath(QStringLiteral("locales"));
        QVERIFY(QDir().mkpath(locales));
        QFile::setPermissions(mDir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                               QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup |
                                               QFileDevice::ExeGroup);
        QProcess def;
        def.start(QStringLiteral("localedef"), {QStringLiteral("-i"), QStringLiteral("de_DE"), QStringLiteral("-f"),
                                                QStringLiteral("UTF-8"), locales + QStringLiteral("/de_DE.UTF-8")});
        QVERIFY(def.waitForFinished(60000));
        QVERIFY2(def.exitCode() == 0, def.readAllStandardError().constData());
        QProcess cp;
        cp.start(QStringLiteral("cp"), {QStringLiteral("-r"), QStringLiteral("/usr/lib/locale/C.utf8"), locales});
        QVERIFY(cp.waitForFinished(60000) && cp.exitCode() == 0);
        qputenv("LOCPATH", locales.toLocal8Bit());
        LocalCluster::Options o;
        o.settings << QStringLiteral("lc_messages=de_DE.UTF-8");
        auto started = mCluster.start(o);
        QVERIFY2(started.ok(), qPrintable(started.ok() ? QString() : started.error().toString()));
        QVERIFY(mCluster.createDatabase(QStringLiteral("t")).ok());
        QVERIFY(mCluster
                    .exec(QStringLiteral("t"),
                          QStringLiteral("create table present (x int); create role outsider login; "
                                         "create function public.fails() returns int language plpgsql as $$ "
                                         "begin raise exception using errcode = current_setting('test.state'), "
                                         "message = 'gewollt'; end $$"))
                    .ok());
        auto db = Database::open(*ConnectionSpec::parse(mCluster.connectionString(QStringLiteral("t"))));
        QVERIFY(db.ok());
        mDb = std::move(db).value();
        // The server really answers in German: an English word match would find nothing.
        QSqlQuery q(mDb->db());
        QVERIFY(!q.exec(QStringLiteral("select 1/0")));
        QVERIFY2(q.lastError().databaseText().contains(QLatin1String("Division durch Null")),
                 qPrintable(q.lastError().databaseText()));
    }

    /** The table: SQLSTATE -> kind -> exit code (and retry). */
    void classifies_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<ErrorKind>("kind");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<Error::Retry>("retry");
        QTest::addColumn<QString>("fix"); // a word the fix must hold, or empty
        const auto row = [](const char *state, ErrorKind kind, int code, Error::Retry retry = Error::Retry::No,
                            const char *fix = "") {
            QTest::newRow(state) << QString::fromLatin1(state) << kind << code << retry << QString::fromLatin1(fix);
        };
        row("57014", ErrorKind::Cancelled, 130);
        row("40P01", ErrorKind::Server, 1, Error::Retry::Transaction, "again");
        row("40001", ErrorKind::Server, 1, Error::Retry::Transaction, "again");
        row("42P01", ErrorKind::MissingFilter, 4);
        row("42883", ErrorKind::MissingFilter, 4);
        row("3F000", ErrorKind::MissingFilter, 4);
        row("25006", ErrorKind::Server, 1, Error::Retry::No, "read-only");
        row("42501", ErrorKind::Server, 1, Error::Retry::No, "privilege");
        row("55P03", ErrorKind::Server, 1, Error::Retry::No, "lock");
        row("53100", ErrorKind::Server, 1, Error::Retry::No, "disk");
        row("22021", ErrorKind::BadInput, 5);
        row("22001", ErrorKind::BadInput, 5);
        row("08006", ErrorKind::Connection, 3);
        row("57P01", ErrorKind::Connection, 3);
        row("53300", ErrorKind::Connection, 3);
        row("28P01", ErrorKind::Authentication, 3);
        row("3D000", ErrorKind::MissingDatabase, 3);
        row("XX000", ErrorKind::Server, 1);
        row("42601", ErrorKind::Server, 1);
    }
    void classifies()
    {
        QFETCH(QString, state);
        QFETCH(ErrorKind, kind);
        QFETCH(int, exitCode);
        QFETCH(Error::Retry, retry);
        QFETCH(QString, fix);
        // The server raises it (a German message), and it reaches the client by every path.
        QVERIFY(mDb->exec(QStringLiteral("set test.state = '%1'").arg(state)).ok());
        QVERIFY(mCluster.exec(QStringLiteral("t"), QStringLiteral("alter database t set test.state = '%1'").arg(state))
                    .ok());
        for (const auto &[path, e] : failuresOf(QStringLiteral("select public.fails()"))) {
            QVERIFY2(e.sqlState == state, qPrintable(path + QStringLiteral(": ") + e.sqlState));
            QVERIFY2(e.kind == kind, qPrintable(path + QStringLiteral(": ") + errorKindName(e.kind)));
            QCOMPARE(exitCodeFor(e.kind), exitCode);
            QVERIFY2(e.retry == retry, qPrintable(path));
            if (!fix.isEmpty())
                QVERIFY2(e.fix.contains(fix), qPrintable(path + QStringLiteral(": ") + e.fix));
            if (kind != ErrorKind::Cancelled) // a cancel is worded by Bloomscope
                QVERIFY2(e.message.contains(QLatin1String("gewollt")),
                         qPrintable(path + QStringLiteral(": ") + e.message));
        }
    }

    /** Real failures, not raised by hand: the server's own SQLSTATE classifies them. */
    void realFailures()
    {
        QVERIFY(mCluster.exec(QStringLiteral("t"), QStringLiteral("alter database t reset test.state")).ok());
        for (const auto &[path, e] : failuresOf(QStringLiteral("select * from missing_table"))) {
            if (path == QLatin1String("COPY"))
                continue; // COPY runs public.fails()
            QVERIFY2(e.kind == ErrorKind::MissingFilter, qPrintable(path + e.message));
            QVERIFY2(e.message.contains(QLatin1String("existiert nicht")), qPrintable(path + e.message));
        }
        // A read-only transaction, and a role without the privilege.
        PgConn c(mCluster.connectionString(QStringLiteral("t")), PgConn::SearchPath::Pinned);
        auto ro = c.exec(QStringLiteral("begin read only; insert into public.present values (1)"));
        QVERIFY(!ro.ok());
        QCOMPARE(ro.error().sqlState, QStringLiteral("25006"));
        QVERIFY(c.exec(QStringLiteral("rollback")).ok());
    }

    /** A script's failed statement is the error, with the server's SQLSTATE: QPSQL's exec() of the same
     *  script reports nothing usable (the trap behind "syntax error at or near (" on a standby). */
    void aScriptReportsTheStatementThatFailed()
    {
        auto s = pg::script(mDb->pgconn(),
                            QStringLiteral("create temp table s1 (x int); insert into missing_table values (1); "
                                           "create temp table s2 (x int)"),
                            QStringLiteral("a script"));
        QVERIFY(!s.ok());
        QCOMPARE(s.error().sqlState, QStringLiteral("42P01"));
        QCOMPARE(s.error().kind, ErrorKind::MissingFilter);
        QVERIFY2(s.error().message.contains(QLatin1String("missing_table")), qPrintable(s.error().message));
    }

    /** A cancel is Cancelled (bloomctl's 130) whichever path the statement ran on: the server's
     *  "canceling statement" is German here. */
    void aCancelIsACancelOnEveryPath()
    {
        // The statement runs on this thread (a session is used by the thread that opened it); the
        // cancel comes from another, as a Cancel button's or Ctrl-C's does.
        const auto cancelled = [](auto run, auto cancel) {
            std::atomic<bool> done{false};
            std::thread canceller([&] {
                while (!done.load()) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(300));
                    if (!done.load())
                        cancel();
                }
            });
            Error e = run();
            done = true;
            canceller.join();
            return e;
        };
        // QPSQL through Database.
        Error e = cancelled(
            [this] {
                QSqlQuery q(mDb->db());
                return q.exec(QStringLiteral("select pg_sleep(30)"))
                           ? Error{}
                           : Database::queryError(q, QStringLiteral("sleeping"));
            },
            [this] { mDb->cancel(); });
        QCOMPARE(e.kind, ErrorKind::Cancelled);
        QCOMPARE(exitCodeFor(e.kind), 130);
        // libpq: a script, PgConn, a COPY out and a COPY in.
        PgConn c(mCluster.connectionString(QStringLiteral("t")), PgConn::SearchPath::Pinned);
        e = cancelled(
            [&c] {
                auto s = pg::script(c.handle(), QStringLiteral("select 1; select pg_sleep(30)"), QStringLiteral("s"));
                return s.ok() ? Error{} : s.error();
            },
            [&c] { c.cancel(); });
        QCOMPARE(e.kind, ErrorKind::Cancelled);
        e = cancelled(
            [&c] {
                auto s = c.exec(QStringLiteral("select pg_sleep(30)"));
                return s.ok() ? Error{} : s.error();
            },
            [&c] { c.cancel(); });
        QCOMPARE(e.kind, ErrorKind::Cancelled);
        e = cancelled(
            [&c] {
                auto s = copyOut(c.handle(), QStringLiteral("copy (select pg_sleep(30)) to stdout"),
                                 [](QByteArrayView) { return true; });
                return s.ok() ? Error{} : s.error();
            },
            [&c] { c.cancel(); });
        QCOMPARE(e.kind, ErrorKind::Cancelled);
        QVERIFY(c.exec(QStringLiteral("create temp table slow (x int); create function pg_temp.slow() returns "
                                      "trigger language plpgsql as $$ begin perform pg_sleep(30); return new; end $$; "
                                      "create trigger slow before insert on slow for each row execute function "
                                      "pg_temp.slow()"))
                    .ok());
        e = cancelled(
            [&c] {
                auto s = copyIn(c.handle(), QStringLiteral("copy slow from stdin"),
                                [](const ByteSink &sink) -> qint64 { return sink("1\n", 2) ? 1 : -1; });
                return s.ok() ? Error{} : s.error();
            },
            [&c] { c.cancel(); });
        QCOMPARE(e.kind, ErrorKind::Cancelled);
    }

    /** A session that is gone is a Connection error (exit 3) by libpq's status, not by its words. */
    void aLostSessionIsAConnectionError()
    {
        PgConn c(mCluster.connectionString(QStringLiteral("t")), PgConn::SearchPath::Pinned);
        auto pid = c.column(QStringLiteral("select pg_backend_pid()"));
        QVERIFY(pid.ok());
        QVERIFY(mCluster
                    .exec(QStringLiteral("t"),
                          QStringLiteral("select pg_terminate_backend(%1)").arg(QString::fromLatin1(pid->value(0))))
                    .ok());
        auto s = c.exec(QStringLiteral("select 1"));
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind, ErrorKind::Connection);
        QCOMPARE(exitCodeFor(s.error().kind), 3);
    }
};

QTEST_GUILESS_MAIN(TestPgError)
#include "tst_pgerror.moc"
