#pragma once

#include "common/result.h"
#include "maintenance/rebuild.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "safeoutput.h"

#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QStringList>
#include <QTextStream>

#include <atomic>
#include <memory>
#include <optional>

namespace bloom::cli {

/** The parsed command line: options (with values), flags and positional words (command first). */
struct Args {
    QMap<QString, QStringList> options; ///< every value given, in order (--source may repeat)
    QSet<QString> flags;
    QStringList positional;
    /** The positional words as the command line gave them: names are checked as bytes (invalid UTF-8
     *  is refused as on stdin, not replaced by U+FFFD). */
    QList<QByteArray> positionalBytes;
    QString command;   ///< the command word (positional.first()), even when the command line had an error
    QString error;     ///< the first usage error, empty when none
    QString errorHint; ///< what to read instead of the overview ("Try 'bloomctl help check'.")

    bool flag(const char *name) const { return flags.contains(QLatin1String(name)); }
    QString option(const char *name, const QString &fallback = {}) const
    {
        const QStringList v = options.value(QLatin1String(name));
        return v.isEmpty() ? fallback : v.last();
    }
    QStringList all(const char *name) const { return options.value(QLatin1String(name)); }
    bool has(const char *name) const { return options.contains(QLatin1String(name)); }
};

/** What every command gets: its arguments, the output streams, and a connection on demand. */
class Context {
public:
    explicit Context(Args args);

    const Args &args() const { return mArgs; }
    bool json() const { return mArgs.flag("json"); }
    /** Standard output and error; control characters are escaped on the way out (SafeOutput). */
    QTextStream &out() { return mOut; }
    QTextStream &err() { return mErr; }
    /** A progress line on a terminal's stderr: back to the start of the line, then `line`. */
    void progress(const QString &line);

    /** Opens --db and attaches the filter of --table/--function. */
    Result<FilterStore *> store();
    /** Opens --db only (for init). */
    Result<Database *> database();
    /** database(), refused up front on a standby for `what` (a write: rebuild, swap, drop-old). */
    Result<Database *> writableDatabase(const QString &what);

    /** Asks before a destructive action: --yes, or "yes" typed on a terminal. */
    bool confirm(const QString &what);

    /** Prints an error and returns the exit code of its kind. */
    int fail(const Error &e);
    /** After a command answered from whole chunks: a warning on stderr when other chunks of the
     *  attached filter are NULL or missing (the filter needs a rebuild all the same). */
    void warnIfDamaged();
    int usage(const QString &message, const QString &hint = {});
    /** A warning on stderr: "bloomctl: warning: TEXT", or {"warning": {"message": TEXT}} under --json. */
    void warn(const QString &text);
    /** A note on stderr: "bloomctl: TEXT" (or `prefix` + TEXT), or {"note": {"message": TEXT}} under --json. */
    void note(const QString &text, const QString &prefix = QStringLiteral("bloomctl: "));
    /** A rejected name or line on stderr: "bloomctl: TEXT", or {"rejected": DETAIL} under --json. */
    void reject(const QJsonObject &detail, const QString &text);
    /** One JSON object as one line on stderr (--json). */
    void errJson(const QJsonObject &o);

    /** Names from the command line after the command word, or stdin for "-". Bad ones are reported. */
    QList<QByteArray> names(int firstIndex, bool *hadBad);
    /** The bad lines an input kept (the first NameReader::MaxBadLinesKept), then how many more there were. */
    void reportBadLines(const QString &where, const QList<BadLine> &kept, qint64 count);
    /** The name at positional word `index`, checked by the one name rule, as bytes. */
    Result<QByteArray> nameArgument(int index) const;

    /** The names after the command word (or stdin), placed in the attached filter. */
    struct PlacedNames {
        QList<QByteArray> names;
        QList<Placement> placements;
        bool hadBad = false;
    };
    Result<PlacedNames> placedNames();
    /** placedNames(), checked in the filter: verdicts[i] is true for "maybe". */
    struct CheckedNames : PlacedNames {
        QList<bool> verdicts;
    };
    Result<CheckedNames> checkedNames();

    static std::atomic<bool> &interrupted();

private:
    Args mArgs;
    SafeOutput mOutDevice;
    SafeOutput mErrDevice;
    QTextStream mOut;
    QTextStream mErr;
    std::unique_ptr<Database> mDb;
    std::unique_ptr<FilterStore> mStore;
};

/** A whole-number option within [min, max] (`fallback` when absent); otherwise a usage error that says
 *  the range (bloomctl exits 2). */
Result<qint64> wholeOption(const Args &a, const char *name, qint64 fallback, qint64 min, qint64 max);
/** The same for a real number. */
Result<double> numberOption(const Args &a, const char *name, double fallback, double min, double max);

/** A ratio as text: "0.01", "1%" or "1e-2"; nullopt when it is not a finite number. */
std::optional<double> ratioText(const QString &text);
/** A rate option (--target-fpr, --max-fpr, ...): "0.01", "1%" or "1e-3", strictly between 0 and 1;
 *  `fallback` when the option is absent, nullopt when it is not such a rate. */
std::optional<double> rateOption(const Args &a, const char *name, std::optional<double> fallback);

/** What info, health and metrics read of the attached filter: one fill scan, its health (pg_stat and
 *  the sizes), the state of a rebuild and the server's role. */
struct FilterReading {
    FilterStore *store = nullptr;
    FillSnapshot fill;
    TableHealth health;
    RebuildState rebuild;
    /** Primary or standby: on a standby the health's counters are the standby's own (it counts no
     *  replicated write) and say nothing of the table's life on the primary. */
    ServerRole role;
};
Result<FilterReading> readFilter(Context &c);
/** --chunks/--chunk-bits/--k, defaulting to the reference geometry. */
Result<Geometry> geometryFromArgs(const Args &a);

// Commands (commands_names.cpp, commands_filter.cpp).
int cmdExplain(Context &c);
int cmdAdd(Context &c);
int cmdCheck(Context &c);
int cmdLoad(Context &c);
int cmdInit(Context &c);
int cmdInfo(Context &c);
int cmdFill(Context &c);
int cmdFpr(Context &c);
int cmdSkew(Context &c);
int cmdChunk(Context &c);
int cmdRebuild(Context &c);
int cmdSwap(Context &c);
int cmdDropOld(Context &c);
int cmdCheckExact(Context &c);
int cmdSignup(Context &c);
int cmdDeleteUser(Context &c);
int cmdAudit(Context &c);
int cmdSimulate(Context &c);
int cmdDemo(Context &c);
int cmdTables(Context &c);
int cmdHealth(Context &c);
int cmdMetrics(Context &c);
int cmdRecord(Context &c);
int cmdHistory(Context &c);
/** A duration option: "90" (seconds), "90s", "15m", "2h", "7d"; nullopt when it is not one. */
std::optional<qint64> durationSeconds(const QString &text);
int cmdRedisDemo(Context &c);
/** Every command given --redis (or explain --js): the Redis bitmap filter. */
int runRedis(Context &c);

} // namespace bloom::cli
