#include "local/demo.h"
#include "local/demoactivity.h"
#include "local/localcluster.h"
#include "model/fillstats.h"
#include "model/namereader.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filtersql.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QBuffer>
#include <QRandomGenerator>
#include <QTest>

#include <libpq-fe.h>

#include <thread>

using namespace bloom;

namespace {

std::unique_ptr<Database> openDb(const QString &conninfo)
{
    auto spec = ConnectionSpec::parse(conninfo);
    if (!spec)
        qFatal("%s", qPrintable(spec.error().message));
    auto db = Database::open(*spec);
    if (!db)
        qFatal("%s", qPrintable(db.error().toString()));
    return std::move(db).value();
}

QList<QByteArray> generatedNames(int count, quint32 seed, const QByteArray &prefix = "user")
{
    QRandomGenerator rng(seed);
    QList<QByteArray> out;
    for (int i = 0; i < count; ++i)
        out.append(prefix + QByteArray::number(rng.generate64(), 36) + (i % 3 == 0 ? "X" : ""));
    return out;
}

} // namespace

/** FilterStore against a real server: attach, init, check, add, load, fill, errors, concurrency. */
class TestFilterStore : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    std::unique_ptr<Database> mDb;
    std::unique_ptr<FilterStore> mStore;
    std::unique_ptr<PgConn> mRaw; // the application's own connection, running the reference statements

    /** The reference check statement, verbatim but for the name parameter. */
    bool referenceCheck(const QByteArray &name)
    {
        auto r = mRaw->column(QStringLiteral("select bits & mask = mask as maybe_taken from username_filter "
                                             "join username_bits($1) using (chunk)"),
                              {name});
        if (!r)
            qFatal("%s", qPrintable(r.error().message));
        return r->value(0) == "t";
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("ref")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("ref"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        mDb = openDb(mCluster.connectionString(QStringLiteral("ref")));
        mStore = std::make_unique<FilterStore>(*mDb, FilterRef{});
        mRaw = std::make_unique<PgConn>(mCluster.connectionString(QStringLiteral("ref")));
        QVERIFY(mRaw->ok());
    }

    void attachReferenceVerbatim()
    {
        auto s = mStore->attach();
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        QCOMPARE(mStore->geometry(), Geometry());
    }

    void templateRendersTheReference()
    {
        // init's SQL for the reference geometry and names is the reference SQL, statement for statement;
        // the one difference on purpose: the function Bloomscope creates pins its search_path.
        const auto normalise = [](QString sql) {
            sql.replace(QLatin1String(" set search_path = pg_catalog, pg_temp"), QString());
            QStringList lines;
            for (const QString &l : sql.split(QLatin1Char('\n')))
                if (!l.startsWith(QLatin1String("--")) && !l.trimmed().isEmpty())
                    lines << l;
            return lines.join(QLatin1Char('\n'));
        };
        QCOMPARE(
            normalise(renderFilterSql(Geometry(), QStringLiteral("username_filter"), QStringLiteral("username_bits"))),
            normalise(sqlResource(QStringLiteral("reference.sql"))));
    }

    void checkAddCheck()
    {
        auto placed = mStore->place({"ada", "Ada", "grace"});
        QVERIFY(placed.ok());
        QCOMPARE(placed->at(0).chunk, 71962u);
        QCOMPARE(*mStore->check(*placed), (QList<bool>{false, false, false}));
        QVERIFY(!referenceCheck("ada"));
        QVERIFY(mStore->add({"ada"}).ok());
        QCOMPARE(*mStore->check(*placed), (QList<bool>{true, true, false}));
        // The application's own check statement agrees with ours.
        QVERIFY(referenceCheck("ada"));
        QVERIFY(referenceCheck("ADA"));
        auto row = mStore->chunkBits(71962);
        QVERIFY(row.ok());
        QCOMPARE(row->count('1'), 7);
        for (int b : {619, 1835, 3259, 3422, 5396, 5977, 6900})
            QCOMPARE(row->at(b), '1');
    }

    void referenceAddIsSeenByCore()
    {
        // Names added by the application's reference statement check "maybe" through core.
        QVERIFY(mRaw->exec(QStringLiteral("update username_filter f set bits = f.bits | b.mask "
                                          "from username_bits('Barbara') b where f.chunk = b.chunk"))
                    .ok());
        QCOMPARE(mStore->check(*mStore->place({"barbara"}))->value(0), true);
    }

    void nonAsciiUsesServerLower()
    {
        QList<Lowering> how;
        const QList<QByteArray> names{QStringLiteral("Straße").toUtf8(), QStringLiteral("İstanbul").toUtf8(),
                                      QStringLiteral("ÅSA").toUtf8(), QStringLiteral("\U0001F600x").toUtf8()};
        auto placed = mStore->place(names, &how);
        QVERIFY(placed.ok());
        QCOMPARE(how.value(0), Lowering::Server);
        QVERIFY(mStore->add(names, *placed).ok());
        for (const QByteArray &n : names)
            QVERIFY2(referenceCheck(n), n.constData());
        // Upper-case forms the server lowercases to the same text are found too.
        auto upper = mStore->place(
            {QStringLiteral("STRAßE").toUtf8(), QStringLiteral("åsa").toUtf8(), QStringLiteral("istanbul").toUtf8()});
        QCOMPARE(*mStore->check(*upper), (QList<bool>{true, true, true}));
    }

    void bulkLoadManyNamesInOneChunk()
    {
        // 300 names that all fall into chunk 12345: a plain UPDATE ... FROM with duplicate targets
        // would keep only one of them. Every one must check "maybe" afterwards.
        QList<QByteArray> sameChunk;
        for (quint64 i = 0; sameChunk.size() < 300; ++i) {
            const QByteArray n = "dup" + QByteArray::number(i);
            if (placeAscii(Geometry(), n).chunk == 12345)
                sameChunk.append(n);
        }
        QList<QByteArray> all = sameChunk + generatedNames(20000, 7);
        auto placed = mStore->place(all);
        QCOMPARE(*mStore->check(QList<Placement>(placed->begin(), placed->begin() + 300)), QList<bool>(300, false));
        auto updated = mStore->add(all, *placed);
        QVERIFY2(updated.ok(), qPrintable(updated.ok() ? QString() : updated.error().toString()));
        QVERIFY(*updated < all.size());
        const QList<bool> verdicts = *mStore->check(*placed);
        QCOMPARE(verdicts.count(false), 0);
        for (int i = 0; i < 300; i += 37)
            QVERIFY(referenceCheck(sameChunk[i]));
    }

    void loadReportsBadLines()
    {
        QByteArray file("alice\r\nbob\n\ncaf\xe9\nzo\xc3\xab\nnulXbyte\n  spaced  \nlast-without-newline");
        file[file.indexOf("nulX") + 3] = '\0';
        QBuffer buf(&file);
        buf.open(QIODevice::ReadOnly);
        qint64 progressCalls = 0;
        auto report = mStore->load(&buf, [&](const LoadProgress &) { ++progressCalls; });
        QVERIFY(report.ok());
        QCOMPARE(report->lines, 8);
        QCOMPARE(report->namesAdded, 5); // alice, bob, zoë, "  spaced  ", last-without-newline
        QCOMPARE(report->bad.size(), 3);
        QCOMPARE(report->bad[0].line, 3);
        QVERIFY(report->bad[0].reason.contains(QLatin1String("empty")));
        QCOMPARE(report->bad[1].line, 4);
        QVERIFY(report->bad[1].reason.contains(QLatin1String("UTF-8")));
        QCOMPARE(report->bad[2].line, 6);
        QVERIFY(progressCalls >= 1);
        for (const char *n : {"alice", "bob", "  spaced  ", "last-without-newline"})
            QVERIFY2(referenceCheck(n), n);
        QVERIFY(referenceCheck(QStringLiteral("ZOË").toUtf8()));
    }

    void loadCancelled()
    {
        QByteArray file = generatedNames(1000, 99).join('\n');
        QBuffer buf(&file);
        buf.open(QIODevice::ReadOnly);
        std::atomic<bool> cancel{true};
        mStore->setCancelFlag(&cancel);
        auto report = mStore->load(&buf);
        mStore->setCancelFlag(nullptr);
        QVERIFY(!report.ok());
        QCOMPARE(report.error().kind, ErrorKind::Cancelled);
    }

    void loadCancelledWhilePlacingTheLastBlock()
    {
        // The cancel arrives after the last block is read, while its names that are not ASCII wait to be
        // lowered by the server: the error says it was cancelled and that nothing was written.
        QByteArray file = QStringLiteral("Ünïcødé-a\nplain-b\nÅsa-c\n").toUtf8();
        QBuffer buf(&file);
        buf.open(QIODevice::ReadOnly);
        std::atomic<bool> cancel{false};
        mStore->setCancelFlag(&cancel);
        auto report = mStore->load(&buf, [&](const LoadProgress &) { cancel = true; });
        mStore->setCancelFlag(nullptr);
        QVERIFY(!report.ok());
        QCOMPARE(report.error().kind, ErrorKind::Cancelled);
        QVERIFY2(report.error().message.contains(QLatin1String("nothing was written")),
                 qPrintable(report.error().message));
    }

    void fillMatchesServer()
    {
        auto fill = mStore->fill();
        QVERIFY(fill.ok());
        QCOMPARE(fill->setBits.size(), size_t(131072));
        QCOMPARE(fill->setBits[71962] >= 7, true);
        auto sum = mRaw->column(QStringLiteral("select sum(bit_count(bits)) from username_filter"));
        QCOMPARE(QByteArray::number(fill->totalSetBits()), sum->value(0));
        auto estimate = mStore->referenceEstimate();
        QVERIFY(estimate.ok());
        QVERIFY(std::abs(*estimate - fill->estimatedFpr()) < 1e-12);
        // ~20,310 distinct names went in; the estimate from the fill is close.
        QVERIFY2(std::abs(fill->estimatedNames() - 20310) < 400, qPrintable(QString::number(fill->estimatedNames())));
    }

    /** A read of what changed finds every chunk written since the earlier read, also by a transaction
     *  that was running, uncommitted, while that read was made, and nothing when nothing changed. */
    void fillSinceReadsWhatChanged()
    {
        auto before = mStore->fill();
        QVERIFY(before.ok());
        QVERIFY(!before->position.isEmpty());
        QCOMPARE(before->rowsRead, qint64(131072));
        std::vector<quint32> changed;
        auto nothing = mStore->fillSince(*before, &changed);
        QVERIFY(nothing.ok());
        QCOMPARE(nothing->rowsRead, qint64(0));
        QVERIFY(changed.empty());
        QVERIFY(nothing->setBits == before->setBits);

        // Another session writes chunk 5 and keeps its transaction open across our read.
        PgConn slow(mCluster.connectionString(QStringLiteral("ref")));
        QVERIFY(slow.exec(QStringLiteral("begin; update username_filter set bits = ~bits where chunk = 5")).ok());
        auto during = mStore->fill();
        QVERIFY(during.ok());
        QCOMPARE(during->setBits[5], before->setBits[5]); // not visible yet
        QVERIFY(slow.exec(QStringLiteral("commit")).ok());
        QVERIFY(mRaw->exec(QStringLiteral("update username_filter set bits = ~bits where chunk in (7, 131071)")).ok());

        auto after = mStore->fillSince(*during, &changed);
        QVERIFY2(after.ok(), qPrintable(after.ok() ? QString() : after.error().toString()));
        QVERIFY2(changed.size() >= 3, qPrintable(QString::number(changed.size())));
        for (quint32 c : {5u, 7u, 131071u})
            QVERIFY2(std::binary_search(changed.begin(), changed.end(), c), qPrintable(QString::number(c)));
        auto full = mStore->fill();
        QVERIFY(full.ok());
        QVERIFY(after->setBits == full->setBits);
        QCOMPARE(full->setBits[5], 8192 - before->setBits[5]);

        // Put the three chunks back; a read since `full` sees exactly those three.
        QVERIFY(
            mRaw->exec(QStringLiteral("update username_filter set bits = ~bits where chunk in (5, 7, 131071)")).ok());
        auto back = mStore->fillSince(*full, &changed);
        QVERIFY(back.ok());
        QCOMPARE(changed, (std::vector<quint32>{5, 7, 131071}));
        QVERIFY(back->setBits == before->setBits);

        // Not from a read without a position, or of another geometry.
        FillSnapshot unknown = *before;
        unknown.position.clear();
        QVERIFY(!mStore->fillSince(unknown).ok());
    }

    void writtenSinceASnapshot()
    {
        // The chunks written since a read, as a recorded snapshot keeps its position; a VACUUM FREEZE
        // since then makes the answer partial, and says so.
        auto before = mStore->fill();
        QVERIFY(before.ok());
        QVERIFY(mRaw->exec(QStringLiteral("update username_filter set bits = bits where chunk in (11, 4242)")).ok());
        auto written = mStore->writtenSince(before->position, before->takenAt);
        QVERIFY2(written.ok(), qPrintable(written.ok() ? QString() : written.error().toString()));
        QCOMPARE(written->chunks, (std::vector<quint32>{11, 4242}));
        QVERIFY(written->complete);
        QVERIFY(mRaw->exec(QStringLiteral("vacuum (freeze) username_filter")).ok());
        auto frozen = mStore->writtenSince(before->position, before->takenAt);
        QVERIFY(frozen.ok());
        QVERIFY(!frozen->complete);
        QVERIFY2(frozen->why.contains(QLatin1String("VACUUM has frozen")), qPrintable(frozen->why));
        QVERIFY(!mStore->writtenSince(QString(), before->takenAt).ok()); // no position: an error, not "nothing"
    }

    void demoHoldsEveryName()
    {
        // The demo's names go in on every core through one COPY: the server's own check finds each.
        auto conninfo = startDemo(mCluster, 200'000);
        QVERIFY2(conninfo.ok(), qPrintable(conninfo.ok() ? QString() : conninfo.error().toString()));
        PgConn demo(*conninfo);
        QVERIFY(demo.ok());
        QList<QByteArray> sample;
        char name[DemoNameMax];
        for (qint64 i = 0; i < 200'000; i += 97)
            sample.append(QByteArray(name, demoName(i, DemoSeed, name)));
        sample.append(QByteArray(name, demoName(199'999, DemoSeed, name)));
        auto maybe = demo.column(QStringLiteral("select count(*) filter (where bits & mask = mask) from "
                                                "unnest($1::text[]) n, username_bits(n) b join username_filter "
                                                "using (chunk)"),
                                 {"{" + sample.join(',') + "}"});
        QVERIFY(maybe.ok());
        QCOMPARE(maybe->value(0).toLongLong(), qint64(sample.size()));
        auto rows = demo.column(QStringLiteral("select count(*) from username_filter"));
        QCOMPARE(rows->value(0), QByteArray("131072"));
    }

    void demoTrafficAddsThroughTheReferenceAndRecordsOnItsClock()
    {
        // --demo-traffic: new names through the reference's own add, snapshots on a clock an hour a second.
        const QString demo = mCluster.connectionString(QStringLiteral("bloomscope_demo"));
        if (!PgConn(demo).ok()) // run alone: the demo database demoHoldsEveryName makes
            QVERIFY(startDemo(mCluster, 1000).ok());
        DemoActivity activity(demo, DemoActivity::Options{200, 3600, 500, 200'000});
        activity.start();
        QTRY_VERIFY_WITH_TIMEOUT(activity.namesAdded() >= 300 && activity.snapshots() >= 3, 20000);
        activity.stop();
        QVERIFY2(activity.lastError().isEmpty(), qPrintable(activity.lastError()));
        const qint64 added = activity.namesAdded();
        PgConn c(demo);
        QList<QByteArray> names;
        char name[DemoNameMax];
        for (qint64 i = 200'000; i < 200'000 + added; ++i)
            names.append(QByteArray(name, demoName(i, DemoSeed, name)));
        auto maybe = c.column(QStringLiteral("select count(*) filter (where bits & mask = mask) from "
                                             "unnest($1::text[]) n, username_bits(n) b join username_filter "
                                             "using (chunk)"),
                              {"{" + names.join(',') + "}"});
        QCOMPARE(maybe->value(0).toLongLong(), added); // every added name: maybe
        // The snapshots run ahead of the wall clock: 0.5 s apart are 30 simulated minutes apart.
        auto times = c.column(QStringLiteral("select extract(epoch from max(taken_at) - min(taken_at)) from "
                                             "bloomscope_history"));
        QVERIFY2(times->value(0).toDouble() >= 3000, times->value(0).constData());
    }

    void sampleFpr()
    {
        auto s = mStore->sampleFpr(20000);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        QCOMPARE(s->probes, 20000);
        QVERIFY(s->low95 <= s->measured && s->measured <= s->high95);
        QVERIFY(s->estimated < 1e-9); // nearly empty filter
        QCOMPARE(s->falsePositives, 0);
    }

    void skewFindsHotChunk()
    {
        QVERIFY(mRaw->exec(QStringLiteral("update username_filter set bits = ~0::bit(8192) where chunk = 4242")).ok());
        auto fill = mStore->fill();
        const SkewReport r = analyzeSkew(*fill);
        QVERIFY(!r.outliers.isEmpty());
        QCOMPARE(r.outliers.first().chunk, 4242u);
        QCOMPARE(r.outliers.first().setBits, 8192u);
        qint64 observed = 0;
        double expected = 0;
        for (const SkewBin &b : r.bins) {
            observed += b.observed;
            expected += b.expected;
        }
        QCOMPARE(observed, 131072);
        QVERIFY(std::abs(expected - 131072) < 10);
    }

    void health()
    {
        auto h = mStore->health();
        QVERIFY(h.ok());
        QVERIFY(h->totalBytes > 150'000'000);
        QVERIFY(h->heapBytes > 0 && h->indexBytes > 0);
        QVERIFY(h->bloat >= 0.9);
    }

    void initOtherGeometry()
    {
        QVERIFY(mCluster.createDatabase(QStringLiteral("small")).ok());
        auto db = openDb(mCluster.connectionString(QStringLiteral("small")));
        FilterRef ref{QStringLiteral("Small Filter"), QStringLiteral("small_bits")};
        FilterStore store(*db, ref);
        auto g = Geometry::fromCounts(1024, 512, 5);
        auto s = store.init(*g);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        QCOMPARE(store.geometry(), *g);
        // Refuses to overwrite.
        FilterStore again(*db, ref);
        auto twice = again.init(*g);
        QVERIFY(!twice.ok());
        QVERIFY(twice.error().message.contains(QLatin1String("already exists")));
        // Core equals the generated function on 2,000 names, and a fresh attach finds the geometry.
        PgConn raw(mCluster.connectionString(QStringLiteral("small")));
        const QList<QByteArray> names = generatedNames(2000, 3, "Mixed");
        auto rows =
            raw.rows(QStringLiteral("select (b).chunk, (b).mask::text from (select small_bits(n) b, o from "
                                    "unnest(string_to_array($1, ',')) with ordinality as t(n, o)) s order by o"),
                     {names.join(',')});
        QVERIFY(rows.ok());
        for (qsizetype i = 0; i < names.size(); ++i) {
            const Placement p = placeAscii(*g, names[i]);
            QList<int> bits;
            for (int b = 0; b < 512; ++b)
                if (rows->at(i)[1][b] == '1')
                    bits.append(b);
            QCOMPARE(rows->at(i)[0].toUInt(), p.chunk);
            QCOMPARE(bits, p.setBits());
        }
        FilterStore attached(*db, ref);
        QVERIFY(attached.attach().ok());
        QCOMPARE(attached.geometry(), *g);
        auto placed = attached.place(names);
        QVERIFY(attached.add(names, *placed).ok());
        QCOMPARE(attached.check(*placed)->count(false), 0);
    }

    void parallelAddersLoseNothing()
    {
        // Four loaders and one per-name adder on a 64-chunk filter: every batch overlaps every other.
        QVERIFY(mCluster.createDatabase(QStringLiteral("tiny")).ok());
        {
            auto db = openDb(mCluster.connectionString(QStringLiteral("tiny")));
            FilterStore store(*db, FilterRef{});
            QVERIFY(store.init(*Geometry::fromCounts(64, 8192, 7)).ok());
        }
        QList<QList<QByteArray>> sets;
        for (int t = 0; t < 5; ++t)
            sets.append(generatedNames(t < 4 ? 6000 : 300, 1000 + t, "p" + QByteArray::number(t)));
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 5; ++t) {
            threads.emplace_back([&, t] {
                auto db = openDb(mCluster.connectionString(QStringLiteral("tiny")));
                FilterStore store(*db, FilterRef{});
                if (!store.attach().ok()) {
                    ++failures;
                    return;
                }
                const QList<QByteArray> &mine = sets[t];
                for (qsizetype from = 0; from < mine.size(); from += (t < 4 ? 500 : 1)) {
                    const QList<QByteArray> part = mine.mid(from, t < 4 ? 500 : 1);
                    auto placed = store.place(part);
                    const bool ok = store.add(part, *placed).ok();
                    if (!ok)
                        ++failures;
                }
            });
        }
        for (auto &th : threads)
            th.join();
        QCOMPARE(failures.load(), 0);
        auto db = openDb(mCluster.connectionString(QStringLiteral("tiny")));
        FilterStore store(*db, FilterRef{});
        QVERIFY(store.attach().ok());
        for (const QList<QByteArray> &set : sets)
            QCOMPARE(store.check(*store.place(set))->count(false), 0);
    }

    void cancelLongStatement()
    {
        auto db = openDb(mCluster.connectionString(QStringLiteral("ref")));
        std::thread canceller([&db] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            db->cancel();
        });
        QElapsedTimer t;
        t.start();
        auto s = db->exec(QStringLiteral("select pg_sleep(30)"));
        canceller.join();
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind, ErrorKind::Cancelled);
        QVERIFY(t.elapsed() < 10000);
        QVERIFY(db->exec(QStringLiteral("select 1")).ok()); // the session is still usable
    }

    // ---- errors ------------------------------------------------------------------------------

    void missingTableAndFunction()
    {
        FilterStore noTable(*mDb, FilterRef{QStringLiteral("nope"), QStringLiteral("username_bits")});
        auto s = noTable.attach();
        QCOMPARE(s.error().kind, ErrorKind::MissingFilter);
        QVERIFY(s.error().message.contains(QLatin1String("no table public.nope")));
        QVERIFY(s.error().fix.contains(QLatin1String("bloomctl init")));
        FilterStore noFunction(*mDb, FilterRef{QStringLiteral("username_filter"), QStringLiteral("nope_bits")});
        QCOMPARE(noFunction.attach().error().kind, ErrorKind::MissingFilter);
    }

    void foreignFilters_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("wrong bit length")
            << QStringLiteral("create table t (chunk int primary key, bits bit(4096) not null); insert into t select "
                              "n, 0::bit(4096) from generate_series(0, 131071) n;")
            << QStringLiteral("but public.t.bits is bit(4096)");
        QTest::newRow("no bits column") << QStringLiteral("create table t (chunk int primary key, bits text);")
                                        << QStringLiteral("no fixed-length column");
        QTest::newRow("a bits column with no length")
            << QStringLiteral("create table t as select n as chunk, b'1010101010101010'::varbit as bits from "
                              "generate_series(0, 131071) n;")
            << QStringLiteral("(it has: chunk integer, bits bit varying); its rows hold 16 bits each");
        QTest::newRow("a row outside 0..2^c-1")
            << QStringLiteral("create table t (chunk int primary key, bits bit(8192) not null); insert into t select "
                              "n, 0::bit(8192) from generate_series(-1, 131070) n;")
            << QStringLiteral("131072 rows, chunks -1..131070");
        // Issue 44, 5: without a key, chunk 4 twice and no chunk 5 counted as a whole filter; a row with
        // no chunk the same; an extra row was called a placement mismatch of a 2^31-bit geometry.
        QTest::newRow("a chunk held twice, no key")
            << QStringLiteral("create table t (chunk int, bits bit(8192) not null); insert into t select n, "
                              "0::bit(8192) from generate_series(0, 131071) n where n <> 5; "
                              "insert into t values (4, 0::bit(8192));")
            << QStringLiteral("more than one row for chunk 4 (1 chunk(s) in all), and no primary key");
        QTest::newRow("a row with no chunk, no key")
            << QStringLiteral("create table t (chunk int unique, bits bit(8192) not null); insert into t select n, "
                              "0::bit(8192) from generate_series(0, 131071) n where n <> 5; "
                              "insert into t values (null, 0::bit(8192));")
            << QStringLiteral("1 row(s) with no chunk (NULL)");
        QTest::newRow("an extra row")
            << QStringLiteral("create table t (chunk int primary key, bits bit(8192) not null); insert into t select "
                              "n, 0::bit(8192) from generate_series(0, 131072) n;")
            << QStringLiteral("1 extra row(s) beyond the 131072 chunks public.username_bits places names in "
                              "(chunk 131072)");
    }
    void foreignFilters()
    {
        QFETCH(QString, sql);
        QFETCH(QString, mentions);
        QVERIFY(mRaw->exec(QStringLiteral("drop table if exists t; ") + sql).ok());
        FilterStore store(*mDb, FilterRef{QStringLiteral("t"), QStringLiteral("username_bits")});
        auto s = store.attach();
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind, ErrorKind::ForeignFilter);
        QVERIFY2(s.error().message.contains(mentions), qPrintable(s.error().message));
        QVERIFY(mRaw->exec(QStringLiteral("drop table t")).ok());
    }

    void foreignFunction()
    {
        // Same shape, but without lower(): the mixed-case probes expose it.
        QString sql = sqlResource(QStringLiteral("reference.sql"));
        sql = sql.mid(sql.indexOf(QLatin1String("create function")));
        sql.replace(QLatin1String("username_bits"), QLatin1String("raw_bits"));
        sql.replace(QLatin1String("md5(lower(name))"), QLatin1String("md5(name)"));
        QVERIFY(mRaw->exec(sql).ok());
        FilterStore store(*mDb, FilterRef{QStringLiteral("username_filter"), QStringLiteral("raw_bits")});
        auto s = store.attach();
        QCOMPARE(s.error().kind, ErrorKind::ForeignFilter);
        QVERIFY2(s.error().message.contains(QLatin1String("131072 chunks x 8192 bits, k=7")),
                 qPrintable(s.error().message));
        QVERIFY(s.error().message.contains(QLatin1String("'Grace'")));
    }

    void preparedAndPipelinedChecksAgreeWithTheServer()
    {
        // The libpq paths (PQexecPrepared for one name, a pipeline for many) answer as the reference
        // statement does, for added and never-added names, mixed case and non-ASCII included.
        QList<QByteArray> names;
        for (int i = 0; i < 3000; ++i)
            names.append((i % 3 ? "Pipe-" : "pipé-ÜSER-") + QByteArray::number(i));
        QList<QByteArray> added = names.mid(0, 1500);
        auto placedAdded = mStore->place(added);
        QVERIFY(placedAdded.ok());
        QVERIFY(mStore->add(added, *placedAdded).ok());
        auto placed = mStore->place(names);
        QVERIFY(placed.ok());
        auto pipelined = mStore->checkPipelined(*placed);
        auto array = mStore->checkArray(*placed);
        auto chosen = mStore->check(*placed);
        QVERIFY(pipelined.ok() && array.ok() && chosen.ok());
        QCOMPARE(*pipelined, *array);
        QCOMPARE(*chosen, *array);
        for (qsizetype i = 0; i < names.size(); i += 37) {
            const bool one = mStore->check({placed->at(i)})->value(0);
            QCOMPARE(one, pipelined->at(i));
            QCOMPARE(one, referenceCheck(names[i]));
            if (i < 1500)
                QVERIFY2(one, names[i].constData()); // no false negative
        }
        // A missing chunk row is an error on every path, never "definitely free".
        const Placement gone = placed->at(7);
        QVERIFY(mRaw->exec(QStringLiteral("begin")).ok());
        QVERIFY(mRaw->exec(QStringLiteral("create temp table saved as select * from username_filter where chunk = %1; "
                                          "delete from username_filter where chunk = %1")
                               .arg(gone.chunk))
                    .ok());
        QVERIFY(mRaw->exec(QStringLiteral("commit")).ok());
        QCOMPARE(mStore->check({gone}).error().kind, ErrorKind::DamagedFilter);
        QCOMPARE(mStore->check(*placed).error().kind, ErrorKind::DamagedFilter);
        QCOMPARE(mStore->checkArray(*placed).error().kind, ErrorKind::DamagedFilter);
        QVERIFY(mRaw->exec(QStringLiteral("insert into username_filter select * from saved")).ok());
        QVERIFY(mStore->check(*placed).ok()); // and the connection is usable after the error
        // A connection that dies under the pipeline is a connection error, not an answer.
        auto db = openDb(mCluster.connectionString(QStringLiteral("ref")));
        FilterStore store(*db, FilterRef{});
        QVERIFY(store.attach().ok());
        QVERIFY(store.check({placed->first()}).ok()); // prepared on this session
        QVERIFY(mRaw->exec(QStringLiteral("select pg_terminate_backend(%1)").arg(PQbackendPID(db->pgconn()))).ok());
        QTest::qWait(200);
        QCOMPARE(store.check({placed->first()}).error().kind, ErrorKind::Connection);
        QCOMPARE(store.check(*placed).error().kind, ErrorKind::Connection);
    }

    /** Issue 32: a NULL bits row or a missing chunk row, found at attach (rows counted; NULL rows looked
     *  for when the column lacks NOT NULL) and by every read after it: no check path answers "free"
     *  for a name of that chunk, the chunk's bits are an error (not an empty row that crashes the
     *  step-through), the fill says which chunks it could not count, and a read of the changes sees a
     *  row nulled since. */
    void damagedRowsAreNeverFree()
    {
        QVERIFY(mRaw->exec(QStringLiteral("drop table if exists dmg; create table dmg (chunk int primary key, bits "
                                          "bit(8192) not null); insert into dmg select * from username_filter; "
                                          "update dmg f set bits = f.bits | b.mask from username_bits('ada') b "
                                          "where f.chunk = b.chunk; alter table dmg alter column bits drop not null"))
                    .ok());
        const FilterRef ref{QStringLiteral("dmg"), QStringLiteral("username_bits")};
        FilterStore store(*mDb, ref);
        QVERIFY(store.attach().ok());
        QVERIFY(!store.bitsNotNull());
        QVERIFY(store.damage().empty());
        auto healthy = store.fill();
        QVERIFY(healthy.ok() && healthy->damage.empty());
        auto placed = store.place({"ada", "grace", "alan", "bjarne"});
        QVERIFY(placed.ok());
        QCOMPARE(placed->at(0).chunk, 71962u);
        QCOMPARE(*store.check(*placed), (QList<bool>{true, false, false, false}));

        // Another session nulls ada's row after the attach: every path says so, none says "free".
        QVERIFY(mRaw->exec(QStringLiteral("update dmg set bits = null where chunk = 71962")).ok());
        const auto isNullError = [](const Error &e) {
            return e.kind == ErrorKind::DamagedFilter && e.message.contains(QLatin1String("chunk 71962")) &&
                   e.message.contains(QLatin1String("NULL")) && e.fix.contains(QLatin1String("rebuild")) &&
                   e.fix.contains(QLatin1String("set bits = ~0::bit(8192) where bits is null")) &&
                   !e.fix.contains(QLatin1String(" 0::bit"));
        };
        auto one = store.check({placed->at(0)});
        QVERIFY2(!one.ok(), "a NULL row checked free");
        QVERIFY2(isNullError(one.error()), qPrintable(one.error().toString()));
        for (const auto &many : {store.check(*placed), store.checkPipelined(*placed), store.checkArray(*placed)}) {
            QVERIFY(!many.ok());
            QVERIFY2(isNullError(many.error()), qPrintable(many.error().toString()));
        }
        auto bits = store.chunkBits(71962);
        QVERIFY2(!bits.ok(), "a NULL row read as bits");
        QVERIFY(isNullError(bits.error()));
        QCOMPARE(store.damage().nullChunks, std::vector<quint32>{71962});
        std::vector<quint32> changed;
        auto since = store.fillSince(*healthy, &changed);
        QVERIFY(since.ok());
        QCOMPARE(since->damage.nullChunks, std::vector<quint32>{71962});
        QCOMPARE(since->setBits[71962], 0u);
        auto nulled = store.fill();
        QVERIFY(nulled.ok());
        QCOMPARE(nulled->damage.nullChunks, std::vector<quint32>{71962});
        QVERIFY(nulled->damage.missingChunks.empty());
        auto sampled = store.sampleFpr(100);
        QVERIFY(!sampled.ok());
        QVERIFY2(sampled.error().kind == ErrorKind::DamagedFilter, qPrintable(sampled.error().toString()));

        // A row deleted (chunk 5), and the first and last chunk: attach names them, the fill too; a read
        // of the changes cannot see a deleted row, but its count of the rows can.
        QVERIFY(mRaw->exec(QStringLiteral("create temp table kept as select * from dmg where chunk in (0, 5, 131071); "
                                          "delete from dmg where chunk in (0, 5, 131071)"))
                    .ok());
        auto counted = store.fillSince(*nulled, nullptr, /*countRows=*/true);
        QVERIFY(counted.ok());
        QCOMPARE(counted->rowCount, qint64(131069));
        FilterStore later(*mDb, ref);
        QVERIFY(later.attach().ok()); // the geometry still follows from the rows and the function
        QCOMPARE(later.geometry(), Geometry());
        QCOMPARE(later.damage().nullChunks, std::vector<quint32>{71962});
        QCOMPARE(later.damage().missingChunks, (std::vector<quint32>{0, 5, 131071}));
        QVERIFY2(later.damage().describe() == QLatin1String("chunk 71962 is NULL; 3 chunks have no row (0, 5, 131071)"),
                 qPrintable(later.damage().describe()));
        auto gone = later.fill();
        QVERIFY(gone.ok());
        QCOMPARE(gone->damage, later.damage());
        QCOMPARE(gone->rowCount, qint64(131069));
        Placement inFive; // a name of chunk 5
        for (int i = 0; inFive.chunk != 5; ++i)
            inFive = placeAscii(Geometry(), "five-" + QByteArray::number(i));
        auto noRow = later.check({inFive});
        QVERIFY(!noRow.ok());
        QCOMPARE(noRow.error().kind, ErrorKind::DamagedFilter);
        QVERIFY2(noRow.error().message.contains(QLatin1String("chunk 5 has no row")),
                 qPrintable(noRow.error().message));
        QCOMPARE(later.chunkBits(5).error().kind, ErrorKind::DamagedFilter);

        // Put back: a read of the changes sees the rows again and the damage goes.
        QVERIFY(mRaw->exec(QStringLiteral("update dmg d set bits = f.bits | b.mask from username_filter f, "
                                          "username_bits('ada') b where f.chunk = b.chunk and d.chunk = b.chunk; "
                                          "insert into dmg select * from kept"))
                    .ok());
        auto whole = later.fillSince(*gone);
        QVERIFY(whole.ok());
        QVERIFY2(whole->damage.empty(), qPrintable(whole->damage.describe()));
        QCOMPARE(*later.check(*placed), (QList<bool>{true, false, false, false}));
        QVERIFY(mRaw->exec(QStringLiteral("drop table dmg")).ok());
    }

    /** A pipelined check right after a forward-only read on the same connection (a refresh's fill,
     *  then Sample FPR in the window): QPSQL left libpq's single-row mode on, and the first check
     *  came back as a row of its own, which was taken for a failed check ("no answer"). */
    void pipelinedCheckAfterAForwardOnlyRead()
    {
        FilterStore store(*mDb, FilterRef{});
        QVERIFY(store.attach().ok());
        QList<Placement> many;
        for (int i = 0; i < 100; ++i)
            many << placeAscii(Geometry(), "after-a-read-" + QByteArray::number(i));
        auto first = store.check(many); // prepares the statement: a query outside the pipeline
        QVERIFY(first.ok());
        for (int round = 0; round < 2; ++round) {
            QVERIFY(store.fill().ok());
            auto again = store.check(many);
            QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().toString()));
            QCOMPARE(*again, *first);
        }
        QVERIFY(store.fill().ok());
        auto sampled = store.sampleFpr(100);
        QVERIFY2(sampled.ok(), sampled.ok() ? "" : qPrintable(sampled.error().toString()));
    }

    void connectionErrors()
    {
        QVERIFY(
            mCluster
                .exec(QStringLiteral("postgres"), QStringLiteral("create role alice login password 'right-password'"))
                .ok());
        const auto openError = [](const QString &conninfo) {
            auto spec = ConnectionSpec::parse(conninfo);
            if (!spec)
                return spec.error();
            auto db = Database::open(*spec);
            return db ? Error{} : db.error();
        };
        const QString tcp = mCluster.tcpConnectionString(QStringLiteral("ref"), QStringLiteral("alice"));
        Error e = openError(tcp + QStringLiteral(" password=wrong"));
        QCOMPARE(e.kind, ErrorKind::Authentication);
        QVERIFY(e.fix.contains(QLatin1String(".pgpass")));
        QVERIFY(!e.message.contains(QLatin1String("wrong"))); // the password is never echoed
        QVERIFY(openError(tcp + QStringLiteral(" password=right-password")).message.isEmpty());
        e = openError(mCluster.connectionString(QStringLiteral("no_such_db")));
        QCOMPARE(e.kind, ErrorKind::MissingDatabase);
        e = openError(QStringLiteral("host=127.0.0.1 port=1 dbname=x connect_timeout=3"));
        QCOMPARE(e.kind, ErrorKind::Connection);
        QVERIFY(e.message.contains(QLatin1String("cannot reach")));
        e = openError(QStringLiteral("host=127.0.0.1 nonsense=1"));
        QCOMPARE(e.kind, ErrorKind::Connection);
        QVERIFY(e.message.contains(QLatin1String("bad connection string")));
        e = openError(QStringLiteral("postgresql://alice@127.0.0.1:%1/ref?password=wrong").arg(mCluster.port()));
        QCOMPARE(e.kind, ErrorKind::Authentication);
    }

    void nonUtf8DatabaseRefused()
    {
        QVERIFY(mCluster.createDatabase(QStringLiteral("latin"), QStringLiteral("LATIN1")).ok());
        auto spec = ConnectionSpec::parse(mCluster.connectionString(QStringLiteral("latin")));
        auto db = Database::open(*spec);
        QVERIFY(!db.ok());
        QCOMPARE(db.error().kind, ErrorKind::Encoding);
        QVERIFY(db.error().message.contains(QLatin1String("LATIN1")));
    }

    void readOnlySession()
    {
        auto spec = ConnectionSpec::parse(mCluster.connectionString(QStringLiteral("ref")));
        Database::Options o;
        o.readOnly = true;
        auto db = Database::open(*spec, o);
        QVERIFY(db.ok());
        FilterStore store(**db, FilterRef{});
        QVERIFY(store.attach().ok());
        QVERIFY(store.check(*store.place({"ada"}))->value(0));
        auto s = store.add({"readonly-name"});
        QVERIFY(!s.ok());
        QVERIFY(s.error().fix.contains(QLatin1String("read-only")));
        // A bulk load is refused before a line is read, with the same fix, and writes nothing.
        const auto setBits = [this] {
            PgConn c(mCluster.connectionString(QStringLiteral("ref")));
            return c.column(QStringLiteral("select sum(bit_count(bits)) from username_filter"))->value(0);
        };
        const QByteArray before = setBits();
        QByteArray file = generatedNames(300'000, 4343).join('\n');
        QBuffer buf(&file);
        buf.open(QIODevice::ReadOnly);
        auto report = store.load(&buf);
        QVERIFY(!report.ok());
        QVERIFY2(report.error().message.contains(QLatin1String("read-only")), qPrintable(report.error().message));
        QVERIFY(report.error().fix.contains(QLatin1String("read-only")));
        QCOMPARE(buf.pos(), 0);
        QCOMPARE(setBits(), before);
    }

    void loadAcrossBlocksWithNonAsciiNames()
    {
        // Last: it adds a quarter of a million names that the counts of the tests before do not expect.
        // 250,000 names (three of the load's 100,000-name blocks, ASCII ones placed on a second thread
        // while the next block is read), every 997th not ASCII and some in upper case: each checks maybe.
        QList<QByteArray> names = generatedNames(250'000, 4242);
        for (qsizetype i = 0; i < names.size(); i += 997)
            names[i] = (QStringLiteral("Ünïcødé-") + QString::number(i)).toUtf8();
        for (qsizetype i = 1; i < names.size(); i += 5)
            names[i] = names[i].toUpper();
        QByteArray file = names.join('\n');
        QBuffer buf(&file);
        buf.open(QIODevice::ReadOnly);
        auto report = mStore->load(&buf);
        QVERIFY2(report.ok(), qPrintable(report.ok() ? QString() : report.error().toString()));
        QCOMPARE(report->namesAdded, names.size());
        auto placed = mStore->place(names);
        QVERIFY(placed.ok());
        QCOMPARE(mStore->check(*placed)->count(false), 0);
        for (qsizetype i = 0; i < names.size(); i += 997 * 25)
            QVERIFY2(referenceCheck(names[i]), names[i].constData());
    }

    void cleanupTestCase()
    {
        mStore.reset();
        mDb.reset();
        mRaw.reset();
        QVERIFY(mCluster.stop().ok());
    }
};

QTEST_GUILESS_MAIN(TestFilterStore)
#include "tst_filterstore.moc"
