// bloomctl's command table: every command and option, declared once, with its help (issue 37, 4).
#include "commandline.h"

namespace bloom::cli {

namespace {

// Options more than one command takes, declared once here.
const OptionSpec Chunks{"chunks", 0, "N", "chunks of the geometry (default 131072, the reference filter's)"};
const OptionSpec ChunkBits{"chunk-bits", 0, "B", "bits per chunk (default 8192)"};
const OptionSpec K{"k", 0, "K", "bits per name (default 7)"};
const OptionSpec Csv{"csv", 0, nullptr, "CSV output"};
const OptionSpec Yes{"yes", 0, nullptr,
                     "do not ask first (a script's consent; without it bloomctl asks on a terminal "
                     "and refuses, exit 2, when standard input is not one)"};
const OptionSpec ShardMap{"shards", 0, "MAP", "the shard map: the users' shard databases, their table and column"};
const OptionSpec PublicationOk{
    "publication-ok", 0, nullptr,
    "go ahead on a logical-replication publisher: init, record, audit and rebuild refuse (exit 8) to create a table "
    "that a publication (FOR ALL TABLES, FOR TABLES IN SCHEMA, or, for a rebuild, FOR TABLE the live table) would "
    "send to subscribers that lack it, and print the SQL each subscriber runs first; swap refuses until each "
    "subscriber is ready to follow it. Pass it once the subscribers have run that SQL"};
const OptionSpec LockTimeout{
    "lock-timeout", 0, "T",
    "how long one request for a lock on the filter may wait (1s by default, or BLOOMSCOPE_LOCK_TIMEOUT; 100ms to "
    "1m): the application's writes queue behind a waiting request at most that long"};
const OptionSpec LockWait{
    "lock-wait", 0, "T",
    "how long to keep trying for that lock, looking first who holds one and saying who blocks (on stderr; JSON "
    "objects with --json), before giving up, exit 8, naming them (1m by default, or BLOOMSCOPE_LOCK_WAIT; 0 to 1h)"};
const OptionSpec Redis{"redis", 0, "URL",
                       "the Redis bitmap filter instead of PostgreSQL's: redis://host:port/db or "
                       "unix:///path.sock; the password in REDISCLI_AUTH"};
const OptionSpec RedisKey{"key", 0, "KEY", "the Redis filter's key (default username_bloom_filter_key)"};
const OptionSpec RedisBits{"bits", 0, "M", "the Redis filter's bits m (default 10000000; 8 to 2^32)"};

const QList<OptionSpec> Globals{
    {"db", 0, "CONNINFO",
     "the filter's database: a libpq connection string ('host=db1 dbname=app user=dba'), a URI "
     "('postgresql://dba@db1/app'), 'service=filter', or a bare database name ('app', as psql takes it); without "
     "it libpq's PG* variables, ~/.pgpass and ~/.pg_service.conf apply"},
    {"table", 0, "T", "filter table (default username_filter; schema.table allowed)"},
    {"function", 0, "F", "placement function (default username_bits)"},
    {"json", 0, nullptr,
     "machine-readable output: JSON on stdout, and every line on stderr a JSON object (errors, warnings, "
     "rejected names)"},
    {"statement-timeout", 0, "T",
     "how long attach may take calling the filter's function on its 32 probe names (5s, 500ms, 2m; 0: no limit; at "
     "most 1 hour): 5 s by default, or BLOOMSCOPE_STATEMENT_TIMEOUT; a function that takes longer is refused (exit "
     "4)"},
    {"help", 'h', nullptr, "this text; with a command, that command's help"},
    {"help-all", 0, nullptr, "this text and every command's help (the man page)"},
    {"version", 0, nullptr, "the version"},
};

const QList<CommandSpec> Commands{
    {"explain",
     "NAME",
     "how NAME is hashed and placed: md5, chunk, the k bit positions",
     "Without --db, offline, in the geometry of --chunks, --chunk-bits and --k (the reference filter's by "
     "default). With --db also which bits are set and the verdict.\n"
     "With --js (or --redis), the Redis bitmap filter's positions: one key, m bits, k = 2 (sha256 and FNV-1a with "
     "JavaScript's number semantics).",
     {Chunks,
      ChunkBits,
      K,
      {"js", 0, nullptr, "the Redis filter's positions, offline (without --redis)"},
      Redis,
      RedisKey,
      RedisBits}},
    {"init",
     "",
     "create the table and its function",
     "Creates the filter's table and function in the geometry of --chunks, --chunk-bits and --k; the default "
     "geometry is the reference filter. Never overwrites: an existing table is a usage error (exit 2).",
     {Chunks, ChunkBits, K, PublicationOk}},
    {"info", "", "geometry, fill, estimated FPR and names, table size and health", "", {Redis, RedisKey, RedisBits}},
    {"add", "NAME... | -", "add names (one UPDATE each; '-' reads names from stdin)", "", {Redis, RedisKey, RedisBits}},
    {"check",
     "NAME... | -",
     "NAME<TAB>free or NAME<TAB>maybe for each name",
     "A name whose chunk row is NULL or missing is never free: exit 9, naming the chunk.\n"
     "Many names (past about one per 2.6 KiB of filter: 50,000 for the reference filter) are streamed: the filter "
     "is read once in one snapshot and every name answered from memory on every core, so the answers are as of that "
     "snapshot (--json: \"as_of\" on each).\n"
     "check --exact --shards MAP NAME...: the filter first; on \"maybe\", every shard in parallel: free or taken, "
     "with the shard queries sent and the slowest shard's time.",
     {{"exact", 0, nullptr, "on \"maybe\", ask every shard of --shards (free or taken)"},
      ShardMap,
      Redis,
      RedisKey,
      RedisBits}},
    {"load",
     "FILE | -",
     "bulk add, one name per line (UTF-8)",
     "Bad lines are reported and skipped; the committed steps are written on N connections, and VACUUMed on one "
     "more.",
     {{"jobs", 0, "N", "connections that write the committed steps (default 2, 1 to 8)"}}},
    {"fill",
     "",
     "set bits of every chunk (chunk,set_bits), one server-side scan",
     "",
     {Csv, Redis, RedisKey, RedisBits}},
    {"fpr",
     "",
     "the reference FPR estimate",
     "With --sample, the rate measured on N random names that were never added, beside estimate and model; a large "
     "N is answered from one read of the filter, as of its snapshot (--json: \"as_of\"), in memory whatever N.",
     {{"sample", 0, "N", "probes: 1 to 100000000 (with --redis 1 to 10000000)"}, Redis, RedisKey, RedisBits}},
    {"skew", "", "histogram of chunk fill beside the model's spread, and outliers", "", {}},
    {"chunk",
     "N",
     "the bits of one chunk",
     "N is a chunk number of the filter, from 0 to its chunks - 1; another is a usage error (exit 2).",
     {}},
    {"tables",
     "",
     "the tables that look like filters (chunk int, bits bit(N))",
     "In the role's schemas, one per line (bash completion uses it).",
     {}},
    {"health",
     "",
     "a monitoring plugin (Nagios, Icinga): one status line with performance data",
     "Exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN. -w/--warning and -c/--critical take ranges of the "
     "monitoring-plugins guidelines (10, 10:, ~:10, 10:20, @10:20) per METRIC, repeated or as a comma list "
     "(-w fpr=0.005,chunk_fill=0.45): fpr, chunk_fill (the fullest chunk's share of set bits), snapshot_age "
     "(seconds, or 90m, 2h, 1d), damaged_chunks, names, table_size (bytes); a RANGE without METRIC is fpr's. "
     "By default CRITICAL at fpr 0.01, chunk_fill 0.5 or a NULL or missing chunk row (named), WARNING at half and "
     "90% of those or an interrupted rebuild. The performance data carry every metric in plain decimals, with "
     "the thresholds as given.\n"
     "Every usage error (an unknown option, a bad or missing value, a warning looser than its critical) is "
     "UNKNOWN too: exit 3 and the status line BLOOMSCOPE UNKNOWN - <message> on stdout.",
     {{"warning", 'w', "[METRIC=]RANGE[,...]", "a warning threshold (a monitoring-plugins range)", true},
      {"critical", 'c', "[METRIC=]RANGE[,...]", "a critical threshold (a monitoring-plugins range)", true},
      {"max-fpr", 0, "P", "CRITICAL at this estimated FPR (default 0.01; 0.01, 1% or 1e-2): -c fpr=P"},
      {"max-chunk-fill", 0, "F", "CRITICAL when the fullest chunk has this share of bits set (default 0.5)"},
      {"warn-fpr", 0, "P", "WARNING at this estimated FPR (default half of the critical one)"},
      {"warn-chunk-fill", 0, "F", "WARNING at this chunk fill (default 90% of the critical one)"},
      {"max-snapshot-age", 0, "D",
       "WARNING when no snapshot was recorded in D (2h, 1d): -w snapshot_age=D; no snapshot at all warns"},
      {"max-swap-wait", 0, "D",
       "WARNING when a rebuilt filter has waited longer than D for its swap (1d by default; 0: at once): the live "
       "function records every name, checks included, until it is swapped in or aborted"}}},
    {"record",
     "",
     "record a snapshot of the filter in bloomscope_history",
     "A snapshot holds the fill, estimated names and FPR, the fullest chunk and a fill histogram; it goes in "
     "bloomscope_history beside the table, which record creates on first use.",
     {{"thin", 0, nullptr,
       "then keep every snapshot of the last 7 days, one an hour up to 90 days and one a day before"},
      {"print-sql", 0, nullptr, "print the table's SQL for a DBA to create it, and do nothing else"},
      {"install-function", 0, nullptr,
       "create bloomscope_record(), the same snapshot taken on the server, record one with it and print the pg_cron "
       "schedule"},
      PublicationOk}},
    {"history",
     "",
     "the recorded snapshots, oldest first",
     "",
     {{"since", 0, "WHEN", "a time (2026-12-01 or 2026-12-01T08:00) or an age (90m, 12h, 7d)"}, Csv}},
    {"metrics",
     "",
     "the filter's gauges in Prometheus' text format",
     "Fill, names, FPR, capacity left to P, fullest chunk, table size, rebuild state, and "
     "bloomscope_damaged_chunks: NULL or missing chunk rows, must be 0; labelled server, database and table. "
     "bloomscope_up is 0 (and the exit code non-zero, the reason on stderr) when the filter cannot be read.",
     {{"target-fpr", 0, "P", "the FPR the capacity is measured to (default 0.01)"},
      {"textfile", 0, "DIR",
       "write them atomically to DIR/bloomscope_<database>_<table>.prom for node_exporter's textfile collector, "
       "instead of stdout"}}},
    {"rebuild",
     "--into TABLE | --abort",
     "build a new filter from the shards (and files) beside the live one",
     "The live filter keeps serving; names added meanwhile are recorded and drained in. The geometry is --chunks, "
     "--chunk-bits and --k, or --target-fpr with --expected-names, or by default twice the live filter's chunks.\n"
     "rebuild --abort restores the live function and removes an interrupted rebuild.",
     {{"into", 0, "TABLE", "the new filter's table"},
      {"into-function", 0, "F", "the rebuilt function (default: the --into table + _bits)"},
      {"source", 0, "CONNINFO", "a shard database to read the names from", true},
      {"query", 0, "SQL", "the query that reads the names from each source (default: select username from users)"},
      {"file", 0, "NAMES", "a file of names, one a line", true},
      Chunks,
      ChunkBits,
      K,
      {"target-fpr", 0, "P", "size the new filter for this FPR (with --expected-names)"},
      {"expected-names", 0, "N", "size the new filter for N names (with --target-fpr)"},
      {"method", 0, "client|sql", "place the names in bloomctl (client, the default) or on the server (sql)"},
      {"grace", 0, "SECONDS",
       "seconds to wait after recording starts, before the export snapshots (default 2, 0 to 3600)"},
      {"allow-smaller", 0, nullptr, "rebuild into a geometry with fewer bits than the live filter's"},
      {"abort", 0, nullptr, "restore the live function and remove an interrupted rebuild"},
      Yes,
      PublicationOk,
      LockTimeout,
      LockWait}},
    {"swap",
     "TABLE",
     "make the rebuilt TABLE and its function the live pair",
     "In one transaction, with the live pair's owner, grants, comments, indexes and triggers; the old pair is kept "
     "under a dated name. Refused (exit 8) when the new filter holds fewer names than the live one (estimated; 2% "
     "tolerance), when sampled users of the sources (or MAP) check free in it, when something cannot be carried "
     "over, or when the filter is published (FOR TABLE publications of the live table are moved to the new one "
     "inside the swap).",
     {Yes,
      {"allow-fewer-names", 0, nullptr, "swap even when the new filter holds fewer names than the live one"},
      {"accept-uncarried", 0, nullptr, "swap even when something of the live pair cannot be carried over"},
      ShardMap,
      {"audit-sample", 0, "N", "users a shard sampled before the swap (0 skips the audit; at most 1000000)"},
      PublicationOk,
      LockTimeout,
      LockWait}},
    {"drop-old", "", "drop the old pairs the swaps recorded (nothing else)", "", {Yes, LockTimeout, LockWait}},
    {"signup",
     "NAME",
     "the reference order: add to the filter, check every shard, insert the user",
     "The user goes on shard (id mod shards); a taken name exits 6.",
     {ShardMap}},
    {"audit",
     "",
     "N random users of every shard must all check maybe",
     "Exit 7 names any that do not; never-added probes give the measured FPR; the report is kept in "
     "bloomscope_audit beside the filter for the GUI.",
     {ShardMap,
      {"sample", 0, "N", "users a shard (default 10000, 1 to 1000000)"},
      {"no-record", 0, nullptr, "do not keep the report in bloomscope_audit"},
      PublicationOk}},
    {"simulate",
     "",
     "type N twelve-character names key by key",
     "Shard queries and latency with the filter in front and without it.",
     {ShardMap,
      {"generate", 0, "N", "names typed (default 1000)"},
      {"taken-share", 0, "P", "share of taken names (default 0.1)"},
      {"typing-ms", 0, "T", "milliseconds between keys (default 150)"},
      {"debounce-ms", 0, "D", "milliseconds of quiet before a check (default 0)"}}},
    {"demo",
     "",
     "a private PostgreSQL with the reference filter and shard databases until Ctrl-C",
     "Prints --db and --shards to use with the other commands. With --redis-demo, a private redis-server holding N "
     "generated names instead.",
     {{"shards", 0, "N", "shard databases (default 16, 1 to 256)"},
      {"generate", 0, "NAMES", "names generated (default 200000)"},
      {"redis-demo", 0, nullptr, "a private redis-server instead"}}},
    {"delete-user",
     "NAME",
     "delete the user; the filter keeps its bits (a \"maybe\" from then on)",
     "",
     {ShardMap, Yes}},
    {"help", "[COMMAND]", "this overview, or a command's help", "", {}},
};

const char *const Intro = R"(Reads and manages a blocked Bloom filter stored in PostgreSQL (the "username_filter" of
"Bloom Filters in Postgres"). CONNINFO is a libpq connection string or URI
('host=db1 dbname=app user=dba', 'postgresql://dba@db1/app', 'service=filter') or a bare
database name; without --db, libpq's PG* environment variables, ~/.pgpass and
~/.pg_service.conf apply. Passwords belong in ~/.pgpass or a service file: bloomctl never
prints one. Sessions are named bloomscope (application_name) unless PGAPPNAME or --db says
otherwise. bloomctl help COMMAND (or COMMAND --help) says a command's options.
)";

