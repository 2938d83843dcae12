// Batch questions against the per-name paths and the reference SQL, side by side on one private server,
// in one run (issue 38):
//   `bloomctl check -` of 2,000,000 names (half added) from memory vs today's pipelined path (the same
//   binary with BLOOMSCOPE_BATCH_CROSSOVER past the input) vs the reference statement pipelined;
//   `bloomctl fpr --sample 10000000`; the peak RSS of each against the filter's 128 MiB; the crossover.
//
//   build/tests/bench/bench_batch [CHECK_NAMES] [SAMPLE]
#include "benchpipeline.h"
#include "local/localcluster.h"
#include "postgres/batchcheck.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filtersql.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>

#include <libpq-fe.h>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace bloom;

namespace {

[[noreturn]] void die(const QString &why)
{
    std::fprintf(stderr, "bench_batch: %s\n", qPrintable(why));
    std::exit(1);
}

QByteArray added(qint64 i)
{
    return "bench-user-" + QByteArray::number(i * 2654435761 % 1000000007);
}

double seconds(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e9;
}

struct Run {
    double seconds = 0;
    double peakMiB = 0;
    int code = -1;
};

/** Runs bloomctl with `args`, stdin from `in`, stdout to `out`, `env` added; wall time and peak RSS. */
Run spawnTimed(const QList<QByteArray> &args, const QString &in, const QString &out, const QList<QByteArray> &env)
{
    std::vector<char *> argv{const_cast<char *>(BLOOMCTL_PATH)};
    for (const QByteArray &a : args)
        argv.push_back(const_cast<char *>(a.constData()));
    argv.push_back(nullptr);
    std::vector<char *> envp;
    for (char **e = environ; *e; ++e)
        envp.push_back(*e);
    for (const QByteArray &e : env)
        envp.push_back(const_cast<char *>(e.constData()));
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const QByteArray inPath = in.isEmpty() ? QByteArray("/dev/null") : in.toLocal8Bit();
    const QByteArray outPath = out.isEmpty() ? QByteArray("/dev/null") : out.toLocal8Bit();
    posix_spawn_file_actions_addopen(&fa, 0, inPath.constData(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, outPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QElapsedTimer t;
    t.start();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()) != 0)
        die(QStringLiteral("cannot start bloomctl"));
    posix_spawn_file_actions_destroy(&fa);
    // The peak is the child's VmHWM, read every 2 ms until it ends: wait4's ru_maxrss would report this
    // process's size (Linux keeps the larger of the spawning process's RSS and the child's across exec).
    int status = 0;
    qint64 peakKiB = 0;
    QFile proc(QStringLiteral("/proc/%1/status").arg(pid));
    for (;;) {
        if (proc.open(QIODevice::ReadOnly)) {
            const QByteArray s = proc.readAll();
            proc.close();
            const qsizetype at = s.indexOf("VmHWM:");
            if (at >= 0)
                peakKiB = qMax(peakKiB,
                               s.mid(at + 6, s.indexOf('\n', at) - at - 6).trimmed().split(' ').first().toLongLong());
        }
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (done < 0)
            die(QStringLiteral("waitpid"));
        usleep(2000);
    }
    Run r;
    r.seconds = seconds(t);
    r.peakMiB = double(peakKiB) / 1024.0;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 checkNames = argc > 1 ? QByteArray(argv[1]).toLongLong() : 2'000'000;
    const qint64 sample = argc > 2 ? QByteArray(argv[2]).toLongLong() : 10'000'000;

    LocalCluster cluster;
    if (auto s = cluster.start(); !s)
        die(s.error().toString());
    if (!cluster.createDatabase(QStringLiteral("ours")) ||
        !cluster.exec(QStringLiteral("ours"), sqlResource(QStringLiteral("reference.sql"))))
        die(QStringLiteral("reference.sql"));
    const QString conninfo = cluster.connectionString(QStringLiteral("ours"));
    auto db = Database::open(*ConnectionSpec::parse(conninfo));
    if (!db)
        die(db.error().toString());
    FilterStore store(**db, FilterRef{});
    if (auto s = store.attach(); !s)
        die(s.error().toString());
    // Half of the names checked were added: load them first.
    QByteArray addedFile;
    for (qint64 i = 0; i < checkNames / 2; ++i)
        addedFile += added(i) + '\n';
    {
        QBuffer in(&addedFile);
        in.open(QIODevice::ReadOnly);
        if (auto r = store.load(&in); !r)
            die(r.error().toString());
    }
    (void)cluster.exec(QStringLiteral("ours"), QStringLiteral("vacuum (analyze, freeze) username_filter"));
    (void)cluster.exec(QStringLiteral("postgres"), QStringLiteral("checkpoint"));
    const double filterMiB = double(store.geometry().totalBytes()) / (1 << 20);
    std::printf("server: PostgreSQL on a private LocalCluster (loopback, fsync off); %lld names loaded into the "
                "reference filter (%.0f MiB)\n\n",
                qlonglong(checkNames / 2), filterMiB);

    // The names checked: added and never added, interleaved, in mixed case.
    const QString dir = QDir::temp().filePath(QStringLiteral("bench_batch_%1").arg(getpid()));
    QDir().mkpath(dir);
    const QString input = dir + QStringLiteral("/names.txt");
    QList<QByteArray> names;
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly))
            die(QStringLiteral("cannot write %1").arg(input));
        QByteArray all;
        for (qint64 i = 0; i < checkNames; ++i) {
            QByteArray n = i % 2 ? added(i / 2) : "Free-Name-" + QByteArray::number(i);
            if (i % 4 == 1)
                n = n.toUpper();
            all += n + '\n';
            names.append(n);
        }
        f.write(all);
    }
    const QByteArray db1 = conninfo.toUtf8();

    // ---- check - --------------------------------------------------------------------------------
    const QString outMemory = dir + QStringLiteral("/memory.out"), outPipelined = dir + QStringLiteral("/pipe.out");
    const Run memory = spawnTimed({"--db", db1, "check", "-"}, input, outMemory, {});
    // BLOOMSCOPE_BENCH_ONLY_MEMORY=1: the memory path alone (for perf), the others reuse its figures.
    const bool onlyMemory = qEnvironmentVariableIsSet("BLOOMSCOPE_BENCH_ONLY_MEMORY");
    const Run pipelined = onlyMemory ? memory
                                     : spawnTimed({"--db", db1, "check", "-"}, input, outPipelined,
                                                  {"BLOOMSCOPE_BATCH_CROSSOVER=1000000000000"});
    if (onlyMemory)
        QFile::copy(outMemory, outPipelined);
    if (memory.code != 0 || pipelined.code != 0)
        die(QStringLiteral("check - exited %1 and %2").arg(memory.code).arg(pipelined.code));
    QFile a(outMemory), b(outPipelined);
    a.open(QIODevice::ReadOnly);
    b.open(QIODevice::ReadOnly);
    const QByteArray answersMemory = a.readAll(), answersPipelined = b.readAll();
    const bool same = answersMemory == answersPipelined;
    const qint64 maybes = answersMemory.count("\tmaybe\n");

    // The reference statement, pipelined (a sync every 1,000), on the same names and table.
    PgConn ref(conninfo);
    PQclear(PQprepare(ref.handle(), "check",
                      "select bits & mask = mask as maybe_taken from username_filter join username_bits($1) "
                      "using (chunk)",
                      1, nullptr));
    QElapsedTimer t;
    t.start();
    bench::pipelinePrepared(ref.handle(), "check", names, onlyMemory ? 0 : checkNames);
    const double refSecs = seconds(t);
    names.clear();
    names.squeeze();

    const double n = double(checkNames);
    std::printf("check -  %lld names (half added, a quarter upper-cased), bloomctl end to end, stdin to a file:\n",
                qlonglong(checkNames));
    std::printf("         from memory (the filter read once): %.2f s, %.0f names/s, peak RSS %.0f MiB (%.2fx the "
                "filter)\n",
                memory.seconds, n / memory.seconds, memory.peakMiB, memory.peakMiB / filterMiB);
    std::printf("         today's pipelined path: %.2f s, %.0f names/s, peak RSS %.0f MiB\n", pipelined.seconds,
                n / pipelined.seconds, pipelined.peakMiB);
    std::printf("         reference statement pipelined (libpq, in process): %.2f s, %.0f names/s\n", refSecs,
                n / refSecs);
    std::printf("         answers identical on every name: %s (%lld maybe of %lld)\n", same ? "yes" : "NO",
                qlonglong(maybes), qlonglong(checkNames));
    std::printf("         ratio: %.1fx today's pipelined path, %.1fx the reference pipelined (goals 15x, 30x; "
                "1,000,000 names/s; RSS 1.5x)\n\n",
                pipelined.seconds / memory.seconds, refSecs / memory.seconds);

    // ---- fpr --sample ---------------------------------------------------------------------------
    const QByteArray probes = QByteArray::number(sample);
    const Run fpr = spawnTimed({"--db", db1, "fpr", "--sample", probes}, {}, dir + QStringLiteral("/fpr.out"), {});
    if (fpr.code != 0)
        die(QStringLiteral("fpr --sample exited %1").arg(fpr.code));
    QFile fo(dir + QStringLiteral("/fpr.out"));
    fo.open(QIODevice::ReadOnly);
    std::printf("fpr      --sample %lld: %.2f s, peak RSS %.0f MiB (%.2fx the filter; goals 5 s, 1.5x)\n%s\n",
                qlonglong(sample), fpr.seconds, fpr.peakMiB, fpr.peakMiB / filterMiB, fo.readAll().constData());

    // ---- the crossover --------------------------------------------------------------------------
    // Where one read of the whole filter costs what the pipelined check of that many names costs.
    std::vector<double> reads;
    for (int i = 0; i < 3; ++i) {
        BatchCheck batch(store);
        t.restart();
        if (auto s = batch.read(); !s)
            die(s.error().toString());
        reads.push_back(seconds(t));
    }
    std::sort(reads.begin(), reads.end());
    const double perNameRate = n / pipelined.seconds;
    std::printf("crossover: the whole filter read by binary COPY in %.2f s (median of 3; %.0f MB/s); today's "
                "path answers %.0f names/s, so the read pays off past %.0f names; BatchCheck uses %lld\n",
                reads[1], double(store.geometry().totalBytes()) / reads[1] / 1e6, perNameRate, reads[1] * perNameRate,
                qlonglong(BatchCheck::crossover(store.geometry())));
    QDir(dir).removeRecursively();
    return same ? 0 : 1;
}
