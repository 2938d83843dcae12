// Hostile names round-trip (issue 44, item 3): a filter, its function, its schema and so its helper
// schema named with %1-%9, quotes, backslashes, semicolons, $, spaces, non-ASCII and 63 bytes, owned by
// a role of its own, managed by a superuser DBA through every command. Each command works or refuses
// with a clear error, every name added checks maybe at the end, the metrics textfile is valid
// Prometheus text, and the server's statement log shows each name only inside its quotes (a name that
// escaped them would be SQL chosen by the filter's owner, run as the DBA).
#include "local/localcluster.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

using namespace bloom;

namespace {

/** Every hostile name holds this marker, and no SQL Bloomscope writes does. */
constexpr char Marker[] = "qz";

/**
 * `sql` without its quoted identifiers ("..."), string literals ('...', E'...') and dollar-quote tags
 * (their bodies are scanned: a function's body is SQL too). What is left is the text a name would have
 * to be in to escape its quotes.
 */
QString outsideQuotes(const QString &sql)
{
    QString out;
    out.reserve(sql.size());
    const qsizetype n = sql.size();
    for (qsizetype i = 0; i < n;) {
        const QChar c = sql.at(i);
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const bool escapes = c == QLatin1Char('\'') && i > 0 &&
                                 (sql.at(i - 1) == QLatin1Char('E') || sql.at(i - 1) == QLatin1Char('e')) &&
                                 (i < 2 || !sql.at(i - 2).isLetterOrNumber());
            qsizetype j = i + 1;
            for (; j < n; ++j) {
                if (escapes && sql.at(j) == QLatin1Char('\\')) {
                    ++j;
                    continue;
                }
                if (sql.at(j) == c) {
                    if (j + 1 < n && sql.at(j + 1) == c) {
                        ++j;
                        continue;
                    }
                    break;
                }
            }
            out += QLatin1Char(' ');
            i = j + 1;
            continue;
        }
        if (c == QLatin1Char('-') && i + 1 < n && sql.at(i + 1) == QLatin1Char('-')) {
            // A comment to the end of the line: kept (a name has no business there either), its
            // apostrophes no quotes.
            const qsizetype eol = sql.indexOf(QLatin1Char('\n'), i);
            const qsizetype end = eol < 0 ? n : eol;
            out += sql.mid(i, end - i);
            i = end;
            continue;
        }
        if (c == QLatin1Char('$')) { // $tag$ or $$: a delimiter, its body scanned as SQL
            static const QRegularExpression tag(QStringLiteral("\\$[A-Za-z_]*\\$"));
            const auto m =
                tag.match(sql, i, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
            if (m.hasMatch()) {
                out += QLatin1Char(' ');
                i += m.capturedLength();
                continue;
            }
        }
        out += c;
        ++i;
    }
    return out;
}

/** The statements of a server log (log_statement = all): "statement:", "execute ...:" and the
 *  "STATEMENT:" after an error, with their continuation lines; parameters (DETAIL) are values. */
QStringList statements(const QString &log)
{
    static const QRegularExpression header(QStringLiteral("^\\d{4}-\\d\\d-\\d\\d [^\\[]*\\[\\d+\\] ([A-Z]+):  (.*)$"));
    static const QRegularExpression statementStart(QStringLiteral("^(statement: |execute [^:]*: )"));
    QStringList out;
    bool inStatement = false;
    for (const QString &line : log.split(QLatin1Char('\n'))) {
        const auto m = header.match(line);
        if (m.hasMatch()) {
            const QString level = m.captured(1), text = m.captured(2);
            inStatement = false;
            if (level == QLatin1String("STATEMENT")) {
                out << text;
                inStatement = true;
            } else if (level == QLatin1String("LOG")) {
                const auto s = statementStart.match(text);
                if (s.hasMatch()) {
                    out << text.mid(s.capturedLength());
                    inStatement = true;
                }
            }
        } else if (inStatement && line.startsWith(QLatin1Char('\t'))) {
            out.last() += QLatin1Char('\n') + line.mid(1);
        }
    }
    return out;
}

} // namespace