const char *const RedisText =
    R"(The Redis bitmap filter of the references (one key, m bits, k = 2: sha256 and FNV-1a with
JavaScript's number semantics):
  bloomctl --redis URL [--key KEY] [--bits M] info|fill [--csv]|fpr [--sample N]|check NAME...|add NAME...|explain NAME
                        URL redis://host:port/db or unix:///path.sock; password in REDISCLI_AUTH;
                        key username_bloom_filter_key and m = 10000000 by default
  bloomctl explain --js NAME
                        the Redis filter's positions offline
  bloomctl demo --redis-demo [--generate N]
                        a private redis-server holding N generated names until Ctrl-C
)";

const char *const Rules = R"(Options go before or after the command word; a command refuses another command's options
(exit 2). --opt=value and --opt value are the same; -- ends the options (a name that starts
with a dash follows it); - alone is standard input. An option given twice keeps its last
value, except --source and --file (and health's -w and -c), which add up.

Names of tables and functions are plain names or schema.name, used as given (case kept) and
quoted by bloomctl; a value with a double quote, a control character or more than one dot is
a usage error (exit 2). Errors go to stderr; with --json they are one JSON object there:
{"error": {"code": 3, "kind": "connection", "message": "...", "fix": "..."}}, a rejected
name {"rejected": {"argument": 2, "message": "..."}} or {"rejected": {"line": 7, ...}}, a
warning {"warning": {...}}: every line on stderr is a JSON object.
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
)";

