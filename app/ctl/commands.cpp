#include "commands.h"

#include "explanation.h"
#include "geometry.h"
#include "name.h"

#include <QJsonDocument>
#include <QMap>
#include <QSet>
#include <QTextStream>

#include <cstdio>

namespace bloom::cli {

namespace {

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}

QTextStream &err() {
    static QTextStream s(stderr);
    return s;
}

const char *const HelpText =
    R"(Usage: bloomctl [--db CONNINFO] [--table T] [--function F] [--json] COMMAND ...

Reads and manages a blocked Bloom filter stored in PostgreSQL (the "username_filter" of
"Bloom Filters in Postgres").

Commands:
  explain NAME        how NAME is hashed and placed: md5, chunk, the k bit positions

Options:
  --json              machine-readable output
  --chunks N          geometry for offline commands: number of chunks (power of two, default 131072)
  --chunk-bits B      bits per chunk (power of two, default 8192)
  --k K               bits per name (default 7)
  -h, --help          this text

Exit codes:
  0    success
  1    a statement failed on the server, or another unexpected error
  2    usage error (unknown command or option, bad geometry)
  3    connection error: server unreachable, authentication failed, database missing,
       QPSQL driver missing, or the database is not UTF-8
  4    the filter's table or function is missing, or is not a filter Bloomscope can read
  5    bad input: a name or input line was rejected (valid lines were still processed)
  130  interrupted with Ctrl-C (server-side work is cancelled)
)";

/** The parsed command line: options (with values), flags and positional words. */
struct Args {
    QMap<QString, QString> options;
    QSet<QString> flags;
    QStringList positional;
    QString error;
};

Args parse(const QStringList &argv) {
    static const QSet<QString> valued{QStringLiteral("db"),         QStringLiteral("table"),
                                      QStringLiteral("function"),   QStringLiteral("chunks"),
                                      QStringLiteral("chunk-bits"), QStringLiteral("k")};
    static const QSet<QString> flags{QStringLiteral("json"), QStringLiteral("help")};
    Args a;
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QString &w = argv[i];
        if (w == QLatin1String("--")) {
            a.positional += argv.mid(i + 1);
            break;
        }
        if (w == QLatin1String("-h")) {
            a.flags.insert(QStringLiteral("help"));
            continue;
        }
        if (!w.startsWith(QLatin1String("--")) || w == QLatin1String("-")) {
            a.positional << w;
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
            a.options.insert(name, value);
        } else if (flags.contains(name) && !inlineValue) {
            a.flags.insert(name);
        } else {
            a.error = QStringLiteral("unknown option --%1").arg(name);
            return a;
        }
    }
    return a;
}

int usageError(const QString &message) {
    err() << "bloomctl: " << message << "\n"
          << "Try 'bloomctl --help'.\n";
    err().flush();
    return ExitUsage;
}

Result<Geometry> geometryFrom(const Args &a) {
    bool ok1 = true, ok2 = true, ok3 = true;
    const qint64 chunks =
        a.options.value(QStringLiteral("chunks"), QStringLiteral("131072")).toLongLong(&ok1);
    const qint64 bits =
        a.options.value(QStringLiteral("chunk-bits"), QStringLiteral("8192")).toLongLong(&ok2);
    const int k = a.options.value(QStringLiteral("k"), QStringLiteral("7")).toInt(&ok3);
    if (!ok1 || !ok2 || !ok3)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("--chunks, --chunk-bits and --k take whole numbers"));
    return Geometry::fromCounts(chunks, bits, k);
}

int explain(const Args &a) {
    if (a.positional.size() != 2)
        return usageError(QStringLiteral("explain takes one NAME"));
    auto g = geometryFrom(a);
    if (!g)
        return usageError(g.error().toString());
    const QByteArray utf8 = a.positional[1].toUtf8();
    if (auto s = validateName(utf8); !s) {
        err() << "bloomctl: " << s.error().toString() << "\n";
        return ExitBadInput;
    }
    const Explanation e = Explanation::offline(*g, a.positional[1]);
    if (a.flags.contains(QStringLiteral("json")))
        out() << QJsonDocument(e.toJson()).toJson(QJsonDocument::Indented);
    else
        out() << e.toText();
    return ExitOk;
}

} // namespace

int run(const QStringList &argv) {
    const Args a = parse(argv);
    if (!a.error.isEmpty())
        return usageError(a.error);
    if (a.flags.contains(QStringLiteral("help")) || a.positional.isEmpty()) {
        (a.positional.isEmpty() && !a.flags.contains(QStringLiteral("help")) ? err() : out()) << HelpText;
        return a.positional.isEmpty() && !a.flags.contains(QStringLiteral("help")) ? ExitUsage : ExitOk;
    }
    const QString &command = a.positional.first();
    int code = ExitOk;
    if (command == QLatin1String("explain"))
        code = explain(a);
    else
        code = usageError(QStringLiteral("unknown command '%1'").arg(command));
    out().flush();
    err().flush();
    return code;
}

} // namespace bloom::cli
