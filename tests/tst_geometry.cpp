#include "model/geometry.h"

#include <QTest>

using namespace bloom;

/** Geometry: the reference default, derived sizes and every validation error. */
class TestGeometry : public QObject {
    Q_OBJECT
private slots:
    void referenceDefault()
    {
        const Geometry g;
        QCOMPARE(g.chunkLog2(), 17);
        QCOMPARE(g.bitsLog2(), 13);
        QCOMPARE(g.k(), 7);
        QCOMPARE(g.chunks(), 131072u);
        QCOMPARE(g.chunkBits(), 8192u);
        QCOMPARE(g.totalBits(), quint64(1) << 30);
        QCOMPARE(g.totalBytes(), quint64(128) * 1024 * 1024);
        QCOMPARE(g.hashBitsUsed(), 108);
        QVERIFY(g.isReference());
        QCOMPARE(formatBytes(g.totalBytes()), QStringLiteral("128 MiB"));
    }

    void tableSizeNearReference()
    {
        // The reference: "about 150 MiB on disk once Postgres adds its row headers and the primary key".
        const double mib = double(Geometry().tableSizeEstimate()) / (1024.0 * 1024.0);
        QVERIFY2(mib > 140 && mib < 160, qPrintable(QString::number(mib)));
    }

    void fromCounts()
    {
        auto g = Geometry::fromCounts(262144, 8192, 7);
        QVERIFY(g.ok());
        QCOMPARE(g->chunkLog2(), 18);
        QCOMPARE(g->chunks(), 262144u);
        QVERIFY(!g->isReference());
        auto one = Geometry::fromCounts(1, 64, 3);
        QVERIFY(one.ok());
        QCOMPARE(one->chunks(), 1u);
    }

    void invalid_data()
    {
        QTest::addColumn<int>("c");
        QTest::addColumn<int>("b");
        QTest::addColumn<int>("k");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("negative chunks") << -1 << 13 << 7 << QStringLiteral("chunk count");
        QTest::newRow("too many chunks") << 31 << 13 << 7 << QStringLiteral("chunk count");
        QTest::newRow("tiny chunks") << 10 << 2 << 3 << QStringLiteral("bits per chunk");
        QTest::newRow("huge chunks") << 10 << 17 << 3 << QStringLiteral("bits per chunk");
        QTest::newRow("k zero") << 17 << 13 << 0 << QStringLiteral("k = 0");
        QTest::newRow("k too big") << 0 << 3 << 33 << QStringLiteral("k = 33");
        QTest::newRow("too many hash bits") << 17 << 13 << 9 << QStringLiteral("134 hash bits");
        QTest::newRow("just over 128") << 25 << 16 << 7 << QStringLiteral("137 hash bits");
    }
    void invalid()
    {
        QFETCH(int, c);
        QFETCH(int, b);
        QFETCH(int, k);
        QFETCH(QString, mentions);
        auto g = Geometry::create(c, b, k);
        QVERIFY(!g.ok());
        QCOMPARE(g.error().kind, ErrorKind::Usage);
        QVERIFY2(g.error().message.contains(mentions), qPrintable(g.error().message));
        QVERIFY(!g.error().fix.isEmpty());
    }

    void exactly128Fits()
    {
        auto g = Geometry::create(16, 16, 7); // 16 + 112 = 128
        QVERIFY(g.ok());
        QCOMPARE(g->hashBitsUsed(), 128);
    }

    void notPowerOfTwo()
    {
        auto chunks = Geometry::fromCounts(100000, 8192, 7);
        QVERIFY(!chunks.ok());
        QVERIFY(chunks.error().message.contains(QLatin1String("100000 chunks is not a power of two")));
        auto bits = Geometry::fromCounts(131072, 1000, 7);
        QVERIFY(!bits.ok());
        QVERIFY(bits.error().message.contains(QLatin1String("1000 bits per chunk")));
        QVERIFY(!Geometry::fromCounts(0, 8192, 7).ok());
    }
};

QTEST_GUILESS_MAIN(TestGeometry)
#include "tst_geometry.moc"
