// What the demo database costs to make at 2M, 20M and the reference's 100M names: wall time and peak
// resident memory of each way, every run in a child process of its own (so its peak is its own):
//   bitmap  what startDemo does now: names made, placed on every core into one bit array, one COPY
//   names   the way before it: every name held in memory, joined into one file and bulk-loaded
//           (FilterStore::load); skipped above 20M (about 2.4 GiB at 20M)
//   window  `bloomscope --demo --demo-names N --screenshot`: the whole start until the first picture
//   cmake --build build --target bench_demo bloomscope && build/tests/bench/bench_demo [N...]
#include "local/demo.h"
#include "local/localcluster.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filtersql.h"
#include "postgres/filterstore.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>

extern char **environ;

using namespace bloom;

namespace {

/** One way in this process: 0 on success. */
int runOne(const QString &way, qint64 names)
{
    LocalCluster cluster;
    if (way == QLatin1String("bitmap")) {
        DemoTimings t;
        auto r = startDemo(cluster, names, {}, nullptr, &t);
        if (!r)
            std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
        else
            std::printf("%12s  stages: server %.2f s, hash %.2f s (%.1f M names/s), copy %.2f s, analyze %.2f s\n", "",
                        t.serverSeconds, t.hashSeconds, double(names) / 1e6 / qMax(1e-9, t.hashSeconds), t.copySeconds,
                        t.analyzeSeconds);
        std::fflush(stdout);
        return r ? 0 : 1;
    }
    // The way before: startDemo of the previous version, step by step.
    if (auto s = cluster.start(); !s)
        return 1;
    (void)cluster.createDatabase(QStringLiteral("bloomscope_demo"));
    (void)cluster.exec(QStringLiteral("bloomscope_demo"), sqlResource(QStringLiteral("reference.sql")));
    auto db = Database::open(*ConnectionSpec::parse(cluster.connectionString(QStringLiteral("bloomscope_demo"))));
    if (!db)
        return 1;
    FilterStore store(**db, FilterRef{});
    if (!store.attach())
        return 1;
    QByteArray file = demoNames(names).join('\n');
    QBuffer in(&file);
    in.open(QIODevice::ReadOnly);
    if (!store.load(&in))
        return 1;
    (void)(*db)->exec(QStringLiteral("vacuum analyze username_filter"));
    return 0;
}

struct Run {
    double seconds = -1;
    double peakMiB = 0;
};

/** Runs argv as a child and returns its wall time and peak RSS (wait4's rusage is the child's own). */
Run spawnTimed(const QList<QByteArray> &args)
{
    std::vector<char *> argv;
    for (const QByteArray &a : args)
        argv.push_back(const_cast<char *>(a.constData()));
    argv.push_back(nullptr);
    QElapsedTimer t;
    t.start();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
        return {};
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return {};
    return {double(t.nsecsElapsed()) / 1e9, double(usage.ru_maxrss) / 1024.0};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc == 4 && qstrcmp(argv[1], "--one") == 0)
        return runOne(QString::fromLatin1(argv[2]), QByteArray(argv[3]).toLongLong());
    QList<qint64> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.append(QByteArray(argv[i]).toLongLong());
    if (sizes.isEmpty())
        sizes = {2'000'000, 20'000'000, 100'000'000};
    const QByteArray self = QCoreApplication::applicationFilePath().toUtf8();
    QTemporaryDir shots;
    const QByteArray shot = (shots.path() + QStringLiteral("/demo.png")).toUtf8();
    qputenv("QT_QPA_PLATFORM", "offscreen");
    std::printf("the demo database, each run a child process of its own (%d cores)\n\n",
                int(std::thread::hardware_concurrency()));
    std::printf("%12s  %-7s %10s %12s %18s\n", "names", "way", "seconds", "peak MiB", "vs the way before");
    for (qint64 n : sizes) {
        const QByteArray count = QByteArray::number(n);
        const Run bitmap = spawnTimed({self, "--one", "bitmap", count});
        const Run names = n <= 20'000'000 ? spawnTimed({self, "--one", "names", count}) : Run{};
        const Run window = spawnTimed({BLOOMSCOPE_PATH, "--demo", "--demo-names", count, "--screenshot", shot});
        const auto row = [&](const char *way, const Run &r) {
            if (r.seconds < 0) {
                std::printf("%12lld  %-7s %10s %12s\n", n, way, way == QByteArrayView("names") ? "skipped" : "failed",
                            "");
                return;
            }
            QString ratio;
            if (names.seconds > 0 && &r != &names)
                ratio = QStringLiteral("%1x faster, %2x less memory")
                            .arg(names.seconds / r.seconds, 0, 'f', 1)
                            .arg(names.peakMiB / r.peakMiB, 0, 'f', 1);
            std::printf("%12lld  %-7s %10.2f %12.0f   %s\n", n, way, r.seconds, r.peakMiB, qPrintable(ratio));
        };
        row("bitmap", bitmap);
        row("names", names);
        row("window", window);
        std::fflush(stdout);
    }
    std::printf("\nwindow: bloomscope --demo until its first picture (a screenshot of the heatmap), targets 30 s "
                "and 400 MiB at 100M\n");
    return 0;
}
