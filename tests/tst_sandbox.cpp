#include "common/boundedfile.h"
#include "model/fprmodel.h"
#include "model/name.h"
#include "model/placement.h"
#include "shards/shardmap.h"
#include "teach/classicfilter.h"
#include "teach/lessons.h"
#include "teach/sandbox.h"
#include "teach/timeline.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cmath>
#include <sys/stat.h>

using namespace bloom;

/** The teaching sandbox: the reference's own example, both schemes, sessions. No database. */
class TestSandbox : public QObject {
    Q_OBJECT
private:
    static QList<quint64> sorted(QList<quint64> v)
    {
        std::sort(v.begin(), v.end());
        return v;
    }

    static Timeline example()
    {
        Timeline t(*SandboxFilter::classic(16, 3));
        for (const char *n : {"ada", "grace"})
            (void)t.append(Timeline::Action::Add, n, Timeline::Origin::Example);
        for (const char *n : {"ada", "alan", "bjarne"})
            (void)t.append(Timeline::Action::Check, n, Timeline::Origin::Example);
        return t;
    }

    /** Brute force: the fewest added names whose positions cover `positions`, over every subset. */
    static int bruteCover(const SandboxFilter &f, const QList<quint64> &positions)
    {
        const auto names = f.names();
        QList<QList<quint64>> sets;
        for (const QByteArray &n : names)
            sets << f.trace(n)->positions;
        int best = -1;
        for (quint32 mask = 1; mask < (1u << names.size()); ++mask) {
            const int size = std::popcount(mask);
            if (best >= 0 && size >= best)
                continue;
            bool all = true;
            for (quint64 p : positions) {
                bool hit = false;
                for (int i = 0; i < names.size(); ++i)
                    hit = hit || ((mask >> i) & 1 && sets[i].contains(p));
                all = all && hit;
            }
            if (all)
                best = size;
        }
        return best;
    }

    /** A random classroom filter: classic or blocked, a few names. */
    static SandboxFilter randomFilter(QRandomGenerator &rng, int names)
    {
        const int k = 2 + int(rng.bounded(3));
        SandboxFilter f =
            rng.bounded(2)
                ? *SandboxFilter::classic(16 + rng.bounded(49), k)
                : *SandboxFilter::blocked(*Geometry::create(int(rng.bounded(3)), 3 + int(rng.bounded(3)), k));
        for (int i = 0; i < names; ++i)
            (void)f.add("s" + QByteArray::number(rng.generate(), 36));
        return f;
    }

    /** This process's resident memory, KiB (Linux). */
    static qint64 rssKiB()
    {
        QFile f(QStringLiteral("/proc/self/status"));
        if (!f.open(QIODevice::ReadOnly))
            return 0;
        for (const QByteArray &line : f.readAll().split('\n'))
            if (line.startsWith("VmRSS:"))
                return line.mid(6).trimmed().split(' ').value(0).toLongLong();
        return 0;
    }

    /** An independent computation of the model, by another method than core's inclusion-exclusion:
     *  the distribution of occupied bins after each throw (a Markov chain), then E[(occupied/B)^k]
     *  at t = k j throws, summed over a chunk's Binomial(n, 1/chunks) load (one chunk: classic). */
    static double occupancyModel(qint64 n, int chunks, int bins, int k)
    {
        const qint64 throws = n * k;
        std::vector<double> occ(size_t(bins) + 1, 0.0);
        occ[0] = 1;
        std::vector<double> atLoad(size_t(n) + 1, 0.0); // E[(X/B)^k] after k j throws, for each load j
        const auto rate = [&] {
            double r = 0;
            for (int x = 0; x <= bins; ++x)
                r += occ[size_t(x)] * std::pow(double(x) / bins, k);
            return r;
        };
        atLoad[0] = rate();
        for (qint64 t = 1; t <= throws; ++t) {
            for (int x = bins; x >= 1; --x)
                occ[size_t(x)] = occ[size_t(x)] * x / bins + occ[size_t(x - 1)] * (bins - x + 1) / bins;
            occ[0] = 0;
            if (t % k == 0)
                atLoad[size_t(t / k)] = rate();
        }
        if (chunks == 1)
            return atLoad[size_t(n)];
        double total = 0;
        const double p = 1.0 / chunks;
        for (qint64 j = 0; j <= n; ++j)
            total += std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(j) + 1) - std::lgamma(double(n - j) + 1) +
                              j * std::log(p) + (n - j) * std::log1p(-p)) *
                     atLoad[size_t(j)];
        return total;
    }

