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

/**
 * The common name, told at a fraction of validateName()'s cost: ASCII without NUL, a visible first
 * character, within MaxNameBytes. validateName() accepts every such name; for any other, ask it.
 */
inline bool isPlainAsciiName(QByteArrayView utf8)
{
    const auto *p = reinterpret_cast<const unsigned char *>(utf8.data());
    const qsizetype n = utf8.size();
    if (n == 0 || n > MaxNameBytes || p[0] <= ' ' || p[0] == 0x7f)
        return false;
    unsigned char bad = 0;
    for (qsizetype i = 0; i < n; ++i)
        bad |= static_cast<unsigned char>((p[i] | (p[i] - 1)) & 0x80); // a byte from 0x80 up, or NUL (0 - 1)
    return bad == 0;
}

/** ASCII lowercase of an ASCII name (A-Z only, as PostgreSQL's lower() for these bytes). */
QByteArray asciiLower(QByteArrayView ascii);
/** Same into a caller's buffer (no allocation); returns the length. `out` must hold `ascii.size()`. */
qsizetype asciiLowerInto(QByteArrayView ascii, char *out);

/**
 * Offline lowercase of any valid UTF-8 name: exact for ASCII; otherwise each code point by Unicode's
 * simple mapping, as lower() in a libc UTF-8 database (the demo's C.UTF-8) does, and Approximate.
 */
QByteArray offlineLower(QByteArrayView utf8, Lowering *how = nullptr);

QString loweringLabel(Lowering how);

} // namespace bloom
