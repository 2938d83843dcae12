#include "commands.h"
#include "context.h"

#include "model/name.h"
#include "model/namereader.h"
#include "postgres/connectionspec.h"
#include "postgres/identifier.h"
#include "stdindevice.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <signal.h>
#include <unistd.h>

namespace bloom::cli {

namespace {

const char *const HelpText = R"(Usage: bloomctl [--db CONNINFO] [--table T] [--function F] [--json] COMMAND ...

Reads and manages a blocked Bloom filter stored in PostgreSQL (the "username_filter" of
"Bloom Filters in Postgres"). CONNINFO is a libpq connection string or URI
('host=db1 dbname=app user=dba', 'postgresql://dba@db1/app', 'service=filter'); without
--db, libpq's PG* environment variables, ~/.pgpass and ~/.pg_service.conf apply.
Passwords belong in ~/.pgpass or a service file: bloomctl never prints one.

Commands:
  explain NAME          how NAME is hashed and placed: md5, chunk, the k bit positions;
                        with --db also which bits are set and the verdict
  init [--publication-ok]
                        create the table and its function (--chunks, --chunk-bits, --k);
                        the default geometry is the reference filter; never overwrites
  info                  geometry, fill, estimated FPR and names, table size and health
  add NAME... | -       add names (one UPDATE each; '-' reads names from stdin)
  check NAME... | -     NAME<TAB>free or NAME<TAB>maybe for each name; a name whose chunk row
                        is NULL or missing is never free: exit 9, naming the chunk.
                        Many names (past about one per 2.6 KiB of filter: 50,000 for the
                        reference filter) are streamed: the filter is read once in one
                        snapshot and every name answered from memory on every core, so
                        the answers are as of that snapshot (--json: "as_of" on each)
  load FILE | - [--jobs N]
                        bulk add, one name per line (UTF-8); bad lines reported and skipped;
                        the committed steps are written on N connections (default 2, 1-8),
                        and VACUUMed on one more
  fill [--csv]          set bits of every chunk (chunk,set_bits), one server-side scan
  fpr [--sample N]      the reference FPR estimate; with --sample, the rate measured on
                        N random names that were never added, beside estimate and model;
                        a large N is answered from one read of the filter, as of its
                        snapshot (--json: "as_of"), in memory whatever N
  skew                  histogram of chunk fill beside the model's spread, and outliers
  chunk N               the bits of one chunk
  tables                the tables that look like filters (chunk int, bits bit(N)) in the
                        role's schemas, one per line (bash completion uses it)
  health [-w [METRIC=]RANGE[,...]]... [-c [METRIC=]RANGE[,...]]...
                        a monitoring plugin (Nagios, Icinga): one status line with
                        performance data; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN
                        (a bad option too). -w/--warning and -c/--critical take ranges of
                        the monitoring-plugins guidelines (10, 10:, ~:10, 10:20, @10:20) per
                        METRIC: fpr, chunk_fill (the fullest chunk's share of set bits),
                        snapshot_age (seconds, or 90m, 2h, 1d), damaged_chunks, names,
                        table_size (bytes); a RANGE without METRIC is fpr's. By default
                        CRITICAL at fpr 0.01, chunk_fill 0.5 or a NULL or missing chunk row
                        (named), WARNING at half and 90% of those or an interrupted rebuild.
                        A warning looser than its critical is UNKNOWN. Synonyms: --max-fpr,
                        --warn-fpr, --max-chunk-fill, --warn-chunk-fill (upper bounds) and
                        --max-snapshot-age D (warning snapshot_age=D; no snapshot warns)
  record [--thin] [--print-sql] [--install-function] [--publication-ok]
                        record a snapshot of the filter (fill, estimated names and FPR, fullest
                        chunk, a fill histogram) in bloomscope_history beside the table, which
                        it creates on first use; --thin then keeps every snapshot of the last 7
                        days, one an hour up to 90 days and one a day before; --print-sql
                        prints the table's SQL for a DBA to create it and does nothing else;
                        --install-function creates bloomscope_record(), the same snapshot taken
                        on the server, records one with it and prints the pg_cron schedule
  history [--since WHEN] [--csv]
                        the recorded snapshots, oldest first; WHEN is a time (2026-12-01 or
                        2026-12-01T08:00) or an age (90m, 12h, 7d)
  metrics [--target-fpr P] [--textfile DIR]
                        the filter's gauges in Prometheus' text format (fill, names, FPR,
                        capacity left to P, fullest chunk, table size, rebuild state, and
                        bloomscope_damaged_chunks: NULL or missing chunk rows, must be 0),
                        labelled server, database and table; bloomscope_up 0 (and exit 3)
                        when the server cannot be read. --textfile writes them atomically to
                        DIR/bloomscope_<database>_<table>.prom for node_exporter instead
  rebuild --into TABLE [--source CONNINFO]... [--query SQL] [--file NAMES]...
          [--chunks N --chunk-bits B --k K | --target-fpr P --expected-names N]
          [--method client|sql] [--grace SECONDS] [--publication-ok]
                        build a new filter from the shards (and files) while the live one
                        keeps serving; names added meanwhile are recorded and drained in
  rebuild --abort       restore the live function and remove an interrupted rebuild
  swap TABLE [--yes] [--allow-fewer-names] [--accept-uncarried] [--shards MAP]
          [--audit-sample N] [--publication-ok]
                        make the rebuilt TABLE and its function the live pair, in one
                        transaction, with the live pair's owner, grants, comments, indexes
                        and triggers; the old pair is kept under a dated name. Refused
                        (exit 8) when the new filter holds fewer names than the live one
                        (estimated; 2% tolerance), when sampled users of the sources (or
                        MAP) check free in it, when something cannot be carried over, or
                        when the filter is published (FOR TABLE publications of the live
                        table are moved to the new one inside the swap)
  drop-old [--yes]      drop the old pairs the swaps recorded (nothing else)
  check --exact --shards MAP NAME...
                        the filter first; on "maybe", every shard in parallel: free or taken,
                        with the shard queries sent and the slowest shard's time
  signup --shards MAP NAME
                        the reference order: add to the filter, check every shard, insert the
                        user on shard (id mod shards)
  audit --shards MAP [--sample N] [--no-record] [--publication-ok]
                        N random users of every shard must all check maybe (exit 7 names
                        any that do not); never-added probes give the measured FPR; the
                        report is kept in bloomscope_audit beside the filter for the GUI
  simulate --shards MAP [--generate N] [--taken-share P] [--typing-ms T] [--debounce-ms D]
                        type N twelve-character names key by key: shard queries and latency
                        with the filter in front and without it
  demo [--shards N] [--generate NAMES]
                        a private PostgreSQL with the reference filter and N shard databases
                        (16, 200000 names by default) until Ctrl-C; prints --db and --shards
  delete-user --shards MAP NAME
                        delete the user; the filter keeps its bits (a "maybe" from then on)

The Redis bitmap filter of the references (one key, m bits, k = 2: sha256 and FNV-1a with
JavaScript's number semantics):
  --redis URL [--key KEY] [--bits M] info|fill [--csv]|fpr [--sample N]|check NAME...|add NAME...|explain NAME...
                        URL redis://host:port/db or unix:///path.sock; password in REDISCLI_AUTH;
                        key username_bloom_filter_key and m = 10000000 by default
  explain --js NAME...  the Redis filter's positions offline
  demo --redis-demo [--generate N]
                        a private redis-server holding N generated names until Ctrl-C

Options:
  --db CONNINFO         the filter's database
  --table T             filter table (default username_filter; schema.table allowed)
  --function F          placement function (default username_bits)
  --json                machine-readable output
  --chunks N            geometry for init and offline explain (default 131072)
  --chunk-bits B        bits per chunk (default 8192)
  --k K                 bits per name (default 7)
  --csv                 CSV output (fill)
  --sample N            probes for fpr (1 to 100000000; with --redis 1 to 10000000), users a
                        shard for audit (1 to 1000000)
  --statement-timeout T how long attach may take calling the filter's function on its 32 probe
                        names (5s, 500ms, 2m; 0: no limit; at most 1 hour): 5 s by default,
                        or BLOOMSCOPE_STATEMENT_TIMEOUT; a function that takes longer is
                        refused (exit 4)
  --yes                 do not ask before swap, drop-old or rebuild --abort
  --into-function F     the rebuilt function (default: the --into table + _bits)
  --allow-smaller       rebuild into a geometry with fewer bits than the live filter's
  --publication-ok      go ahead on a logical-replication publisher: init, record, audit and
                        rebuild refuse (exit 8) to create a table that a publication (FOR ALL
                        TABLES, FOR TABLES IN SCHEMA, or, for a rebuild, FOR TABLE the live
                        table) would send to subscribers that lack it, and print the SQL each
                        subscriber runs first; swap refuses until each subscriber is ready to
                        follow it. Pass it once the subscribers have run that SQL
  --version             the version
  -h, --help            this text

Names of tables and functions are plain names or schema.name, used as given (case kept) and
quoted by bloomctl; a value with a double quote, a control character or more than one dot is
a usage error (exit 2). Errors go to stderr; with --json they are one JSON object there:
{"error": {"code": 3, "kind": "connection", "message": "...", "fix": "..."}}.
Every numeric option has a range, said in its error (exit 2).

Output: names (and the catalog's names) are printed with their control characters escaped as
PostgreSQL's COPY text format does: \\ for a backslash, \t, \n, \r, \xHH for another control
character below U+0100 (ESC is \x1b), \uHHHH for the line and paragraph separators and the
bidirectional controls. A name never spans two fields or two lines. Everything else bloomctl
writes (the server's messages included) has the same characters escaped, line breaks and tabs
excepted; --json gives names and messages as they are, in JSON's own escapes. Names on the
command line follow the one name rule of stdin: invalid UTF-8 is refused (exit 5).
Passwords given in --db or --source (password=, sslpassword=, URI user:password@ or
?password=, in any spelling libpq reads) are overwritten in the process's command line
before anything else runs.

Exit codes:
  0    success
  1    a statement failed on the server, or another unexpected error
  2    usage error (unknown command or option, bad geometry, init onto an existing table)
  3    connection error: server unreachable, authentication failed, database missing,
       QPSQL driver missing, or the database is not UTF-8
  4    the filter's table or function is missing, or is not a filter Bloomscope can read
  5    bad input: a name or input line was rejected (valid lines were still processed)
  6    signup: the name is taken
  7    audit: a real user checks free (a false negative)
  8    refused by a guard: a swap that would lose names (fewer names, an audit miss, drained
       names missing) or rights (what cannot be carried over), a rebuild to a smaller
       geometry, or a new table or swap that a publication would send to unprepared
       subscribers; the message names the counts (or the subscribers' SQL) and the flag
       that overrides it. A write the write path refused: the filter was swapped since it
       was read, a rebuild records no names written by Bloomscope, or a rebuild started
       during the load
  9    the filter is damaged: a chunk row the command reads is NULL or missing, so a name
       there is neither free nor maybe (info, fill, fpr, skew, record: any such row; check,
       explain, chunk: the chunks they read). The fix sets such rows to all ones at once (every
       name there maybe), then rebuilds from the sources and swaps; an empty row would make
       every name of its chunk a false negative
  130  interrupted with Ctrl-C, or a statement cancelled on the server (server-side work is
       cancelled)
)";

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

Args parseArgs(const QList<QByteArray> &raw)
{
    // Decoded as QCoreApplication::arguments() decodes them; the positional words keep their bytes too.
    QStringList argv;
    argv.reserve(raw.size());
    for (const QByteArray &w : raw)
        argv << QString::fromLocal8Bit(w);
    static const QSet<QString> valued{QStringLiteral("db"),
                                      QStringLiteral("table"),
                                      QStringLiteral("function"),
                                      QStringLiteral("chunks"),
                                      QStringLiteral("chunk-bits"),
                                      QStringLiteral("k"),
                                      QStringLiteral("sample"),
                                      QStringLiteral("shards"),
                                      QStringLiteral("generate"),
                                      QStringLiteral("taken-share"),
                                      QStringLiteral("typing-ms"),
                                      QStringLiteral("debounce-ms"),
                                      QStringLiteral("source"),
                                      QStringLiteral("query"),
                                      QStringLiteral("file"),
                                      QStringLiteral("method"),
                                      QStringLiteral("target-fpr"),
                                      QStringLiteral("expected-names"),
                                      QStringLiteral("into"),
                                      QStringLiteral("grace"),
                                      QStringLiteral("redis"),
                                      QStringLiteral("key"),
                                      QStringLiteral("bits"),
                                      QStringLiteral("into-function"),
                                      QStringLiteral("audit-sample"),
                                      QStringLiteral("max-fpr"),
                                      QStringLiteral("max-chunk-fill"),
                                      QStringLiteral("warn-fpr"),
                                      QStringLiteral("warn-chunk-fill"),
                                      QStringLiteral("max-snapshot-age"),
                                      QStringLiteral("warning"),
                                      QStringLiteral("critical"),
                                      QStringLiteral("textfile"),
                                      QStringLiteral("since"),
                                      QStringLiteral("jobs"),
                                      QStringLiteral("statement-timeout")};
    static const QSet<QString> flags{QStringLiteral("json"),
                                     QStringLiteral("help"),
                                     QStringLiteral("csv"),
                                     QStringLiteral("thin"),
                                     QStringLiteral("print-sql"),
                                     QStringLiteral("install-function"),
                                     QStringLiteral("abort"),
                                     QStringLiteral("yes"),
                                     QStringLiteral("exact"),
                                     QStringLiteral("no-record"),
                                     QStringLiteral("js"),
                                     QStringLiteral("redis-demo"),
                                     QStringLiteral("version"),
                                     QStringLiteral("allow-fewer-names"),
                                     QStringLiteral("accept-uncarried"),
                                     QStringLiteral("allow-smaller"),
                                     QStringLiteral("publication-ok")};
    Args a;
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QString &w = argv[i];
        if (w == QLatin1String("--")) {
            a.positional += argv.mid(i + 1);
            a.positionalBytes += raw.mid(i + 1);
            break;
        }
        if (w == QLatin1String("-h")) {
            a.flags.insert(QStringLiteral("help"));
            continue;
        }
        // health's -w/-c (monitoring-plugins style) after the word health: --warning/--critical. Interim
        // until the per-command option table (branch cli) declares them; other commands keep them as words.
        if ((w == QLatin1String("-w") || w == QLatin1String("-c")) &&
            a.positional.value(0) == QLatin1String("health")) {
            const QString name = w == QLatin1String("-w") ? QStringLiteral("warning") : QStringLiteral("critical");
            if (i + 1 >= argv.size()) {
                a.error = QStringLiteral("option %1/--%2 needs a value").arg(w, name);
                return a;
            }
            a.options[name].append(argv[++i]);
            continue;
        }
        if (!w.startsWith(QLatin1String("--"))) {
            a.positional << w;
            a.positionalBytes << raw[i];
            continue;
        }
        QString name = w.mid(2);
        QString value;
        const qsizetype eq = name.indexOf(QLatin1Char('='));
        const bool inlineValue = eq >= 0;
        if (inlineValue) {
            value = name.mid(eq + 1);
            name = name.left(eq);
        }
        if (valued.contains(name)) {
            if (!inlineValue) {
                if (i + 1 >= argv.size()) {
                    a.error = QStringLiteral("option --%1 needs a value").arg(name);
                    return a;
                }
                value = argv[++i];
            }
            a.options[name].append(value);
        } else if (flags.contains(name) && !inlineValue) {
            a.flags.insert(name);
        } else {
            a.error = QStringLiteral("unknown option --%1").arg(name);
            return a;
        }
    }
    return a;
}

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
        mErr << "bloomctl: " << what << "\nbloomctl: not confirmed: add --yes (standard input is not a terminal)\n";
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
        return makeError(ErrorKind::Usage, QStringLiteral("--%1 takes a whole number from %2 to %3, not '%4'")
                                               .arg(QLatin1String(name))
                                               .arg(min)
                                               .arg(max)
                                               .arg(text));
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
                                               .arg(QLatin1String(name))
                                               .arg(min, 0, 'g', 15)
                                               .arg(max, 0, 'g', 15)
                                               .arg(text));
    return v;
}

std::optional<double> rateOption(const Args &a, const char *name, std::optional<double> fallback)
{
    if (!a.has(name))
        return fallback;
    QString t = a.option(name).trimmed();
    double scale = 1;
    if (t.endsWith(QLatin1Char('%'))) {
        t.chop(1);
        scale = 0.01;
    }
    bool ok = false;
    const double v = t.toDouble(&ok) * scale;
    if (!ok || !(v > 0) || !(v < 1))
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

int Context::usage(const QString &message)
{
    if (json())
        return fail(makeError(ErrorKind::Usage, message, QStringLiteral("see bloomctl --help")));
    mErr << "bloomctl: " << message << "\nTry 'bloomctl --help'.\n";
    mErr.flush();
    return ExitUsage;
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
            mErr << "bloomctl: argument " << (i + 1) << ": " << s.error().message << " (skipped)\n";
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
        mErr << "bloomctl: " << where << " line " << b.line << ": " << b.reason << " (skipped)\n";
    if (count > kept.size())
        mErr << "bloomctl: " << where << ": " << count - kept.size() << " more bad line(s) after line "
             << (kept.isEmpty() ? 0 : kept.last().line) << ", not listed (" << count << " in all)\n";
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
    if (!a.error.isEmpty()) {
        // health is a monitoring plugin: a bad command line is UNKNOWN (exit 3) with its status line.
        if (a.positional.value(0) == QLatin1String("health") ||
            (a.positional.isEmpty() && argv.contains(QByteArrayLiteral("health")))) {
            c.out() << "BLOOMSCOPE UNKNOWN - " << a.error << "\n";
            return 3;
        }
        return c.usage(a.error);
    }
    if (a.flag("help")) {
        c.out() << HelpText;
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
        c.err() << HelpText;
        return ExitUsage;
    }
    // The statement_timeout of attach's probes of the filter function (README "Privileges"). A bad one
    // is a usage error; to health, a monitoring plugin, it is UNKNOWN as its other bad options are.
    const auto badTimeout = [&c, &a](const QString &message) {
        if (a.positional.first() != QLatin1String("health"))
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
