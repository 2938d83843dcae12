// Built as tst_md5lanes_O0 against bloommodel_O0: md5lanes.cpp and placement.cpp compiled at -O0.
#include "model/md5lanes.h"
#include "model/name.h"
#include "model/placement.h"

#include <QRandomGenerator>
#include <QTest>

#include <vector>

using namespace bloom;

/**
 * md5lanes::hash and placeAsciiMany equal OpenSSL's MD5 with the model built unoptimised: at -O0 a
 * vector helper left out of line inside block()'s AVX2 clone broke every digest (issue 32).
 */
class TestMd5Lanes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qInfo("block() runs its %s clone on this CPU", __builtin_cpu_supports("avx2") ? "AVX2" : "default");
    }

    void knownDigests()
    {
        // Fixed answers, not only agreement with OpenSSL: md5(''), md5('ada') from 'ADA' lowered.
        QByteArrayView in[2] = {QByteArrayView(), QByteArrayView("ADA")};
        Hash128 out[2];
        md5lanes::hash(in, 2, true, out);
        QCOMPARE(out[0].hex(), QStringLiteral("d41d8cd98f00b204e9800998ecf8427e"));
        QCOMPARE(out[1].hex(), QStringLiteral("8c8d357b5e872bbacd45197626bd5759"));
        QCOMPARE(place(Geometry(), out[1]).chunk, 71962u);
    }

    void everyLengthEqualsOpenSsl_data()
    {
        QTest::addColumn<bool>("lower");
        QTest::newRow("as is") << false;
        QTest::newRow("ASCII lowered") << true;
    }
    void everyLengthEqualsOpenSsl()
    {
        // Every length 0..55 in every lane, for every lane count, bytes from the whole range (A-Z
        // and high bytes included): each lane is OpenSSL's digest of the same (lowered) bytes.
        QFETCH(bool, lower);
        QRandomGenerator rng(32);
        for (int length = 0; length <= int(md5lanes::MaxBytes); ++length) {
            for (int count = 1; count <= md5lanes::Lanes; ++count) {
                QByteArray data[md5lanes::Lanes];
                QByteArrayView views[md5lanes::Lanes];
                for (int i = 0; i < count; ++i) {
                    data[i].resize((length + 7 * i) % (md5lanes::MaxBytes + 1));
                    for (char &c : data[i])
                        c = char(rng.bounded(256));
                    views[i] = data[i];
                }
                Hash128 got[md5lanes::Lanes];
                md5lanes::hash(views, count, lower, got);
                for (int i = 0; i < count; ++i)
                    QVERIFY2(
                        got[i] == Hash128::md5(lower ? asciiLower(data[i]) : data[i]),
                        qPrintable(QStringLiteral("length %1, lane %2 of %3").arg(data[i].size()).arg(i).arg(count)));
            }
        }
    }

    void manyPlacementsEqualOneAtATime()
    {
        // placeAsciiMany (eight at a time; over 55 bytes one at a time) against placeAscii (OpenSSL),
        // names of 0..120 bytes with capitals, the 55/56 boundary included.
        QRandomGenerator rng(55);
        QList<QByteArray> names;
        for (int i = 0; i < 500; ++i) {
            QByteArray n(i < 120 ? i % 60 : int(rng.bounded(121)), Qt::Uninitialized);
            for (char &c : n)
                c = char(32 + rng.bounded(95));
            names.append(n);
        }
        const std::vector<QByteArrayView> views(names.cbegin(), names.cend());
        for (const Geometry &g : {Geometry(), *Geometry::create(5, 10, 3)}) {
            for (const qsizetype count : {qsizetype(0), qsizetype(1), qsizetype(8), qsizetype(9), qsizetype(500)}) {
                std::vector<Placement> got(size_t(count) + 1);
                placeAsciiMany(g, views.data(), count, got.data());
                for (qsizetype i = 0; i < count; ++i)
                    QVERIFY2(got[size_t(i)] == placeAscii(g, names[i]), names[i].constData());
                QCOMPARE(got[size_t(count)], Placement()); // nothing written past count
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestMd5Lanes)
#include "tst_md5lanes.moc"
