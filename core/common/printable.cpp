#include "common/printable.h"

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

QString escapeMessage(QStringView text)
{
    return escape(text, [](char16_t u) { return u == '\n' || u == '\t' || u == '\\'; });
}

} // namespace bloom
