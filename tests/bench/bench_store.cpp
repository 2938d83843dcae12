// The filter store against the reference SQL, side by side on one private server, in one run:
//   load of N names (default 1,000,000) vs the reference per-name UPDATE ... FROM username_bits(name)
//   check latency p50/p99 and throughput vs the reference check query
//   fill (per-chunk bit_count) vs the reference FPR estimate query
//
//   build/tests/bench/bench_store [NAMES] [REFERENCE_SAMPLE]
#include "benchpipeline.h"
#include "local/localcluster.h"
#include "maintenance/rebuild.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filtersql.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QtEndian>

#include <libpq-fe.h>

#include <algorithm>
#include <cstdio>
#include <unistd.h>
#include <vector>

using namespace bloom;

namespace {

[[noreturn]] void die(const QString &why)
{
    std::fprintf(stderr, "bench_store: %s\n", qPrintable(why));
    std::exit(1);
}

std::unique_ptr<Database> open(const LocalCluster &c, const QString &db)
{
    auto d = Database::open(*ConnectionSpec::parse(c.connectionString(db)));
    if (!d)
        die(d.error().toString());
    return std::move(d).value();
}

QByteArray name(qint64 i)
{
    return "bench-user-" + QByteArray::number(i * 2654435761 % 1000000007);
}

double seconds(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e9;
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v[size_t(p * double(v.size() - 1))];
}

/** Runs a prepared one-parameter statement through libpq and returns its latency in microseconds. */
double timedPrepared(PGconn *pg, const char *stmt, const QByteArray &param)
{
    QElapsedTimer t;
    t.start();
    const char *values[1] = {param.constData()};
    PGresult *r = PQexecPrepared(pg, stmt, 1, values, nullptr, nullptr, 0);
    const ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        die(QString::fromUtf8(PQresultErrorMessage(r)));
    PQclear(r);
    return double(t.nsecsElapsed()) / 1e3;
}

/** A file read as `bloomctl load -` reads stdin: sequential, at most a pipe's 64 KiB a read. */
class PipeDevice : public QIODevice {
public:
    explicit PipeDevice(const QByteArray &data)
        : mData(data)
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *to, qint64 max) override
    {
        const qint64 n = std::min({max, qint64(64 << 10), qint64(mData.size()) - mAt});
        memcpy(to, mData.constData() + mAt, size_t(n));
        mAt += n;
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    const QByteArray &mData;
    qint64 mAt = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 names = argc > 1 ? QByteArray(argv[1]).toLongLong() : 1'000'000;
    const qint64 refSample = argc > 2 ? QByteArray(argv[2]).toLongLong() : 20'000;

    LocalCluster cluster;
    if (auto s = cluster.start(); !s)
        die(s.error().toString());
    for (const char *db : {"ours", "reference", "pipe", "plain", "rebuilding"}) {
        if (!cluster.createDatabase(QString::fromLatin1(db)))
            die(QStringLiteral("createdb"));
        if (!cluster.exec(QString::fromLatin1(db), sqlResource(QStringLiteral("reference.sql"))))
            die(QStringLiteral("reference.sql"));
        // Settle the fresh tables now, so autovacuum does not run in the middle of a measurement.
        if (!cluster.exec(QString::fromLatin1(db), QStringLiteral("vacuum (analyze, freeze) username_filter")))
            die(QStringLiteral("vacuum"));
    }
    (void)cluster.exec(QStringLiteral("postgres"), QStringLiteral("checkpoint"));
    std::printf("server: PostgreSQL on a private LocalCluster (loopback, fsync off); %lld names\n\n", qlonglong(names));

    // ---- load ----------------------------------------------------------------------------------
    QByteArray file;
    for (qint64 i = 0; i < names; ++i)
        file += name(i) + '\n';
    auto db = open(cluster, QStringLiteral("ours"));
    FilterStore store(*db, FilterRef{});
    if (auto s = store.attach(); !s)
        die(s.error().toString());
    QBuffer buf(&file);
    buf.open(QIODevice::ReadOnly);
    QElapsedTimer t;
    t.start();
    auto report = store.load(&buf);
    const double ourLoad = seconds(t);
    if (!report)
        die(report.error().toString());

    PgConn ref(cluster.connectionString(QStringLiteral("reference")));

    // The floor reads the table core's check reads, on a connection of its own as each side has one.
    PgConn floor(cluster.connectionString(QStringLiteral("ours")));
    PQclear(PQprepare(ref.handle(), "add",
                      "update username_filter f set bits = f.bits | b.mask from username_bits($1) b "
                      "where f.chunk = b.chunk",
                      1, nullptr));
    t.restart();
    for (qint64 i = 0; i < refSample; ++i)
        timedPrepared(ref.handle(), "add", name(i));
    const double refPerName = seconds(t) / double(refSample);
    const double refLoad = refPerName * double(names);
    std::printf("load     bloomctl load: %.2f s for %lld names (%.0f names/s, %lld batch(es))\n", ourLoad,
                qlonglong(names), double(names) / ourLoad, qlonglong(report->batches));
    std::printf("         stages: read+place %.2f s, vacuum %.2f s, merge (client) %.2f s, "
                "UPDATE with array parameters+commit %.2f s\n",
                report->readSeconds, report->vacuumSeconds, report->copySeconds, report->updateSeconds);
    std::printf("         reference per-name UPDATE ... FROM username_bits(name): %.1f us a name "
                "(%lld-name sample) = %.1f s for %lld names\n",
                refPerName * 1e6, qlonglong(refSample), refLoad, qlonglong(names));
    std::printf("         ratio: load is %.1fx faster than the reference\n", refLoad / ourLoad);
    // The floor of a load: the loaded table's bytes, binary COPY out, then COPY in to a fresh table
    // with its primary key (the least a load of every chunk must move and write), in this run.
    {
        PgConn pg(cluster.connectionString(QStringLiteral("ours")));
        const auto pages = [&pg](const char *table) {
            auto v = pg.column(QStringLiteral("select pg_relation_size('%1') / 8192").arg(QLatin1String(table)));
            return v && !v->isEmpty() ? v->first().toLongLong() : 0;
        };
        QElapsedTimer ft;
        ft.start();
        QByteArray bytes;
        PGresult *r = PQexec(pg.handle(), "copy username_filter (chunk, bits) to stdout (format binary)");
        if (PQresultStatus(r) != PGRES_COPY_OUT)
            die(QString::fromUtf8(PQerrorMessage(pg.handle())));
        PQclear(r);
        char *piece = nullptr;
        int n = 0;
        for (; (n = PQgetCopyData(pg.handle(), &piece, 0)) > 0; PQfreemem(piece))
            bytes.append(piece, n);
        bool copiedOut = n == -1; // -1: the end; -2: an error (a partial table is no floor)
        while ((r = PQgetResult(pg.handle()))) {
            copiedOut = copiedOut && PQresultStatus(r) == PGRES_COMMAND_OK;
            PQclear(r);
        }
        if (!copiedOut)
            die(QStringLiteral("COPY out of the loaded table: %1").arg(QString::fromUtf8(PQerrorMessage(pg.handle()))));
        const double out = seconds(ft);
        if (!pg.exec(QStringLiteral("create table load_floor (chunk int primary key, bits bit(%1))")
                         .arg(store.geometry().chunkBits())))
            die(QStringLiteral("create load_floor"));
        ft.restart();
        auto copied = copyIn(pg.handle(), QStringLiteral("copy load_floor from stdin (format binary)"),
                             [&bytes](const ByteSink &sink) { return sink(bytes.constData(), bytes.size()) ? 1 : -1; });
        const double in = seconds(ft);
        if (!copied)
            die(copied.error().toString());
        const qint64 loaded = pages("username_filter"), packed = pages("load_floor");
        std::printf("         floor: binary COPY of the loaded table's %lld rows out %.2f s + into a keyed table "
                    "%.2f s = %.2f s\n",
                    qlonglong(store.geometry().chunks()), out, in, out + in);
        std::printf("         ratio: load takes %.2fx the COPY in, %.2fx out + in; the table is %lld pages, %.2fx "
                    "the freshly COPYed one (%lld)\n",
                    ourLoad / in, ourLoad / (out + in), qlonglong(loaded),
                    double(loaded) / double(qMax<qint64>(1, packed)), qlonglong(packed));
        (void)pg.exec(QStringLiteral("drop table load_floor"));
    }
    // The same names from a pipe (`bloomctl load -`), into a fresh table of their own.
    {
        auto pipeDb = open(cluster, QStringLiteral("pipe"));
        FilterStore pipeStore(*pipeDb, FilterRef{});
        if (auto s = pipeStore.attach(); !s)
            die(s.error().toString());
        PipeDevice pipe(file);
        t.restart();
        auto piped = pipeStore.load(&pipe);
        const double pipeLoad = seconds(t);
        if (!piped)
            die(piped.error().toString());
        std::printf(
            "         from a pipe (64 KiB reads, as `bloomctl load -` reads stdin): %.2f s (read+place %.2f s), "
            "%.1fx faster than the reference\n\n",
            pipeLoad, piped->readSeconds, refLoad / pipeLoad);
    }

    // ---- a load while a rebuilt filter waits for its swap ----------------------------------------
    // The same names into two fresh reference filters, back to back: one plain, one whose rebuild
    // (from a small file, into a table of the same geometry) waits for its swap, so the load records
    // every name in the pending table ahead of its steps (FilterWriter::recordAhead).
    {
        auto rebuildDb = open(cluster, QStringLiteral("rebuilding"));
        const QString smallFile = QDir::temp().filePath(QStringLiteral("bench_store_rebuild_%1.txt").arg(getpid()));
        {
            QFile f(smallFile);
            if (!f.open(QIODevice::WriteOnly))
                die(QStringLiteral("cannot write %1").arg(smallFile));
            for (int i = 0; i < 1000; ++i)
                f.write("rebuilt-" + QByteArray::number(i) + '\n');
        }
        RebuildOptions o;
        o.intoTable = QStringLiteral("username_filter_next");
        o.geometry = Geometry();
        o.files = {smallFile};
        o.graceSeconds = 0;
        auto rebuilt = Rebuilder(*rebuildDb, o).run();
        QFile::remove(smallFile);
        if (!rebuilt)
            die(rebuilt.error().toString());
        (void)cluster.exec(QStringLiteral("rebuilding"), QStringLiteral("vacuum (analyze, freeze) username_filter"));
        (void)cluster.exec(QStringLiteral("postgres"), QStringLiteral("checkpoint"));
        const auto loadInto = [&](const QString &dbName) {
            auto d = open(cluster, dbName);
            FilterStore s(*d, FilterRef{});
            if (auto a = s.attach(); !a)
                die(a.error().toString());
            QBuffer in(&file);
            in.open(QIODevice::ReadOnly);
            QElapsedTimer lt;
            lt.start();
            auto r = s.load(&in);
            if (!r)
                die(r.error().toString());
            return std::pair{seconds(lt), *r};
        };
        const auto [plain, plainReport] = loadInto(QStringLiteral("plain"));
        Q_UNUSED(plainReport);
        const auto [during, duringReport] = loadInto(QStringLiteral("rebuilding"));
        std::printf("load during a rebuild: %.2f s for %lld names (%lld recorded for the rebuild in %.2f s, ahead of "
                    "the steps), beside a plain load of the same names just before: %.2f s\n",
                    during, qlonglong(names), qlonglong(duringReport.recordedNames), duringReport.recordSeconds, plain);
        std::printf("         ratio: the load during a rebuild takes %.2fx the plain load (goal: at most 1.3x at "
                    "1M names)\n\n",
                    during / plain);
    }

    // ---- check ---------------------------------------------------------------------------------
    // One name at a time, the three ways interleaved so they share the machine's moods: core's check
    // (client placement, PQexecPrepared with binary parameters and result), the reference statement
    // (username_bits on the server, prepared), and the floor: a bare primary-key read of one row.
    const int checks = 20000;
    std::vector<double> ours, theirs, bare;
    PQclear(PQprepare(ref.handle(), "check",
                      "select bits & mask = mask as maybe_taken from username_filter join username_bits($1) "
                      "using (chunk)",
                      1, nullptr));
    const Oid int4 = 23;
    PQclear(
        PQprepare(floor.handle(), "bare", "select octet_length(bits) from username_filter where chunk = $1", 1, &int4));
    double ourCheckSecs = 0, refCheckSecs = 0, bareSecs = 0;
    for (int i = 0; i < checks; ++i) {
        const QByteArray n = i % 2 ? name(i) : "free-" + QByteArray::number(i);
        // Each of the three reads a different random chunk, in an order that turns: none of them
        // finds the row the one before it just read in the caches.
        const qint32 chunk = qToBigEndian(qint32(quint32(i) * 2654435761u % 131072u));
        for (int turn = 0; turn < 3; ++turn) {
            switch ((i + turn) % 3) {
            case 0: {
                QElapsedTimer one;
                one.start();
                auto placed = store.place({n});
                auto v = store.check(*placed);
                if (!v)
                    die(v.error().toString());
                ours.push_back(double(one.nsecsElapsed()) / 1e3);
                ourCheckSecs += ours.back() / 1e6;
                break;
            }
            case 1:
                theirs.push_back(timedPrepared(ref.handle(), "check", "ref-" + n));
                refCheckSecs += theirs.back() / 1e6;
                break;
            default: {
                const char *value = reinterpret_cast<const char *>(&chunk);
                const int length = 4, format = 1;
                QElapsedTimer one;
                one.start();
                PQclear(PQexecPrepared(floor.handle(), "bare", 1, &value, &length, &format, 1));
                bare.push_back(double(one.nsecsElapsed()) / 1e3);
                bareSecs += bare.back() / 1e6;
            }
            }
        }
    }
    std::printf("check    core (libpq PQexecPrepared, binary, client placement, get_bit on one row): p50 %.0f us, "
                "p99 %.0f us, %.0f checks/s\n",
                percentile(ours, 0.5), percentile(ours, 0.99), checks / ourCheckSecs);
    std::printf("         reference check query (libpq, username_bits on the server): p50 %.0f us, p99 %.0f us, "
                "%.0f checks/s\n",
                percentile(theirs, 0.5), percentile(theirs, 0.99), checks / refCheckSecs);
    std::printf("         floor: bare primary-key read of one row, octet_length(bits) (libpq, binary): p50 %.0f us, "
                "p99 %.0f us\n",
                percentile(bare, 0.5), percentile(bare, 0.99));
    std::printf("         ratio: p50 %.2fx the floor, %.2fx faster than the reference; throughput %.2fx the "
                "reference\n\n",
                percentile(ours, 0.5) / percentile(bare, 0.5), percentile(theirs, 0.5) / percentile(ours, 0.5),
                refCheckSecs / ourCheckSecs);

    // Many names at once (bloomctl check -, the GUI's probes, the FPR sample): one array query per
    // 10,000 names, or the prepared check pipelined; against the reference statement pipelined.
    const int batch = 200000;
    QList<QByteArray> batchNames;
    for (int i = 0; i < batch; ++i)
        batchNames.append(i % 2 ? name(i) : "free-" + QByteArray::number(i));
    auto placedBatch = store.place(batchNames);
    if (!placedBatch)
        die(placedBatch.error().toString());
    t.restart();
    auto arrayVerdicts = store.checkArray(*placedBatch);
    const double arraySecs = seconds(t);
    t.restart();
    auto pipeVerdicts = store.checkPipelined(*placedBatch);
    const double pipeSecs = seconds(t);
    if (!arrayVerdicts || !pipeVerdicts || *arrayVerdicts != *pipeVerdicts)
        die(QStringLiteral("the batch checks disagree"));
    t.restart();
    bench::pipelinePrepared(ref.handle(), "check", batchNames, batch);
    const double refPipeSecs = seconds(t);
    std::printf("batch    %d names: core array query %.0f names/s, core pipelined %.0f names/s; reference statement "
                "pipelined %.0f names/s\n",
                batch, batch / arraySecs, batch / pipeSecs, batch / refPipeSecs);
    std::printf("         ratio: array %.2fx, pipelined %.2fx the reference pipelined\n\n", refPipeSecs / arraySecs,
                refPipeSecs / pipeSecs);

    // ---- fill vs estimate ----------------------------------------------------------------------
    std::vector<double> fills, estimates;
    for (int i = 0; i < 7; ++i) {
        t.restart();
        if (!store.fill())
            die(QStringLiteral("fill"));
        fills.push_back(seconds(t));
        t.restart();
        if (!store.referenceEstimate())
            die(QStringLiteral("estimate"));
        estimates.push_back(seconds(t));
    }
    const double fillMed = percentile(fills, 0.5), estMed = percentile(estimates, 0.5);
    std::printf("fill     per-chunk bit_count of 131,072 chunks: median %.0f ms of 7\n", fillMed * 1e3);
    std::printf("         reference estimate avg(power(bit_count(bits) / 8192.0, 7)): median %.0f ms of 7\n",
                estMed * 1e3);
    std::printf("         ratio: fill costs %.2fx the reference estimate\n", fillMed / estMed);
    return 0;
}
