#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringView>

class QJsonValue;

namespace bloom {

/**
 * True for a character a terminal may act on instead of showing: C0 controls, DEL, C1 controls, the
 * line and paragraph separators and the bidirectional formatting characters (which reorder what
 * follows them on the line).
 */
constexpr bool isControlCharacter(char32_t c)
{
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
           (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/**
 * One field of line-oriented output (a name, a table name) with every control character escaped, as
 * PostgreSQL's COPY text format does: `\\`, `\t`, `\n`, `\r`, `\xHH` for any other control below
 * U+0100 (ESC is `\x1b`) and `\uHHHH` above. A field so escaped never ends a line or a column, and
 * reads back unambiguously. docs/bloomctl.md "bloomctl", `bloomctl --help`.
 */
QString escapeField(QStringView text);
/** escapeField() of UTF-8 bytes (a name that passed validateName()). */
QString escapeField(QByteArrayView utf8);
/** Appends escapeField(utf8) to `out` as UTF-8; a name with nothing to escape is copied as it is
 *  (the batch paths print millions of names). */
void appendEscapedField(QByteArray &out, QByteArrayView utf8);
/** Appends `utf8` as a JSON string: `"` and `\\` escaped, and every control character (as
 *  isControlCharacter() says, C1 and the bidirectional controls included) as `\uHHHH`. */
void appendJsonString(QByteArray &out, QByteArrayView utf8);

/**
 * A message for a person (an error, a server's text inside it): control characters escaped as
 * escapeField() does, except the line breaks and tabs that lay the message out; backslashes stay.
 */
QString escapeMessage(QStringView text);

/**
 * A value quoted inside an error message: its first `maxChars` characters escaped as escapeField()
 * does (a NUL shows as `\x00`, it never ends the message), then "..." and its whole length when it is
 * longer - a 1 MiB value is never echoed whole.
 */
QString shortened(QStringView text, qsizetype maxChars = 40);
/** A file's JSON value as an error quotes it: a string shortened() in quotes, a number as written
 *  (-1, never 18446744073709551615), else its type ("a list", "missing"). */
QString shortenedJson(const QJsonValue &value);

} // namespace bloom
