#include "model/fprmodel.h"
#include "postgres/filterstore.h"

#include <QElapsedTimer>
#include <QTest>

#include <cmath>
#include <numbers>
#include <vector>

using namespace bloom;

/** The FPR model against every figure of the reference text. */
class TestFprModel : public QObject {
    Q_OBJECT
private slots:
    void wilsonIntervalEnds()
    {
        // A measured FPR of 0 of 1,000 probes: the interval starts at 0, exactly (the formula's own
        // rounding said 2.17e-19), and ends at z^2 / (n + z^2).
        const FprSample::Interval none = FprSample::wilson(0, 1000);
        QCOMPARE(none.low, 0.0);
        QVERIFY(std::abs(none.high - 3.8415 / 1003.8415) < 1e-5);
        QCOMPARE(FprSample::wilson(1000, 1000).high, 1.0);
        const FprSample::Interval some = FprSample::wilson(5, 1000);
        QVERIFY(some.low > 0 && some.low < 0.005 && some.high > 0.005 && some.high < 0.02);
        // The probe names: a version-4 UUID after the prefix, never added by anyone.
        const quint32 words[4] = {0x01234567, 0x89abcdef, 0xfedcba98, 0x76543210};
        const QByteArray name = fprProbeName(words);
        QVERIFY2(name.startsWith("bloomscope-fpr-probe-"), name.constData());
        QCOMPARE(name.size(), 21 + 36);
        QCOMPARE(name.at(21 + 14), '4'); // the version nibble
        QVERIFY(QByteArray("89ab").contains(name.at(21 + 19)));
    }
    void standardAt100M()
    {
        // "compared to 0.578% for a regular Bloom filter of the same size"
        const double p = fpr::standard(100e6, std::ldexp(1.0, 30), 7);
        QCOMPARE(QString::number(p * 100, 'f', 3), QStringLiteral("0.578"));
    }

    void blockedAt100M()
    {
        // "a 0.585% false-positive rate", "about 1 in 170 free ones"
        const double p = fpr::blocked(100e6, Geometry());
        QCOMPARE(QString::number(p * 100, 'f', 3), QStringLiteral("0.585"));
        QCOMPARE(qRound(1.0 / p), 171); // 1 / 0.00585 = 170.9: the text rounds down to "1 in 170"
        QVERIFY(p > fpr::standard(100e6, std::ldexp(1.0, 30), 7));
    }

    void blockedGrowth_data()
    {
        QTest::addColumn<double>("names");
        QTest::addColumn<int>("oneIn");
        QTest::newRow("150M: 1 in 27") << 150e6 << 27;
        QTest::newRow("200M: 1 in 9") << 200e6 << 9;
    }
    void blockedGrowth()
    {
        QFETCH(double, names);
        QFETCH(int, oneIn);
        const double p = fpr::blocked(names, Geometry());
        QCOMPARE(int(1.0 / p), oneIn);
    }

    void sizingFigures()
    {
        // "For a 1% false-positive rate ... about 9.6 bits per item, with a k of about 7."
        QCOMPARE(QString::number(fpr::bitsPerItem(0.01), 'f', 1), QStringLiteral("9.6"));
        QCOMPARE(qRound(fpr::optimalKForRate(0.01)), 7);
        // "That works out to 10.7 bits per name, so the best k is 10.74 x ln 2 = 7.44"
        const double m = std::ldexp(1.0, 30);
        QCOMPARE(QString::number(m / 100e6, 'f', 2), QStringLiteral("10.74"));
        QCOMPARE(QString::number(fpr::optimalK(m, 100e6), 'f', 2), QStringLiteral("7.44"));
        // "For 100 million users, a 1% false-positive rate needs at least 960 million bits."
        QVERIFY(std::abs(fpr::bitsPerItem(0.01) * 100e6 - 960e6) < 5e6);
    }

    void sizingRecommendsReference()
    {
        // 100M names at 1%: the smallest power-of-two filter of 8,192-bit chunks is 2^30 bits, k 7.
        auto s = fpr::sizing(100e6, 0.01);
        QVERIFY(s.has_value());
        QCOMPARE(s->geometry.chunks(), 131072u);
        QCOMPARE(s->geometry.chunkBits(), 8192u);
        QCOMPARE(s->geometry.k(), 7);
        QVERIFY(s->fpr <= 0.01);
        // 150M names at 1% needs the next size up.
        auto bigger = fpr::sizing(150e6, 0.01);
        QVERIFY(bigger.has_value());
        QCOMPARE(bigger->geometry.chunks(), 262144u);
        QVERIFY(!fpr::sizing(0, 0.01).has_value());
        QVERIFY(!fpr::sizing(1e6, 1.5).has_value());
    }

    void fillEstimate()
    {
        // Uniform fill: mean of (s/B)^k equals (s/B)^k.
        std::vector<quint32> fill(1024, 4096);
        QCOMPARE(fpr::fromFill(fill, 8192, 7), std::pow(0.5, 7));
        // Mixed: (0^7 + 1^7) / 2.
        std::vector<quint32> mixed{0, 8192};
        QCOMPARE(fpr::fromFill(mixed, 8192, 7), 0.5);
        QCOMPARE(fpr::fromFill({}, 8192, 7), 0.0);
    }

