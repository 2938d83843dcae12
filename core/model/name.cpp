#include "model/name.h"

#include <QCoreApplication>
#include <QList>
#include <QStringDecoder>

namespace bloom {

bool isValidUtf8(QByteArrayView utf8)
{
    // RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF (what PostgreSQL accepts).
    const auto *p = reinterpret_cast<const unsigned char *>(utf8.data());
    const auto *end = p + utf8.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        int len = 0;
        unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0; // overlong
            if (c == 0xED)
                hi = 0x9F; // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90; // overlong
            if (c == 0xF4)
                hi = 0x8F; // above U+10FFFF
        } else
            return false;
        if (end - p < len || p[1] < lo || p[1] > hi)
            return false;
        for (int i = 2; i < len; ++i)
            if ((p[i] & 0xC0) != 0x80)
                return false;
        p += len;
    }
    return true;
}

bool isAscii(QByteArrayView utf8)
{
    for (char c : utf8)
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
    return true;
}

Status validateName(QByteArrayView utf8)
{
    if (utf8.isEmpty())
        return makeError(ErrorKind::BadInput, QCoreApplication::translate("bloom", "the name is empty"),
                         QCoreApplication::translate("bloom", "give a name of at least one character"));
    if (utf8.size() > MaxNameBytes)
        return makeError(
            ErrorKind::BadInput,
            QCoreApplication::translate("bloom", "the name is longer than 1 MiB (1,048,576 bytes), the limit"),
            QCoreApplication::translate("bloom",
                                        "a username is far shorter: check that the input has one name per line"));
    if (utf8.contains('\0'))
        return makeError(ErrorKind::BadInput, QCoreApplication::translate("bloom", "the name contains a NUL byte"),
                         QCoreApplication::translate("bloom", "PostgreSQL text cannot hold NUL; remove it"));
    if (!isValidUtf8(utf8))
        return makeError(ErrorKind::BadInput, QCoreApplication::translate("bloom", "the name is not valid UTF-8"),
                         QCoreApplication::translate("bloom", "convert the input to UTF-8 (for example with iconv)"));
    const auto c0 = static_cast<unsigned char>(utf8[0]);
    const bool maybeBlank = c0 == ' ' || (c0 >= '\t' && c0 <= '\r') || c0 >= 0x80; // else: visible at once
    if (maybeBlank && QString::fromUtf8(utf8).trimmed().isEmpty())
        return makeError(ErrorKind::BadInput, QCoreApplication::translate("bloom", "the name is only blanks"),
                         QCoreApplication::translate("bloom", "give a name with at least one visible character"));
    return success();
}

qsizetype asciiLowerInto(QByteArrayView ascii, char *out)
{
    const qsizetype n = ascii.size();
    const char *in = ascii.data();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = in[i];
        out[i] = (c >= 'A' && c <= 'Z') ? char(c + ('a' - 'A')) : c;
    }
    return n;
}

QByteArray asciiLower(QByteArrayView ascii)
{
    QByteArray out(ascii.size(), Qt::Uninitialized);
    asciiLowerInto(ascii, out.data());
    return out;
}

QByteArray offlineLower(QByteArrayView utf8, Lowering *how)
{
    if (isAscii(utf8)) {
        if (how)
            *how = Lowering::Ascii;
        return asciiLower(utf8);
    }
    if (how)
        *how = Lowering::Approximate;
    // One code point at a time, by Unicode's simple lowercase mapping: what PostgreSQL's lower()
    // does in a database with a libc UTF-8 ctype (towlower() per character; the demo's C.UTF-8, and
    // Debian's default). QString::toLower()'s full mapping made "İ" two code points ("i̇"); glibc
    // makes it "i". A database with the C ctype leaves non-ASCII as it is, an ICU one uses the full
    // mapping: only the database's lower() decides, hence Approximate.
    // A leading U+FEFF is part of the name (fromUtf8() would drop it as a byte-order mark).
    QStringDecoder decode(QStringDecoder::Utf8,
                          QStringDecoder::Flag::ConvertInitialBom | QStringDecoder::Flag::Stateless);
    const QString s = decode(utf8);
    QString out;
    out.reserve(s.size());
    for (const uint c : s.toUcs4()) {
        // Qt keeps U+0130 as it is for want of a one-code-point mapping; Unicode's simple one is "i".
        const char32_t lower = c == 0x130 ? U'i' : QChar::toLower(char32_t(c));
        if (QChar::requiresSurrogates(lower)) {
            out.append(QChar(QChar::highSurrogate(lower)));
            out.append(QChar(QChar::lowSurrogate(lower)));
        } else
            out.append(QChar(char16_t(lower)));
    }
    return out.toUtf8();
}

QString loweringLabel(Lowering how)
{
    switch (how) {
    case Lowering::Ascii:
        return QStringLiteral("ASCII, lowercased on the client (exact)");
    case Lowering::Server:
        return QStringLiteral("lowercased by the database's lower() (exact)");
    case Lowering::Approximate:
        return QStringLiteral("non-ASCII, lowercased offline as a libc UTF-8 database does: APPROXIMATE, the "
                              "database's lower() decides");
    }
    return {};
}

} // namespace bloom
