#include "local/localcluster.h"
#include "postgres/batchcheck.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "testcluster.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

#include <signal.h>

using namespace bloom;

/** BatchCheck (the filter read once, names answered from memory) against the per-name path: the same
 *  answer for every name, damage as an error, a swap followed, and bloomctl's batches cancelled. */
class TestBatch : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    QString mDb;
    std::unique_ptr<Database> mSession;
    std::unique_ptr<FilterStore> mStore;
    QList<QByteArray> mAdded;   ///< as loaded
    QList<QByteArray> mChecked; ///< the added names in other cases, then as many never added

    std::unique_ptr<Database> open(const QString &conninfo)
    {
        auto d = Database::open(*ConnectionSpec::parse(conninfo));
        if (!d)
            qFatal("%s", qPrintable(d.error().toString()));
        return std::move(d).value();
    }
    /** The name in another case whose lower() is the name's: the ASCII letters upper-cased, or all
     *  lowered, or all upper-cased (not for ß, whose upper case is SS). */
    static QByteArray otherCase(const QByteArray &name, qint64 i)
    {
        const QString s = QString::fromUtf8(name);
        if (i % 3 == 0 || (i % 3 == 2 && s.contains(QChar(0xdf))))
            return name.toUpper(); // ASCII letters only
        return (i % 3 == 1 ? s.toLower() : s.toUpper()).toUtf8();
    }
    static QByteArray lines(const QList<QByteArray> &names)
    {
        QByteArray b;
        for (const QByteArray &n : names)
            b += n + '\n';
        return b;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("app")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("app"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        mDb = mCluster.connectionString(QStringLiteral("app"));
        mSession = open(mDb);
        mStore = std::make_unique<FilterStore>(*mSession, FilterRef{});
        QVERIFY(mStore->attach().ok());
        // 100,000 names, three in four not ASCII (lowered by the server when loaded and checked).
        static const char *const stems[] = {"user-", "Ünïcode-", "STRAßE-", "Дмитрий-"};
        static const char *const never[] = {"free-", "İstanbul-", "ΣΊΣΥΦΟΣ-", "emoji-😀-", "MiXeD-Ǆ-"};
        for (qint64 i = 0; i < 100'000; ++i)
            mAdded.append(QByteArray(stems[i % 4]) + QByteArray::number(i * 7919));
        for (qint64 i = 0; i < 100'000; ++i) {
            mChecked.append(otherCase(mAdded[i], i));
            mChecked.append(otherCase(QByteArray(never[i % 5]) + QByteArray::number(i), i));
        }
        QByteArray file = lines(mAdded);
        QBuffer in(&file);
        in.open(QIODevice::ReadOnly);
        auto loaded = mStore->load(&in);
        QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().toString()));
        QCOMPARE(loaded->namesAdded, qint64(mAdded.size()));
    }

    void sameAnswersAsThePerNamePath()
    {
        // The per-name path: the server lowers the names that are not ASCII, the pipelined check.
        auto placed = mStore->place(mChecked);
        QVERIFY(placed);
        auto perName = mStore->check(*placed);
        QVERIFY(perName);
        // From memory, the list.
        BatchCheck batch(*mStore);
        batch.setCrossover(0);
        auto fromMemory = batch.check(mChecked);
        QVERIFY2(fromMemory, qPrintable(fromMemory ? QString() : fromMemory.error().toString()));
        QVERIFY(batch.inMemory());
        QVERIFY(batch.snapshot().isValid());
        QVERIFY(qAbs(batch.snapshot().secsTo(QDateTime::currentDateTimeUtc())) < 60);
        QCOMPARE(fromMemory->size(), perName->size());
        qint64 differ = 0, maybe = 0;
        for (qsizetype i = 0; i < perName->size(); ++i) {
            differ += fromMemory->at(i) != perName->at(i);
            maybe += fromMemory->at(i);
        }
        QCOMPARE(differ, qint64(0));
        // No false negative: every added name, in whatever case, is maybe.
        for (qsizetype i = 0; i < mChecked.size(); i += 2)
            QVERIFY2(fromMemory->at(i), mChecked[i].constData());
        QVERIFY(maybe >= 100'000 && maybe < 101'000); // the never-added ones: false positives only
        // And the reference's own statement agrees for the added ones.
        QList<QByteArray> addedChecked;
        for (qsizetype i = 0; i < mChecked.size(); i += 2)
            addedChecked.append(mChecked[i]);
        QCOMPARE(test::referenceFree(mDb, addedChecked), qint64(0));

        // Streamed, as check - reads stdin: blocks of lines, the verdicts in order.
        QByteArray text = lines(mChecked);
        QBuffer in(&text);
        in.open(QIODevice::ReadOnly);
        NameReader reader(&in);
        BatchCheck streamed(*mStore);
        streamed.setCrossover(1000); // past it after the first block
        qsizetype at = 0;
        qint64 mismatches = 0;
        auto n = streamed.checkStream(reader, [&](const NameBlock &b, const RowVerdict *v, qsizetype count) {
            for (qsizetype i = 0; i < count; ++i, ++at) {
                mismatches += b.name(size_t(i)) != mChecked[at];
                mismatches += (v[i] == RowVerdict::Maybe) != perName->at(at);
            }
            return success();
        });
        QVERIFY2(n, qPrintable(n ? QString() : n.error().toString()));
        QVERIFY(streamed.inMemory());
        QCOMPARE(*n, qint64(mChecked.size()));
        QCOMPARE(at, mChecked.size());
        QCOMPARE(mismatches, qint64(0));

        // Below the crossover: the per-name path, nothing read whole.
        QBuffer again(&text);
        again.open(QIODevice::ReadOnly);
        NameReader reader2(&again);
        BatchCheck few(*mStore);
        few.setCrossover(10'000'000);
        at = 0;
        n = few.checkStream(reader2, [&](const NameBlock &, const RowVerdict *v, qsizetype count) {
            for (qsizetype i = 0; i < count; ++i, ++at)
                mismatches += (v[i] == RowVerdict::Maybe) != perName->at(at);
            return success();
        });
        QVERIFY(n);
        QVERIFY(!few.inMemory());
        QCOMPARE(mismatches, qint64(0));
    }

    void bloomctlCheckStreams()
    {
        // bloomctl check - past the crossover: the same lines as the per-name path, and --json says as of when.
        const QByteArray input = lines(mChecked.mid(0, 20'000));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const auto run = [&](const QStringList &args, const QString &crossover) {
            QProcess p;
            env.insert(QStringLiteral("BLOOMSCOPE_BATCH_CROSSOVER"), crossover);
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--db"), mDb} + args);
            p.waitForStarted();
            p.write(input);
            p.closeWriteChannel();
            p.waitForFinished(120000);
            return std::pair{p.exitCode(), p.readAllStandardOutput()};
        };
        const auto [codeMemory, outMemory] = run({QStringLiteral("check"), QStringLiteral("-")}, QStringLiteral("0"));
        const auto [codeServer, outServer] =
            run({QStringLiteral("check"), QStringLiteral("-")}, QStringLiteral("100000000"));
        QCOMPARE(codeMemory, 0);
        QCOMPARE(codeServer, 0);
        QCOMPARE(outMemory.count('\n'), 20'000);
        QVERIFY(outMemory == outServer);
        const auto [codeJson, outJson] =
            run({QStringLiteral("--json"), QStringLiteral("check"), QStringLiteral("-")}, QStringLiteral("0"));
        QCOMPARE(codeJson, 0);
        const QJsonArray arr = QJsonDocument::fromJson(outJson).array();
        QCOMPARE(arr.size(), 20'000);
        QCOMPARE(arr.at(1).toObject().value(QLatin1String("name")).toString(), QString::fromUtf8(mChecked[1]));
        QVERIFY(QDateTime::fromString(arr.at(0).toObject().value(QLatin1String("as_of")).toString(), Qt::ISODateWithMs)
                    .isValid());
        // fpr --sample from memory: as of the snapshot, the estimate beside it.
        const auto [codeFpr, outFpr] =
            run({QStringLiteral("--json"), QStringLiteral("fpr"), QStringLiteral("--sample"), QStringLiteral("200000")},
                QStringLiteral("0"));
        QCOMPARE(codeFpr, 0);
        const QJsonObject fpr = QJsonDocument::fromJson(outFpr).object();
        QCOMPARE(fpr.value(QLatin1String("probes")).toInteger(), 200000);
        QVERIFY(fpr.contains(QLatin1String("as_of")));
        QVERIFY(fpr.value(QLatin1String("estimated_fpr")).toDouble() > 0);
    }

    void damagedFilterIsAnError()
    {
        // A chunk row NULL, then missing: a name there is an error (exit 9), never free, on this path too.
        PgConn raw(mDb);
        const QByteArray victim = mAdded[0]; // ASCII: "user-0"
        const quint32 chunk = placeAscii(mStore->geometry(), victim).chunk;
        QVERIFY(raw.exec(QStringLiteral("create table saved as select * from username_filter where chunk = %1; alter "
                                        "table username_filter alter bits drop not null")
                             .arg(chunk))
                    .ok());
        for (const QString &damage : {QStringLiteral("update username_filter set bits = null where chunk = %1"),
                                      QStringLiteral("delete from username_filter where chunk = %1")}) {
            QVERIFY(raw.exec(damage.arg(chunk)).ok());
            BatchCheck batch(*mStore);
            batch.setCrossover(0);
            QList<QByteArray> names = mChecked.mid(1, 999);
            names.append(victim);
            auto v = batch.check(names);
            QVERIFY(!v);
            QCOMPARE(v.error().kind, ErrorKind::DamagedFilter);
            QVERIFY2(v.error().message.contains(QString::number(chunk)), qPrintable(v.error().message));
            QVERIFY(!mStore->damage().empty());
            // Streamed: the names before it answered, then the error.
            QByteArray text = lines(names);
            QBuffer in(&text);
            in.open(QIODevice::ReadOnly);
            NameReader reader(&in);
            qsizetype given = 0;
            auto n = batch.checkStream(reader, [&](const NameBlock &, const RowVerdict *, qsizetype count) {
                given += count;
                return success();
            });
            QVERIFY(!n);
            QCOMPARE(n.error().kind, ErrorKind::DamagedFilter);
            QCOMPARE(given, qsizetype(999));
            // bloomctl: exit 9 naming the chunk, past the crossover, for check - and fpr --sample.
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("BLOOMSCOPE_BATCH_CROSSOVER"), QStringLiteral("0"));
            for (const QStringList &args :
                 {QStringList{QStringLiteral("check"), QStringLiteral("-")},
                  QStringList{QStringLiteral("fpr"), QStringLiteral("--sample"), QStringLiteral("100000")}}) {
                QProcess p;
                p.setProcessEnvironment(env);
                p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--db"), mDb} + args);
                p.waitForStarted();
                p.write(victim + "\n");
                p.closeWriteChannel();
                QVERIFY(p.waitForFinished(60000));
                const QByteArray err = p.readAllStandardError();
                QVERIFY2(p.exitCode() == 9, err.constData());
                QVERIFY2(err.contains(QByteArray::number(chunk)), err.constData());
                QVERIFY(!p.readAllStandardOutput().contains("free"));
            }
        }
        QVERIFY(raw.exec(QStringLiteral("insert into username_filter select * from saved; drop table saved; alter "
                                        "table username_filter alter bits set not null"))
                    .ok());
        BatchCheck whole(*mStore);
        whole.setCrossover(0);
        auto v = whole.check({victim});
        QVERIFY(v && v->first());
        QVERIFY(mStore->damage().empty());
    }

    void followsASwap()
    {
        // The table replaced under the attached store (what a swap does): the read attaches anew.
        PgConn raw(mDb);
        const QString before = mStore->identity();
        QVERIFY(raw.exec(QStringLiteral("begin; create table username_filter_new (like username_filter including all); "
                                        "insert into username_filter_new select * from username_filter; "
                                        "alter table username_filter rename to username_filter_old; "
                                        "alter table username_filter_new rename to username_filter; commit"))
                    .ok());
        BatchCheck batch(*mStore);
        batch.setCrossover(0);
        auto v = batch.check({mAdded[5]});
        QVERIFY2(v, qPrintable(v ? QString() : v.error().toString()));
        QVERIFY(v->first());
        QVERIFY(mStore->identity() != before);
        QVERIFY(raw.exec(QStringLiteral("drop table username_filter_old")).ok());
    }

    void signalsCancelWithinASecond()
    {
        // fpr --sample at its documented maximum, from memory: SIGINT stops it within 1 s, exit 130,
        // and the memory it reached is the filter's (128 MiB) and a little, not the probes'.
        const auto stopWithin = [&](const QStringList &args, int signal, const QByteArray &input, int waitMs) {
            QProcess p;
            p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--db"), mDb} + args);
            QVERIFY(p.waitForStarted());
            if (!input.isNull())
                p.write(input); // and the pipe stays open: more may come
            QTest::qWait(waitMs);
            QFile status(QStringLiteral("/proc/%1/status").arg(p.processId()));
            QVERIFY(status.open(QIODevice::ReadOnly));
            const QByteArray s = status.readAll();
            const qsizetype at = s.indexOf("VmHWM:");
            const qint64 peakKiB =
                s.mid(at + 6, s.indexOf('\n', at) - at - 6).trimmed().split(' ').first().toLongLong();
            QVERIFY2(p.state() == QProcess::Running, p.readAllStandardError().constData());
            QElapsedTimer t;
            t.start();
            ::kill(pid_t(p.processId()), signal);
            QVERIFY(p.waitForFinished(10000));
            const qint64 ms = t.elapsed();
            const QByteArray err = p.readAllStandardError();
            qInfo("%s: stopped %lld ms after signal %d; peak RSS %lld MiB", qPrintable(args.join(QLatin1Char(' '))), ms,
                  signal, peakKiB / 1024);
            QVERIFY2(p.exitCode() == 130, err.constData());
            QVERIFY2(err.contains("cancelled"), err.constData());
            QVERIFY2(ms < 1000, qPrintable(QString::number(ms)));
            QVERIFY2(peakKiB < 192 * 1024, qPrintable(QString::number(peakKiB))); // 1.5x the filter's 128 MiB
        };
        stopWithin({QStringLiteral("fpr"), QStringLiteral("--sample"), QStringLiteral("100000000")}, SIGINT, {}, 4000);
        if (QTest::currentTestFailed())
            return;
        stopWithin({QStringLiteral("fpr"), QStringLiteral("--sample"), QStringLiteral("100000000")}, SIGTERM, {}, 4000);
        if (QTest::currentTestFailed())
            return;
        // check - past the crossover, waiting on a pipe that stays open: SIGTERM, then SIGINT.
        const QByteArray many = lines(mChecked) + lines(mChecked);
        stopWithin({QStringLiteral("check"), QStringLiteral("-")}, SIGTERM, many, 4000);
        if (QTest::currentTestFailed())
            return;
        stopWithin({QStringLiteral("check"), QStringLiteral("-")}, SIGINT, many, 4000);
    }
};

QTEST_GUILESS_MAIN(TestBatch)
#include "tst_batch.moc"
