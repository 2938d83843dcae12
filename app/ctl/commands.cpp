#include "commands.h"
#include "commandline.h"
#include "context.h"

#include "model/name.h"
#include "model/namereader.h"
#include "postgres/connectionspec.h"
#include "postgres/identifier.h"
#include "stdindevice.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>
#include <signal.h>
#include <unistd.h>

namespace bloom::cli {

namespace {

void onInterrupt(int)
{
    Context::interrupted().store(true);
    Database::cancelFromSignal();
    ::signal(SIGINT, SIG_DFL); // a second Ctrl-C ends the process at once
}

} // namespace

std::atomic<bool> &Context::interrupted()
{
    static std::atomic<bool> flag{false};
    return flag;
}

// The codes core assigns to error kinds are the ones documented here.
static_assert(exitCodeFor(ErrorKind::Usage) == ExitUsage && exitCodeFor(ErrorKind::Connection) == ExitConnection &&
              exitCodeFor(ErrorKind::MissingFilter) == ExitFilter && exitCodeFor(ErrorKind::BadInput) == ExitBadInput &&
              exitCodeFor(ErrorKind::Refused) == ExitRefused && exitCodeFor(ErrorKind::Cancelled) == ExitCancelled &&
              exitCodeFor(ErrorKind::Server) == ExitFailure && exitCodeFor(ErrorKind::DamagedFilter) == ExitDamaged);

Context::Context(Args args)
    : mArgs(std::move(args))
    , mOutDevice(STDOUT_FILENO, mArgs.flag("json") ? SafeOutput::Mode::Json : SafeOutput::Mode::Text)
    , mErrDevice(STDERR_FILENO, mArgs.flag("json") ? SafeOutput::Mode::Json : SafeOutput::Mode::Text)
    , mOut(&mOutDevice)
    , mErr(&mErrDevice)
{
}

void Context::progress(const QString &line)
{
    if (json())
        return; // a terminal's progress line is not JSON
    mErr.flush();
    mErrDevice.writeRaw("\r");
    mErr << line;
    mErr.flush();
}

int Context::fail(const Error &e)
{
    mOut.flush();
    const int code = exitCodeFor(e.kind);
    if (json()) {
        QJsonObject o{{QStringLiteral("code"), code},
                      {QStringLiteral("kind"), errorKindName(e.kind)},
                      {QStringLiteral("message"), e.message}};
        if (!e.fix.isEmpty())
            o.insert(QStringLiteral("fix"), e.fix);
        mErr << QJsonDocument(QJsonObject{{QStringLiteral("error"), o}}).toJson(QJsonDocument::Compact) << "\n";
    } else {
        mErr << "bloomctl: " << e.toString() << "\n";
    }
    mErr.flush();
    return code;
}

void Context::warnIfDamaged()
{
    if (!mStore || mStore->damage().empty())
        return;
    const Error e = mStore->damageError(mStore->damage());
    if (json()) {
        QJsonObject o{{QStringLiteral("kind"), errorKindName(e.kind)},
                      {QStringLiteral("message"), e.message},
                      {QStringLiteral("fix"), e.fix}};
        mErr << QJsonDocument(QJsonObject{{QStringLiteral("warning"), o}}).toJson(QJsonDocument::Compact) << "\n";
    } else {
        mErr << "bloomctl: warning: " << e.toString() << "\n";
    }
    mErr.flush();
}

bool Context::confirm(const QString &what)
{
    if (mArgs.flag("yes"))
        return true;
    if (::isatty(STDIN_FILENO) != 1) {
        if (json())
            errJson({{QStringLiteral("error"),
                      QJsonObject{
                          {QStringLiteral("code"), int(ExitUsage)},
                          {QStringLiteral("kind"), errorKindName(ErrorKind::Usage)},
                          {QStringLiteral("message"), what + QStringLiteral(" Not confirmed.")},
                          {QStringLiteral("fix"), QStringLiteral("add --yes (standard input is not a terminal)")}}}});
        else
            mErr << "bloomctl: " << what << "\nbloomctl: not confirmed: add --yes (standard input is not a terminal)\n";
        mErr.flush();
        return false;
    }
    mErr << what << "\nType yes to go on: ";
    mErr.flush();
    char answer[16] = {};
    if (!fgets(answer, sizeof answer, stdin))
        return false;
    return qstrncmp(answer, "yes", 3) == 0;
}

Result<qint64> wholeOption(const Args &a, const char *name, qint64 fallback, qint64 min, qint64 max)
{
    if (!a.has(name))
        return fallback;
    bool ok = false;
    const QString text = a.option(name);
    const qint64 v = text.trimmed().toLongLong(&ok);
    if (!ok || v < min || v > max)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("--%1 takes a whole number from %2 to %3, not '%4'")
                             .arg(QLatin1String(name), QString::number(min), QString::number(max), text));
    return v;
}