private slots:
    /** Issue 48: one model per filter kind, the exact one, against an independent computation; the
     *  figures the lecture showed (3.5%, not the approximation's 3.1%; the Compare tab's 0.584% and
     *  1.64%), and the true best whole k (3 at m = 16, n = 3: 0.0906 against k = 4's 0.0935). */
    void theOneModelAgainstAnIndependentComputation_data()
    {
        QTest::addColumn<bool>("blocked");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("bits"); // a chunk's (classic: the filter's)
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("shown"); // the figure as the screen rounds it, or -1
        QTest::addColumn<int>("bestK");    // the true best whole k of 1..12, or 0: not asked
        QTest::newRow("the article's filter, ada and grace") << false << 1 << 16 << 3 << 2 << 0.0352 << 0;
        QTest::newRow("m = 16, n = 3, k = 3") << false << 1 << 16 << 3 << 3 << 0.0906 << 3;
        QTest::newRow("m = 16, n = 3, k = 4") << false << 1 << 16 << 4 << 3 << 0.0935 << 3;
        QTest::newRow("m = 16, n = 5, k = 2") << false << 1 << 16 << 2 << 5 << -1.0 << 2;
        QTest::newRow("Compare: classic 4,096 bits, 382 names") << false << 1 << 4096 << 7 << 382 << 0.00584 << 0;
        QTest::newRow("Compare: blocked 64 x 64 bits, 382 names") << true << 64 << 64 << 7 << 382 << 0.0164 << 0;
        QTest::newRow("blocked 8 x 64 bits, 20 names") << true << 8 << 64 << 3 << 20 << -1.0 << 0;
        QTest::newRow("blocked 1 x 128 bits, 10 names") << true << 1 << 128 << 5 << 10 << -1.0 << 0;
    }

    void theOneModelAgainstAnIndependentComputation()
    {
        QFETCH(bool, blocked);
        QFETCH(int, chunks);
        QFETCH(int, bits);
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(double, shown);
        QFETCH(int, bestK);
        const SandboxFilter f = blocked ? *SandboxFilter::blocked(*Geometry::fromCounts(chunks, bits, k))
                                        : *SandboxFilter::classic(quint64(bits), k);
        const double model = f.modelFpr(n);
        const double independent = occupancyModel(n, chunks, bits, k);
        QVERIFY2(
            std::abs(model - independent) <= 1e-9 * independent + 1e-15,
            qPrintable(QStringLiteral("model %1, independent %2").arg(model, 0, 'g', 12).arg(independent, 0, 'g', 12)));
        if (shown > 0)
            QVERIFY2(QString::number(model, 'g', 3) == QString::number(shown, 'g', 3),
                     qPrintable(QStringLiteral("%1, shown %2").arg(model).arg(shown)));
        // The model of the names added so far is the same number.
        SandboxFilter g = f;
        for (int i = 0; i < n; ++i)
            QVERIFY(g.add("name" + QByteArray::number(i)).ok());
        QCOMPARE(g.modelFpr(), model);
        if (bestK > 0) {
            QCOMPARE(f.bestK(n, 12), bestK);
            int brute = 1;
            for (int kk = 2; kk <= 12; ++kk)
                if (occupancyModel(n, chunks, bits, kk) < occupancyModel(n, chunks, bits, brute))
                    brute = kk;
            QCOMPARE(brute, bestK);
        }
    }

    /** The best-k curve is never above any fixed k's curve, at every n of several filters. */
    void theBestKCurveIsTheLowest()
    {
        for (const quint64 m : {16ull, 64ull, 1024ull, 4096ull}) {
            const SandboxFilter f = *SandboxFilter::classic(m, 3);
            for (qint64 n = 1; n <= qint64(m); n += qMax<qint64>(1, qint64(m) / 64)) {
                const double best = f.modelFpr(n, f.bestK(n, 12));
                for (int k = 1; k <= 12; ++k)
                    QVERIFY2(best <= f.modelFpr(n, k), qPrintable(QStringLiteral("m %1 n %2: best %3 above k = %4's %5")
                                                                      .arg(m)
                                                                      .arg(n)
                                                                      .arg(best)
                                                                      .arg(k)
                                                                      .arg(f.modelFpr(n, k))));
            }
        }
    }

    /** Issue 48: a FIFO, /dev/zero, a directory or a 10 GB sparse file given as a session or a shard
     *  map is refused at once (a FIFO used to block forever, /dev/zero to be read to 3 GB). */
    void hostileFilesAreRefusedAtOnce()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("class.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString sparse = dir.filePath(QStringLiteral("sparse.json"));
        {
            QFile f(sparse);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(10) << 30)); // 10 GiB of holes
        }
        const QList<std::pair<QString, QString>> cases{{fifo, QStringLiteral("FIFO")},
                                                       {QStringLiteral("/dev/zero"), QStringLiteral("device")},
                                                       {dir.path(), QStringLiteral("directory")},
                                                       {sparse, QStringLiteral("10,737,418,240 bytes")}};
        for (const auto &[path, said] : cases) {
            const qint64 before = rssKiB();
            QElapsedTimer clock;
            clock.start();
            qsizetype position = -1;
            auto session = Timeline::readFile(path, &position);
            QVERIFY(!session);
            QVERIFY2(session.error().message.contains(path) && session.error().message.contains(said),
                     qPrintable(session.error().toString()));
            QVERIFY2(!session.error().fix.isEmpty(), qPrintable(session.error().toString()));
            auto map = ShardMap::load(path);
            QVERIFY(!map);
            QVERIFY2(map.error().message.contains(said), qPrintable(map.error().toString()));
            QVERIFY2(clock.elapsed() < 1000, qPrintable(QStringLiteral("%1: %2 ms").arg(path).arg(clock.elapsed())));
            QVERIFY2(rssKiB() - before < 16 * 1024,
                     qPrintable(QStringLiteral("%1: RSS +%2 KiB").arg(path, QString::number(rssKiB() - before))));
        }
        // A regular file at the cap is read; one byte more is refused without reading it.
        const QString small = dir.filePath(QStringLiteral("small"));
        {
            QFile f(small);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.write("0123456789") == 10);
        }
        QCOMPARE(*readBoundedFile(small, 10, QStringLiteral("the test file")), QByteArray("0123456789"));
        QVERIFY(readBoundedFile(small, 9, QStringLiteral("the test file"))
                    .error()
                    .message.contains(QLatin1String("at most 9 bytes")));
    }

    /** Issue 48: a session file's errors name the field and quote its value shortened: a NUL shown,
     *  not the end of the message; a 1 MiB name not echoed whole; bits -1 said as -1. */
    void sessionErrorsNameTheFieldAndAShortValue()
    {
        const QJsonObject base{{QStringLiteral("format"), QStringLiteral("bloomscope-session-2")},
                               {QStringLiteral("scheme"), QStringLiteral("classic")},
                               {QStringLiteral("bits"), 16},
                               {QStringLiteral("k"), 3},
                               {QStringLiteral("timeline"), QJsonArray{}}};
        const auto error = [](const QJsonObject &o) {
            auto t = Timeline::fromJson(o);
            return t ? QString() : t.error().toString();
        };
        QVERIFY(error(base).isEmpty());
        QJsonObject o = base;
        o.insert(QStringLiteral("bits"), -1);
        QString e = error(o);
        QVERIFY2(e.contains(QLatin1String("bits is -1")) && !e.contains(QLatin1String("18446744073709551615")),
                 qPrintable(e));
        o = base;
        o.insert(QStringLiteral("k"), QStringLiteral("three"));
        e = error(o);
        QVERIFY2(e.contains(QLatin1String("k is \"three\"")), qPrintable(e));
        const auto withName = [&base](const QString &name) {
            QJsonObject s = base;
            s.insert(QStringLiteral("timeline"),
                     QJsonArray{QJsonObject{{QStringLiteral("action"), QStringLiteral("add")},
                                            {QStringLiteral("name"), QStringLiteral("ada")}},
                                QJsonObject{{QStringLiteral("action"), QStringLiteral("add")},
                                            {QStringLiteral("name"), name}}});
            return s;
        };
        e = error(withName(QStringLiteral("ab") + QChar(0) + QStringLiteral("cd")));
        QVERIFY2(e.contains(QLatin1String("\"ab\\x00cd\" (entry 2)")) && e.contains(QLatin1String("NUL")),
                 qPrintable(e));
        QVERIFY(!e.contains(QChar(0)));
        e = error(withName(QString(1 << 20, QLatin1Char('x'))));
        QVERIFY2(e.size() < 400 && e.contains(QLatin1String("1,048,576")), qPrintable(e));
        // Through a file too: the message names the file and stays short.
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("s.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(withName(QString(1 << 20, QLatin1Char('x')))).toJson());
        f.close();
        auto t = Timeline::readFile(f.fileName());
        QVERIFY(!t);
        QVERIFY2(t.error().toString().size() < 400 + f.fileName().size(), qPrintable(t.error().toString()));
    }

    /** Issue 48: names capped to what a lecture needs, and each step keeps its name once: the most
     *  entries of the longest names at k = 32 replay in bounded time and memory (a 95 MB session
     *  with k = 32 used 4.8 GB). */
    void lectureNamesAreCappedAndStoredOnce()
    {
        auto f = SandboxFilter::classic(4096, 32);
        const QByteArray longest(SandboxFilter::MaxNameBytes, 'x');
        QVERIFY(f->add(longest).ok());
        QElapsedTimer clock;
        clock.start();
        auto huge = f->add(QByteArray(1 << 20, 'x'));
        QVERIFY(!huge);
        QVERIFY2(huge.error().message.contains(QLatin1String("at most 256 bytes")) &&
                     huge.error().message.contains(QLatin1String("1,048,576")),
                 qPrintable(huge.error().toString()));
        QVERIFY(!f->add(QByteArray(SandboxFilter::MaxNameBytes + 1, 'x')).ok());
        QVERIFY(clock.elapsed() < 100);
        Timeline t(*f);
        QVERIFY(!t.append(Timeline::Action::Add, QByteArray(1 << 20, 'x')).ok());
        QCOMPARE(t.size(), 0);
        for (qsizetype i = 0; i < Timeline::MaxEntries; ++i) {
            const QByteArray n = QByteArray::number(i) + longest.left(SandboxFilter::MaxNameBytes - 4);
            QVERIFY(t.append(i % 2 ? Timeline::Action::Check : Timeline::Action::Add, n).ok());
        }
        auto over = t.append(Timeline::Action::Add, "ada");
        QVERIFY(!over);
        QVERIFY2(over.error().message.contains(QLatin1String("at most 5,000")), qPrintable(over.error().message));
        const qint64 before = rssKiB();
        clock.restart();
        const auto traces = t.traces();
        const qint64 ms = clock.elapsed(), grown = rssKiB() - before;
        qInfo("%lld entries of %lld-byte names at k = 32: traced in %lld ms, RSS +%lld KiB",
              static_cast<long long>(traces.size()), static_cast<long long>(SandboxFilter::MaxNameBytes),
              static_cast<long long>(ms), static_cast<long long>(grown));
        QCOMPARE(traces.size(), Timeline::MaxEntries);
        QVERIFY2(ms < 2000, qPrintable(QString::number(ms)));
        QVERIFY2(grown < 64 * 1024, qPrintable(QString::number(grown)));
        QCOMPARE(traces[2].input(31), "31:" + traces[2].name); // made when asked, never stored k times
    }

    /** Issue 48: the lesson's most harmful deletion, as the brute force defines it, without rebuilding
     *  the filter for each name (2,500 names froze the window 59 s); the search stays bounded too. */
    void lessonsOnManyNamesAreQuick()
    {
        QRandomGenerator rng(4848);
        for (int round = 0; round < 60; ++round) {
            const SandboxFilter f = randomFilter(rng, 2 + int(rng.bounded(12)));
            QByteArray brute;
            qsizetype most = -1;
            for (const QByteArray &n : f.names())
                if (const qsizetype lost = lessons::deleteName(f, n)->falseNegatives().size(); lost > most) {
                    most = lost;
                    brute = n;
                }
            QCOMPARE(lessons::mostHarmfulDeletion(f), brute);
        }
        for (auto f : {*SandboxFilter::classic(4096, 7), *SandboxFilter::classic(16, 3),
                       *SandboxFilter::blocked(*Geometry::create(6, 7, 7))}) {
            for (int i = 0; i < 2500; ++i)
                QVERIFY(f.add("student" + QByteArray::number(i)).ok());
            QElapsedTimer clock;
            clock.start();
            const QByteArray worst = lessons::mostHarmfulDeletion(f);
            const qint64 deletion = clock.restart();
            const auto found = lessons::findFalsePositive(f);
            const qint64 search = clock.elapsed();
            qInfo("%s, 2,500 names: most harmful deletion %lld ms, false-positive search %lld ms (%lld tried)",
                  qPrintable(f.describe()), static_cast<long long>(deletion), static_cast<long long>(search),
                  static_cast<long long>(found.tried));
            QVERIFY(!worst.isEmpty());
            QVERIFY2(deletion < 1000, qPrintable(QString::number(deletion)));
            QVERIFY2(search < 2000, qPrintable(QString::number(search)));
        }
    }

    void theReferenceExample()
    {
        // m = 16, k = 3: add ada and grace; check ada, alan and bjarne.
        auto f = SandboxFilter::classic(16, 3);
        QVERIFY(f.ok());
        auto ada = f->add("ada");
        QCOMPARE((QList<QByteArray>{ada->input(0), ada->input(1), ada->input(2)}),
                 (QList<QByteArray>{"0:ada", "1:ada", "2:ada"}));
        QCOMPARE(ada->digests.first(), QByteArray("2d0adfba24320bd14abdb38aa02ff6fe"));
        QCOMPARE(ada->positions, (QList<quint64>{14, 13, 5}));
        QCOMPARE(sorted(f->add("grace")->positions), (QList<quint64>{2, 3, 8}));
        auto checkAda = f->check("ada");
        QVERIFY(checkAda->maybe && checkAda->added);
        QCOMPARE(checkAda->explain(), QStringLiteral("ada -> bits 5, 13, 14: all set, and ada was added"));
        auto alan = f->check("alan");
        QCOMPARE(sorted(alan->positions), (QList<quint64>{2, 8, 10}));
        QVERIFY(!alan->maybe);
        QCOMPARE(alan->explain(), QStringLiteral("alan -> bits 2, 8, 10: bit 10 is 0, definitely not added"));
        auto bjarne = f->check("bjarne");
        QCOMPARE(sorted(bjarne->positions), (QList<quint64>{3, 5, 8}));
        QVERIFY(bjarne->maybe && !bjarne->added);
        QCOMPARE(bjarne->setBy, (QList<QByteArray>{"ada", "grace"}));
        QVERIFY(bjarne->explain().endsWith(QLatin1String("set by ada and grace")));
        QCOMPARE(f->owners(8), QList<int>{1});
        QCOMPARE(f->setBits(), quint64(6));
        QVERIFY(!f->contains("bjarne")); // a check changes nothing
    }

    void blockedPlacesAsTheReferenceFunction()
    {
        auto g = Geometry::create(3, 6, 3); // 8 chunks of 64 bits
        auto f = SandboxFilter::blocked(*g);
        QVERIFY(f.ok());
        QCOMPARE(f->size(), quint64(512));
        auto t = f->add("Ada");
        const Placement p = placeAscii(*g, "ada");
        QCOMPARE(t->chunk, p.chunk);
        QCOMPARE(t->hashed, QByteArray("ada"));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(t->positions[i] / 64, quint64(p.chunk)); // every bit in the name's chunk
            QCOMPARE(t->positions[i] % 64, quint64(p.positions[size_t(i)]));
        }
        QVERIFY(f->check("ADA")->maybe);
    }

    void aNameIsItsLowercaseForUsernameBits()
    {
        // Issue 36, 2: the blocked scheme lowercases first, so Ada and ADA are ada, never its false positive.
        auto f = SandboxFilter::blocked(*Geometry::create(3, 6, 3));
        (void)f->add("ada");
        for (const QByteArray &n : {QByteArray("Ada"), QByteArray("ADA")}) {
            auto t = f->check(n);
            QVERIFY(t->maybe && t->added);
            QVERIFY(t->setBy.isEmpty());
            QVERIFY2(t->explain().contains(QLatin1String("all set, and ada was added")), qPrintable(t->explain()));
            QVERIFY(!t->explain().contains(QLatin1String("false positive")));
        }
        (void)f->add("ADA");
        QCOMPARE(f->names(), QList<QByteArray>{"ada"}); // one name
        // The classic example hashes the name as typed: there Ada is another name.
        auto c = SandboxFilter::classic(16, 3);
        (void)c->add("ada");
        QVERIFY(!c->check("Ada")->added);
    }

    void nonAsciiLowersAsTheDemoDatabase()
    {
        // Issue 36, 3: İ lowers to i one code point at a time (glibc's towlower, the demo's C.UTF-8),
        // not to "i̇" (Qt's full mapping); still marked approximate.
        Lowering how = Lowering::Ascii;
        QCOMPARE(offlineLower(QStringLiteral("İstanbul").toUtf8(), &how), QByteArray("istanbul"));
        QCOMPARE(how, Lowering::Approximate);
        QCOMPARE(offlineLower(QStringLiteral("ΣΊΣΥΦΟΣ").toUtf8()), QStringLiteral("σίσυφοσ").toUtf8());
        QCOMPARE(offlineLower(QStringLiteral("Straße").toUtf8()), QStringLiteral("straße").toUtf8());
        QCOMPARE(offlineLower(QStringLiteral("\U00010400x").toUtf8()), QStringLiteral("\U00010428x").toUtf8());
        // A leading U+FEFF is the name's, not a byte-order mark to drop (the server keeps it).
        QCOMPARE(offlineLower("\xEF\xBB\xBF"
                              "Ada\xC3\x85"),
                 QByteArray("\xEF\xBB\xBF"
                            "ada\xC3\xA5"));
        auto f = SandboxFilter::blocked(*Geometry::create(3, 6, 3));
        auto t = f->add(QStringLiteral("İstanbul").toUtf8());
        QCOMPARE(t->hashed, QByteArray("istanbul"));
        QCOMPARE(t->lowering, Lowering::Approximate);
        QVERIFY(f->check("ISTANBUL")->added);
    }

    void linesTellBitsOneWaySorted()
    {
        // Issue 36, 6: sorted bit lists; blocked bits told inside their chunk; two hashes on one bit.
        auto c = SandboxFilter::classic(16, 3);
        (void)c->add("ada");
        (void)c->add("grace");
        QCOMPARE(c->check("alan")->explain(),
                 QStringLiteral("alan -> bits 2, 8, 10: bit 10 is 0, definitely not added"));
        // Some name whose zero bits come out of hash order unsorted.
        auto b = SandboxFilter::blocked(*Geometry::create(1, 4, 3));
        (void)b->add("ada");
        auto t = b->check("ken");
        QVERIFY(t->explain().startsWith(QStringLiteral("ken -> chunk %1, bits ").arg(t->chunk)));
        for (quint64 p : t->shownSorted())
            QVERIFY(p < 16);
        // A name two of whose hashes chose one bit says so, and how many bits it set.
        auto small = SandboxFilter::classic(4, 3);
        QByteArray twice;
        for (int i = 0; twice.isEmpty(); ++i) {
            const QByteArray n = "n" + QByteArray::number(i);
            const auto pos = classic::positions(n, 4, 3);
            if (QSet<quint64>(pos.begin(), pos.end()).size() == 2)
                twice = n;
        }
        const auto a = small->add(twice);
        QVERIFY2(a->describeAdd().contains(QLatin1String("2 of its 3 hashes chose the same bit")),
                 qPrintable(a->describeAdd()));
    }

    void timelineStepsBackAndNeverReorders()
    {
        Timeline t = example();
        QCOMPARE(t.size(), 5);
        // The state at every entry: before grace was added, bjarne is definitely not.
        QVERIFY(!t.stateAfter(1).check("bjarne")->maybe);
        QCOMPARE(t.stateAfter(1).check("bjarne")->explain(),
                 QStringLiteral("bjarne -> bits 3, 5, 8: bits 3, 8 are 0, definitely not added"));
        QVERIFY(t.stateAfter(2).check("bjarne")->maybe);
        const auto traces = t.traces();
        QStringList lines;
        for (qsizetype i = 0; i < t.size(); ++i)
            lines << Timeline::line(t.entries()[i].action, traces[i]);
        QCOMPARE(lines.last(), QStringLiteral("check bjarne -> bits 3, 5, 8: all set, but bjarne was never added - a "
                                              "false positive: its bits were set by ada and grace"));
        QCOMPARE(t.traceOf(3).explain(), traces[3].explain());
        // The class's names go after, in the order given.
        QVERIFY(t.append(Timeline::Action::Add, "linus").ok());
        QVERIFY(!t.append(Timeline::Action::Add, "   ").ok()); // refused, nothing appended
        QVERIFY(t.append(Timeline::Action::Check, "ken").ok());
        QCOMPARE(t.size(), 7);
        QCOMPARE(t.entries()[5].name, QByteArray("linus"));
        QCOMPARE(t.addsBefore(7), 3);
        // Another filter: the same entries replayed.
        t.setFilter(*SandboxFilter::classic(32, 4));
        QCOMPARE(t.stateAfter(7).size(), quint64(32));
        QCOMPARE(t.stateAfter(7).names(), (QList<QByteArray>{"ada", "grace", "linus"}));
    }

    void sessionsOldAndNew()
    {
        Timeline t = example();
        (void)t.append(Timeline::Action::Add, "Łukasz");
        qsizetype pos = -1;
        auto back = Timeline::fromJson(QJsonDocument::fromJson(QJsonDocument(t.toJson(3)).toJson()).object(), &pos);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().message));
        QCOMPARE(back->entries(), t.entries());
        QCOMPARE(pos, 3);
        // Format 1: the names and the log's lines; its checks come back.
        QJsonObject v1 = t.stateAfter(6).toJson();
        QJsonArray log;
        const auto traces = t.traces();
        for (qsizetype i = 0; i < t.size(); ++i)
            log.append(Timeline::line(t.entries()[i].action, traces[i]));
        v1.insert(QStringLiteral("log"), log);
        auto old = Timeline::fromJson(v1, &pos);
        QVERIFY(old.ok());
        QCOMPARE(old->size(), 6);
        QCOMPARE(old->entries()[4].action, Timeline::Action::Check);
        QCOMPARE(old->entries()[4].name, QByteArray("bjarne"));
        QCOMPARE(pos, 6);
        QVERIFY(!Timeline::fromJson(
                     QJsonObject{{QStringLiteral("format"), QStringLiteral("bloomscope-session-2")},
                                 {QStringLiteral("scheme"), QStringLiteral("classic")},
                                 {QStringLiteral("bits"), 16},
                                 {QStringLiteral("k"), 3},
                                 {QStringLiteral("timeline"),
                                  QJsonArray{QJsonObject{{QStringLiteral("action"), QStringLiteral("delete")},
                                                         {QStringLiteral("name"), QStringLiteral("x")}}}}})
                     .ok());
    }

    void findAFalsePositiveAgainstBruteForce()
    {
        // The reference's filter: ada and grace. Some candidate is a false positive; the one found
        // needs the fewest names, and no earlier candidate needs as few.
        auto f = SandboxFilter::classic(16, 3);
        (void)f->add("ada");
        (void)f->add("grace");
        const auto found = lessons::findFalsePositive(*f, 500);
        QVERIFY(found.found);
        QVERIFY(found.trace.maybe && !found.trace.added);
        QCOMPARE(found.cover.size(), bruteCover(*f, found.trace.positions));
        QRandomGenerator rng(36);
        int withOne = 0, withMore = 0;
        for (int round = 0; round < 60; ++round) {
            const SandboxFilter g = randomFilter(rng, 2 + int(rng.bounded(7)));
            const qsizetype budget = 300;
            const auto got = lessons::findFalsePositive(g, budget);
            // The reference: every candidate in the same order, checked bit by bit, cover by subsets.
            int bestCover = -1;
            QByteArray bestName;
            qsizetype tried = 0, fps = 0;
            for (qsizetype i = 0; tried < budget; ++i) {
                const QByteArray n = lessons::candidate(i);
                if (g.contains(n))
                    continue;
                ++tried;
                const auto pos = g.trace(n)->positions;
                bool all = true;
                for (quint64 p : pos)
                    all = all && g.bit(p);
                if (!all)
                    continue;
                ++fps;
                const int c = bruteCover(g, pos);
                QVERIFY(c >= 1);
                if (bestCover < 0 || c < bestCover) {
                    bestCover = c;
                    bestName = n;
                    if (c == 1)
                        break;
                }
            }
            QCOMPARE(got.found, bestCover > 0);
            if (!got.found)
                continue;
            QCOMPARE(got.name, bestName);
            QCOMPARE(int(got.cover.size()), bestCover);
            if (bestCover > 1)
                QCOMPARE(got.falsePositives, fps); // searched the whole budget
            (bestCover == 1 ? withOne : withMore)++;
            // Its cover does set every bit.
            for (quint64 p : got.trace.positions) {
                bool covered = false;
                for (const QByteArray &who : got.cover)
                    covered = covered || g.trace(who)->positions.contains(p);
                QVERIFY(covered);
            }
        }
        QVERIFY(withOne > 0 && withMore > 0); // both kinds of answer were exercised
    }

    void deleteANameAgainstBruteForce()
    {
        QRandomGenerator rng(3636);
        int falseNegatives = 0;
        for (int round = 0; round < 60; ++round) {
            const SandboxFilter f = randomFilter(rng, 2 + int(rng.bounded(8)));
            for (const QByteArray &victim : f.names()) {
                const auto d = lessons::deleteName(f, victim);
                QVERIFY(d.ok());
                const auto gone = f.trace(victim)->positions;
                QCOMPARE(d->others.size(), f.names().size() - 1);
                for (const auto &o : d->others) {
                    // Plain: o still checks maybe exactly when none of its bits is one the victim had.
                    bool shares = false;
                    const auto mine = f.trace(o.name)->positions;
                    for (quint64 p : mine)
                        shares = shares || gone.contains(p);
                    QCOMPARE(o.plainMaybe, !shares);
                    QVERIFY(o.countingMaybe); // a counting filter never forgets another name
                    falseNegatives += shares ? 1 : 0;
                }
                // The counting filter is exactly the filter of the others.
                SandboxFilter others = f.emptyCopy();
                for (const QByteArray &n : f.names())
                    if (n != victim)
                        (void)others.add(n);
                for (quint64 i = 0; i < f.size(); ++i) {
                    QCOMPARE(d->counting->bit(i), others.bit(i));
                    QCOMPARE(d->counting->count(i), others.count(i));
                    QCOMPARE(d->plain->bit(i), others.bit(i) && !gone.contains(i));
                }
            }
        }
        QVERIFY(falseNegatives > 0);
        // The lesson's default victim leaves the most false negatives.
        auto f = SandboxFilter::classic(16, 3);
        for (const char *n : {"ada", "grace", "linus", "ken"})
            (void)f->add(n);
        const QByteArray pick = lessons::mostHarmfulDeletion(*f);
        for (const QByteArray &n : f->names())
            QVERIFY(lessons::deleteName(*f, n)->falseNegatives().size() <=
                    lessons::deleteName(*f, pick)->falseNegatives().size());
    }

    void exactModelsMatchSimulation()
    {
        // Issue 36, 6: at 64-bit chunks the blocked model (each chunk at its expected fill) read 6-7%
        // under a 300-set simulation. The exact model does not; the fill's spread is the difference.
        const auto g = *Geometry::create(6, 6, 7); // 64 chunks x 64 bits, the compare tab's
        const int n = 382;
        double simBlocked = 0, simClassic = 0;
        const int sets = 300;
        for (int s = 0; s < sets; ++s) {
            auto b = SandboxFilter::blocked(g);
            auto c = SandboxFilter::classic(4096, 7);
            for (int i = 0; i < n; ++i) {
                const QByteArray name = "set" + QByteArray::number(s) + "-" + QByteArray::number(i);
                (void)b->add(name);
                (void)c->add(name);
            }
            // The filter's own rate, from its fill: mean over chunks of (set/B)^k.
            double rate = 0;
            for (quint32 ch = 0; ch < 64; ++ch) {
                int set = 0;
                for (int i = 0; i < 64; ++i)
                    set += b->bit(ch * 64 + quint64(i)) ? 1 : 0;
                rate += std::pow(set / 64.0, 7) / 64.0;
            }
            simBlocked += rate / sets;
            simClassic += std::pow(double(c->setBits()) / 4096.0, 7) / sets;
        }
        const double exact = fpr::blockedExact(n, 64, 64, 7), shortcut = fpr::blocked(n, 64, 64, 7);
        qInfo("blocked 64x64, k=7, n=382: simulated %.5f, exact %.5f (%+.1f%%), expected-fill model %.5f (%+.1f%%)",
              simBlocked, exact, 100 * (exact / simBlocked - 1), shortcut, 100 * (shortcut / simBlocked - 1));
        QVERIFY(qAbs(exact / simBlocked - 1) < 0.03);
        QVERIFY(shortcut / simBlocked - 1 < -0.04); // the shortcut does read low here
        const double exactC = fpr::standardExact(n, 4096, 7);
        qInfo("classic 4096, k=7: simulated %.6f, exact %.6f, textbook %.6f", simClassic, exactC,
              fpr::standard(n, 4096, 7));
        QVERIFY(qAbs(exactC / simClassic - 1) < 0.03);
        // Where it does not matter: the reference's chunks.
        QVERIFY(qAbs(fpr::blockedExact(100'000'000, 131072, 8192, 7) / fpr::blocked(100'000'000, Geometry()) - 1) <
                0.01);
        QCOMPARE(fpr::standardExact(0, 16, 3), 0.0);
        // k probes into one bin after any throw: certain.
        QCOMPARE(fpr::occupiedProbes(5, 1, 3), 1.0);
    }

    void badInputIsRefused()
    {
        QVERIFY(!SandboxFilter::classic(1, 3).ok());
        QVERIFY(!SandboxFilter::classic(16, 0).ok());
        QVERIFY(!SandboxFilter::blocked(*Geometry::create(17, 13, 7)).ok()); // the real one: too big to draw
        auto f = SandboxFilter::classic(16, 3);
        QVERIFY(!f->add("").ok());
        QVERIFY(!f->add("\xff\xfe").ok());
        QCOMPARE(f->setBits(), quint64(0));
    }

    void measuredFprFollowsTheModel()
    {
        // Equal size, same names: the classic and the blocked filter near their models.
        auto c = SandboxFilter::classic(4096, 4);
        auto b = SandboxFilter::blocked(*Geometry::create(6, 6, 4));
        for (int i = 0; i < 400; ++i) {
            QVERIFY(c->add("user" + QByteArray::number(i)).ok());
            QVERIFY(b->add("user" + QByteArray::number(i)).ok());
        }
        // The one model of each kind is the exact one (issue 48), not the textbook's or the reference's formula.
        QCOMPARE(c->modelFpr(), fpr::standardExact(400, 4096, 4));
        QCOMPARE(b->modelFpr(), fpr::blockedExact(400, 64, 64, 4));
        QVERIFY(b->modelFpr() > c->modelFpr()); // blocking costs a little accuracy
        const double mc = c->measuredFpr(20000), mb = b->measuredFpr(20000);
        QVERIFY2(qAbs(mc - c->modelFpr()) < 0.25 * c->modelFpr(), qPrintable(QString::number(mc)));
        QVERIFY2(qAbs(mb - b->modelFpr()) < 0.25 * b->modelFpr(), qPrintable(QString::number(mb)));
    }

    void sessionRoundTrip()
    {
        auto f = SandboxFilter::blocked(*Geometry::create(3, 6, 3));
        QVERIFY(f->add("ada").ok() && f->add("grace").ok() && f->add("Łukasz").ok());
        const QByteArray json = QJsonDocument(f->toJson()).toJson();
        auto back = SandboxFilter::fromJson(QJsonDocument::fromJson(json).object());
        QVERIFY(back.ok());
        QCOMPARE(back->names(), f->names());
        QCOMPARE(back->describe(), f->describe());
        for (quint64 i = 0; i < f->size(); ++i)
            QCOMPARE(back->bit(i), f->bit(i));
        QVERIFY(!SandboxFilter::fromJson(QJsonObject{{QStringLiteral("format"), QStringLiteral("x")}}).ok());
    }
};

QTEST_GUILESS_MAIN(TestSandbox)
#include "tst_sandbox.moc"
