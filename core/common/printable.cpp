#include "common/printable.h"

#include <QJsonValue>
#include <QLocale>

namespace bloom {

namespace {

void appendEscaped(QString &out, char32_t c)
{
    switch (c) {
    case '\\':
        out += QLatin1String("\\\\");
        return;
    case '\t':
        out += QLatin1String("\\t");
        return;
    case '\n':
        out += QLatin1String("\\n");
        return;
    case '\r':
        out += QLatin1String("\\r");
        return;
    default:
        break;
    }
    if (c < 0x100)
        out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
    else
        out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
}

template<class Keep> QString escape(QStringView text, Keep keep)
{
    // The common case, nothing to escape, returns the text as it is.
    qsizetype first = 0;
    for (; first < text.size(); ++first) {
        const char16_t u = text[first].unicode();
        if ((isControlCharacter(u) || u == '\\') && !keep(u))
            break;
    }
    if (first == text.size())
        return text.toString();
    QString out;
    out.reserve(text.size() + 8);
    out += text.first(first);
    for (qsizetype i = first; i < text.size(); ++i) {
        const char16_t u = text[i].unicode();
        if ((isControlCharacter(u) || u == '\\') && !keep(u))
            appendEscaped(out, u); // every such character is in the BMP: no surrogate pair is cut
        else
            out += QChar(u);
    }
    return out;
}

} // namespace

QString escapeField(QStringView text)
{
    return escape(text, [](char16_t) { return false; });
}

QString escapeField(QByteArrayView utf8)
{
    return escapeField(QString::fromUtf8(utf8));
}

namespace {

/** Whether a byte may start or be a control character, or a backslash: the fast paths' test. */
bool mayNeedEscape(QByteArrayView utf8)
{
    for (char ch : utf8) {
        const auto u = static_cast<unsigned char>(ch);
        // C0, backslash, DEL; the lead bytes of C1 (U+0080..), U+061C and the U+2xxx controls.
        if (u < 0x20 || u == '\\' || u == 0x7f || u == 0xc2 || u == 0xd8 || u == 0xe2)
            return true;
    }
    return false;
}

} // namespace

void appendEscapedField(QByteArray &out, QByteArrayView utf8)
{
    if (mayNeedEscape(utf8))
        out += escapeField(utf8).toUtf8();
    else
        out += utf8;
}

void appendJsonString(QByteArray &out, QByteArrayView utf8)
{
    static constexpr char Hex[] = "0123456789abcdef";
    out += '"';
    const bool slow = mayNeedEscape(utf8);
    if (!slow && !utf8.contains('"')) {
        out += utf8;
    } else {
        const QString text = QString::fromUtf8(utf8);
        for (QChar qc : text) {
            const char16_t u = qc.unicode();
            if (u == '"' || u == '\\') {
                out += '\\';
                out += char(u);
            } else if (isControlCharacter(u)) {
                out += "\\u";
                out += Hex[(u >> 12) & 15];
                out += Hex[(u >> 8) & 15];
                out += Hex[(u >> 4) & 15];
                out += Hex[u & 15];
            } else {
                out += QStringView(&qc, 1).toUtf8();
            }
        }
    }
    out += '"';
}

QString escapeMessage(QStringView text)
{
    return escape(text, [](char16_t u) { return u == '\n' || u == '\t' || u == '\\'; });
}

QString shortened(QStringView text, qsizetype maxChars)
{
    if (text.size() <= maxChars)
        return escapeField(text);
    qsizetype cut = maxChars;
    if (cut > 0 && text[cut - 1].isHighSurrogate())
        --cut; // never half a character
    return escapeField(text.left(cut)) + QChar(0x2026) +
           QStringLiteral(" (%1 characters)").arg(QLocale(QLocale::English).toString(qint64(text.size())));
}

QString shortenedJson(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return QLatin1Char('"') + shortened(v.toString()) + QLatin1Char('"');
    case QJsonValue::Double:
        return QString::number(v.toDouble(), 'g', 17);
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Array:
        return QStringLiteral("a list");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("missing");
}

} // namespace bloom
