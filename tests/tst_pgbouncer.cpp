// A load through a connection pooler (issue 34, item 2): Debian's PgBouncer in session mode with a pool
// of 2 server connections. The load's extra connections (a second for its steps, a third for VACUUM) are
// accepted by PgBouncer at once and queued until a server connection is free: the load used to wait in
// that queue for query_wait_timeout (120 s) and say nothing. It now goes on with what it has within a
// few seconds, and says so.
#include "localpgbouncer.h"
#include "postgres/filterstore.h"
#include "testcluster.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace bloom;

class TestPgBouncer : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    test::LocalPgBouncer mBouncer;
    QTemporaryDir mTemp;
    static constexpr auto Password = "pooled-s3cret";

    /** `count` names "prefix-i", one a line, in a file of the test's directory. */
    QString namesFile(const QString &prefix, int count, QList<QByteArray> *sample)
    {
        const QString path = mTemp.filePath(prefix + QStringLiteral(".txt"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        QByteArray block;
        for (int i = 0; i < count; ++i) {
            const QByteArray n = prefix.toUtf8() + '-' + QByteArray::number(i);
            block += n + '\n';
            if (i % 997 == 0)
                sample->append(n);
            if (block.size() > (1 << 20)) {
                f.write(block);
                block.clear();
            }
        }
        f.write(block);
        return path;
    }
    struct Loaded {
        test::CtlRun run;
        QJsonObject report;
        qint64 ms = 0;
    };
    static Loaded load(const QString &conninfo, const QString &file)
    {
        Loaded l;
        QElapsedTimer t;
        t.start();
        l.run = test::runBloomctl(
            {QStringLiteral("--db"), conninfo, QStringLiteral("--json"), QStringLiteral("load"), file});
        l.ms = t.elapsed();
        l.report = QJsonDocument::fromJson(l.run.out).object();
        return l;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(mTemp.isValid());
        QVERIFY(test::startCluster(mCluster));
        for (const QString &db : {QStringLiteral("direct"), QStringLiteral("pooled")}) {
            QVERIFY(mCluster.createDatabase(db).ok());
            QVERIFY(mCluster.exec(db, test::sqlResource(QStringLiteral("reference.sql"))).ok());
            QVERIFY(mCluster.exec(db, QStringLiteral("vacuum analyze username_filter")).ok());
        }
        test::LocalPgBouncer::Options o;
        o.user = mCluster.superuser(); // owns the filter: the load vacuums between its steps
        o.password = QString::fromLatin1(Password);
        auto s = mBouncer.start(mCluster, o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
    }

    /** 1,000,000 names through a session pool of 2: the load's session and its second connection take
     *  both server connections; the VACUUMs' connection would wait in the queue (123 s before). */
    void aLoadThroughASessionPoolOfTwo()
    {
        QList<QByteArray> sample;
        const QString file = namesFile(QStringLiteral("pooler"), 1'000'000, &sample);
        QVERIFY(!file.isEmpty());
        // The same load straight to the server first: its normal time on this machine now.
        const Loaded direct = load(mCluster.connectionString(QStringLiteral("direct")), file);
        QVERIFY2(direct.run.code == 0, direct.run.err.constData());
        QCOMPARE(direct.report.value(QStringLiteral("connections")).toInt(), 2);
        QVERIFY(direct.report.value(QStringLiteral("vacuum_connection")).toBool());

        const Loaded pooled = load(mBouncer.conninfo(QStringLiteral("pooled")), file);
        qInfo("1,000,000 names: %lld ms straight to the server, %lld ms through PgBouncer (session mode, pool of 2)",
              direct.ms, pooled.ms);
        QVERIFY2(pooled.run.code == 0, qPrintable(QStringLiteral("exit %1 after %2 ms: %3\n%4")
                                                      .arg(pooled.run.code)
                                                      .arg(pooled.ms)
                                                      .arg(QString::fromUtf8(pooled.run.err), mBouncer.log())));
        QCOMPARE(pooled.report.value(QStringLiteral("added")).toInteger(), 1'000'000);
        QCOMPARE(pooled.report.value(QStringLiteral("batches")).toInt(), FilterStore::LoadSteps);
        QCOMPARE(pooled.report.value(QStringLiteral("connections")).toInt(), 2);
        QVERIFY(!pooled.report.value(QStringLiteral("vacuum_connection")).toBool());
        // It says how it wrote: the VACUUMs on its own connection, and why.
        QVERIFY2(pooled.run.err.contains("note: the VACUUMs between the load's steps ran 15 of them on the load's own "
                                         "connection"),
                 pooled.run.err.constData());
        QVERIFY2(pooled.run.err.contains("connection 3 was refused (no answer yet when it was no longer needed; a "
                                         "connection pooler such as PgBouncer"),
                 pooled.run.err.constData());
        // About its normal time: never a pooler's query_wait_timeout.
        QVERIFY2(pooled.ms <= direct.ms * 2 + 3000, qPrintable(QString::number(pooled.ms)));
        QCOMPARE(test::referenceFree(mCluster.connectionString(QStringLiteral("pooled")), sample), 0);
    }

    /** Another client holds one of the pool's two server connections: the load's second connection gets
     *  none within 3 s, and the steps are written on the load's session alone. */
    void aFullPoolLeavesTheLoadItsOwnConnection()
    {
        PgConn other(mBouncer.conninfo(QStringLiteral("pooled")), PgConn::SearchPath::Pinned);
        QVERIFY2(other.ok(), qPrintable(other.errorMessage())); // its first statement took a server connection
        QList<QByteArray> sample;
        const QString file = namesFile(QStringLiteral("crowded"), 300'000, &sample);
        const Loaded pooled = load(mBouncer.conninfo(QStringLiteral("pooled")), file);
        qInfo("300,000 names through a pool whose other server connection is taken: %lld ms", pooled.ms);
        QVERIFY2(pooled.run.code == 0, pooled.run.err.constData());
        QCOMPARE(pooled.report.value(QStringLiteral("connections")).toInt(), 1);
        QVERIFY2(pooled.run.err.contains("note: the load's steps were written on 1 connection(s): connection 2 was "
                                         "refused (no answer within 3 s"),
                 pooled.run.err.constData());
        QVERIFY2(pooled.ms <= 30000, qPrintable(QString::number(pooled.ms)));
        QCOMPARE(test::referenceFree(mCluster.connectionString(QStringLiteral("pooled")), sample), 0);
        QVERIFY(other.exec(QStringLiteral("select 1")).ok()); // the other client still has its session
    }
};

QTEST_GUILESS_MAIN(TestPgBouncer)
#include "tst_pgbouncer.moc"
