#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace bloom::cli {

struct Args;

/** One option, declared once: the parser, `bloomctl help CMD` and the overview all read this entry. */
struct OptionSpec {
    const char *name;                ///< the long name, without "--"
    char shortName = 0;              ///< a one-letter alias ('w' for -w), or 0
    const char *valueName = nullptr; ///< the value's placeholder in the help; nullptr for a flag
    const char *help = "";           ///< one paragraph, wrapped by the help printer
    bool repeatable = false;         ///< every value kept in order (--source); otherwise the last one wins
    bool valued() const { return valueName != nullptr; }
};

/** One command: its word, arguments, options and help. */
struct CommandSpec {
    const char *name;
    const char *synopsis;      ///< the arguments after the options: "NAME... | -"
    const char *summary;       ///< one line for `bloomctl --help`
    const char *details;       ///< the longer text of `bloomctl help NAME` (may be empty)
    QList<OptionSpec> options; ///< besides the global ones
};

/** --db, --table, --function, --json, --statement-timeout, -h/--help, --version: every command takes them. */
const QList<OptionSpec> &globalOptions();
/** Every command, in the order of the overview. */
const QList<CommandSpec> &commandTable();
const CommandSpec *findCommand(const QString &name);

/** The overview's fixed paragraphs, beside the table (commandtable.cpp). */
struct HelpTexts {
    const char *intro;     ///< what bloomctl is, CONNINFO, passwords
    const char *redis;     ///< the Redis bitmap filter's command lines
    const char *rules;     ///< how options parse, names, --json on stderr, output escaping
    const char *exitCodes; ///< the exit codes
};
const HelpTexts &helpTexts();

/** Parses the arguments as given to the process (without the program name) against the table: an option
 *  the command does not declare, an unknown short option or command, a missing value are errors (exit 2). */
Args parseArgs(const QList<QByteArray> &argv);

/** `bloomctl --help`: the commands with a line each, the global options, output rules and exit codes. */
QString overviewHelp();
/** `bloomctl help CMD` and `bloomctl CMD --help`. */
QString commandHelp(const CommandSpec &command);
/** The overview and every command's help, for the man page (`bloomctl --help-all`, help2man). */
QString fullHelp();

} // namespace bloom::cli
