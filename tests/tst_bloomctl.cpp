#include "local/localcluster.h"
#include "model/placement.h"
#include "monitor/plaindecimal.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <signal.h>

using namespace bloom;

/** bloomctl end to end against a LocalCluster: every command, its output formats and exit codes. */
class TestBloomctl : public QObject {
    Q_OBJECT
private:
    using Run = test::CtlRun;
    LocalCluster mCluster;
    QString mDb;

    Run bloomctl(QStringList args, const QByteArray &input = {}, const QString &db = {})
    {
        return test::runBloomctl(QStringList{QStringLiteral("--db"), db.isEmpty() ? mDb : db} + args, input);
    }
    QString mPromtoolSaid;
    /** `promtool check metrics` on `text`; what it said is kept for the failure message. */
    bool promtoolAccepts(const QByteArray &text)
    {
        if (!QFile::exists(QStringLiteral(PROMTOOL_PATH))) {
            mPromtoolSaid =
                QStringLiteral("promtool is missing: run packaging/setup, which unpacks it into build/tools");
            return false;
        }
        QProcess promtool;
        promtool.start(QStringLiteral(PROMTOOL_PATH), {QStringLiteral("check"), QStringLiteral("metrics")});
        if (!promtool.waitForStarted())
            return false;
        promtool.write(text);
        promtool.closeWriteChannel();
        promtool.waitForFinished(60000);
        mPromtoolSaid = QString::fromUtf8(promtool.readAllStandardOutput() + promtool.readAllStandardError());
        return promtool.exitStatus() == QProcess::NormalExit && promtool.exitCode() == 0;
    }
    /** Whether a fix says to write an empty row (0::bit(N)): the names of that chunk would all check
     *  free. All ones (~0::bit(N)) is what a fix may say. */
    static bool suggestsAnEmptyRow(const QByteArray &text)
    {
        static const QRegularExpression empty(QStringLiteral("(^|[^~])0::bit"));
        return empty.match(QString::fromUtf8(text)).hasMatch();
    }
    /** Every performance datum after the '|' as the monitoring-plugins guidelines define one:
     *  'label'=value[UOM];[warn];[crit];[min];[max], numbers in [-0-9.] (never an exponent), warn and
     *  crit in the range syntax. */
    static void checkPerfData(const QByteArray &out)
    {
        static const QRegularExpression datum(
            QStringLiteral("^('([^']|'')+'|[^ '=]+)=-?[0-9.]+(s|ms|us|%|B|KB|MB|GB|TB|c)?"
                           "(;(@?(~|-?[0-9.]+)?:?(-?[0-9.]+)?)?){0,2}(;(-?[0-9.]+)?){0,2}$"));
        const QString line = QString::fromUtf8(out).trimmed();
        QVERIFY2(line.count(QLatin1Char('|')) == 1, qPrintable(line));
        const QStringList data = line.section(QLatin1Char('|'), 1).trimmed().split(QLatin1Char(' '));
        QVERIFY2(data.size() >= 2, qPrintable(line));
        for (const QString &d : data)
            QVERIFY2(datum.match(d).hasMatch(), qPrintable(d + QStringLiteral(" in ") + line));
    }
    static QJsonValue json(const Run &r)
    {
        return QJsonDocument::fromJson(r.out).isArray() ? QJsonValue(QJsonDocument::fromJson(r.out).array())
                                                        : QJsonValue(QJsonDocument::fromJson(r.out).object());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("app")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("app"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        mDb = mCluster.connectionString(QStringLiteral("app"));
    }

    void checkAddCheck()
    {
        Run r = bloomctl({QStringLiteral("check"), QStringLiteral("ada"), QStringLiteral("grace")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QByteArray("ada\tfree\ngrace\tfree\n"));
        r = bloomctl({QStringLiteral("add"), QStringLiteral("Ada")});
        QCOMPARE(r.code, 0);
        r = bloomctl(
            {QStringLiteral("--json"), QStringLiteral("check"), QStringLiteral("ada"), QStringLiteral("grace")});
        QCOMPARE(r.code, 0);
        const QJsonArray a = json(r).toArray();
        QCOMPARE(a.size(), 2);
        QCOMPARE(a[0].toObject().value(QLatin1String("name")).toString(), QStringLiteral("ada"));
        QCOMPARE(a[0].toObject().value(QLatin1String("verdict")).toString(), QStringLiteral("maybe"));
        QCOMPARE(a[1].toObject().value(QLatin1String("verdict")).toString(), QStringLiteral("free"));
    }

    void stdinNames()
    {
        Run r = bloomctl({QStringLiteral("add"), QStringLiteral("-")}, "edsger\nbarbara\n\nStraße\n");
        QCOMPARE(r.code, 5); // the empty line is reported, the rest added
        QVERIFY(r.err.contains("stdin line 3"));
        r = bloomctl({QStringLiteral("check"), QStringLiteral("-")}, "EDSGER\nbarbara\nSTRAßE\nnobody-here\n");
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QByteArray("EDSGER\tmaybe\nbarbara\tmaybe\nSTRAßE\tmaybe\nnobody-here\tfree\n"));
    }

    void loadFile()
    {
        QTemporaryFile f;
        QVERIFY(f.open());
        for (int i = 0; i < 50000; ++i)
            f.write("loaded" + QByteArray::number(i) + "\n");
        f.write("bad\xff\n");
        f.write("\n");
        f.write("final\n");
        f.close();
        Run r = bloomctl({QStringLiteral("--json"), QStringLiteral("load"), f.fileName()});
        QCOMPARE(r.code, 5);
        const QJsonObject o = json(r).toObject();
        QCOMPARE(o.value(QLatin1String("added")).toInt(), 50001);
        QCOMPARE(o.value(QLatin1String("lines")).toInt(), 50003);
        const QJsonArray bad = o.value(QLatin1String("bad_lines")).toArray();
        QCOMPARE(bad.size(), 2);
        QCOMPARE(bad[0].toObject().value(QLatin1String("line")).toInt(), 50001);
        // Under --json the bad lines are JSON objects on stderr, one a line.
        const QList<QByteArray> errLines = r.err.trimmed().split('\n');
        QCOMPARE(errLines.size(), 2);
        const QJsonObject first =
            QJsonDocument::fromJson(errLines[0]).object().value(QLatin1String("rejected")).toObject();
        QCOMPARE(first.value(QLatin1String("line")).toInt(), 50001);
        QCOMPARE(first.value(QLatin1String("message")).toString(), QStringLiteral("the name is not valid UTF-8"));
        QCOMPARE(QJsonDocument::fromJson(errLines[1])
                     .object()
                     .value(QLatin1String("rejected"))
                     .toObject()
                     .value(QLatin1String("message")),
                 QStringLiteral("the name is empty"));
        r = bloomctl({QStringLiteral("load"), f.fileName()}); // and as text without it
        QCOMPARE(r.code, 5);
        QVERIFY(r.err.contains("line 50001: the name is not valid UTF-8"));
        QVERIFY(r.err.contains("line 50002: the name is empty"));
        r = bloomctl({QStringLiteral("check"), QStringLiteral("loaded0"), QStringLiteral("loaded49999"),
                      QStringLiteral("final")});
        QCOMPARE(r.out, QByteArray("loaded0\tmaybe\nloaded49999\tmaybe\nfinal\tmaybe\n"));
        r = bloomctl({QStringLiteral("load"), QStringLiteral("/no/such/file")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("cannot read /no/such/file"));
    }

    void info()
    {
        Run r = bloomctl({QStringLiteral("--json"), QStringLiteral("info")});
        QCOMPARE(r.code, 0);
        const QJsonObject o = json(r).toObject();
        for (const char *key : {"table", "function", "chunks", "chunk_bits", "k", "set_bits", "fill", "estimated_fpr",
                                "estimated_names", "table_bytes", "dead_tuples", "bloat", "last_autovacuum"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(QLatin1String("table")).toString(), QStringLiteral("username_filter"));
        QCOMPARE(o.value(QLatin1String("chunks")).toInt(), 131072);
        QCOMPARE(o.value(QLatin1String("chunk_bits")).toInt(), 8192);
        QCOMPARE(o.value(QLatin1String("k")).toInt(), 7);
        const double names = o.value(QLatin1String("estimated_names")).toDouble();
        QVERIFY2(std::abs(names - 50006) < 300, qPrintable(QString::number(names)));
        r = bloomctl({QStringLiteral("info")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("[the reference filter]"));
        QVERIFY(r.out.contains("dead tuples"));
    }

    void fillCsv()
    {
        Run r = bloomctl({QStringLiteral("fill"), QStringLiteral("--csv")});
        QCOMPARE(r.code, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 131073);
        QCOMPARE(lines[0], QByteArray("chunk,set_bits"));
        QCOMPARE(lines[71962 + 1].split(',').value(0), QByteArray("71962"));
        QVERIFY(lines[71962 + 1].split(',').value(1).toInt() >= 7);
    }

    void fprAndSkew()
    {
        Run r = bloomctl({QStringLiteral("fpr")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("estimated FPR"));
        r = bloomctl(
            {QStringLiteral("--json"), QStringLiteral("fpr"), QStringLiteral("--sample"), QStringLiteral("5000")});
        QCOMPARE(r.code, 0);
        QCOMPARE(json(r).toObject().value(QLatin1String("probes")).toInt(), 5000);
        r = bloomctl({QStringLiteral("fpr"), QStringLiteral("--sample"), QStringLiteral("0")});
        QCOMPARE(r.code, 2);
        r = bloomctl({QStringLiteral("skew")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("outliers: none"));
    }

    void healthIsAMonitoringPlugin()
    {
        // One status line with performance data, and the plugin exit codes: 0 OK, 1 WARNING, 2 CRITICAL,
        // 3 UNKNOWN (even for what would be a usage or connection error elsewhere in bloomctl).
        Run r = bloomctl({QStringLiteral("health")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("BLOOMSCOPE OK - public.username_filter: estimated FPR"), r.out.constData());
        QCOMPARE(r.out.count('\n'), 1);
        QVERIFY(r.out.contains(" | fpr="));
        QVERIFY(r.out.contains(" chunk_fill="));
        checkPerfData(r.out);
        const QString fpr = QString::fromUtf8(r.out).section(QStringLiteral("fpr="), 1).section(QLatin1Char(';'), 0, 0);
        const double now = fpr.toDouble();
        QVERIFY(now > 0);
        r = bloomctl({QStringLiteral("health"), QStringLiteral("--max-fpr"), QString::number(now * 1.5, 'g', 10)});
        QCOMPARE(r.code, 1); // over half the maximum: WARNING
        QVERIFY(r.out.startsWith("BLOOMSCOPE WARNING - estimated FPR"));
        r = bloomctl({QStringLiteral("health"), QStringLiteral("--max-fpr"), QString::number(now / 2, 'g', 10)});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.startsWith("BLOOMSCOPE CRITICAL - estimated FPR"));
        r = bloomctl({QStringLiteral("health"), QStringLiteral("--max-chunk-fill"), QStringLiteral("0.0001%")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.contains("fullest chunk"));
        r = bloomctl({QStringLiteral("health"), QStringLiteral("--max-fpr"), QStringLiteral("2")});
        QCOMPARE(r.code, 3);
        QVERIFY(r.out.startsWith("BLOOMSCOPE UNKNOWN - --max-fpr"));
        r = bloomctl({QStringLiteral("health")}, {}, QStringLiteral("host=/nonexistent dbname=x"));
        QCOMPARE(r.code, 3);
        QVERIFY(r.out.startsWith("BLOOMSCOPE UNKNOWN - cannot reach the server"));
        QCOMPARE(r.out.count('\n'), 1); // libpq's two-line message made one line
        r = bloomctl({QStringLiteral("--table"), QStringLiteral("missing"), QStringLiteral("health")});
        QCOMPARE(r.code, 3);
    }

    /** health's usage errors are the plugin's UNKNOWN (exit 3) with a status line on stdout, never
     *  bloomctl's exit 2 (issue 37, 1). */
    void healthUsageErrorsAreUnknown_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        const auto row = [](const char *name, QStringList args, const char *said) {
            QTest::newRow(name) << args << QString::fromUtf8(said);
        };
        row("--warning without a value", {QStringLiteral("--warning")}, "--warning needs a value");
        row("-c without a value", {QStringLiteral("-c")}, "-c/--critical needs a value");
        row("unknown option", {QStringLiteral("--warn")}, "unknown option --warn");
        row("bad range", {QStringLiteral("-w"), QStringLiteral("10:5")}, "'10:5' is not a threshold range");
        row("not a number", {QStringLiteral("-c"), QStringLiteral("fpr=abc")}, "'abc' is not a number here");
        row("empty range", {QStringLiteral("-w"), QStringLiteral("fpr=")}, "is not a threshold range");
        row("unknown metric", {QStringLiteral("-w"), QStringLiteral("fpx=0.1")}, "unknown metric 'fpx'");
        row("unknown metric in a list", {QStringLiteral("-w"), QStringLiteral("fpr=0.001,fill=0.4")},
            "unknown metric 'fill'");
        row("bad duration", {QStringLiteral("-w"), QStringLiteral("snapshot_age=2x")}, "'2x' is not a number here");
        row("warning looser than the default critical", {QStringLiteral("--warning"), QStringLiteral("0.1")},
            "warning fpr=0.1 is looser than critical fpr=0.01 (the default)");
        row("warning looser than critical",
            {QStringLiteral("-w"), QStringLiteral("chunk_fill=0.5"), QStringLiteral("-c"),
             QStringLiteral("chunk_fill=0.4")},
            "warning chunk_fill=0.5 is looser than critical chunk_fill=0.4");
        row("lower bounds the wrong way",
            {QStringLiteral("-w"), QStringLiteral("names=10:"), QStringLiteral("-c"), QStringLiteral("names=20:")},
            "warning names=10: is looser than critical names=20:");
        row("long form looser", {QStringLiteral("--warn-fpr"), QStringLiteral("0.02")}, "warning fpr=0.02");
        row("long form out of range", {QStringLiteral("--max-chunk-fill"), QStringLiteral("2")},
            "--max-chunk-fill takes a rate");
        row("bad age", {QStringLiteral("--max-snapshot-age"), QStringLiteral("soon")},
            "--max-snapshot-age takes an age");
    }
    void healthUsageErrorsAreUnknown()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        const Run r = bloomctl(QStringList{QStringLiteral("health")} + args);
        QCOMPARE(r.code, 3);
        QVERIFY2(r.out.startsWith("BLOOMSCOPE UNKNOWN - "), r.out.constData());
        QVERIFY2(QString::fromUtf8(r.out).contains(said), r.out.constData());
        QCOMPARE(r.out.count('\n'), 1);
    }

    /** Each range form of the guidelines, per metric, and -w/-c no longer ignored (issue 37, 1). */
    void healthRanges()
    {
        Run r = bloomctl({QStringLiteral("health")});
        QCOMPARE(r.code, 0);
        const QString line = QString::fromUtf8(r.out);
        const double fpr = line.section(QStringLiteral("| fpr="), 1).section(QLatin1Char(';'), 0, 0).toDouble();
        const double fill = line.section(QStringLiteral(" chunk_fill="), 1).section(QLatin1Char(';'), 0, 0).toDouble();
        QVERIFY(fpr > 0 && fill > 0);
        const auto n = [](double v) { return monitor::plainDecimal(v, 10); };
        const struct {
            QStringList args;
            int code;
            const char *said;
        } cases[] = {
            // Before: -w and -c were positional words, ignored: OK with the defaults.
            {{QStringLiteral("-w"), n(fpr / 10), QStringLiteral("-c"), n(fpr * 10)}, 1, "WARNING - estimated FPR"},
            {{QStringLiteral("-w"), n(fpr / 100), QStringLiteral("-c"), n(fpr / 10)}, 2, "CRITICAL - estimated FPR"},
            {{QStringLiteral("-c"), QStringLiteral("~:") + n(fpr / 10)}, 2, "CRITICAL - estimated FPR"},
            {{QStringLiteral("-c"), QStringLiteral("fpr=") + n(fpr * 10) + QLatin1Char(':')}, 2, " under "},
            {{QStringLiteral("-c"), QStringLiteral("fpr=") + n(fpr / 10) + QLatin1Char(':') + n(fpr * 10)}, 0, "OK - "},
            {{QStringLiteral("-c"), QStringLiteral("fpr=") + n(fpr * 2) + QLatin1Char(':') + n(fpr * 10)},
             2,
             " outside "},
            {{QStringLiteral("-w"), QStringLiteral("fpr=@") + n(fpr / 10) + QLatin1Char(':') + n(fpr * 10)},
             1,
             " inside @"},
            {{QStringLiteral("--critical=fpr=@") + n(fpr * 2) + QLatin1Char(':') + n(fpr * 10)}, 0, "OK - "},
            {{QStringLiteral("-w"), QStringLiteral("fpr=0.005,chunk_fill=") + n(fill / 2)},
             1,
             "WARNING - fullest chunk"},
            {{QStringLiteral("-w"), QStringLiteral("chunk_fill=50%")}, 0, "OK - "},
            {{QStringLiteral("-c"), QStringLiteral("names=@0:") + n(1e9)}, 2, "CRITICAL - about "},
            {{QStringLiteral("-w"), QStringLiteral("table_size=1000")}, 1, "table size"},
            {{QStringLiteral("--max-fpr"), n(fpr * 1.5)}, 1, "WARNING - estimated FPR"},
        };
        for (const auto &c : cases) {
            r = bloomctl(QStringList{QStringLiteral("health")} + c.args);
            const QString context = c.args.join(QLatin1Char(' ')) + QStringLiteral(": ") + QString::fromUtf8(r.out);
            QVERIFY2(r.code == c.code, qPrintable(context));
            QVERIFY2(r.out.contains(c.said), qPrintable(context));
            QCOMPARE(r.out.count('\n'), 1);
            checkPerfData(r.out);
        }
        // The thresholds in the performance data, in the range syntax as given.
        r = bloomctl({QStringLiteral("health"), QStringLiteral("-w"), QStringLiteral("fpr=~:0.001,chunk_fill=0.3"),
                      QStringLiteral("-c"), QStringLiteral("@0.5:0.9"), QStringLiteral("-c"),
                      QStringLiteral("chunk_fill=40%")});
        QVERIFY2(r.out.contains(";~:0.001;@0.5:0.9;0;1 chunk_fill="), r.out.constData());
        QVERIFY2(r.out.contains(";0.3;0.4;0;1 "), r.out.constData());
    }

    void metricsPassPromtool()
    {
        Run r = bloomctl({QStringLiteral("metrics")});
        QCOMPARE(r.code, 0);
        QVERIFY(test::hasSample(r.out, QStringLiteral("bloomscope_filter_estimated_fpr_ratio"),
                                QStringLiteral("table=\"public.username_filter\"")));
        QVERIFY(test::hasSample(r.out, QStringLiteral("bloomscope_filter_capacity_left_names"),
                                QStringLiteral("table=\"public.username_filter\",target_fpr=\"0.01\"")));
        QVERIFY(test::hasSample(r.out, QStringLiteral("bloomscope_rebuild_interrupted"),
                                QStringLiteral("table=\"public.username_filter\""), QStringLiteral("0")));
        QVERIFY(!r.out.contains("# EOF")); // OpenMetrics' end marker, not the text format's
        // Prometheus' own checker, unpacked by packaging/setup from Debian's prometheus package.
        QVERIFY2(promtoolAccepts(r.out), qPrintable(mPromtoolSaid));
    }

    /** bloomscope_up, the server and database labels, and --textfile for node_exporter (issue 37, 6). */
    void metricsUpLabelsAndTextfile()
    {
        Run r = bloomctl({QStringLiteral("metrics")});
        QCOMPARE(r.code, 0);
        const QString labels = QStringLiteral("{server=\"%1:%2\",database=\"app\",table=\"public.username_filter\"}")
                                   .arg(mCluster.socketDir())
                                   .arg(mCluster.port());
        QVERIFY2(r.out.contains("\nbloomscope_up" + labels.toUtf8() + " 1\n"), r.out.constData());
        QVERIFY2(!r.out.contains("password") && !r.out.contains("user="), r.out.constData());
        QVERIFY2(test::hasSample(r.out, QStringLiteral("bloomscope_filter_estimated_fpr_ratio"),
                                 QStringLiteral("table=\"public.username_filter\"")),
                 r.out.constData());

        // The server down: bloomscope_up 0 on stdout with the labels the connection gives, the error on
        // stderr, exit 3.
        const QString down = mDb + QStringLiteral(" port=1");
        r = bloomctl({QStringLiteral("metrics")}, {}, down);
        QCOMPARE(r.code, 3);
        QCOMPARE(r.out, QByteArray("# HELP bloomscope_up 1 when the filter was read, 0 when the server or the filter "
                                   "could not be (the reason is on bloomctl's stderr).\n# TYPE bloomscope_up gauge\n"
                                   "bloomscope_up{server=\"") +
                            mCluster.socketDir().toUtf8() + ":1\",database=\"app\",table=\"username_filter\"} 0\n");
        QVERIFY2(r.err.contains("cannot reach the server"), r.err.constData());
        QVERIFY2(promtoolAccepts(r.out), qPrintable(mPromtoolSaid));

        // --textfile: the same text in DIR/bloomscope_<database>_<table>.prom, nothing on stdout, no
        // temporary file left, readable by node_exporter's user; replaced (up 0) when the server is down.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        r = bloomctl({QStringLiteral("metrics"), QStringLiteral("--textfile"), dir.path()});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.isEmpty());
        const QString file = QStringLiteral("bloomscope_app_username_filter.prom");
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{file});
        QFile f(dir.filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray written = f.readAll();
        f.close();
        QVERIFY2(written.startsWith("# HELP bloomscope_up ") && written.endsWith("\n"), written.constData());
        QVERIFY(written.contains("\nbloomscope_up" + labels.toUtf8() + " 1\n"));
        QVERIFY(
            written.contains("# TYPE bloomscope_scrape_duration_seconds gauge\nbloomscope_scrape_duration_seconds{"));
        QVERIFY2(promtoolAccepts(written), qPrintable(mPromtoolSaid));
        QCOMPARE(int(f.permissions() & (QFile::ReadOther | QFile::WriteOther)), int(QFile::ReadOther));
        r = bloomctl({QStringLiteral("metrics"), QStringLiteral("--textfile"), dir.path()}, {}, down);
        QCOMPARE(r.code, 3);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{file});
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(f.readAll().endsWith("table=\"username_filter\"} 0\n"), "the down scrape replaces the file");
        f.close();
        r = bloomctl({QStringLiteral("metrics"), QStringLiteral("--textfile"), dir.filePath(QStringLiteral("none"))});
        QVERIFY2(r.code != 0 && r.err.contains("cannot create a file in"), r.err.constData());
    }

    /** record, history and thinning of bloomscope_history; health and metrics on its age. */
    void historyRecordThinAndAge()
    {
        Run r = bloomctl({QStringLiteral("health"), QStringLiteral("--max-snapshot-age"), QStringLiteral("1h")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains("no snapshot recorded"), r.out.constData());
        r = bloomctl({QStringLiteral("history")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("no snapshot of public.username_filter recorded"), r.out.constData());

        r = bloomctl({QStringLiteral("record")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("recorded public.username_filter at "), r.out.constData());
        r = bloomctl({QStringLiteral("--json"), QStringLiteral("record")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject snap = json(r).toObject();
        QCOMPARE(snap.value(QStringLiteral("chunks")).toInt(), 131072);
        qint64 histogramTotal = 0;
        for (const QJsonValue v : snap.value(QStringLiteral("histogram")).toArray())
            histogramTotal += v.toInteger();
        QCOMPARE(histogramTotal, qint64(131072));
        // The same numbers the server computes.
        PgConn c(mDb);
        QCOMPARE(QByteArray::number(snap.value(QStringLiteral("set_bits")).toInteger()),
                 c.column(QStringLiteral("select sum(bit_count(bits)) from username_filter"))->value(0));

        r = bloomctl({QStringLiteral("--json"), QStringLiteral("history")});
        QCOMPARE(r.code, 0);
        QCOMPARE(json(r).toArray().size(), 2);
        r = bloomctl(
            {QStringLiteral("history"), QStringLiteral("--csv"), QStringLiteral("--since"), QStringLiteral("1h")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("taken_at,table,chunks,"));
        QCOMPARE(r.out.count('\n'), 3);
        r = bloomctl({QStringLiteral("history"), QStringLiteral("--since"), QStringLiteral("yesterday-ish")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--since takes a time"), r.err.constData());

        r = bloomctl({QStringLiteral("health"), QStringLiteral("--max-snapshot-age"), QStringLiteral("1h")});
        QVERIFY2(r.code == 0, r.out.constData());
        QVERIFY2(QRegularExpression(QStringLiteral(" snapshot_age=[0-9]+s;3600;;0; "))
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.constData());
        checkPerfData(r.out);
        r = bloomctl({QStringLiteral("health"), QStringLiteral("-c"), QStringLiteral("snapshot_age=1h:")});
        QVERIFY2(r.code == 2 && r.out.contains("last snapshot ") && r.out.contains(" under 3600 s"), r.out.constData());
        r = bloomctl({QStringLiteral("metrics")});
        QVERIFY(test::hasSample(r.out, QStringLiteral("bloomscope_last_snapshot_timestamp_seconds"),
                                QStringLiteral("table=\"public.username_filter\"")));
        QVERIFY2(promtoolAccepts(r.out), qPrintable(mPromtoolSaid));

        // Old snapshots: three in one hour ten days ago, three on one day a hundred days ago. Thinning
        // keeps the first of each (and everything of the last week).
        QVERIFY(c.exec(QStringLiteral(
                           "insert into bloomscope_history (taken_at, filter_table, chunks, chunk_bits, k, set_bits, "
                           "estimated_names, estimated_fpr, fullest_chunk, fullest_set_bits, histogram, cost_ms) "
                           "select t, 'public.username_filter', 131072, 8192, 7, 0, 0, 0, 0, 0, '{}', 0 from "
                           "unnest(array[date_trunc('hour', now() - interval '10 days') + interval '1 minute', "
                           "date_trunc('hour', now() - interval '10 days') + interval '2 minutes', "
                           "date_trunc('hour', now() - interval '10 days') + interval '3 minutes', "
                           "date_trunc('day', now() - interval '100 days') + interval '1 hour', "
                           "date_trunc('day', now() - interval '100 days') + interval '2 hours', "
                           "date_trunc('day', now() - interval '100 days') + interval '3 hours']) t"))
                    .ok());
        r = bloomctl({QStringLiteral("--json"), QStringLiteral("record"), QStringLiteral("--thin")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(json(r).toObject().value(QStringLiteral("thinned")).toInteger(), qint64(4));
        r = bloomctl({QStringLiteral("--json"), QStringLiteral("history")});
        QCOMPARE(json(r).toArray().size(), 5); // 2 old + 3 of today

        // A role that may read the filter but not create tables: a clear error naming the grant, and
        // the SQL for its DBA.
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"), QStringLiteral("create schema elsewhere; create role recorder login; "
                                                                "grant usage on schema elsewhere to recorder"))
                    .ok());
        r = bloomctl({QStringLiteral("--table"), QStringLiteral("elsewhere.f"), QStringLiteral("--function"),
                      QStringLiteral("elsewhere.f_bits"), QStringLiteral("init"), QStringLiteral("--chunks"),
                      QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"), QStringLiteral("grant select on elsewhere.f to recorder; "
                                                                "grant execute on function elsewhere.f_bits(text) "
                                                                "to recorder"))
                    .ok());
        const QStringList there{QStringLiteral("--table"), QStringLiteral("elsewhere.f"), QStringLiteral("--function"),
                                QStringLiteral("elsewhere.f_bits")};
        r = bloomctl(there + QStringList{QStringLiteral("record")}, {}, mDb + QStringLiteral(" user=recorder"));
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("cannot create the history table") &&
                     r.err.contains("grant create on schema \"elsewhere\" to ROLE"),
                 r.err.constData());
        r = bloomctl(there + QStringList{QStringLiteral("record"), QStringLiteral("--print-sql")}, {},
                     mDb + QStringLiteral(" user=recorder"));
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("create table if not exists \"elsewhere\".bloomscope_history"), r.out.constData());
        // Its DBA runs that SQL and grants what recording needs: now it records.
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"),
                          QString::fromUtf8(r.out) +
                              QStringLiteral("\ngrant select, insert on elsewhere.bloomscope_history to recorder; "
                                             "grant usage on sequence elsewhere.bloomscope_history_id_seq to recorder"))
                    .ok());
        r = bloomctl(there + QStringList{QStringLiteral("record")}, {}, mDb + QStringLiteral(" user=recorder"));
        QVERIFY2(r.code == 0, r.err.constData());

        // A history table that another role planted beside a filter is neither written nor believed.
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"),
                          QStringLiteral("create schema squat; create role squatter; grant create, usage on schema "
                                         "squat to squatter; set role squatter; create table squat.bloomscope_history "
                                         "(id int); reset role"))
                    .ok());
        const QStringList squat{QStringLiteral("--table"), QStringLiteral("squat.f"), QStringLiteral("--function"),
                                QStringLiteral("squat.f_bits")};
        r = bloomctl(squat + QStringList{QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        // A schema where another role may create is not trusted with the helpers: they go to the
        // dedicated schema bloomscope_squat, owned by the filter's owner, and the planted table stays
        // untouched and unread.
        r = bloomctl(squat + QStringList{QStringLiteral("record")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = bloomctl(squat + QStringList{QStringLiteral("history")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(
            mCluster
                .exec(QStringLiteral("app"),
                      QStringLiteral("do $$ begin if (select count(*) from bloomscope_squat.bloomscope_history) <> 1 "
                                     "or (select count(*) from squat.bloomscope_history) <> 0 then "
                                     "raise 'the history went to the planted table'; end if; end $$"))
                .ok());
    }

    void monitoringAsARoleThatMayOnlyRead()
    {
        // A monitoring role as sites give one: SELECT on the filter and EXECUTE on its function, no more;
        // and a filter whose name has an apostrophe and a backslash, which must come out escaped in the
        // metrics' label.
        const QString table = QStringLiteral("o'brien\\x");
        const QString function = QStringLiteral("o'brien\\x_bits");
        Run r = bloomctl({QStringLiteral("--table"), table, QStringLiteral("--function"), function,
                          QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"),
                          QStringLiteral("create role monitor login; revoke all on username_filter from public; "
                                         "grant select on username_filter, \"o'brien\\x\" to monitor; "
                                         "grant execute on function username_bits(text), "
                                         "\"o'brien\\x_bits\"(text) to monitor"))
                    .ok());
        const QString asMonitor = mDb + QStringLiteral(" user=monitor");
        r = bloomctl({QStringLiteral("health")}, {}, asMonitor);
        QVERIFY2(r.code == 0, r.out.constData());
        r = bloomctl(
            {QStringLiteral("--table"), table, QStringLiteral("--function"), function, QStringLiteral("metrics")}, {},
            asMonitor);
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(test::hasSample(r.out, QStringLiteral("bloomscope_filter_chunks"),
                                 QStringLiteral("table=\"public.o'brien\\\\x\""), QStringLiteral("1024")),
                 r.out.constData());
        QVERIFY2(promtoolAccepts(r.out), qPrintable(mPromtoolSaid));
        // Without SELECT the check cannot run: UNKNOWN, with the server's reason, on one line.
        QVERIFY(
            mCluster.exec(QStringLiteral("app"), QStringLiteral("revoke select on username_filter from monitor")).ok());
        r = bloomctl({QStringLiteral("health")}, {}, asMonitor);
        QCOMPARE(r.code, 3);
        QVERIFY2(r.out.contains("permission denied"), r.out.constData());
        QCOMPARE(r.out.count('\n'), 1);
    }

    void chunkAndExplainDb()
    {
        Run r = bloomctl({QStringLiteral("--json"), QStringLiteral("chunk"), QStringLiteral("71962")});
        QCOMPARE(r.code, 0);
        const QJsonArray positions = json(r).toObject().value(QLatin1String("positions")).toArray();
        for (int b : {619, 1835, 3259, 3422, 5396, 5977, 6900})
            QVERIFY(positions.contains(b));
        r = bloomctl({QStringLiteral("chunk"), QStringLiteral("131072")}); // one past the last: a usage error
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("0 to 131071"));
        r = bloomctl({QStringLiteral("explain"), QStringLiteral("ada")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("verdict:           maybe taken"));
        r = bloomctl({QStringLiteral("--json"), QStringLiteral("explain"), QStringLiteral("alan")});
        QCOMPARE(json(r).toObject().value(QLatin1String("verdict")).toString(), QStringLiteral("free"));
        r = bloomctl({QStringLiteral("--json"), QStringLiteral("explain"), QStringLiteral("İstanbul")});
        const QJsonObject o = json(r).toObject();
        QCOMPARE(o.value(QLatin1String("lowering")).toString(), QStringLiteral("server"));
        QCOMPARE(o.value(QLatin1String("normalized")).toString(), QStringLiteral("istanbul"));
    }

    void initOtherGeometry()
    {
        Run r = bloomctl({QStringLiteral("--table"), QStringLiteral("small"), QStringLiteral("--function"),
                          QStringLiteral("small_bits"), QStringLiteral("init"), QStringLiteral("--chunks"),
                          QStringLiteral("256"), QStringLiteral("--chunk-bits"), QStringLiteral("1024"),
                          QStringLiteral("--k"), QStringLiteral("4")});
        QCOMPARE(r.code, 0);
        r = bloomctl({QStringLiteral("--table"), QStringLiteral("small"), QStringLiteral("--function"),
                      QStringLiteral("small_bits"), QStringLiteral("--json"), QStringLiteral("info")});
        QCOMPARE(json(r).toObject().value(QLatin1String("chunks")).toInt(), 256);
        QCOMPARE(json(r).toObject().value(QLatin1String("k")).toInt(), 4);
        r = bloomctl({QStringLiteral("init")}); // the reference table exists already
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("already exists"));
        r = bloomctl({QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1000")});
        QCOMPARE(r.code, 2);
    }

    void errorExitCodes()
    {
        Run r = bloomctl({QStringLiteral("info")}, {}, QStringLiteral("host=127.0.0.1 port=1 connect_timeout=2"));
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains("cannot reach the server"));
        QVERIFY(r.err.contains("Fix:"));
        r = bloomctl({QStringLiteral("--table"), QStringLiteral("missing"), QStringLiteral("info")});
        QCOMPARE(r.code, 4);
        QVERIFY(r.err.contains("no table public.missing"));
        r = bloomctl({QStringLiteral("check")});
        QCOMPARE(r.code, 2);
        r = bloomctl({QStringLiteral("check"), QString()});
        QCOMPARE(r.code, 5);
        r = bloomctl({QStringLiteral("info")}, {}, QStringLiteral("not a conninfo"));
        QCOMPARE(r.code, 3);
    }

    /** Issue 32: a NULL `bits` row or a missing chunk row. No command says "free" for a name of that
     *  chunk or crashes, every reading command fails with exit 9 naming the chunk, health is CRITICAL,
     *  metrics counts it, and the fix is a rebuild: never an empty row, which would make every name of
     *  the chunk a silent false negative. */
    void damagedFilterIsNeverFree()
    {
        QVERIFY(mCluster.createDatabase(QStringLiteral("damaged")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("damaged"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        const QString db = mCluster.connectionString(QStringLiteral("damaged"));
        PgConn raw(db);
        QVERIFY(raw.ok());
        for (const char *name : {"ada", "grace"}) // with the application's own add
            QVERIFY(raw.exec(QStringLiteral("update username_filter f set bits = f.bits | b.mask from "
                                            "username_bits('%1') b where f.chunk = b.chunk")
                                 .arg(QLatin1String(name)))
                        .ok());
        QVERIFY(raw.exec(QStringLiteral("create table saved as select * from username_filter where chunk = 71962; "
                                        "alter table username_filter alter column bits drop not null"))
                    .ok());
        const auto ctl = [&](const QStringList &args) { return bloomctl(args, {}, db); };
        // Without NOT NULL but with no NULL row the filter is healthy.
        Run r = ctl({QStringLiteral("health")});
        QVERIFY2(r.code == 0, r.out.constData());
        r = ctl({QStringLiteral("metrics")});
        QVERIFY2(test::hasSample(r.out, QStringLiteral("bloomscope_damaged_chunks"),
                                 QStringLiteral("table=\"public.username_filter\",kind=\"null\""), QStringLiteral("0")),
                 r.out.constData());
        QVERIFY2(test::hasSample(r.out, QStringLiteral("bloomscope_filter_not_null_constraint"),
                                 QStringLiteral("table=\"public.username_filter\""), QStringLiteral("0")),
                 r.out.constData());

        const auto expectDamaged = [&](const QByteArray &chunk, const QByteArray &kind, const QByteArray &said) {
            const auto context = [](const QStringList &args, const Run &run) {
                return qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": exit %1\n").arg(run.code) +
                                  QString::fromUtf8(run.out + run.err));
            };
            // Every command that reads the damaged chunk: exit 9, the chunk named, a rebuild as the fix.
            for (const QStringList &args :
                 {QStringList{QStringLiteral("check"), QStringLiteral("ada")},
                  QStringList{QStringLiteral("check"), QStringLiteral("grace"), QStringLiteral("ada")},
                  QStringList{QStringLiteral("check"), QStringLiteral("-")},
                  QStringList{QStringLiteral("explain"), QStringLiteral("ada")},
                  QStringList{QStringLiteral("chunk"), QString::fromLatin1(chunk)}, QStringList{QStringLiteral("info")},
                  QStringList{QStringLiteral("fill")}, QStringList{QStringLiteral("fpr")},
                  QStringList{QStringLiteral("skew")}, QStringList{QStringLiteral("record")}}) {
                r = args.last() == QLatin1String("-") ? bloomctl(args, "grace\nAda\n", db) : ctl(args);
                QVERIFY2(r.code == 9, context(args, r));
                QVERIFY2(!r.out.contains("free"), context(args, r));
                QVERIFY2(r.err.contains(chunk) && r.err.contains(said), context(args, r));
                QVERIFY2(r.err.contains("rebuild") && r.err.contains("swap"), context(args, r));
                QVERIFY2(r.err.contains("~0::bit(8192)") && !suggestsAnEmptyRow(r.err), context(args, r));
            }
            r = ctl({QStringLiteral("--json"), QStringLiteral("check"), QStringLiteral("ada")});
            QCOMPARE(r.code, 9);
            const QJsonObject e = QJsonDocument::fromJson(r.err).object().value(QLatin1String("error")).toObject();
            QCOMPARE(e.value(QLatin1String("kind")).toString(), QStringLiteral("damaged_filter"));
            QCOMPARE(e.value(QLatin1String("code")).toInt(), 9);
            // A name of another chunk is answered, and the damage is said beside it.
            r = ctl({QStringLiteral("check"), QStringLiteral("grace")});
            QCOMPARE(r.code, 0);
            QCOMPARE(r.out, QByteArray("grace\tmaybe\n"));
            QVERIFY2(r.err.contains("warning") && r.err.contains(chunk), r.err.constData());
            // An add elsewhere works (the write path's business), and says the filter is damaged.
            r = ctl({QStringLiteral("add"), QStringLiteral("added-while-damaged")});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.err.contains("warning") && r.err.contains(chunk), r.err.constData());
            // health: CRITICAL naming the chunk, on one line, with the damage as performance data.
            r = ctl({QStringLiteral("health")});
            QVERIFY2(r.code == 2, r.out.constData());
            QVERIFY2(r.out.startsWith("BLOOMSCOPE CRITICAL - public.username_filter is damaged"), r.out.constData());
            QVERIFY2(r.out.contains(chunk) && r.out.contains(said) && r.out.contains("rebuild"), r.out.constData());
            QVERIFY2(!suggestsAnEmptyRow(r.out), r.out.constData());
            QVERIFY2(r.out.contains("damaged_chunks=1;"), r.out.constData());
            QCOMPARE(r.out.count('\n'), 1);
            // metrics: the damage as a gauge, the figures of the fill left out, and still Prometheus' format.
            r = ctl({QStringLiteral("metrics")});
            QCOMPARE(r.code, 0);
            QVERIFY2(test::hasSample(
                         r.out, QStringLiteral("bloomscope_damaged_chunks"),
                         QStringLiteral("table=\"public.username_filter\",kind=\"%1\"").arg(QString::fromUtf8(kind)),
                         QStringLiteral("1")),
                     r.out.constData());
            QVERIFY2(!r.out.contains("bloomscope_filter_estimated_fpr"), r.out.constData());
            QVERIFY(r.err.contains(chunk));
            QVERIFY2(promtoolAccepts(r.out), qPrintable(mPromtoolSaid));
        };
        QVERIFY(raw.exec(QStringLiteral("update username_filter set bits = null where chunk = 71962")).ok());
        expectDamaged("71962", "null", "NULL");
        if (QTest::currentTestFailed())
            return;
        // The snapshot taken on the server (pg_cron's) refuses too: the job fails, saying why.
        r = ctl({QStringLiteral("record"), QStringLiteral("--install-function")});
        QVERIFY2(r.code == 1 && r.err.contains("is damaged: 1 chunk row(s) NULL, 0 missing"), r.err.constData());
        QVERIFY(raw.exec(QStringLiteral("delete from username_filter where chunk = 71962")).ok());
        expectDamaged("71962", "missing", "no row");
        if (QTest::currentTestFailed())
            return;

        // Many missing rows, the last chunk among them: the first few named, and how many.
        QVERIFY(raw.exec(QStringLiteral("insert into username_filter select * from saved; delete from "
                                        "username_filter where chunk < 20 or chunk = 131071"))
                    .ok());
        r = ctl({QStringLiteral("health")});
        QVERIFY2(r.code == 2, r.out.constData());
        QVERIFY2(r.out.contains("21 chunks have no row (0, 1, 2, 3, 4"), r.out.constData());
        QVERIFY2(r.out.contains("damaged_chunks=21;"), r.out.constData());
        r = ctl({QStringLiteral("check"), QStringLiteral("ada")}); // its own chunk is whole
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QByteArray("ada\tmaybe\n"));

        // The fix the messages give. First the statements they print: every damaged row all ones, so
        // that no name of it checks free (health stays CRITICAL: those chunks are full). Ada's chunk and
        // bob's are NULL now too (ada is one of the names attach probes the function with, so the
        // rebuild's drain checks it in the live filter).
        const Placement bob = placeAscii(Geometry(), "bob");
        QVERIFY(raw.exec(QStringLiteral("update username_filter set bits = null where chunk in (71962, %1); create "
                                        "table users (username text); insert into users values ('ada'), ('grace'), "
                                        "('bob')")
                             .arg(bob.chunk))
                    .ok());
        r = ctl({QStringLiteral("health")});
        QCOMPARE(r.code, 2);
        const QString said = QString::fromUtf8(r.out);
        const qsizetype from = said.indexOf(QLatin1String("never free (")) + 12;
        const QString statements = said.mid(from, said.indexOf(QLatin1String("); then"), from) - from);
        QVERIFY2(statements.startsWith(QLatin1String("update \"public\".\"username_filter\" set bits = ~0::bit(8192) "
                                                     "where bits is null; insert into")),
                 qPrintable(statements));
        QVERIFY2(raw.exec(statements).ok(), qPrintable(statements));
        r = ctl({QStringLiteral("health")});
        QVERIFY2(r.code == 2 && r.out.contains("fullest chunk 100.0%") && r.out.contains("damaged_chunks=0;"),
                 r.out.constData());
        r = ctl({QStringLiteral("check"), QStringLiteral("ada"), QStringLiteral("bob"), QStringLiteral("grace")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QByteArray("ada\tmaybe\nbob\tmaybe\ngrace\tmaybe\n"));
        // Then the rebuild from the sources and the swap. The all-ones chunks count as about 10,500 names
        // each in the live filter's estimate, which this filter of three names cannot match.
        r = ctl({QStringLiteral("rebuild"), QStringLiteral("--yes"), QStringLiteral("--into"),
                 QStringLiteral("username_filter_fixed"), QStringLiteral("--chunks"), QStringLiteral("131072"),
                 QStringLiteral("--source"), db, QStringLiteral("--query"),
                 QStringLiteral("select username from users")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = ctl({QStringLiteral("swap"), QStringLiteral("username_filter_fixed"), QStringLiteral("--yes"),
                 QStringLiteral("--allow-fewer-names")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = ctl({QStringLiteral("health")});
        QVERIFY2(r.code == 0, r.out.constData());
        QVERIFY2(r.out.contains("damaged_chunks=0;"), r.out.constData());
        auto notNull = raw.column(QStringLiteral("select attnotnull from pg_attribute where attrelid = "
                                                 "'username_filter'::regclass and attname = 'bits'"));
        QVERIFY(notNull.ok());
        QCOMPARE(notNull->value(0), QByteArray("t")); // the rebuilt table has NOT NULL again
        r = ctl({QStringLiteral("check"), QStringLiteral("ada"), QStringLiteral("grace"), QStringLiteral("bob")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QByteArray("ada\tmaybe\ngrace\tmaybe\nbob\tmaybe\n"));
        QVERIFY(r.err.isEmpty());
    }

    void ctrlCCancels()
    {
        // A load reading stdin that never ends: Ctrl-C stops it with 130 and nothing half-written.
        QProcess p;
        p.start(QStringLiteral(BLOOMCTL_PATH),
                {QStringLiteral("--db"), mDb, QStringLiteral("load"), QStringLiteral("-")});
        QVERIFY(p.waitForStarted());
        p.write("interrupted-1\ninterrupted-2\n");
        QTest::qWait(3000); // connected, attached and blocked reading stdin
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 130);
        QVERIFY(p.readAllStandardError().contains("cancelled"));
    }

    void memcheckOfTheCommonPaths()
    {
        // The built binary under valgrind: attach, check, add and a small load must make no invalid
        // read or write. (An -O2 build reusing one QSqlQuery for the row count in attach wrote past a
        // QList's block while the debug and ASan builds were clean; see -fno-strict-aliasing in the
        // top CMakeLists.txt.)
        const QString valgrind = QStandardPaths::findExecutable(QStringLiteral("valgrind"));
        QVERIFY2(!valgrind.isEmpty(), "valgrind is missing: run packaging/setup, which installs it");
        const QStringList memcheck{valgrind, QStringLiteral("-q"), QStringLiteral("--error-exitcode=99")};
        QByteArray names;
        for (int i = 0; i < 2000; ++i)
            names += "memcheck-" + QByteArray::number(i) + '\n';
        for (const auto &[args, input] :
             {std::pair{QStringList{QStringLiteral("check"), QStringLiteral("ada"), QStringLiteral("Grace")},
                        QByteArray()},
              std::pair{QStringList{QStringLiteral("add"), QStringLiteral("memcheck-added")}, QByteArray()},
              std::pair{QStringList{QStringLiteral("load"), QStringLiteral("-")}, names},
              std::pair{QStringList{QStringLiteral("explain"), QStringLiteral("memcheck-7")}, QByteArray()}}) {
            // exit 99: valgrind found an error; -2: a crash; -1: still running after two minutes
            const Run r = test::runBloomctl(QStringList{QStringLiteral("--db"), mDb} + args, input, memcheck);
            QVERIFY2(r.code == 0, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": exit %1\n").arg(r.code) +
                                             QString::fromUtf8(r.err.left(4000))));
        }
    }

    void cleanupTestCase() { QVERIFY(mCluster.stop().ok()); }
};

QTEST_GUILESS_MAIN(TestBloomctl)
#include "tst_bloomctl.moc"