Result<double> numberOption(const Args &a, const char *name, double fallback, double min, double max)
{
    if (!a.has(name))
        return fallback;
    bool ok = false;
    const QString text = a.option(name);
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !(v >= min) || !(v <= max)) // NaN fails both
        return makeError(ErrorKind::Usage, QStringLiteral("--%1 takes a number from %2 to %3, not '%4'")
                                               .arg(QLatin1String(name), QString::number(min, 'g', 15),
                                                    QString::number(max, 'g', 15), text));
    return v;
}

std::optional<double> ratioText(const QString &text)
{
    QString t = text.trimmed();
    double scale = 1;
    if (t.endsWith(QLatin1Char('%'))) {
        t.chop(1);
        scale = 0.01;
    }
    bool ok = false;
    const double v = t.toDouble(&ok) * scale;
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<double> rateOption(const Args &a, const char *name, std::optional<double> fallback)
{
    if (!a.has(name))
        return fallback;
    const auto v = ratioText(a.option(name));
    if (!v || !(*v > 0) || !(*v < 1))
        return std::nullopt;
    return v;
}

Result<FilterReading> readFilter(Context &c)
{
    FilterReading r;
    auto store = c.store();
    if (!store)
        return store.error();
    r.store = *store;
    auto fill = r.store->fill();
    if (!fill)
        return fill.error();
    r.fill = std::move(fill).value();
    auto health = r.store->health();
    if (!health)
        return health.error();
    r.health = *health;
    auto rebuild = Rebuilder::state(**c.database(), r.store->ref());
    if (!rebuild)
        return rebuild.error();
    r.rebuild = *rebuild;
    auto role = (*c.database())->readRole();
    if (!role)
        return role.error();
    r.role = *role;
    return r;
}

int Context::usage(const QString &message, const QString &hint)
{
    const QString h = !hint.isEmpty() ? hint
                      : mArgs.command.isEmpty() || !findCommand(mArgs.command)
                          ? QStringLiteral("Try 'bloomctl --help'.")
                          : QStringLiteral("Try 'bloomctl help %1'.").arg(mArgs.command);
    if (json())
        return fail(makeError(ErrorKind::Usage, message, h));
    mErr << "bloomctl: " << message << "\n" << h << "\n";
    mErr.flush();
    return ExitUsage;
}

void Context::errJson(const QJsonObject &o)
{
    mErr << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
    mErr.flush();
}

void Context::warn(const QString &text)
{
    if (json())
        errJson({{QStringLiteral("warning"), QJsonObject{{QStringLiteral("message"), text}}}});
    else
        mErr << "bloomctl: warning: " << text << "\n";
}

void Context::note(const QString &text, const QString &prefix)
{
    if (json())
        errJson({{QStringLiteral("note"), QJsonObject{{QStringLiteral("message"), text.trimmed()}}}});
    else
        mErr << prefix << text << (text.endsWith(QLatin1Char('\n')) ? "" : "\n");
}

void Context::reject(const QJsonObject &detail, const QString &text)
{
    if (json())
        errJson({{QStringLiteral("rejected"), detail}});
    else
        mErr << "bloomctl: " << text << "\n";
}

Result<Database *> Context::database()
{
    if (mDb)
        return mDb.get();
    auto spec = ConnectionSpec::parse(mArgs.option("db"));
    if (!spec)
        return spec.error();
    auto db = Database::open(*spec);
    if (!db)
        return db.error();
    mDb = std::move(db).value();
    mDb->setSignalTarget();
    return mDb.get();
}

Result<Database *> Context::writableDatabase(const QString &what)
{
    auto db = database();
    if (!db)
        return db;
    if (auto s = (*db)->requirePrimary(what); !s)
        return s.error();
    return db;
}

Result<FilterStore *> Context::store()
{
    if (mStore)
        return mStore.get();
    auto db = database();
    if (!db)
        return db.error();
    FilterRef ref;
    ref.table = mArgs.option("table", ref.table);
    ref.function = mArgs.option("function", ref.function);
    auto store = std::make_unique<FilterStore>(**db, ref);
    store->setCancelFlag(&interrupted());
    if (auto s = store->attach(); !s)
        return s.error();
    mStore = std::move(store);
    return mStore.get();
}

QList<QByteArray> Context::names(int firstIndex, bool *hadBad)
{
    QList<QByteArray> out;
    *hadBad = false;
    const QStringList words = mArgs.positional.mid(firstIndex);
    if (words == QStringList{QStringLiteral("-")}) {
        StdinDevice in;
        NameReader reader(&in);
        while (reader.next(1 << 20, out)) {
        }
        reportBadLines(QStringLiteral("stdin"), reader.badLines(), reader.badLineCount());
        *hadBad = reader.badLineCount() > 0;
        return out;
    }
    for (int i = 0; i < words.size(); ++i) {
        // The bytes the command line gave, checked as stdin's are (QCoreApplication's decoding would have
        // turned invalid UTF-8 into U+FFFD).
        const QByteArray utf8 = mArgs.positionalBytes.value(firstIndex + i, words[i].toUtf8());
        if (auto s = validateName(utf8); !s) {
            reject({{QStringLiteral("argument"), i + 1}, {QStringLiteral("message"), s.error().message}},
                   QStringLiteral("argument %1: %2 (skipped)").arg(QString::number(i + 1), s.error().message));
            *hadBad = true;
            continue;
        }
        out.append(utf8);
    }
    return out;
}

Result<QByteArray> Context::nameArgument(int index) const
{
    const QByteArray utf8 = mArgs.positionalBytes.value(index);
    if (auto s = validateName(utf8); !s)
        return s.error();
    return utf8;
}

void Context::reportBadLines(const QString &where, const QList<BadLine> &kept, qint64 count)
{
    for (const BadLine &b : kept)
        reject(
            {{QStringLiteral("input"), where}, {QStringLiteral("line"), b.line}, {QStringLiteral("message"), b.reason}},
            QStringLiteral("%1 line %2: %3 (skipped)").arg(where, QString::number(b.line), b.reason));
    if (count > kept.size()) {
        const qint64 last = kept.isEmpty() ? 0 : kept.last().line;
        reject({{QStringLiteral("input"), where},
                {QStringLiteral("more_after_line"), last},
                {QStringLiteral("more"), count - kept.size()},
                {QStringLiteral("count"), count}},
               QStringLiteral("%1: %2 more bad line(s) after line %3, not listed (%4 in all)")
                   .arg(where, QString::number(count - kept.size()), QString::number(last), QString::number(count)));
    }
}

Result<Context::CheckedNames> Context::checkedNames()
{
    auto placed = placedNames();
    if (!placed)
        return placed.error();
    auto verdicts = mStore->check(placed->placements); // placedNames() attached the store
    if (!verdicts)
        return verdicts.error();
    CheckedNames checked;
    static_cast<PlacedNames &>(checked) = std::move(placed).value();
    checked.verdicts = std::move(verdicts).value();
    return checked;
}

Result<Context::PlacedNames> Context::placedNames()
{
    auto s = store();
    if (!s)
        return s.error();
    PlacedNames out;
    out.names = names(1, &out.hadBad);
    auto placed = (*s)->place(out.names);
    if (!placed)
        return placed.error();
    out.placements = std::move(placed).value();
    return out;
}

int run(const QList<QByteArray> &argv)
{
    Args a = parseArgs(argv);
    Context c(a);
    const bool health = a.command == QLatin1String("health");
    if (!a.error.isEmpty() && !a.flag("help")) {
        if (health) { // a monitoring plugin: every usage error is UNKNOWN, said on the status line
            c.out() << "BLOOMSCOPE UNKNOWN - " << a.error << "\n";
            return 3;
        }
        return c.usage(a.error, a.errorHint);
    }
    if (a.flag("help-all")) {
        c.out() << fullHelp();
        return ExitOk;
    }
    if (a.flag("help") || a.command == QLatin1String("help")) {
        // bloomctl --help, bloomctl CMD --help, bloomctl help [CMD]
        const bool helpCommand = a.command == QLatin1String("help");
        if (helpCommand && a.positional.size() > 2)
            return c.usage(QStringLiteral("help takes one COMMAND"), QStringLiteral("Try 'bloomctl --help'."));
        const QString topic = helpCommand ? a.positional.value(1) : a.command;
        if (topic.isEmpty() || topic == QLatin1String("help")) {
            c.out() << overviewHelp();
            return ExitOk;
        }
        const CommandSpec *command = findCommand(topic);
        if (!command)
            return c.usage(QStringLiteral("unknown command '%1'").arg(topic), QStringLiteral("Try 'bloomctl --help'."));
        c.out() << commandHelp(*command);
        return ExitOk;
    }
    if (a.flag("version")) {
        c.out() << "bloomctl " << BLOOMSCOPE_VERSION << "\n";
        return ExitOk;
    }
    // Names are checked before anything connects: a hostile or mistyped value never reaches SQL.
    for (const char *option : {"table", "function", "into", "into-function"})
        for (const QString &v : a.all(option))
            if (auto n = QualifiedName::parse(v, QStringLiteral("--") + QLatin1String(option)); !n)
                return c.fail(n.error());
    if (a.positional.isEmpty()) {
        if (c.json())
            return c.usage(QStringLiteral("no command given"));
        c.err() << overviewHelp();
        return ExitUsage;
    }
    if (health && a.positional.size() > 1) {
        c.out() << "BLOOMSCOPE UNKNOWN - health takes no arguments, not '" << a.positional[1] << "'\n";
        return 3;
    }
    // The statement_timeout of attach's probes of the filter function (docs/operations.md "Privileges"). A bad one
    // is a usage error; to health, a monitoring plugin, it is UNKNOWN as its other bad options are.
    const auto badTimeout = [&c, health](const QString &message) {
        if (!health)
            return c.usage(message);
        c.out() << "BLOOMSCOPE UNKNOWN - " << message << "\n";
        return 3;
    };
    if (qEnvironmentVariableIsSet("BLOOMSCOPE_STATEMENT_TIMEOUT") &&
        !FilterStore::parseTimeout(qEnvironmentVariable("BLOOMSCOPE_STATEMENT_TIMEOUT")))
        return badTimeout(QStringLiteral("BLOOMSCOPE_STATEMENT_TIMEOUT takes a time from 0 to 1 hour (5s, 500ms, "
                                         "2m; 0: none), not '%1'")
                              .arg(qEnvironmentVariable("BLOOMSCOPE_STATEMENT_TIMEOUT")));
    if (a.has("statement-timeout")) {
        const auto ms = FilterStore::parseTimeout(a.option("statement-timeout"));
        if (!ms)
            return badTimeout(QStringLiteral("--statement-timeout takes a time from 0 to 1 hour (5s, 500ms, 2m; 0: "
                                             "none), not '%1'")
                                  .arg(a.option("statement-timeout")));
        FilterStore::setProbeTimeoutMs(*ms);
    }
    // No SA_RESTART: a read from stdin returns at Ctrl-C instead of waiting for more input.
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr); // a closed terminal: the demo's server stops too
    const QString command = a.positional.first();
    static const QMap<QString, int (*)(Context &)> commands{
        {QStringLiteral("explain"), cmdExplain},  {QStringLiteral("add"), cmdAdd},
        {QStringLiteral("check"), cmdCheck},      {QStringLiteral("load"), cmdLoad},
        {QStringLiteral("init"), cmdInit},        {QStringLiteral("info"), cmdInfo},
        {QStringLiteral("fill"), cmdFill},        {QStringLiteral("fpr"), cmdFpr},
        {QStringLiteral("skew"), cmdSkew},        {QStringLiteral("chunk"), cmdChunk},
        {QStringLiteral("rebuild"), cmdRebuild},  {QStringLiteral("swap"), cmdSwap},
        {QStringLiteral("drop-old"), cmdDropOld}, {QStringLiteral("signup"), cmdSignup},
        {QStringLiteral("audit"), cmdAudit},      {QStringLiteral("simulate"), cmdSimulate},
        {QStringLiteral("demo"), cmdDemo},        {QStringLiteral("delete-user"), cmdDeleteUser},
        {QStringLiteral("tables"), cmdTables},    {QStringLiteral("health"), cmdHealth},
        {QStringLiteral("metrics"), cmdMetrics},  {QStringLiteral("record"), cmdRecord},
        {QStringLiteral("history"), cmdHistory},
    };
    if (command == QLatin1String("demo") && a.flag("redis-demo"))
        return cmdRedisDemo(c);
    if (a.has("redis") || (command == QLatin1String("explain") && a.flag("js"))) {
        const int code = runRedis(c);
        c.out().flush();
        c.err().flush();
        return code;
    }
    if (command == QLatin1String("check") && a.flag("exact"))
        return cmdCheckExact(c);
    const auto it = commands.find(command);
    if (it == commands.end())
        return c.usage(QStringLiteral("unknown command '%1'").arg(command));
    const int code = (*it)(c);
    c.out().flush();
    c.err().flush();
    return code;
}

} // namespace bloom::cli
