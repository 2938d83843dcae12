#include "common/testhook.h"
#include "help/manualwindow.h"
#include "mainwindow.h"
#include "model/name.h"
#include "postgres/connectionspec.h"
#include "quitonsignals.h"
#include "redis/rediswindow.h"
#include "screenshot.h"
#include "step/stepthroughview.h"
#include "style/theme.h"
#include "style/translators.h"
#include "teach/lessonsview.h"
#include "teach/teachwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QHostAddress>
#include <QUrl>

#include <cstdio>
#include <vector>

namespace {

/** `--teach`: the reference's example plays out of the box, or a saved session opens. */
int runTeach(const QString &sessionFile, bool sessionGiven, const QString &view, bool present,
             const QString &screenshot, const QString &classJoin)
{
    if (view != QLatin1String("teach") && view != QLatin1String("compare") && view != QLatin1String("lessons")) {
        std::fprintf(stderr, "bloomscope: with --teach, --view takes teach, compare or lessons\n");
        return 2;
    }
    bloom::TeachWindow window;
    if (!screenshot.isEmpty() || view == QLatin1String("lessons"))
        window.setStepMs(0);
    if (sessionGiven) {
        QString error;
        if (!window.openSession(sessionFile, &error)) {
            std::fprintf(stderr, "bloomscope: %s\n",
                         qPrintable(error.isEmpty() ? QStringLiteral("no session file") : error));
            return 2;
        }
        std::printf("bloomscope: opened the session %s (%lld entries)\n", qPrintable(sessionFile),
                    static_cast<long long>(window.timelineSize()));
    } else {
        window.playReferenceExample();
    }
    if (view == QLatin1String("compare"))
        window.showCompare();
    if (view == QLatin1String("lessons")) {
        window.showLessons();
        window.lessonsView()->findFalsePositive();
    }
    if (!screenshot.isEmpty() && !present)
        window.resize(1280, 800); // the README's pictures have one size, whatever the screen
    window.show();
    if (present)
        window.setPresentation(true); // the whole screen
    if (!classJoin.isEmpty()) {       // for scripts and tests: the class's page at once, no approval
        const QUrl at(QStringLiteral("http://") + classJoin);
        if (!at.isValid() || at.host().isEmpty() || at.port() < 0) {
            std::fprintf(stderr, "bloomscope: --class-join takes HOST:PORT (PORT 0: a free one)\n");
            return 2;
        }
        auto url = window.startClassJoin(QHostAddress(at.host()), quint16(at.port()), false);
        if (!url) {
            std::fprintf(stderr, "bloomscope: %s\n", qPrintable(url.error().toString()));
            return 2;
        }
        std::printf("%s\n", qPrintable(url->toString()));
        std::fflush(stdout);
    }
    if (!screenshot.isEmpty())
        bloom::screenshot::after(window, screenshot, 500);
    return QApplication::exec();
}

/** `--redis URL` / `--redis-demo`: the reference's Redis bitmap filter. */
int runRedis(const QString &url, bool demo, const QString &key, const QString &bits, const QString &view,
             const QString &name, const QString &screenshot)
{
    bloom::RedisWindow window;
    if (!window.showView(view)) {
        std::fprintf(stderr, "bloomscope: with --redis, --view takes heatmap, fpr or step\n");
        return 2;
    }
    window.setStepName(name);
    if (demo) {
        window.startDemo(100000);
    } else {
        auto target = bloom::RedisTarget::parse(url);
        bool ok = false;
        const quint64 m = bits.toULongLong(&ok);
        if (!target || !ok || m < 8 || m > (quint64(1) << 32)) {
            std::fprintf(stderr, "bloomscope: %s\n",
                         target ? "--bits takes the filter's size in bits, from 8 to 4294967296"
                                : qPrintable(target.error().toString()));
            return 2;
        }
        window.open(*target, key.toUtf8(), m);
    }
    if (!screenshot.isEmpty())
        bloom::screenshot::whenReady(window, screenshot, view);
    window.show();
    return QApplication::exec();
}

} // namespace

