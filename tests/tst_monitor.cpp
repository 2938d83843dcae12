// core/monitor: the plain decimal formatter, the monitoring-plugins ranges and thresholds, performance
// data per the guidelines, and the atomic textfile write.
#include "monitor/plaindecimal.h"
#include "monitor/range.h"
#include "monitor/textfile.h"
#include "monitor/thresholds.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

#include <sys/stat.h>

using namespace bloom;
using namespace bloom::monitor;

namespace {

/** A performance datum as the guidelines define it: 'label'=value[UOM];[warn];[crit];[min];[max], value,
 *  min and max in [-0-9.], warn and crit ranges of the same. */
const QRegularExpression &perfDatumSyntax()
{
    static const QRegularExpression re(
        QStringLiteral("^('([^']|'')+'|[^ '=]+)=-?[0-9.]+(s|ms|us|%|B|KB|MB|GB|TB|c)?"
                       "(;(@?(~|-?[0-9.]+)?:?(-?[0-9.]+)?)?){0,2}(;(-?[0-9.]+)?){0,2}$"));
    return re;
}

} // namespace

class TestMonitor : public QObject {
    Q_OBJECT
private slots:
    void plainDecimal_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("significant");
        QTest::addColumn<QString>("expected");
        QTest::newRow("fpr of a near-empty filter") << 1.13858e-17 << 6 << QStringLiteral("0.0000000000000000113858");
        QTest::newRow("5e-26") << 5e-26 << 6 << QStringLiteral("0.00000000000000000000000005");
        QTest::newRow("a rate") << 0.005 << 6 << QStringLiteral("0.005");
        QTest::newRow("rounded") << 0.0123456789 << 6 << QStringLiteral("0.0123457");
        QTest::newRow("rounds up a decade") << 9.9999996 << 6 << QStringLiteral("10");
        QTest::newRow("zero") << 0.0 << 6 << QStringLiteral("0");
        QTest::newRow("negative") << -0.25 << 6 << QStringLiteral("-0.25");
        QTest::newRow("whole") << 50006.0 << 6 << QStringLiteral("50006");
        QTest::newRow("large") << 2.5e20 << 6 << QStringLiteral("250000000000000000000");
        QTest::newRow("large, rounded") << 123456789.0 << 6 << QStringLiteral("123457000");
        QTest::newRow("bytes, 17 digits") << 1073750016.0 << 17 << QStringLiteral("1073750016");
        QTest::newRow("mixed") << 12.5 << 6 << QStringLiteral("12.5");
        QTest::newRow("one") << 1.0 << 6 << QStringLiteral("1");
        QTest::newRow("nan") << qQNaN() << 6 << QStringLiteral("U");
        QTest::newRow("inf") << qInf() << 6 << QStringLiteral("U");
    }
    void plainDecimal()
    {
        QFETCH(double, value);
        QFETCH(int, significant);
        QFETCH(QString, expected);
        const QString got = monitor::plainDecimal(value, significant);
        QCOMPARE(got, expected);
        static const QRegularExpression digits(QStringLiteral("^-?[0-9.]+$|^U$"));
        QVERIFY(digits.match(got).hasMatch());
        if (std::isfinite(value) && value != 0)
            QVERIFY(std::abs(got.toDouble() - value) <= std::abs(value) * 1e-5);
    }

    /** The guidelines' table: each form and where it alerts. */
    void ranges_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<double>>("alerting");
        QTest::addColumn<QList<double>>("quiet");
        QTest::addColumn<QString>("printed");
        QTest::newRow("10") << QStringLiteral("10") << QList<double>{-1, 10.5, 11} << QList<double>{0, 5, 10}
                            << QStringLiteral("10");
        QTest::newRow("10:") << QStringLiteral("10:") << QList<double>{-5, 9.99} << QList<double>{10, 1e9}
                             << QStringLiteral("10:");
        QTest::newRow("~:10") << QStringLiteral("~:10") << QList<double>{10.01, 1e9} << QList<double>{-1e9, 0, 10}
                              << QStringLiteral("~:10");
        QTest::newRow("10:20") << QStringLiteral("10:20") << QList<double>{9, 21} << QList<double>{10, 15, 20}
                               << QStringLiteral("10:20");
        QTest::newRow("@10:20") << QStringLiteral("@10:20") << QList<double>{10, 15, 20} << QList<double>{9, 21}
                                << QStringLiteral("@10:20");
        QTest::newRow("decimal") << QStringLiteral("0.005") << QList<double>{0.0051} << QList<double>{0.005, 0}
                                 << QStringLiteral("0.005");
        QTest::newRow("exponent in, decimal out") << QStringLiteral("5e-26") << QList<double>{1e-25} << QList<double>{0}
                                                  << QStringLiteral("0.00000000000000000000000005");
        QTest::newRow("negative start") << QStringLiteral("-5:5") << QList<double>{-6, 6} << QList<double>{-5, 0, 5}
                                        << QStringLiteral("-5:5");
    }
    void ranges()
    {
        QFETCH(QString, text);
        QFETCH(QList<double>, alerting);
        QFETCH(QList<double>, quiet);
        QFETCH(QString, printed);
        const auto r = Range::parse(text);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        for (double v : alerting)
            QVERIFY2(r->alerts(v), qPrintable(QString::number(v)));
        for (double v : quiet)
            QVERIFY2(!r->alerts(v), qPrintable(QString::number(v)));
        QCOMPARE(r->toString(), printed);
        QCOMPARE(*Range::parse(r->toString()), *r);
    }

    void badRanges_data()
    {
        QTest::addColumn<QString>("text");
        for (const char *t : {"", "@", ":", "abc", "20:10", "1:2:3", "~", "10:~", "1,2", "nan", "inf"})
            QTest::newRow(*t ? t : "(empty)") << QString::fromLatin1(t);
    }
    void badRanges()
    {
        QFETCH(QString, text);
        const auto r = Range::parse(text);
        QVERIFY2(!r.ok(), qPrintable(text));
        QCOMPARE(r.error().kind, ErrorKind::Usage);
        QVERIFY2(r.error().message.contains(QStringLiteral("threshold range")), qPrintable(r.error().message));
    }

    /** `-c fpr=~:0.01` unquoted: bash hands over the home directory; the message says to quote it (the sanitizer
     *  run's own command line met it). */
    void aTildeTheShellExpandedIsNamed()
    {
        const QString home = qEnvironmentVariable("HOME");
        if (home.isEmpty())
            QSKIP("HOME is not set");
        const auto r = Range::parse(home + QStringLiteral(":0.01"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("quote the range, '~:10'")), qPrintable(r.error().message));
    }

    void endpointParser()
    {
        // A metric's own unit: a duration endpoint.
        const Range::EndpointParser duration = [](const QString &t) -> std::optional<double> {
            if (t.endsWith(QLatin1Char('h')))
                return t.chopped(1).toDouble() * 3600;
            bool ok = false;
            const double v = t.toDouble(&ok);
            return ok ? std::optional<double>(v) : std::nullopt;
        };
        const auto r = Range::parse(QStringLiteral("1h:2h"), duration);
        QVERIFY(r.ok());
        QCOMPARE(r->toString(), QStringLiteral("3600:7200"));
        QVERIFY(!Range::parse(QStringLiteral("2x"), duration).ok());
    }

    void thresholds()
    {
        Thresholds t({{QStringLiteral("fpr"), {}}, {QStringLiteral("chunk_fill"), {}}}, QStringLiteral("fpr"));
        QVERIFY(t.add(Thresholds::Level::Warning, QStringLiteral("fpr=0.005,chunk_fill=0.45")).ok());
        QVERIFY(t.add(Thresholds::Level::Critical, QStringLiteral("0.01")).ok()); // bare: fpr
        QVERIFY(t.add(Thresholds::Level::Critical, QStringLiteral("chunk_fill=0.5")).ok());
        QVERIFY(t.checkOrder().ok());
        QCOMPARE(t.perfText(Thresholds::Level::Warning, QStringLiteral("fpr")), QStringLiteral("0.005"));
        QCOMPARE(t.perfText(Thresholds::Level::Critical, QStringLiteral("fpr")), QStringLiteral("0.01"));
        QCOMPARE(t.judge(QStringLiteral("fpr"), 0.001), PluginState::Ok);
        QCOMPARE(t.judge(QStringLiteral("fpr"), 0.006), PluginState::Warning);
        QCOMPARE(t.judge(QStringLiteral("fpr"), 0.02), PluginState::Critical);
        QCOMPARE(t.judge(QStringLiteral("chunk_fill"), 0.46), PluginState::Warning);
        // A default never replaces a given range.
        t.setDefault(Thresholds::Level::Warning, QStringLiteral("fpr"), Range::upTo(0.001));
        QCOMPARE(t.perfText(Thresholds::Level::Warning, QStringLiteral("fpr")), QStringLiteral("0.005"));

        const auto unknown = t.add(Thresholds::Level::Warning, QStringLiteral("fpx=1"));
        QVERIFY(!unknown.ok());
        QVERIFY2(unknown.error().message.contains(QStringLiteral("unknown metric 'fpx'")),
                 qPrintable(unknown.error().message));
        QVERIFY(!t.add(Thresholds::Level::Warning, QStringLiteral("fpr=")).ok());
        QVERIFY(!t.add(Thresholds::Level::Warning, QStringLiteral("fpr=1,,")).ok());
    }

    void warningLooserThanCritical()
    {
        Thresholds t({{QStringLiteral("fpr"), {}}, {QStringLiteral("names"), {}}}, QStringLiteral("fpr"));
        t.setDefault(Thresholds::Level::Critical, QStringLiteral("fpr"), Range::upTo(0.01));
        QVERIFY(t.add(Thresholds::Level::Warning, QStringLiteral("0.02")).ok());
        const auto s = t.checkOrder();
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.contains(QStringLiteral("warning fpr=0.02 is looser than critical fpr=0.01 (the "
                                                           "default)")),
                 qPrintable(s.error().message));
        // Lower bounds: a warning under the critical start is looser too; @ ranges are not compared.
        Thresholds lower({{QStringLiteral("names"), {}}}, QStringLiteral("names"));
        QVERIFY(lower.add(Thresholds::Level::Warning, QStringLiteral("5:")).ok());
        QVERIFY(lower.add(Thresholds::Level::Critical, QStringLiteral("10:")).ok());
        QVERIFY(!lower.checkOrder().ok());
        QVERIFY(lower.add(Thresholds::Level::Warning, QStringLiteral("@5:20")).ok());
        QVERIFY(lower.checkOrder().ok());
    }

    void perfData()
    {
        const QStringList data{
            perfDatum(QStringLiteral("fpr"), 1.13858e-17, {}, QStringLiteral("0.005"), QStringLiteral("0.01"), 0, 1),
            perfDatum(QStringLiteral("snapshot_age"), 120, QStringLiteral("s"), QStringLiteral("3600"), {}, 0, {}),
            perfDatum(QStringLiteral("table_size"), 1073750016, QStringLiteral("B"), {}, {}, 0, {}, 17),
            perfDatum(QStringLiteral("names"), 50006, {}, QStringLiteral("@10:20"), QStringLiteral("~:10"), 0, {}),
            perfDatum(QStringLiteral("a label"), 5e-26, {}, {}, {}, {}, {})};
        QCOMPARE(data[0], QStringLiteral("fpr=0.0000000000000000113858;0.005;0.01;0;1"));
        QCOMPARE(data[1], QStringLiteral("snapshot_age=120s;3600;;0;"));
        QCOMPARE(data[2], QStringLiteral("table_size=1073750016B;;;0;"));
        QCOMPARE(data[4], QStringLiteral("'a label'=0.00000000000000000000000005;;;;"));
        for (const QString &d : data)
            QVERIFY2(perfDatumSyntax().match(d).hasMatch(), qPrintable(d));
        QVERIFY(!perfDatumSyntax().match(QStringLiteral("fpr=1.13858e-17;5e-26;1e-25;0;1")).hasMatch());
    }

    void textfileWriteIsAtomic()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString name = textfileName(QStringLiteral("app"), QStringLiteral("public.username_filter"));
        QCOMPARE(name, QStringLiteral("bloomscope_app_public.username_filter.prom"));
        QCOMPARE(textfileName(QStringLiteral("a b"), QStringLiteral("s.t/x'")),
                 QStringLiteral("bloomscope_a_b_s.t_x_.prom"));
        QByteArray big;
        for (int i = 0; i < 20000; ++i)
            big += "bloomscope_up{table=\"t\"} 1\n";
        QVERIFY(writeFileAtomically(dir.path(), name, "old\n").ok());
        QVERIFY(writeFileAtomically(dir.path(), name, big).ok());
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), big);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{name}); // no temporary left
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(dir.filePath(name)).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0644u);
        // A directory that is not there: an Io error, nothing written.
        const auto s = writeFileAtomically(dir.filePath(QStringLiteral("missing")), name, big);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind, ErrorKind::Io);
    }

    /** A reader that keeps opening the file while it is rewritten sees one whole version or the other,
     *  never a part (node_exporter reads it whenever it is scraped). */
    /** A directory that is not there, or not writable: the error names it, the reason and the fix. */
    void textfileErrorsSayTheFix()
    {
        const auto missing =
            writeFileAtomically(QStringLiteral("/nonexistent-bloomscope"), QStringLiteral("x.prom"), "x");
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().message.contains(QStringLiteral("/nonexistent-bloomscope")),
                 qPrintable(missing.error().message));
        QVERIFY2(missing.error().fix.contains(QStringLiteral("/var/lib/prometheus/node-exporter")),
                 qPrintable(missing.error().fix));
        const auto readOnly = writeFileAtomically(QStringLiteral("/proc"), QStringLiteral("x.prom"), "x");
        QVERIFY(!readOnly.ok());
        QVERIFY2(!readOnly.error().fix.isEmpty(), qPrintable(readOnly.error().message));
    }

    void textfileReaderNeverSeesHalfAFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString name = QStringLiteral("bloomscope_app_t.prom");
        QByteArray a, b;
        for (int i = 0; i < 40000; ++i) {
            a += "bloomscope_a{table=\"t\"} 1\n";
            b += "bloomscope_b{table=\"t\"} 2\n";
        }
        QVERIFY(writeFileAtomically(dir.path(), name, a).ok());
        std::atomic<bool> done{false};
        std::atomic<int> failures{0};
        std::thread writer([&] {
            for (int i = 0; i < 100; ++i)
                if (!writeFileAtomically(dir.path(), name, i % 2 ? a : b).ok())
                    ++failures;
            done = true;
        });
        int reads = 0, torn = 0;
        while (!done) {
            QFile f(dir.filePath(name));
            if (!f.open(QIODevice::ReadOnly))
                continue;
            const QByteArray got = f.readAll();
            ++reads;
            if (got != a && got != b)
                ++torn;
        }
        writer.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(torn, 0);
        QVERIFY(reads > 0);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{name});
    }
};

QTEST_GUILESS_MAIN(TestMonitor)
#include "tst_monitor.moc"
