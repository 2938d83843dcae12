#include "local/demo.h"
#include "local/localredis.h"
#include "redis/redisbloom.h"
#include "redis/redisstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTest>

#include <cmath>

using namespace bloom;

/** The reference's Redis bitmap filter: positions against its JavaScript, a real redis-server. */
class TestRedis : public QObject {
    Q_OBJECT
private:
    LocalRedis mRedis;
    QList<QByteArray> mNames;
    QList<std::pair<quint64, quint64>> mGolden;

    /** Runs the reference's JavaScript on Node.js: positions of names and parseInt of hex strings. */
    static QJsonObject runNode(const QList<QByteArray> &names, const QStringList &hex)
    {
        QJsonArray n, h;
        for (const QByteArray &name : names)
            n.append(QString::fromUtf8(name));
        for (const QString &x : hex)
            h.append(x);
        QProcess node;
        node.start(QStringLiteral("node"), {QStringLiteral(BLOOM_TEST_JS_DIR "/redis_positions.js")});
        if (!node.waitForStarted(10000))
            return {};
        node.write(QJsonDocument(QJsonObject{{QStringLiteral("names"), n}, {QStringLiteral("hex"), h}}).toJson());
        node.closeWriteChannel();
        node.waitForFinished(60000);
        return QJsonDocument::fromJson(node.readAllStandardOutput()).object();
    }

