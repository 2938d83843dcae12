#include "model/chunkbitmap.h"
#include "model/explanation.h"
#include "model/md5lanes.h"
#include "model/name.h"
#include "model/namereader.h"
#include "model/parallelfill.h"
#include "model/placement.h"
#include "model/placementlog.h"
#include "teach/classicfilter.h"

#include <QBuffer>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>

using namespace bloom;

/** Golden values of the reference text: md5, chunk, slices, the classic example; name validation. */
class TestPlacement : public QObject {
    Q_OBJECT
private slots:
    void parallelFillEqualsOneByOne_data()
    {
        QTest::addColumn<int>("chunkLog2");
        QTest::addColumn<int>("threads");
        QTest::addColumn<qint64>("names");
        QTest::newRow("reference, 1 thread") << 17 << 1 << qint64(300'000);
        QTest::newRow("reference, 2 threads") << 17 << 2 << qint64(300'000);
        QTest::newRow("reference, 3 threads, a part block") << 17 << 3 << qint64(1'000'003);
        QTest::newRow("one chunk, 2 threads") << 0 << 2 << qint64(70'000);
        QTest::newRow("64 chunks, 4 threads") << 6 << 4 << qint64(50'000);
        QTest::newRow("no names") << 17 << 2 << qint64(0);
        // Past 2^24 chunks a range is 2^16 chunks and there are more than 256 ranges.
        QTest::newRow("2^25 chunks of 8 bits, 2 threads") << 25 << 2 << qint64(400'000);
    }
    void parallelFillEqualsOneByOne()
    {
        // fillBitmap's rounds, ranges and barriers put exactly the bits a plain loop does.
        QFETCH(int, chunkLog2);
        QFETCH(int, threads);
        QFETCH(qint64, names);
        const Geometry g = chunkLog2 > 20 ? *Geometry::create(chunkLog2, 3, 2) : *Geometry::create(chunkLog2, 13, 7);
        const auto name = [](qint64 i, char *out) {
            const QByteArray n = "User_" + QByteArray::number(i * 7919);
            memcpy(out, n.constData(), size_t(n.size()));
            return int(n.size());
        };
        ChunkBitmap parallel(g), serial(g);
        QVERIFY(fillBitmap(parallel, names, name, 32, {}, nullptr, threads));
        char buffer[32];
        for (qint64 i = 0; i < names; ++i)
            serial.add(placeAscii(g, QByteArrayView(buffer, name(i, buffer))));
        QCOMPARE(parallel.names(), names);
        QCOMPARE(parallel.touchedChunks(), serial.touchedChunks());
        QByteArray a, b;
        parallel.writeRows([&a](const char *d, qsizetype n) {
            a.append(d, n);
            return true;
        });
        serial.writeRows([&b](const char *d, qsizetype n) {
            b.append(d, n);
            return true;
        });
        QVERIFY(a == b);
    }

    void placementLogWritesTheBitmapsRows_data()
    {
        QTest::addColumn<int>("chunkLog2");
        QTest::addColumn<qint64>("names");
        QTest::addColumn<qint64>("movedAt"); // names after which the log is ORed into a bitmap; -1 never
        QTest::newRow("reference, 300,000 names") << 17 << qint64(300'000) << qint64(-1);
        QTest::newRow("reference, moved to a bitmap at 100,000") << 17 << qint64(250'000) << qint64(100'000);
        QTest::newRow("one chunk") << 0 << qint64(5'000) << qint64(-1);
        QTest::newRow("64 chunks, a chunk untouched") << 6 << qint64(40) << qint64(-1);
        QTest::newRow("no names") << 17 << qint64(0) << qint64(-1);
    }
    void placementLogWritesTheBitmapsRows()
    {
        // A load's PlacementLog (names on three lanes, as the placing threads and the server's lowered
        // names put them) writes the rows a ChunkBitmap of the same names writes, whole and by range,
        // and so does a log moved into a bitmap partway.
        QFETCH(int, chunkLog2);
        QFETCH(qint64, names);
        QFETCH(qint64, movedAt);
        const Geometry g = *Geometry::create(chunkLog2, 13, 7);
        QVERIFY(PlacementLog::suits(g));
        QVERIFY(!PlacementLog::suits(*Geometry::create(25, 3, 2))); // a count per chunk would outweigh the bits
        const auto name = [](qint64 i) { return "User_" + QByteArray::number(i * 7919); };
        ChunkBitmap serial(g);
        PlacementLog log(g, 3);
        std::unique_ptr<ChunkBitmap> moved;
        for (qint64 i = 0; i < names; ++i) {
            const QByteArray n = name(i);
            serial.add(placeAscii(g, n));
            if (i == movedAt) {
                // As the load moves: each lane through a writer of its own.
                moved = std::make_unique<ChunkBitmap>(g);
                SharedBits shared = moved->shared();
                qint64 added = 0;
                for (int lane = 0; lane < 3; ++lane) {
                    SharedBits::Writer writer(shared, 4096);
                    log.orLaneInto(lane, writer);
                    writer.flush();
                    added += writer.added();
                }
                moved->finishConcurrent(added);
                QCOMPARE(log.appended(), 0);
            }
            if (moved)
                moved->add(placeAscii(g, n));
            else if (i % 3 == 2)
                log.add(2, placeAscii(g, n));
            else {
                const QByteArrayView view(n);
                log.addAscii(int(i % 3), &view, 1);
            }
        }
        const MaskRowsSource *rows = &log;
        if (moved) {
            rows = moved.get();
        } else {
            QCOMPARE(log.appended(), names);
            log.finish();
        }
        QCOMPARE(rows->names(), names);
        QCOMPARE(rows->touchedChunks(), serial.touchedChunks());
        const auto copy = [](const MaskRowsSource &from, quint32 first, quint32 end) {
            QByteArray out;
            from.writeRows(
                [&out](const char *d, qsizetype n) {
                    out.append(d, n);
                    return true;
                },
                4096, first, end);
            return out;
        };
        QVERIFY(copy(*rows, 0, g.chunks()) == copy(serial, 0, g.chunks()));
        const quint32 third = g.chunks() / 3;
        QCOMPARE(rows->touchedIn(third, 2 * third + 1), serial.touchedIn(third, 2 * third + 1));
        QVERIFY(copy(*rows, third, 2 * third + 1) == copy(serial, third, 2 * third + 1));
    }

    void parallelFillStopsOnCancel()
    {
        const Geometry g;
        ChunkBitmap bits(g);
        std::atomic<bool> cancel{true};
        qint64 last = -1;
        QVERIFY(!fillBitmap(
            bits, 50'000'000,
            [](qint64, char *out) {
                out[0] = 'a';
                return 1;
            },
            8, [&last](qint64 done, qint64) { last = done; }, &cancel));
        QVERIFY(bits.names() < 50'000'000);
    }

    void adaGolden()
    {
        const Geometry g;
        const Hash128 h = Hash128::md5("ada");
        QCOMPARE(h.hex(), QStringLiteral("8c8d357b5e872bbacd45197626bd5759"));
        const Placement p = place(g, h);
        QCOMPARE(p.chunk, 71962u);
        QCOMPARE(p.k, 7);
        const std::array<int, 7> inHashOrder{3422, 6900, 1835, 5977, 5396, 3259, 619};
        for (int i = 0; i < 7; ++i)
            QCOMPARE(int(p.positions[size_t(i)]), inHashOrder[size_t(i)]);
        QCOMPARE(p.setBits(), (QList<int>{619, 1835, 3259, 3422, 5396, 5977, 6900}));
    }

    void caseInsensitive_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("Ada") << QStringLiteral("Ada");
        QTest::newRow("ADA") << QStringLiteral("ADA");
        QTest::newRow("aDa") << QStringLiteral("aDa");
    }
    void caseInsensitive()
    {
        QFETCH(QString, name);
        const Geometry g;
        QCOMPARE(placeAscii(g, name.toLatin1()), placeAscii(g, "ada"));
        QCOMPARE(placeAscii(g, name.toLatin1()).chunk, 71962u);
    }

    void sliceTable_data()
    {
        // The reference's table "Here's where ada's chunk and bits come from".
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::addColumn<QString>("bits");
        QTest::addColumn<int>("value");
        QTest::newRow("bits 1-17") << 0 << 1 << 17 << QStringLiteral("10001100100011010") << 71962;
        QTest::newRow("bits 18-30") << 1 << 18 << 30 << QStringLiteral("0110101011110") << 3422;
        QTest::newRow("bits 31-43") << 2 << 31 << 43 << QStringLiteral("1101011110100") << 6900;
        QTest::newRow("bits 44-56") << 3 << 44 << 56 << QStringLiteral("0011100101011") << 1835;
        QTest::newRow("bits 57-69") << 4 << 57 << 69 << QStringLiteral("1011101011001") << 5977;
        QTest::newRow("bits 70-82") << 5 << 70 << 82 << QStringLiteral("1010100010100") << 5396;
        QTest::newRow("bits 83-95") << 6 << 83 << 95 << QStringLiteral("0110010111011") << 3259;
        QTest::newRow("bits 96-108") << 7 << 96 << 108 << QStringLiteral("0001001101011") << 619;
    }
    void sliceTable()
    {
        QFETCH(int, row);
        QFETCH(int, first);
        QFETCH(int, last);
        QFETCH(QString, bits);
        QFETCH(int, value);
        const Explanation e = Explanation::offline(Geometry(), QStringLiteral("Ada"));
        QCOMPARE(e.slices.size(), 8);
        const HashSlice &s = e.slices[row];
        QCOMPARE(s.isChunk, row == 0);
        QCOMPARE(s.firstBit, first);
        QCOMPARE(s.lastBit, last);
        QCOMPARE(s.bits, bits);
        QCOMPARE(int(s.value), value);
    }

    void explanationValues()
    {
        const Explanation e = Explanation::offline(Geometry(), QStringLiteral("Ada"));
        QCOMPARE(e.name, QStringLiteral("Ada"));
        QCOMPARE(e.normalized, QStringLiteral("ada"));
        QVERIFY(e.exact());
        QCOMPARE(e.md5Hex(), QStringLiteral("8c8d357b5e872bbacd45197626bd5759"));
        QCOMPARE(e.hash.bitString().left(17), QStringLiteral("10001100100011010"));
        const QJsonObject j = e.toJson();
        QCOMPARE(j.value(QLatin1String("chunk")).toInt(), 71962);
        QCOMPARE(j.value(QLatin1String("md5")).toString(), QStringLiteral("8c8d357b5e872bbacd45197626bd5759"));
        QCOMPARE(j.value(QLatin1String("bits")).toArray().size(), 7);
        const QString text = e.toText();
        QVERIFY(text.contains(QLatin1String("bits 96-108")));
        QVERIFY(text.contains(QLatin1String("chunk 71962, bits {619,1835,3259,3422,5396,5977,6900}")));
    }

    void nonAsciiIsMarkedApproximate()
    {
        const Explanation e = Explanation::offline(Geometry(), QStringLiteral("Straße"));
        QVERIFY(!e.exact());
        QCOMPARE(e.lowering, Lowering::Approximate);
        QVERIFY(e.toText().contains(QLatin1String("approximate")));
        QCOMPARE(e.toJson().value(QLatin1String("exact")).toBool(), false);
    }

    void otherGeometry()
    {
        // 8 chunks of 64 bits, k = 3: chunk = first 3 bits, then three 6-bit slices.
        auto g = Geometry::create(3, 6, 3);
        QVERIFY(g.ok());
        const Hash128 h = Hash128::md5("ada");
        const Placement p = place(*g, h);
        QCOMPARE(p.chunk, 0b100u);               // 100...
        QCOMPARE(int(p.positions[0]), 0b011001); // bits 4-9 of 10001100100011010...
        QCOMPARE(int(p.positions[1]), 0b000110);
        QCOMPARE(int(p.positions[2]), 0b100110);
        const Explanation e = Explanation::offline(*g, QStringLiteral("ada"));
        QCOMPARE(e.slices.size(), 4);
        QCOMPARE(e.slices[3].firstBit, 16);
        QCOMPARE(e.slices[3].lastBit, 21);
    }

    void oneChunk()
    {
        auto g = Geometry::create(0, 13, 7);
        QVERIFY(g.ok());
        QCOMPARE(placeAscii(*g, "ada").chunk, 0u);
        QCOMPARE(int(placeAscii(*g, "ada").positions[0]), 0b1000110010001); // first 13 bits
    }

    void longName()
    {
        const QByteArray longName(1000, 'X');
        QCOMPARE(placeAscii(Geometry(), longName), placeLowered(Geometry(), QByteArray(1000, 'x')));
    }

    void classicGolden_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QList<quint64>>("positions");
        QTest::newRow("ada") << QStringLiteral("ada") << QList<quint64>{14, 13, 5};
        QTest::newRow("grace") << QStringLiteral("grace") << QList<quint64>{2, 3, 8};
        QTest::newRow("alan") << QStringLiteral("alan") << QList<quint64>{8, 10, 2};
        QTest::newRow("bjarne") << QStringLiteral("bjarne") << QList<quint64>{3, 5, 8};
    }
    void classicGolden()
    {
        QFETCH(QString, name);
        QFETCH(QList<quint64>, positions);
        QCOMPARE(classic::positions(name.toUtf8(), 16, 3), positions);
    }

    void classicExample()
    {
        // add ada and grace; alan is definitely not in (bit 10), bjarne is a false positive.
        std::array<bool, 16> bits{};
        for (const char *n : {"ada", "grace"})
            for (quint64 p : classic::positions(n, 16, 3))
                bits[p] = true;
        const auto check = [&](const char *n) {
            for (quint64 p : classic::positions(n, 16, 3))
                if (!bits[p])
                    return false;
            return true;
        };
        QVERIFY(check("ada"));
        QVERIFY(!check("alan"));
        QVERIFY(!bits[10]);
        QVERIFY(check("bjarne"));
        QCOMPARE(Hash128::md5("0:ada").hex(), QStringLiteral("2d0adfba24320bd14abdb38aa02ff6fe"));
        QCOMPARE(Hash128::md5("1:ada").hex(), QStringLiteral("e4d0f800ff16f1b94c8ce1de8bb8fefd"));
        QCOMPARE(Hash128::md5("2:ada").hex(), QStringLiteral("cf0c119c0624d173d6d86cdbfda09965"));
    }

    void validation_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
        QTest::newRow("nul") << QByteArray("a\0b", 3) << QStringLiteral("NUL");
        QTest::newRow("latin1 byte") << QByteArray("caf\xe9") << QStringLiteral("UTF-8");
        QTest::newRow("truncated sequence") << QByteArray("\xe2\x82") << QStringLiteral("UTF-8");
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QStringLiteral("UTF-8");
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << QStringLiteral("UTF-8");
    }
    void validation()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, mentions);
        auto s = validateName(input);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind, ErrorKind::BadInput);
        QVERIFY2(s.error().message.contains(mentions), qPrintable(s.error().message));
    }

    void validNames()
    {
        QVERIFY(validateName("ada").ok());
        QVERIFY(validateName(QStringLiteral("Straße").toUtf8()).ok());
        QVERIFY(validateName(QStringLiteral("\U0001F600").toUtf8()).ok());
        QVERIFY(isAscii("Ada_99"));
        QVERIFY(!isAscii(QStringLiteral("Åsa").toUtf8()));
        QCOMPARE(asciiLower("MiXeD-Case_09"), QByteArray("mixed-case_09"));
    }

    void laneMd5EqualsOpenSsl()
    {
        // Every length that fits one block, random bytes (high ones too), every lane count, lowered
        // or not: the lanes give OpenSSL's digest of the same (lowered) bytes.
        QRandomGenerator rng(20261205);
        for (int round = 0; round < 400; ++round) {
            const int count = 1 + round % md5lanes::Lanes;
            QByteArray data[md5lanes::Lanes];
            QByteArrayView views[md5lanes::Lanes];
            for (int i = 0; i < count; ++i) {
                const int len = (round * 7 + i * 13) % (int(md5lanes::MaxBytes) + 1);
                data[i].resize(len);
                for (int j = 0; j < len; ++j)
                    data[i][j] = char(rng.bounded(256));
                views[i] = data[i];
            }
            const bool lower = round % 2 == 0;
            Hash128 got[md5lanes::Lanes];
            md5lanes::hash(views, count, lower, got);
            for (int i = 0; i < count; ++i) {
                const QByteArray in = lower ? asciiLower(data[i]) : data[i];
                QVERIFY2(got[i] == Hash128::md5(in),
                         qPrintable(QStringLiteral("length %1, lane %2 of %3").arg(data[i].size()).arg(i).arg(count)));
            }
        }
        // The known answers: md5('') and the reference's `ada`.
        QByteArrayView none[1] = {QByteArrayView()};
        Hash128 h[1];
        md5lanes::hash(none, 1, true, h);
        QCOMPARE(h[0].hex(), QStringLiteral("d41d8cd98f00b204e9800998ecf8427e"));
        QByteArrayView ada[1] = {QByteArrayView("ADA")};
        md5lanes::hash(ada, 1, true, h);
        QCOMPARE(place(Geometry(), h[0]).chunk, 71962u);
    }

    void manyPlacementsEqualOneAtATime()
    {
        // placeAsciiMany over names of 0..300 bytes (those over 55 go one at a time) in any count.
        QRandomGenerator rng(7);
        QList<QByteArray> names;
        for (int i = 0; i < 1000; ++i) {
            QByteArray n(rng.bounded(i % 10 == 0 ? 300 : 40), Qt::Uninitialized);
            for (char &c : n)
                c = char(32 + rng.bounded(95));
            names.append(n);
        }
        std::vector<QByteArrayView> views(names.begin(), names.end());
        for (const Geometry &g : {Geometry(), *Geometry::create(5, 10, 3)}) {
            for (const qsizetype count : {qsizetype(0), qsizetype(1), qsizetype(7), qsizetype(9), qsizetype(1000)}) {
                std::vector<Placement> got(size_t(count) + 1);
                placeAsciiMany(g, views.data(), count, got.data());
                for (qsizetype i = 0; i < count; ++i)
                    QVERIFY2(got[size_t(i)] == placeAscii(g, names[i]), names[i].constData());
                QCOMPARE(got[size_t(count)], Placement()); // nothing written past count
            }
        }
    }

    void plainAsciiNamesAreValidAscii()
    {
        // The fast path may only say yes where validateName() and isAscii() do: every string of one
        // and two bytes, and a byte from 0x80 up or a NUL anywhere in a longer one.
        QByteArray s(2, '\0');
        for (int a = 0; a < 256; ++a) {
            s.resize(1);
            s[0] = char(a);
            if (isPlainAsciiName(s))
                QVERIFY2(validateName(s).ok() && isAscii(s), qPrintable(QString::number(a)));
            s.resize(2);
            for (int b = 0; b < 256; ++b) {
                s[1] = char(b);
                if (isPlainAsciiName(s))
                    QVERIFY2(validateName(s).ok() && isAscii(s), qPrintable(QStringLiteral("%1 %2").arg(a).arg(b)));
            }
        }
        QVERIFY(isPlainAsciiName("ada"));
        QVERIFY(isPlainAsciiName("a b\tc"));
        for (const char bad : {'\0', '\x80', '\xc3', '\xff'})
            QVERIFY(!isPlainAsciiName(QByteArray("abcdefghijklmnop") + bad + "q"));
        QVERIFY(!isPlainAsciiName(" ada"));
        QVERIFY(!isPlainAsciiName(QByteArray(MaxNameBytes + 1, 'a')));
    }

    void blocksAndBatchesReadTheSameNames()
    {
        // NameReader::nextBlock (load, rebuild from files) and next() (check -, the GUI) keep the same
        // names, refuse the same lines with the same line numbers, and tell ASCII as isAscii() does.
        QByteArray data;
        QRandomGenerator rng(7);
        const QList<QByteArray> odd{"",
                                    "   ",
                                    QByteArray("a\0b", 3),
                                    "caf\xe9",
                                    QStringLiteral("Stra\u00dfe").toUtf8(),
                                    "\x7f"
                                    "del",
                                    "\ttab",
                                    "ada\r",
                                    "\r",
                                    QByteArray(MaxNameBytes, 'L'),
                                    QByteArray(MaxNameBytes + 5, 'T'),
                                    QByteArray(3 * (1 << 20), 'H'),
                                    QStringLiteral("\u00c5sa").toUtf8()};
        for (int i = 0; i < 400'000; ++i) {
            if (i % 29'989 == 0) // each odd line once at least, at offsets that fall anywhere in a block
                data += odd[(i / 29'989) % odd.size()];
            else
                data += "User" + QByteArray::number(rng.bounded(1'000'000'000));
            data += '\n';
        }
        data += "last-without-newline";
        QBuffer a(&data), b(&data);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        NameReader byBatch(&a), byBlock(&b);
        QList<QByteArray> batches;
        while (byBatch.next(1000, batches)) {
        }
        QList<QByteArray> blocks;
        qsizetype ascii = 0;
        NameBlock block;
        for (bool more = true; more;) {
            more = byBlock.nextBlock(block);
            for (size_t i = 0; i < block.size(); ++i) {
                blocks.append(block.name(i).toByteArray());
                QCOMPARE(block.names[i].ascii, isAscii(block.name(i)));
                ascii += block.names[i].ascii;
            }
        }
        QCOMPARE(blocks.size(), batches.size());
        QVERIFY(blocks == batches);
        QVERIFY(ascii < blocks.size() && ascii > 300'000);
        QCOMPARE(blocks.last(), QByteArray("last-without-newline"));
        QCOMPARE(byBlock.linesRead(), byBatch.linesRead());
        QCOMPARE(byBlock.badLines().size(), byBatch.badLines().size());
        QVERIFY(!byBlock.badLines().isEmpty());
        for (qsizetype i = 0; i < byBlock.badLines().size(); ++i) {
            QCOMPARE(byBlock.badLines()[i].line, byBatch.badLines()[i].line);
            QCOMPARE(byBlock.badLines()[i].reason, byBatch.badLines()[i].reason);
        }
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "tst_placement.moc"
