#include "postgres/identifier.h"

#include <QStringList>

namespace bloom {

QString quoteIdent(const QString &part)
{
    QString out;
    out.reserve(part.size() + 2);
    out += QLatin1Char('"');
    for (QChar c : part) {
        if (c == QLatin1Char('"'))
            out += QLatin1Char('"');
        out += c;
    }
    out += QLatin1Char('"');
    return out;
}

QString likeEscape(const QString &text)
{
    QString out;
    for (QChar c : text) {
        if (c == QLatin1Char('%') || c == QLatin1Char('_') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

namespace {

Status checkPart(const QString &part, const QString &text, const QString &what)
{
    const auto bad = [&](const QString &why) -> Status {
        return makeError(ErrorKind::Usage, QStringLiteral("%1 '%2': %3").arg(what, text, why),
                         QStringLiteral("give a plain name such as username_filter, or schema.name"));
    };
    if (part.isEmpty())
        return bad(QStringLiteral("a name part is empty"));
    if (part.trimmed() != part)
        return bad(QStringLiteral("a name part starts or ends with a blank"));
    if (part.toUtf8().size() > 63)
        return bad(QStringLiteral("a name part is longer than 63 bytes, PostgreSQL's limit"));
    for (QChar c : part) {
        if (c == QLatin1Char('"'))
            return bad(QStringLiteral("double quotes are not allowed (Bloomscope quotes names itself)"));
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return bad(QStringLiteral("control characters are not allowed"));
    }
    return success();
}

} // namespace

Result<QualifiedName> QualifiedName::parse(const QString &text, const QString &what)
{
    const QStringList parts = text.split(QLatin1Char('.'));
    if (parts.size() > 2)
        return makeError(ErrorKind::Usage, QStringLiteral("%1 '%2': more than one dot").arg(what, text),
                         QStringLiteral("give a plain name such as username_filter, or schema.name (a name with a "
                                        "dot in it cannot be given)"));
    for (const QString &p : parts)
        if (auto s = checkPart(p, text, what); !s)
            return s.error();
    QualifiedName n;
    if (parts.size() == 2) {
        n.schema = parts[0];
        n.name = parts[1];
    } else
        n.name = parts[0];
    return n;
}

QString QualifiedName::quoted() const
{
    return schema.isEmpty() ? quoteIdent(name) : quoteIdent(schema) + QLatin1Char('.') + quoteIdent(name);
}

} // namespace bloom