class TestHostile : public QObject {
    Q_OBJECT
private:
    using Run = test::CtlRun;
    LocalCluster mCluster;
    QTemporaryFile mNames;
    QList<QByteArray> mAdded;
    QTemporaryDir mTextfiles;
    int mDatabases = 0;

    static QString context(const QStringList &args, const Run &r)
    {
        return args.join(QLatin1Char(' ')) + QStringLiteral("\nexit %1\n").arg(r.code) + QString::fromUtf8(r.out) +
               QString::fromUtf8(r.err);
    }

private slots:
    void initTestCase()
    {
        LocalCluster::Options o;
        o.settings << QStringLiteral("log_statement=all") << QStringLiteral("log_min_error_statement=error");
        auto s = mCluster.start(o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        QVERIFY(mCluster.exec(QStringLiteral("postgres"), QStringLiteral("create role o nologin")).ok());
        QVERIFY(mNames.open());
        for (int i = 0; i < 200; ++i) {
            mAdded << QByteArray("pupil_") + QByteArray::number(i);
            mNames.write(mAdded.last() + '\n');
        }
        mNames.write("Ünïcödé\n");
        mAdded << QByteArray("Ünïcödé");
        mNames.flush();
        QVERIFY(mTextfiles.isValid());
    }

    void everyCommandOnHostileNames_data()
    {
        QTest::addColumn<QString>("schema");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("function");
        QTest::addColumn<QString>("into");
        // The schema's name reaches the helper schema's (bloomscope_<schema>: the schema is open to
        // PUBLIC, so the helpers may not live beside the filter) and every script that names them.
        QTest::newRow("%5 and a statement in the schema")
            << QStringLiteral("s%5qz;reset role;alter role o superuser;commit;--%9")
            << QStringLiteral("username_filter") << QStringLiteral("username_bits") << QStringLiteral("username_v2");
        QTest::newRow("%1 and $ in the table") << QStringLiteral("public") << QStringLiteral("f%1qz $x %2")
                                               << QStringLiteral("f%3qz $1") << QStringLiteral("f%4qz v2 %1");
        QTest::newRow("backslash and quote-like") << QStringLiteral("sch\\qz'%6") << QStringLiteral("t\\qz'%7;")
                                                  << QStringLiteral("b\\qz%8") << QStringLiteral("t\\qz'v2");
        // 63 bytes, PostgreSQL's limit: 2-byte characters and the marker.
        QTest::newRow("63 bytes non-ASCII")
            << QStringLiteral("public") << QStringLiteral("qz") + QString(29, QChar(0xF1)) + QStringLiteral("%1x")
            << QStringLiteral("qz_") + QString(29, QChar(0xE9))
            << QStringLiteral("qz") + QString(26, QChar(0xE0)) + QStringLiteral("%9x"); // + "_bits": 62
    }

    void everyCommandOnHostileNames()
    {
        QFETCH(QString, schema);
        QFETCH(QString, table);
        QFETCH(QString, function);
        QFETCH(QString, into);
        QVERIFY(table.toUtf8().size() <= 63 && function.toUtf8().size() <= 63 && into.toUtf8().size() <= 63);
        if (QTest::currentDataTag() == QByteArray("63 bytes non-ASCII"))
            QCOMPARE(table.toUtf8().size(), 63);
        const QString db = QStringLiteral("hostile%1").arg(++mDatabases);
        QVERIFY(mCluster.createDatabase(db).ok());
        const QString su = mCluster.connectionString(db);
        const QString qschema =
            QStringLiteral("\"%1\"").arg(QString(schema).replace(QLatin1Char('"'), QStringLiteral("\"\"")));
        if (schema != QLatin1String("public"))
            QVERIFY(
                mCluster
                    .exec(db, QStringLiteral("create schema %1 authorization o; grant create, usage on schema %1 to "
                                             "public")
                                  .arg(qschema))
                    .ok());
        const QString t = schema + QLatin1Char('.') + table, f = schema + QLatin1Char('.') + function;
        const QStringList filter{QStringLiteral("--db"),       su, QStringLiteral("--table"), t,
                                 QStringLiteral("--function"), f};
        const auto ctl = [&](const QStringList &args, const QStringList &where = {}) {
            const QStringList all = (where.isEmpty() ? filter : where) + args;
            Run r = test::runBloomctl(all);
            return std::pair{r, context(all, r)};
        };
        const auto expectOk = [&](const QStringList &args, const QStringList &where = {}) {
            const auto [r, text] = ctl(args, where);
            if (r.code != 0)
                qWarning("%s", qPrintable(text));
            return r.code == 0;
        };
        QVERIFY(expectOk({QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024")}));
        // The filter becomes the hostile role's, as a site would hand it over.
        const QString qt =
            qschema + QLatin1Char('.') +
            QStringLiteral("\"%1\"").arg(QString(table).replace(QLatin1Char('"'), QStringLiteral("\"\"")));
        const QString qf =
            qschema + QLatin1Char('.') +
            QStringLiteral("\"%1\"").arg(QString(function).replace(QLatin1Char('"'), QStringLiteral("\"\"")));
        QVERIFY(
            mCluster
                .exec(db, QStringLiteral("alter table %1 owner to o; alter function %2(text) owner to o").arg(qt, qf))
                .ok());
        QVERIFY(expectOk({QStringLiteral("add"), QStringLiteral("alice")}));
        QVERIFY(expectOk({QStringLiteral("load"), mNames.fileName()}));
        QVERIFY(expectOk({QStringLiteral("check"), QStringLiteral("alice")}));
        QVERIFY(expectOk({QStringLiteral("info")}));
        QVERIFY(expectOk({QStringLiteral("health")}));
        QVERIFY(expectOk({QStringLiteral("record")}));
        QVERIFY(expectOk({QStringLiteral("history")}));
        // Rebuild, swap, drop-old; a second rebuild aborted.
        const QString intoText = schema + QLatin1Char('.') + into;
        QVERIFY(expectOk({QStringLiteral("rebuild"), QStringLiteral("--yes"), QStringLiteral("--into"), intoText,
                          QStringLiteral("--chunks"), QStringLiteral("2048"), QStringLiteral("--grace"),
                          QStringLiteral("0"), QStringLiteral("--file"), mNames.fileName()}));
        QVERIFY(expectOk({QStringLiteral("add"), QStringLiteral("latecomer")}));
        QVERIFY(expectOk({QStringLiteral("swap"), QStringLiteral("--yes"), intoText}));
        QVERIFY(expectOk({QStringLiteral("drop-old"), QStringLiteral("--yes")}));
        QVERIFY(expectOk({QStringLiteral("rebuild"), QStringLiteral("--yes"), QStringLiteral("--into"), intoText,
                          QStringLiteral("--chunks"), QStringLiteral("4096"), QStringLiteral("--grace"),
                          QStringLiteral("0"), QStringLiteral("--file"), mNames.fileName()}));
        QVERIFY(expectOk({QStringLiteral("rebuild"), QStringLiteral("--abort"), QStringLiteral("--yes")}));
        // The metrics textfile, each in a directory of its own: valid Prometheus text (promtool).
        const QString dir = mTextfiles.filePath(db);
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(expectOk({QStringLiteral("metrics"), QStringLiteral("--textfile"), dir}));
        const QStringList proms = QDir(dir).entryList({QStringLiteral("*.prom")}, QDir::Files);
        QVERIFY(!proms.isEmpty());
        for (const QString &name : proms) {
            QFile prom(dir + QLatin1Char('/') + name);
            QVERIFY(prom.open(QIODevice::ReadOnly));
            QProcess promtool;
            promtool.setStandardInputFile(prom.fileName());
            promtool.start(QStringLiteral(PROMTOOL_PATH), {QStringLiteral("check"), QStringLiteral("metrics")});
            QVERIFY(promtool.waitForFinished(30000));
            QVERIFY2(promtool.exitCode() == 0,
                     (prom.readAll() + promtool.readAllStandardOutput() + promtool.readAllStandardError()).constData());
            QVERIFY(prom.remove());
        }
        // Every name of the sources and every name added during the rebuild is maybe in the swapped-in
        // filter (alice, added before and in no source, is no user: a rebuild may leave her out).
        QStringList check{QStringLiteral("check"), QStringLiteral("latecomer")};
        for (const QByteArray &n : mAdded)
            check << QString::fromUtf8(n);
        const auto [r, text] = ctl(check);
        for (const QByteArray &line : r.out.split('\n'))
            if (line.contains("free"))
                qWarning("free after the swap: %s", line.constData());
        if (r.code != 0)
            qWarning("check: exit %d: %s", r.code, r.err.constData());
        QVERIFY2(r.code == 0 && !r.out.contains("free"), qPrintable(text));
        // The hostile role never became a superuser, whatever ran.
        PgConn c(su);
        auto superuser = c.column(QStringLiteral("select rolsuper from pg_roles where rolname = 'o'"));
        QVERIFY(superuser && superuser->value(0) == "f");
    }

    /** A name with a double quote, a dot or a control character is refused as --table, clearly. */
    void namesBloomscopeCannotSpellAreRefused_data()
    {
        QTest::addColumn<QString>("table");
        QTest::newRow("double quote") << QStringLiteral("a\"qz");
        QTest::newRow("newline") << QStringLiteral("a\nqz");
        QTest::newRow("two dots") << QStringLiteral("a.b.qz");
    }
    void namesBloomscopeCannotSpellAreRefused()
    {
        QFETCH(QString, table);
        const Run r = test::runBloomctl({QStringLiteral("--db"), mCluster.connectionString(), QStringLiteral("--table"),
                                         table, QStringLiteral("info")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--table") && r.err.contains("Fix:"), r.err.constData());
    }

    /** The log check itself: a name outside its quotes is seen, inside them (doubled quotes, E'' escapes,
     *  a function body's quoted names) it is not. */
    void theCheckSeesAnEscapedName()
    {
        QVERIFY(
            outsideQuotes(QStringLiteral("select \"a\"\"b\" from t; drop role qz")).contains(QLatin1String(Marker)));
        QVERIFY(outsideQuotes(QStringLiteral("create function f() as $fn$ begin perform qz; end $fn$"))
                    .contains(QLatin1String(Marker)));
        QVERIFY(!outsideQuotes(QStringLiteral("-- a row's names\nselect 'qz'")).contains(QLatin1String(Marker)));
        QVERIFY(outsideQuotes(QStringLiteral("-- a row's names\nselect qz")).contains(QLatin1String(Marker)));
        QVERIFY(!outsideQuotes(QStringLiteral("select \"a\"\"qz\" from \"s;qz\".\"t\" where x = 'qz''s' and "
                                              "y = E'\\\\'' qz' and $fn$ \"qz\" $fn$"))
                     .contains(QLatin1String(Marker)));
    }

    /** The server's statement log: the marker of every hostile name only inside quotes or literals. */
    void theStatementLogShowsNamesOnlyInsideTheirQuotes()
    {
        QFile log(mCluster.logFile());
        QVERIFY2(log.open(QIODevice::ReadOnly), qPrintable(mCluster.logFile()));
        const QStringList all = statements(QString::fromUtf8(log.readAll()));
        QVERIFY2(all.size() > 100, qPrintable(QString::number(all.size())));
        int withMarker = 0;
        for (const QString &s : all) {
            if (!s.contains(QLatin1String(Marker)))
                continue;
            ++withMarker;
            const QString bare = outsideQuotes(s);
            const qsizetype at = bare.indexOf(QLatin1String(Marker));
            if (at >= 0)
                qWarning("a name outside its quotes in this statement:\n%s", qPrintable(s));
            QVERIFY2(at < 0, qPrintable(QStringLiteral("outside quotes: ...%1...\nin: %2")
                                            .arg(bare.mid(qMax<qsizetype>(0, at - 120), 240), s)));
        }
        QVERIFY2(withMarker > 20, qPrintable(QString::number(withMarker)));
    }

    void cleanupTestCase() { QVERIFY(mCluster.stop().ok()); }
};

QTEST_GUILESS_MAIN(TestHostile)
#include "tst_hostile.moc"