const char *const ExitCodes = R"(Exit codes:
  0    success
  1    a statement failed on the server, or another unexpected error
  2    usage error (unknown command or option, an option of another command, a bad value,
       bad geometry, a chunk number out of range, init onto an existing table)
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
       during the load. A lock on the filter that rebuild, rebuild --abort, swap or drop-old
       could not get within --lock-wait (other transactions held it; the message names
       each: pid, role, application, state, how long its transaction has been open)
  9    the filter is damaged: a chunk row the command reads is NULL or missing, so a name
       there is neither free nor maybe (info, fill, fpr, skew, record: any such row; check,
       explain, chunk: the chunks they read). The fix sets such rows to all ones at once (every
       name there maybe), then rebuilds from the sources and swaps; an empty row would make
       every name of its chunk a false negative
  130  interrupted with Ctrl-C, or a statement cancelled on the server (server-side work is
       cancelled)
health is a monitoring plugin and exits 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN instead (its
usage errors included).
)";

} // namespace

const QList<OptionSpec> &globalOptions()
{
    return Globals;
}

const QList<CommandSpec> &commandTable()
{
    return Commands;
}

const CommandSpec *findCommand(const QString &name)
{
    for (const CommandSpec &c : Commands)
        if (QLatin1String(c.name) == name)
            return &c;
    return nullptr;
}

const HelpTexts &helpTexts()
{
    static const HelpTexts texts{Intro, RedisText, Rules, ExitCodes};
    return texts;
}

} // namespace bloom::cli
