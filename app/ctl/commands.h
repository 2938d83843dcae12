#pragma once

#include <QByteArray>
#include <QList>

namespace bloom::cli {

/** bloomctl's documented exit codes (docs/bloomctl.md "bloomctl exit codes" and `bloomctl --help`). */
enum Exit : int {
    ExitOk = 0,
    ExitFailure = 1,       ///< a statement failed on the server, or an unexpected error
    ExitUsage = 2,         ///< bad command line
    ExitConnection = 3,    ///< cannot connect: unreachable, authentication, missing database, driver, encoding
    ExitFilter = 4,        ///< the filter's table or function is missing, or it is not a filter we can read
    ExitBadInput = 5,      ///< a name or input line was rejected (the valid rest was still processed)
    ExitTaken = 6,         ///< signup: the name is taken
    ExitFalseNegative = 7, ///< audit: a real user checks "free" (a red alarm)
    ExitRefused = 8,       ///< a guard refused: a swap that would lose names or rights, a shrinking rebuild
    ExitDamaged = 9,       ///< the filter is damaged: a chunk row the command reads is NULL or missing
    ExitCancelled = 130,   ///< interrupted (Ctrl-C); server-side work was cancelled
};

/** Runs one bloomctl command line (the arguments as the process got them, without the program name);
 *  returns the exit code. */
int run(const QList<QByteArray> &args);

} // namespace bloom::cli