    void nameEstimateInvertsFill()
    {
        // A chunk with j names is expected to hold B(1 - (1-1/B)^(kj)) set bits; invert it.
        for (double j : {0.0, 1.0, 100.0, 763.0, 2000.0})
            QVERIFY(std::abs(fpr::namesForSetBits(fpr::expectedSetBits(j, 8192, 7), 8192, 7) - j) < 1e-6);
        std::vector<quint32> fill(131072, quint32(std::lround(fpr::expectedSetBits(763, 8192, 7))));
        const double n = fpr::estimateNames(fill, 8192, 7);
        QVERIFY(std::abs(n - 763.0 * 131072) / (763.0 * 131072) < 1e-3);
        QVERIFY(std::isinf(fpr::namesForSetBits(8192, 8192, 7)));
        std::vector<quint32> full{8192};
        QVERIFY(std::isfinite(fpr::estimateNames(full, 8192, 7)));
    }

    void capacityAtOnePercent()
    {
        // The reference geometry reaches 1% a little above 100M names.
        const double n = fpr::capacity(Geometry(), 0.01);
        QVERIFY2(n > 110e6 && n < 125e6, qPrintable(QString::number(n)));
        QVERIFY(std::abs(fpr::blocked(n, Geometry()) - 0.01) < 1e-5);
    }

    void blockedStepsOnlyWhereTheSumIsSmooth()
    {
        // Past 4,096 terms blocked() takes every h-th load: it agrees with the full sum to 1e-9.
        const auto full = [](double n, double chunks, double chunkBits, int k) {
            const double lambda = n / chunks;
            const double spread = 12.0 * std::sqrt(lambda) + 20.0;
            double sum = 0;
            for (qint64 j = qMax<qint64>(0, qint64(std::floor(lambda - spread)));
                 j <= qint64(std::ceil(lambda + spread)); ++j)
                sum += fpr::poisson(j, lambda) *
                       std::pow(1.0 - std::pow(1.0 - 1.0 / chunkBits, double(k) * double(j)), double(k));
            return sum;
        };
        for (const double lambda : {763.0, 5000.0, 2e4, 1e5, 4e5}) {
            const double chunkBits = std::ldexp(1.0, int(std::ceil(std::log2(lambda * 10)))); // ~10 bits a name
            const double expected = full(lambda * 64, 64, chunkBits, 7);
            const double got = fpr::blocked(lambda * 64, 64, chunkBits, 7);
            QVERIFY2(std::abs(got - expected) <= 1e-9 * expected,
                     qPrintable(QStringLiteral("lambda %1: %2 vs %3").arg(lambda).arg(got).arg(expected)));
        }
        QCOMPARE(fpr::blocked(0, Geometry()), 0.0);
    }

    void farForecastsAreSizedAtOnce()
    {
        // A forecast of 10^9..10^12 names (a bulk import fitted as growth) is sized on the GUI thread
        // (the FPR tab's recommendation, the rebuild dialog). The full sums over one-chunk filters took
        // 1.8 s at 10^9 and 19 s at 1.5 x 10^11; the watchdog below only catches a return to that.
        QElapsedTimer t;
        t.start();
        auto s = fpr::sizing(1.5e11, 0.01);
        QVERIFY(s.has_value());
        QCOMPARE(s->geometry.totalBits(), quint64(1) << 41);
        QVERIFY(s->fpr <= 0.01);
        QVERIFY(fpr::sizing(1e9, 0.01).has_value());
        QVERIFY(!fpr::sizing(1e13, 0.01).has_value()); // beyond any geometry
        const double far = fpr::blocked(1e14, Geometry());
        QVERIFY(far > 0.999 && far <= 1.0);
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
    }

    void poissonIsExactFarOut()
    {
        // At the mode, Poisson(lambda; lambda) = 1 / sqrt(2 pi lambda) (1 - 1 / (12 lambda) + ...). The
        // terms j log(lambda) and lgamma(j + 1) cancelled to 4% at 10^14.
        for (const double lambda : {1e4, 1e6, 1e9, 1e14}) {
            const double expected = (1.0 - 1.0 / (12.0 * lambda)) / std::sqrt(2.0 * std::numbers::pi * lambda);
            const double got = fpr::poisson(qint64(lambda), lambda);
            QVERIFY2(std::abs(got / expected - 1.0) < 1e-6,
                     qPrintable(QStringLiteral("lambda %1: %2 vs %3").arg(lambda).arg(got).arg(expected)));
        }
        // The two formulas meet at j = 10^5 without a step: p(j + 1) / p(j) = lambda / (j + 1).
        const double ratio = fpr::poisson(100000, 1e5) / fpr::poisson(99999, 1e5);
        QVERIFY2(std::abs(ratio - 1e5 / 100000.0) < 1e-9, qPrintable(QString::number(ratio, 'g', 17)));
    }

    void poissonSumsToOne()
    {
        double sum = 0;
        for (int j = 0; j < 2000; ++j)
            sum += fpr::poisson(j, 763.0);
        QVERIFY(std::abs(sum - 1.0) < 1e-9);
        QCOMPARE(fpr::poisson(0, 0), 1.0);
    }
};

QTEST_GUILESS_MAIN(TestFprModel)
#include "tst_fprmodel.moc"
