#include "local/localcluster.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QTest>

using namespace bloom;

/** bloomctl's command line (issue 37, item 4): one option table, per-command help, options of another
 *  command refused, health's usage errors UNKNOWN, --json on every line, PGAPPNAME, a bare --db name. */
class TestCli : public QObject {
    Q_OBJECT
private:
    using Run = test::CtlRun;
    LocalCluster mCluster;
    QString mDb;
    QTemporaryFile mShardMap;

    /** bloomctl with `args` and extra environment variables. */
    static Run ctl(const QStringList &args, const QHash<QString, QString> &env = {}, const QByteArray &input = {})
    {
        return test::runBloomctl(args, input, {}, env);
    }
    Run db(const QStringList &args, const QByteArray &input = {})
    {
        return ctl(QStringList{QStringLiteral("--db"), mDb} + args, {}, input);
    }
    /** Every line on stderr is one JSON object; returns them (and fails the test otherwise). */
    static QList<QJsonObject> jsonLines(const QByteArray &err, bool *ok)
    {
        QList<QJsonObject> out;
        *ok = true;
        for (const QByteArray &line : err.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError e;
            const QJsonDocument d = QJsonDocument::fromJson(line, &e);
            if (e.error != QJsonParseError::NoError || !d.isObject()) {
                qWarning("not a JSON object on stderr: %s", line.constData());
                *ok = false;
                continue;
            }
            out << d.object();
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("app")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("app"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        QVERIFY(mCluster.createDatabase(QStringLiteral("users_0")).ok());
        QVERIFY(mCluster
                    .exec(QStringLiteral("users_0"),
                          QStringLiteral("create table users (id bigint primary key, username text not null); "
                                         "insert into users values (1, 'taken_one')"))
                    .ok());
        mDb = mCluster.connectionString(QStringLiteral("app"));
        QVERIFY(mShardMap.open());
        mShardMap.write("shard = " + mCluster.connectionString(QStringLiteral("users_0")).toUtf8() + "\n");
        mShardMap.close();
    }

    // ---- help from the table

    void commandHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("text"); // a piece of today's long help that must survive
        const auto row = [](const char *c, const char *options, const char *text) {
            QTest::newRow(c) << QString::fromLatin1(c)
                             << QString::fromLatin1(options).split(QLatin1Char(' '), Qt::SkipEmptyParts)
                             << QString::fromLatin1(text);
        };
        row("explain", "--chunks --chunk-bits --k --js --redis --key --bits", "verdict");
        row("init", "--chunks --chunk-bits --k --publication-ok", "Never overwrites");
        row("info", "--redis", "table size");
        row("add", "--redis", "stdin");
        row("check", "--exact --shards --redis", "one per 2.6 KiB");
        row("load", "--jobs", "VACUUMed");
        row("fill", "--csv --redis", "chunk,set_bits");
        row("fpr", "--sample --redis", "never added");
        row("skew", "", "outliers");
        row("chunk", "", "bits of one chunk");
        row("tables", "", "bash completion");
        row("health", "--warning --critical --max-fpr --max-chunk-fill --warn-fpr --warn-chunk-fill --max-snapshot-age",
            "BLOOMSCOPE UNKNOWN");
        row("record", "--thin --print-sql --install-function --publication-ok", "one an hour up to 90 days");
        row("history", "--since --csv", "2026-12-01T08:00");
        row("metrics", "--target-fpr --textfile", "bloomscope_damaged_chunks");
        row("rebuild",
            "--into --into-function --source --query --file --chunks --chunk-bits --k --target-fpr --expected-names "
            "--method --grace --allow-smaller --abort --yes --publication-ok",
            "drained in");
        row("swap", "--yes --allow-fewer-names --accept-uncarried --shards --audit-sample --publication-ok",
            "2% tolerance");
        row("drop-old", "--yes", "old pairs");
        row("signup", "--shards", "id mod shards");
        row("audit", "--shards --sample --no-record --publication-ok", "bloomscope_audit");
        row("simulate", "--shards --generate --taken-share --typing-ms --debounce-ms", "twelve-character");
        row("demo", "--shards --generate --redis-demo", "Ctrl-C");
        row("delete-user", "--shards", "keeps its bits");
    }
    void commandHelp()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, options);
        QFETCH(QString, text);
        const Run viaOption = ctl({command, QStringLiteral("--help")});
        QCOMPARE(viaOption.code, 0);
        QVERIFY(viaOption.err.isEmpty());
        const QString help = QString::fromUtf8(viaOption.out);
        QVERIFY2(help.startsWith(QStringLiteral("Usage: bloomctl [GLOBAL OPTIONS] ") + command), qPrintable(help));
        for (const QString &o : options) {
            // An option's line: "  --name VALUE  help" or "  -w, --name ...".
            const QRegularExpression line(QStringLiteral("\n  (-\\w, )?") + QRegularExpression::escape(o) +
                                          QStringLiteral("[ .\n]"));
            QVERIFY2(help.contains(line), qPrintable(o + QStringLiteral(" missing:\n") + help));
        }
        QVERIFY2(help.contains(text), qPrintable(help));
        for (const char *global : {"--db CONNINFO", "--table T", "--function F", "--json", "--statement-timeout T",
                                   "-h, --help", "--version"})
            QVERIFY(help.contains(QLatin1String(global)));
        // The same text three ways; the overview names the command.
        QCOMPARE(ctl({QStringLiteral("help"), command}).out, viaOption.out);
        QCOMPARE(ctl({QStringLiteral("-h"), command}).out, viaOption.out);
        const Run overview = ctl({QStringLiteral("--help")});
        QVERIFY(overview.out.contains("\n  " + command.toUtf8() + ' '));
        QVERIFY(overview.out != viaOption.out);
    }

    void overviewKeepsTheRules()
    {
        const Run r = ctl({QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        for (const char *text : {"Exit codes:", "COPY text format", "are overwritten in the process's command line",
                                 "--redis URL", "explain --js", "130  interrupted", "{\"rejected\""})
            QVERIFY2(r.out.contains(text), text);
        QCOMPARE(ctl({QStringLiteral("help")}).out, r.out);
        // The man page's text holds every command's help too.
        const Run all = ctl({QStringLiteral("--help-all")});
        QCOMPARE(all.code, 0);
        QVERIFY(all.out.startsWith(r.out));
        QVERIFY(all.out.contains("2% tolerance"));
        QCOMPARE(ctl({QStringLiteral("help"), QStringLiteral("frobnicate")}).code, 2);
    }

    // ---- options per command

    void optionOfAnotherCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("hint");
        const auto row = [](const char *name, QStringList args, const char *message, const char *hint) {
            QTest::newRow(name) << args << QString::fromLatin1(message) << QString::fromLatin1(hint);
        };
        row("check --csv", {QStringLiteral("check"), QStringLiteral("ada"), QStringLiteral("--csv")},
            "option --csv is not an option of check", "Try 'bloomctl help check'.");
        row("explain --thin", {QStringLiteral("explain"), QStringLiteral("ada"), QStringLiteral("--thin")},
            "option --thin is not an option of explain", "Try 'bloomctl help explain'.");
        row("explain --into x",
            {QStringLiteral("explain"), QStringLiteral("ada"), QStringLiteral("--into"), QStringLiteral("x")},
            "option --into is not an option of explain", "Try 'bloomctl help explain'.");
        row("add --yes", {QStringLiteral("add"), QStringLiteral("ada"), QStringLiteral("--yes")},
            "option --yes is not an option of add", "Try 'bloomctl help add'.");
        row("--csv before check", {QStringLiteral("--csv"), QStringLiteral("check"), QStringLiteral("ada")},
            "option --csv is not an option of check", "Try 'bloomctl help check'.");
        row("info --jobs=2", {QStringLiteral("info"), QStringLiteral("--jobs=2")},
            "option --jobs is not an option of info", "Try 'bloomctl help info'.");
        row("signup --sample", {QStringLiteral("signup"), QStringLiteral("--sample"), QStringLiteral("3")},
            "option --sample is not an option of signup", "Try 'bloomctl help signup'.");
        row("-d x", {QStringLiteral("-d"), QStringLiteral("x")}, "unknown option -d", "Try 'bloomctl --help'.");
        row("check -w 1", {QStringLiteral("check"), QStringLiteral("-w"), QStringLiteral("1"), QStringLiteral("ada")},
            "unknown option -w", "Try 'bloomctl help check'.");
        row("check -bob", {QStringLiteral("check"), QStringLiteral("-bob")}, "unknown option -b", "");
        row("unknown long", {QStringLiteral("info"), QStringLiteral("--frobnicate")}, "unknown option --frobnicate",
            "");
        row("unknown command", {QStringLiteral("frobnicate")}, "unknown command 'frobnicate'", "");
        row("flag with a value", {QStringLiteral("fill"), QStringLiteral("--csv=yes")}, "option --csv takes no value",
            "");
        row("missing value", {QStringLiteral("fpr"), QStringLiteral("--sample")}, "option --sample needs a value", "");
        row("chunk out of range", {QStringLiteral("chunk"), QStringLiteral("99999999")}, "out of range", "");
        row("chunk not a number", {QStringLiteral("chunk"), QStringLiteral("x7")}, "is not a chunk number", "");
    }
    void optionOfAnotherCommand()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QFETCH(QString, hint);
        const Run r = db(args);
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        if (!hint.isEmpty())
            QVERIFY2(r.err.contains(hint.toUtf8()), r.err.constData());
        // Under --json the same error is one JSON object.
        const Run j = db(QStringList{QStringLiteral("--json")} + args);
        QCOMPARE(j.code, 2);
        bool ok = false;
        const QList<QJsonObject> lines = jsonLines(j.err, &ok);
        QVERIFY(ok);
        QCOMPARE(lines.size(), 1);
        QVERIFY(lines[0]
                    .value(QLatin1String("error"))
                    .toObject()
                    .value(QLatin1String("message"))
                    .toString()
                    .contains(message));
    }

    void optionsStillParse()
    {
        // --opt=value, options before and after the command, -- before a name that starts with a dash.
        Run r = ctl({QStringLiteral("--db=") + mDb, QStringLiteral("check"), QStringLiteral("--"),
                     QStringLiteral("-bob"), QStringLiteral("ada")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QByteArray("-bob\tfree\nada\tfree\n"));
        r = db({QStringLiteral("--shards"), mShardMap.fileName(), QStringLiteral("check"), QStringLiteral("--exact"),
                QStringLiteral("taken_one")});
        QCOMPARE(r.code, 0);
        r = db({QStringLiteral("fill"), QStringLiteral("--csv"), QStringLiteral("--table"),
                QStringLiteral("username_filter")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("chunk,set_bits\n") || r.out.startsWith("0,"));
        r = db({QStringLiteral("check"), QStringLiteral("-")}, "grace\n");
        QCOMPARE(r.out, QByteArray("grace\tfree\n"));
    }

    // ---- health, a monitoring plugin

    void healthUsageErrorsAreUnknown_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")}
                                        << QStringLiteral("unknown option --frobnicate");
        QTest::newRow("another command's option")
            << QStringList{QStringLiteral("--csv")} << QStringLiteral("option --csv is not an option of health");
        QTest::newRow("unknown short") << QStringList{QStringLiteral("-x")} << QStringLiteral("unknown option -x");
        QTest::newRow("missing value") << QStringList{QStringLiteral("--max-fpr")}
                                       << QStringLiteral("option --max-fpr needs a value");
        QTest::newRow("-w without value")
            << QStringList{QStringLiteral("-w")} << QStringLiteral("option -w/--warning needs a value");
        QTest::newRow("bad value") << QStringList{QStringLiteral("--max-fpr"), QStringLiteral("2")}
                                   << QStringLiteral("--max-fpr");
        QTest::newRow("bad timeout") << QStringList{QStringLiteral("--statement-timeout"), QStringLiteral("forever")}
                                     << QStringLiteral("--statement-timeout");
        QTest::newRow("an argument") << QStringList{QStringLiteral("extra")} << QStringLiteral("health takes no");
    }
    void healthUsageErrorsAreUnknown()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        for (const QStringList &json : {QStringList{}, QStringList{QStringLiteral("--json")}}) {
            const Run r = db(json + QStringList{QStringLiteral("health")} + args);
            QCOMPARE(r.code, 3);
            QVERIFY2(r.out.startsWith("BLOOMSCOPE UNKNOWN - "), r.out.constData());
            QCOMPARE(r.out.count('\n'), 1);
            QVERIFY2(r.out.contains(message.toUtf8()), r.out.constData());
        }
        // The options it declares are accepted.
        const Run ok = db({QStringLiteral("health"), QStringLiteral("--max-fpr"), QStringLiteral("1%")});
        QVERIFY2(ok.code == 0 || ok.code == 1, ok.out.constData());
        const Run help = db({QStringLiteral("health"), QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains("  -w, --warning [METRIC=]RANGE[,...]..."));
        QVERIFY(help.out.contains("  -c, --critical [METRIC=]RANGE[,...]..."));
    }

    // ---- --json: every line on stderr is JSON

    void rejectedNamesAsJson()
    {
        // An empty name and invalid UTF-8, as bytes (a QProcess argument cannot carry them: a shell can).
        QProcess p;
        p.start(QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"),
                 QStringLiteral("exec \"$0\" --db \"$1\" --json check ada '' \"$(printf 'bad\\377')\""),
                 QStringLiteral(BLOOMCTL_PATH), mDb});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 5);
        const QByteArray err = p.readAllStandardError();
        bool ok = false;
        const QList<QJsonObject> lines = jsonLines(err, &ok);
        QVERIFY2(ok, err.constData());
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].value(QLatin1String("rejected")).toObject().value(QLatin1String("argument")).toInt(), 2);
        QCOMPARE(lines[1].value(QLatin1String("rejected")).toObject().value(QLatin1String("argument")).toInt(), 3);
        QVERIFY(lines[1]
                    .value(QLatin1String("rejected"))
                    .toObject()
                    .value(QLatin1String("message"))
                    .toString()
                    .contains(QLatin1String("UTF-8")));
        QVERIFY(QJsonDocument::fromJson(p.readAllStandardOutput()).isArray());
        // Bad lines of stdin, with their line numbers.
        const Run r = db({QStringLiteral("--json"), QStringLiteral("add"), QStringLiteral("-")}, "fine\n\nbad\xff\n");
        QCOMPARE(r.code, 5);
        const QList<QJsonObject> bad = jsonLines(r.err, &ok);
        QVERIFY2(ok, r.err.constData());
        QCOMPARE(bad.size(), 2);
        QCOMPARE(bad[0].value(QLatin1String("rejected")).toObject().value(QLatin1String("line")).toInt(), 2);
        QCOMPARE(bad[1].value(QLatin1String("rejected")).toObject().value(QLatin1String("line")).toInt(), 3);
    }

    void everyCommandSpeaksJson()
    {
        bool ok = false;
        // record --print-sql: the SQL inside an object.
        Run r = db({QStringLiteral("--json"), QStringLiteral("record"), QStringLiteral("--print-sql"),
                    QStringLiteral("--install-function")});
        QCOMPARE(r.code, 0);
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(o.value(QLatin1String("sql")).toString().contains(QLatin1String("create table")), r.out.constData());
        QVERIFY(o.value(QLatin1String("pg_cron")).toString().contains(QLatin1String("cron.schedule")));
        jsonLines(r.err, &ok);
        QVERIFY(ok);
        // signup: a new name, then the same name taken (exit 6); delete-user.
        const QStringList shards{QStringLiteral("--json"), QStringLiteral("--shards"), mShardMap.fileName()};
        r = db(shards + QStringList{QStringLiteral("signup"), QStringLiteral("newcomer")});
        QCOMPARE(r.code, 0);
        o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QLatin1String("name")).toString(), QStringLiteral("newcomer"));
        QCOMPARE(o.value(QLatin1String("taken")).toBool(), false);
        QCOMPARE(o.value(QLatin1String("shard")).toInt(), 0);
        QVERIFY(r.err.isEmpty());
        r = db(shards + QStringList{QStringLiteral("signup"), QStringLiteral("taken_one")});
        QCOMPARE(r.code, 6);
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QLatin1String("taken")).toBool(), true);
        jsonLines(r.err, &ok);
        QVERIFY2(ok, r.err.constData());
        r = db(shards +
               QStringList{QStringLiteral("delete-user"), QStringLiteral("--yes"), QStringLiteral("newcomer")});
        QCOMPARE(r.code, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QLatin1String("deleted")).toInt(), 1);
        r = db(shards + QStringList{QStringLiteral("signup"), QString()}); // an empty name: exit 5, JSON
        QCOMPARE(r.code, 5);
        jsonLines(r.err, &ok);
        QVERIFY2(ok, r.err.constData());
        // drop-old with nothing to drop, and without --yes on a pipe (refused: still JSON).
        r = db({QStringLiteral("--json"), QStringLiteral("drop-old")});
        QCOMPARE(r.code, 0);
        QVERIFY(QJsonDocument::fromJson(r.out).object().value(QLatin1String("dropped")).isArray());
        QVERIFY(r.err.isEmpty());
        r = db({QStringLiteral("--json"), QStringLiteral("rebuild"), QStringLiteral("--abort")});
        jsonLines(r.err, &ok);
        QVERIFY2(ok, r.err.constData());
        // A rebuild's notes (its geometry, its stages).
        r = db({QStringLiteral("--json"), QStringLiteral("rebuild"), QStringLiteral("--yes"), QStringLiteral("--into"),
                QStringLiteral("cli_rebuilt"), QStringLiteral("--allow-smaller"), QStringLiteral("--chunks"),
                QStringLiteral("256"), QStringLiteral("--chunk-bits"), QStringLiteral("1024"), QStringLiteral("--k"),
                QStringLiteral("4"), QStringLiteral("--grace"), QStringLiteral("0"), QStringLiteral("--source"),
                mCluster.connectionString(QStringLiteral("users_0"))});
        const QList<QJsonObject> notes = jsonLines(r.err, &ok);
        QVERIFY2(ok, r.err.constData());
        QVERIFY2(r.code == 0 || !notes.isEmpty(), r.err.constData());
        r = db({QStringLiteral("--json"), QStringLiteral("swap"), QStringLiteral("cli_rebuilt")});
        jsonLines(r.err, &ok);
        QVERIFY2(ok, r.err.constData());
        r = db(
            {QStringLiteral("--json"), QStringLiteral("rebuild"), QStringLiteral("--abort"), QStringLiteral("--yes")});
        jsonLines(r.err, &ok);
        QVERIFY2(ok, r.err.constData());
    }

    // ---- the connection

    void pgappnameNamesTheSession()
    {
        PgConn admin(mDb);
        QVERIFY(admin.ok());
        const auto sessionNamed = [&admin](const QByteArray &name) {
            auto n = admin.column(QStringLiteral("select count(*) from pg_stat_activity where application_name = $1"),
                                  {name});
            return n.ok() && !n->isEmpty() && n->first().toInt() > 0;
        };
        // `check -` attaches, then waits for stdin: the session is there to be seen.
        const auto seen = [&](const QHash<QString, QString> &env, const QString &conninfo, const QByteArray &name) {
            QProcess p;
            QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
            e.remove(QStringLiteral("PGAPPNAME"));
            for (auto it = env.begin(); it != env.end(); ++it)
                e.insert(it.key(), it.value());
            p.setProcessEnvironment(e);
            p.start(QStringLiteral(BLOOMCTL_PATH),
                    {QStringLiteral("--db"), conninfo, QStringLiteral("check"), QStringLiteral("-")});
            p.waitForStarted();
            bool found = false;
            for (int i = 0; i < 300 && !found && p.state() == QProcess::Running; ++i) {
                found = sessionNamed(name);
                if (!found)
                    QTest::qWait(50);
            }
            p.write("ada\n");
            p.closeWriteChannel();
            p.waitForFinished(30000);
            return found && p.exitCode() == 0;
        };
        QVERIFY(seen({{QStringLiteral("PGAPPNAME"), QStringLiteral("tst_cli_app")}}, mDb, "tst_cli_app"));
        QVERIFY(seen({}, mDb + QStringLiteral(" application_name=from_conninfo"), "from_conninfo"));
        QVERIFY(seen({}, mDb, "bloomscope"));
    }

    void bareDatabaseName()
    {
        const QHash<QString, QString> env{{QStringLiteral("PGHOST"), mCluster.socketDir()},
                                          {QStringLiteral("PGPORT"), QString::number(mCluster.port())},
                                          {QStringLiteral("PGUSER"), mCluster.superuser()}};
        Run r =
            ctl({QStringLiteral("--db"), QStringLiteral("app"), QStringLiteral("--json"), QStringLiteral("info")}, env);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QLatin1String("chunks")).toInt(), 131072);
        r = ctl({QStringLiteral("--db"), QStringLiteral("no_such_db"), QStringLiteral("info")}, env);
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("no_such_db"), r.err.constData());
    }

    void cleanupTestCase() { QVERIFY(mCluster.stop().ok()); }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
