#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace bloom {

/**
 * Who lowercased a name. The reference hashes `lower(name)`, and for non-ASCII text only the filter
 * database's `lower()` (its ctype) is the authority: a client guess is marked approximate.
 */
enum class Lowering {
    Ascii,       ///< pure ASCII: lowercased on the client, exactly as any PostgreSQL `lower()` does
    Server,      ///< lowercased by the filter database's `lower()`
    Approximate, ///< non-ASCII lowercased by Qt offline: may differ from the database
};

/** The longest name Bloomscope accepts anywhere: 1 MiB of UTF-8. */
constexpr qsizetype MaxNameBytes = 1 << 20;

/**
 * Why a name is rejected, or nothing: the one rule for every entry point (command line, stdin,
 * files, the GUI). Refused: empty, only blanks, longer than MaxNameBytes, NUL bytes, invalid UTF-8.
 */
Status validateName(QByteArrayView utf8);

/** Strict UTF-8 check (no overlong forms, surrogates or code points above U+10FFFF). */
bool isValidUtf8(QByteArrayView utf8);

/** True when every byte is 7-bit ASCII. */
bool isAscii(QByteArrayView utf8);

/** ASCII lowercase of an ASCII name (A-Z only, as PostgreSQL's lower() for these bytes). */
QByteArray asciiLower(QByteArrayView ascii);
/** Same into a caller's buffer (no allocation); returns the length. `out` must hold `ascii.size()`. */
qsizetype asciiLowerInto(QByteArrayView ascii, char *out);

/** Offline lowercase of any valid UTF-8 name: exact for ASCII, Qt's guess otherwise. */
QByteArray offlineLower(QByteArrayView utf8, Lowering *how = nullptr);

QString loweringLabel(Lowering how);

} // namespace bloom