    int bloomctl(const QStringList &args, QByteArray *out)
    {
        QProcess p;
        p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--redis"), mRedis.url()} + args);
        p.waitForFinished(60000);
        *out = p.readAllStandardOutput() + p.readAllStandardError();
        return p.exitCode();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty(),
                 "Node.js is needed for the golden positions: run packaging/setup");
        auto s = mRedis.start();
        QVERIFY2(s.ok(), s.ok() ? "" : qPrintable(s.error().toString()));
        // Thousands of names: plausible usernames in mixed case, and non-ASCII ones (accents,
        // Turkish dotted I, Cyrillic, CJK, emoji outside the BMP, combining marks).
        mNames = demoNames(4000, 99);
        for (int i = 0; i < 1000; i += 3)
            mNames[i] = mNames[i].toUpper();
        const QStringList words{QStringLiteral("İstanbul"),   QStringLiteral("Łukasz"),  QStringLiteral("José"),
                                QStringLiteral("Ærøskøbing"), QStringLiteral("Дмитрий"), QStringLiteral("山田太郎"),
                                QStringLiteral("😀party"),     QStringLiteral("naïve"),   QStringLiteral("e\u0301clair"),
                                QStringLiteral("straße"),     QStringLiteral("𝔘𝔫𝔦𝔠𝔬𝔡𝔢"), QStringLiteral("ΣΊΣΥΦΟΣ")};
        QRandomGenerator rng(5);
        for (int i = 0; i < 1200; ++i)
            mNames.append((words[i % words.size()] + QString::number(rng.bounded(100000))).toUtf8());
        const QJsonObject golden = runNode(mNames, {});
        const QJsonArray pos = golden.value(QLatin1String("positions")).toArray();
        QCOMPARE(pos.size(), mNames.size());
        for (const QJsonValue &v : pos)
            mGolden.append({quint64(v.toArray().at(0).toInteger()), quint64(v.toArray().at(1).toInteger())});
    }

    void positionsAgreeWithTheReferencesJavaScript()
    {
        int disagreements = 0;
        for (qsizetype i = 0; i < mNames.size(); ++i) {
            const auto p = redisbloom::positions(mNames[i]);
            if (p.sha256 != mGolden[i].first || p.fnv != mGolden[i].second) {
                if (++disagreements < 5)
                    qWarning("%s: core %llu %llu, JavaScript %llu %llu", mNames[i].constData(), p.sha256, p.fnv,
                             mGolden[i].first, mGolden[i].second);
            }
        }
        QCOMPARE(disagreements, 0);
        QCOMPARE(mNames.size(), 5200);
        const auto ada = redisbloom::positions("ada");
        QCOMPARE(ada.sha256, quint64(9811072));
        QCOMPARE(ada.fnv, quint64(3263164));
    }

    void parseIntRoundsAsJavaScriptDoes()
    {
        // Ties to even past 2^53, the sticky bit, long strings, leading zeros, a stop at a non-digit.
        const QStringList hex{QStringLiteral("20000000000001"),
                              QStringLiteral("20000000000003"),
                              QStringLiteral("200000000000011"),
                              QStringLiteral("1fffffffffffff"),
                              QStringLiteral("3fffffffffffff"),
                              QStringLiteral("000000000000ff"),
                              QStringLiteral("ff"),
                              QStringLiteral("12g4"),
                              QString(QLatin1String("f")).repeated(64),
                              QStringLiteral("8") + QString(QLatin1String("0")).repeated(63),
                              QStringLiteral("1") + QString(QLatin1String("0")).repeated(13) + QStringLiteral("1") +
                                  QString(QLatin1String("0")).repeated(40) + QStringLiteral("1")};
        const QJsonArray js = runNode({}, hex).value(QLatin1String("parsed")).toArray();
        QCOMPARE(js.size(), hex.size());
        for (qsizetype i = 0; i < hex.size(); ++i)
            QCOMPARE(redisbloom::parseHexAsJs(hex[i].toLatin1()), js.at(i).toDouble());
    }

    void aFilterWrittenByTheReferenceIsReadWithNoFalseNegative()
    {
        // Write the bits where the JavaScript put them (SETBIT, as its add does), then read with core.
        auto conn = RedisConn::open(mRedis.target());
        QVERIFY(conn.ok());
        QList<QList<QByteArray>> cmds;
        for (const auto &[sha, fnv] : mGolden) {
            cmds.append({"SETBIT", redisbloom::ReferenceKey, QByteArray::number(sha), "1"});
            cmds.append({"SETBIT", redisbloom::ReferenceKey, QByteArray::number(fnv), "1"});
        }
        QVERIFY((*conn)->pipelineIntegers(cmds).ok());
        RedisFilter f(**conn);
        QVERIFY(f.attach().ok());
        QVERIFY(f.exists());
        auto v = f.check(mNames);
        QVERIFY(v.ok());
        QCOMPARE(v->count(false), 0);
        // bloomctl says the same, non-ASCII included.
        QByteArray out;
        QCOMPARE(
            bloomctl({QStringLiteral("check"), QString::fromUtf8(mNames.last()), QStringLiteral("Дмитрий1")}, &out), 0);
        QVERIFY2(out.startsWith(mNames.last() + "\tmaybe\n"), out.constData());
        // --json is honoured as by the PostgreSQL commands: explain, add and fpr print JSON.
        QCOMPARE(
            bloomctl({QStringLiteral("--json"), QStringLiteral("explain"), QString::fromUtf8(mNames.last())}, &out), 0);
        const QJsonArray explained = QJsonDocument::fromJson(out).array();
        QCOMPARE(explained.size(), 1);
        QCOMPARE(explained[0][QLatin1String("verdict")].toString(), QStringLiteral("maybe"));
        QVERIFY(explained[0][QLatin1String("sha256_position")].toDouble() >= 0);
        QCOMPARE(bloomctl({QStringLiteral("--json"), QStringLiteral("fpr"), QStringLiteral("--sample"),
                           QStringLiteral("1000")},
                          &out),
                 0);
        QVERIFY2(QJsonDocument::fromJson(out).object().contains(QLatin1String("measured_fpr")), out.constData());
        // The fill per block adds up to the key's own BITCOUNT.
        auto fill = f.fill();
        QVERIFY(fill.ok());
        QCOMPARE(fill->setBits.size(), size_t(1221));
        QCOMPARE(qint64(fill->totalSet), *(*conn)->integer({"BITCOUNT", redisbloom::ReferenceKey}));
        QVERIFY2(qAbs(fill->estimatedNames - 5200) < 260, qPrintable(QString::number(fill->estimatedNames)));
        // The lattice count read in GETRANGE pieces equals one GETBIT per lattice position.
        QList<QList<QByteArray>> lattice;
        for (quint64 pos = 0; pos < redisbloom::ReferenceBits; pos += 128)
            lattice.append({"GETBIT", redisbloom::ReferenceKey, QByteArray::number(pos)});
        auto bits = (*conn)->pipelineIntegers(lattice);
        QCOMPARE(fill->latticeSize, quint64(78125));
        QCOMPARE(qint64(fill->latticeSet), qint64(std::count(bits->begin(), bits->end(), 1)));
    }

    void addedByCoreIsFoundByTheReference()
    {
        auto conn = RedisConn::open(mRedis.target());
        RedisFilter f(**conn, "core_written");
        QVERIFY(f.attach().ok());
        QVERIFY(!f.exists());
        QVERIFY(f.check({"ada"})->first() == false); // an absent key is an empty filter
        QVERIFY(f.add(mNames).ok());
        for (qsizetype i = 0; i < mNames.size(); i += 97) {
            QCOMPARE(*(*conn)->integer({"GETBIT", "core_written", QByteArray::number(mGolden[i].first)}), 1);
            QCOMPARE(*(*conn)->integer({"GETBIT", "core_written", QByteArray::number(mGolden[i].second)}), 1);
        }
    }

    void theMeasuredRateFollowsJavaScriptsPositionsNotTheTextbook()
    {
        // sha256 as a double reaches only multiples of 128; FNV in doubles favours even positions.
        auto conn = RedisConn::open(mRedis.target());
        RedisFilter f(**conn, "fpr_filter");
        QCOMPARE(f.latticeStep(), quint64(128));
        QVERIFY(f.add(demoNames(100000, 3)).ok());
        auto fill = f.fill();
        QVERIFY(fill.ok());
        QVERIFY2(qAbs(fill->estimatedNames - 100000) < 3000, qPrintable(QString::number(fill->estimatedNames)));
        auto measured = f.sampleFpr(50000);
        QVERIFY(measured.ok());
        const double model = f.modelFpr(100000), textbook = f.naiveModelFpr(100000);
        qInfo("100,000 names: measured %.4f, model %.4f, fill estimate %.4f, textbook %.6f", *measured, model,
              fill->estimatedFpr, textbook);
        QVERIFY(qAbs(*measured - model) < 0.2 * model);
        QVERIFY(*measured > 20 * textbook);
    }

    void badInputIsAClearError()
    {
        auto conn = RedisConn::open(mRedis.target());
        QVERIFY((*conn)->integer({"LPUSH", "a_list", "x"}).ok());
        RedisFilter list(**conn, "a_list");
        QCOMPARE(list.attach().error().kind, ErrorKind::ForeignFilter);
        QVERIFY((*conn)->integer({"SETBIT", "too_big", "20000000", "1"}).ok());
        RedisFilter big(**conn, "too_big");
        QVERIFY(big.attach().error().message.contains(QLatin1String("more than the filter's m")));
        QVERIFY(!RedisFilter(**conn).check({""}).ok());
        QVERIFY(!RedisFilter(**conn).add({"\xff\xfe"}).ok());
        QCOMPARE(RedisConn::open(*RedisTarget::parse(QStringLiteral("redis://127.0.0.1:1")), 2).error().kind,
                 ErrorKind::Connection);
        QCOMPARE(RedisTarget::parse(QStringLiteral("http://x")).error().kind, ErrorKind::Usage);
        QByteArray out;
        QCOMPARE(bloomctl({QStringLiteral("--key"), QStringLiteral("a_list"), QStringLiteral("info")}, &out), 4);
        QVERIFY(out.contains("not a bitmap"));
        QProcess p;
        p.start(QStringLiteral(BLOOMCTL_PATH),
                {QStringLiteral("--redis"), QStringLiteral("redis://127.0.0.1:1"), QStringLiteral("info")});
        p.waitForFinished(30000);
        QCOMPARE(p.exitCode(), 3);
    }

    void cleanupTestCase() { mRedis.stop(); }
};

QTEST_GUILESS_MAIN(TestRedis)
#include "tst_redis.moc"