int main(int argc, char **argv)
{
    // First: copy the arguments and overwrite every password in argv, so that ps and /proc/PID/cmdline
    // show none from here on; the options are parsed from the copy.
    const bloom::ProcessArguments arguments(argc, argv);
    bloom::pauseForTests("app-start");
    // A screenshot, --help and --version need no screen: without a display, use the offscreen platform.
    for (int i = 1; i < argc; ++i)
        for (const char *noScreen : {"--screenshot", "--help", "-h", "--help-all", "--version", "-v"})
            if (qstrcmp(argv[i], noScreen) == 0 && qEnvironmentVariableIsEmpty("DISPLAY") &&
                qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt's own -session (X11 session management) also takes "--session FILE" before our parser sees
    // it: take the teaching session out of argv first.
    QString sessionFile;
    bool sessionGiven = false;
    std::vector<char *> kept(argv, argv + argc);
    for (size_t i = 1; i < kept.size();) {
        const QByteArray a(kept[i]);
        if (a == "--session" && i + 1 < kept.size()) { // "-session ID" stays Qt's (session restore)
            sessionFile = QString::fromLocal8Bit(kept[i + 1]);
            sessionGiven = true;
            kept.erase(kept.begin() + qsizetype(i), kept.begin() + qsizetype(i) + 2);
        } else if (a.startsWith("--session=")) {
            sessionFile = QString::fromLocal8Bit(a.mid(10));
            sessionGiven = true;
            kept.erase(kept.begin() + qsizetype(i));
        } else
            ++i;
    }
    argc = int(kept.size());
    kept.push_back(nullptr);
    argv = kept.data();
    QApplication app(argc, argv);
    bloom::quitOnSignals(); // SIGTERM/SIGINT/SIGHUP: quit normally, so the demo's server stops with us
    QApplication::setApplicationName(QStringLiteral("Bloomscope"));
    QApplication::setOrganizationName(QStringLiteral("Bloomscope"));
    QApplication::setApplicationVersion(QStringLiteral(BLOOMSCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.bloomscope.Bloomscope"));
    QApplication::setWindowIcon(bloom::theme::appIcon()); // every window's, _NET_WM_ICON on X11
    bloom::translators::install();                        // the system's language (LANGUAGE, LANG, ...)

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Visualiser and admin tool for blocked Bloom filters in PostgreSQL"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Connect to this libpq connection string or URI."),
                                QStringLiteral("conninfo"));
    const QCommandLineOption table(QStringLiteral("table"), QStringLiteral("Filter table."), QStringLiteral("table"),
                                   QStringLiteral("username_filter"));
    const QCommandLineOption function(QStringLiteral("function"), QStringLiteral("Placement function."),
                                      QStringLiteral("function"), QStringLiteral("username_bits"));
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Start a private demo database and open it."));
    const QCommandLineOption demoNames(QStringLiteral("demo-names"), QStringLiteral("Names loaded into the demo."),
                                       QStringLiteral("n"), QStringLiteral("2000000"));
    const QCommandLineOption demoTraffic(
        QStringLiteral("demo-traffic"),
        QStringLiteral("With --demo: names a second that keep arriving through the reference's add, with snapshots "
                       "recorded every 2 s on an accelerated clock (--demo-clock)."),
        QStringLiteral("rate"), QStringLiteral("0"));
    const QCommandLineOption demoClock(
        QStringLiteral("demo-clock"),
        QStringLiteral("With --demo-traffic: simulated seconds a real second for the snapshots (3600: an hour a "
                       "second)."),
        QStringLiteral("factor"), QStringLiteral("3600"));
    const QCommandLineOption shards(
        QStringLiteral("shards"),
        QStringLiteral("The shard map file for the Shards view; with --demo, the number of shard databases to make."),
        QStringLiteral("map|n"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"), QStringLiteral("Render the window to a PNG file once the data is in, and exit."),
        QStringLiteral("file"));
    const QCommandLineOption screenshotDelay(
        QStringLiteral("screenshot-delay"),
        QStringLiteral("Seconds to wait after the data is in before --screenshot grabs (a living demo's history)."),
        QStringLiteral("s"), QStringLiteral("0"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("heatmap, fpr, step, chunk, shards or manual."),
                                  QStringLiteral("view"), QStringLiteral("heatmap"));
    const QCommandLineOption name(QStringLiteral("name"), QStringLiteral("Name for the step-through."),
                                  QStringLiteral("name"), QStringLiteral("ada"));
    const QCommandLineOption chunk(QStringLiteral("chunk"), QStringLiteral("Chunk for the chunk view."),
                                   QStringLiteral("n"), QStringLiteral("71962"));
    const QCommandLineOption teach(
        QStringLiteral("teach"),
        QStringLiteral("Teaching mode: an in-memory filter, no database (--view teach|compare|lessons)."));
    const QCommandLineOption present(
        QStringLiteral("present"),
        QStringLiteral("With --teach: presentation mode (F11), larger type, the whole screen."));
    const QCommandLineOption session(QStringLiteral("session"), QStringLiteral("A teaching session file to open."),
                                     QStringLiteral("file"));
    const QCommandLineOption classJoin(
        QStringLiteral("class-join"),
        QStringLiteral("With --teach: open the class's page (Teaching > Let the class join) on HOST:PORT, names "
                       "taken without approval, and print its address."),
        QStringLiteral("host:port"));
    const QCommandLineOption redis(QStringLiteral("redis"),
                                   QStringLiteral("Open the Redis bitmap filter at this URL (redis://host:port/db)."),
                                   QStringLiteral("url"));
    const QCommandLineOption redisDemo(QStringLiteral("redis-demo"),
                                       QStringLiteral("Start a private redis-server with a demo Redis filter."));
    const QCommandLineOption key(QStringLiteral("key"), QStringLiteral("The Redis filter's key."),
                                 QStringLiteral("key"), QStringLiteral("username_bloom_filter_key"));
    const QCommandLineOption bits(QStringLiteral("bits"), QStringLiteral("The Redis filter's size in bits."),
                                  QStringLiteral("m"), QStringLiteral("10000000"));
    const QCommandLineOption palette(QStringLiteral("palette"),
                                     QStringLiteral("light, dark, or system (the default: the desktop's)."),
                                     QStringLiteral("palette"), QStringLiteral("system"));
    parser.addOptions({db,       table,      function,        demo, demoNames, demoTraffic, demoClock,
                       shards,   screenshot, screenshotDelay, view, name,      chunk,       teach,
                       session,  redis,      redisDemo,       key,  bits,      palette,     present,
                       classJoin});
    // The arguments Qt left (it takes out its own, -platform and the like), as they were given.
    const QList<QByteArray> given = arguments.remaining(argc, argv);
    QStringList args{QApplication::applicationFilePath()};
    for (const QByteArray &a : given)
        args << QString::fromLocal8Bit(a);
    parser.process(args);
    if (!bloom::theme::applyPalette(parser.value(palette))) {
        std::fprintf(stderr, "bloomscope: --palette takes light, dark or system\n");
        return 2;
    }
    // The step-through's name follows the one name rule, on its bytes (as bloomctl's names do).
    for (qsizetype i = 0; i < given.size(); ++i) {
        const bool inlineValue = given[i].startsWith("--name=");
        if (given[i] != "--name" && !inlineValue)
            continue;
        const QByteArray value = inlineValue ? given[i].mid(7) : given.value(i + 1);
        if (auto s = bloom::validateName(value); !s) {
            std::fprintf(stderr, "bloomscope: --name: %s\n", qPrintable(s.error().message));
            return 5;
        }
    }

    if (parser.isSet(redis) || parser.isSet(redisDemo))
        return runRedis(parser.value(redis), parser.isSet(redisDemo), parser.value(key), parser.value(bits),
                        parser.value(view), parser.value(name),
                        parser.isSet(screenshot) ? parser.value(screenshot) : QString());

    if (parser.isSet(teach) || sessionGiven || parser.isSet(present) || parser.isSet(classJoin))
        return runTeach(sessionGiven ? sessionFile : QString(), sessionGiven,
                        parser.isSet(view) ? parser.value(view) : QStringLiteral("teach"), parser.isSet(present),
                        parser.isSet(screenshot) ? parser.value(screenshot) : QString(), parser.value(classJoin));

    bloom::MainWindow window;
    if (parser.value(view) == QLatin1String("manual")) { // Help > Contents, on its own
        window.showManual();
        if (parser.isSet(screenshot))
            bloom::screenshot::after(*window.manualWindow(), parser.value(screenshot), 300);
        return app.exec();
    }
    if (!window.showView(parser.value(view))) {
        std::fprintf(stderr, "bloomscope: --view takes heatmap, fpr, step, chunk, shards or manual\n");
        return 2;
    }
    window.stepView()->setName(parser.value(name));
    if (parser.isSet(db)) {
        auto spec = bloom::ConnectionSpec::parse(parser.value(db));
        if (!spec) {
            std::fprintf(stderr, "bloomscope: %s\n", qPrintable(spec.error().toString()));
            return 3;
        }
        if (parser.isSet(shards) && !window.setShardMap(parser.value(shards))) {
            std::fprintf(stderr, "bloomscope: --shards %s is not a usable shard map (docs/bloomctl.md 'Shards')\n",
                         qPrintable(parser.value(shards)));
            return 2;
        }
        window.connectTo(*spec, bloom::FilterRef{parser.value(table), parser.value(function)});
    } else if (parser.isSet(demo)) {
        int shardCount = 0;
        if (parser.isSet(shards)) {
            bool ok = false;
            shardCount = parser.value(shards).toInt(&ok);
            if (!ok || shardCount < 1 || shardCount > 256) {
                std::fprintf(stderr, "bloomscope: with --demo, --shards takes a number of shards, 1..256\n");
                return 2;
            }
        }
        // With shards every name is also a user row: a smaller default keeps the start quick.
        bool namesOk = true, rateOk = true, clockOk = true;
        const qint64 names =
            parser.isSet(demoNames) || shardCount == 0 ? parser.value(demoNames).toLongLong(&namesOk) : 200'000;
        const double rate = parser.value(demoTraffic).toDouble(&rateOk);
        const double clock = parser.value(demoClock).toDouble(&clockOk);
        if (!namesOk || names < 0 || names > 4'000'000'000LL) {
            std::fprintf(stderr, "bloomscope: --demo-names takes a number of names, 0..4000000000\n");
            return 2;
        }
        if (!rateOk || rate < 0 || rate > 100000 || !clockOk || clock < 1 || clock > 1e7) {
            std::fprintf(stderr, "bloomscope: --demo-traffic takes names a second (0..100000), --demo-clock a factor "
                                 "(1..10000000)\n");
            return 2;
        }
        window.startDemo(names, shardCount, rate, clock);
    }

    if (parser.isSet(screenshot)) {
        bloom::screenshot::Plan plan;
        plan.file = parser.value(screenshot);
        plan.view = parser.value(view);
        plan.name = parser.value(name);
        plan.chunk = parser.value(chunk).toUInt();
        plan.delayMs = 400 + qBound(0, parser.value(screenshotDelay).toInt(), 3600) * 1000;
        plan.connecting = parser.isSet(db) || parser.isSet(demo);
        bloom::screenshot::whenReady(window, plan);
    }
    window.show();
    return app.exec();
}
