#include "postgres/connectionspec.h"

#include "postgres/pgconn.h"
#include <cctype>
#include <cstring>

#include <libpq-fe.h>

namespace bloom {

Result<ConnectionSpec> ConnectionSpec::parse(const QString &conninfo)
{
    ConnectionSpec spec;
    if (conninfo.trimmed().isEmpty())
        return spec;
    char *errmsg = nullptr;
    PQconninfoOption *opts = PQconninfoParse(conninfo.toUtf8().constData(), &errmsg);
    if (!opts) {
        const QString why = errmsg ? QString::fromUtf8(errmsg).trimmed() : QStringLiteral("out of memory");
        PQfreemem(errmsg);
        return makeError(ErrorKind::Connection, QStringLiteral("bad connection string: %1").arg(why),
                         QStringLiteral("give 'host=... port=... dbname=... user=...' or "
                                        "'postgresql://user@host:port/dbname' (a password belongs in ~/.pgpass)"));
    }
    for (PQconninfoOption *o = opts; o->keyword; ++o)
        if (o->val && *o->val)
            spec.mOptions.append({QString::fromUtf8(o->keyword), QString::fromUtf8(o->val)});
    PQconninfoFree(opts);
    return spec;
}

QString ConnectionSpec::value(const QString &keyword) const
{
    for (const auto &[k, v] : mOptions)
        if (k == keyword)
            return v;
    return {};
}

void ConnectionSpec::set(const QString &keyword, const QString &value)
{
    for (auto &[k, v] : mOptions)
        if (k == keyword) {
            v = value;
            return;
        }
    mOptions.append({keyword, value});
}

QString ConnectionSpec::toConninfo() const
{
    QStringList parts;
    for (const auto &[k, v] : mOptions)
        parts << k + QLatin1Char('=') + quoteConninfoValue(v);
    return parts.join(QLatin1Char(' '));
}

ConnectionSpec ConnectionSpec::withoutPassword() const
{
    ConnectionSpec out;
    for (const auto &[k, v] : mOptions)
        if (k != QLatin1String("password"))
            out.mOptions.append({k, v});
    return out;
}

QString ConnectionSpec::describe() const
{
    if (has(QStringLiteral("service")) && !has(QStringLiteral("host")))
        return QStringLiteral("service %1").arg(value(QStringLiteral("service")));
    const QString user = has(QStringLiteral("user")) ? value(QStringLiteral("user")) + QLatin1Char('@') : QString();
    QString host = value(QStringLiteral("host"));
    if (host.isEmpty())
        host = value(QStringLiteral("hostaddr"));
    if (host.isEmpty())
        host = qEnvironmentVariable("PGHOST", QStringLiteral("localhost"));
    if (host.startsWith(QLatin1Char('/')))
        host = QStringLiteral("[socket %1]").arg(host);
    const QString port = value(QStringLiteral("port"));
    const QString db = value(QStringLiteral("dbname"));
    return user + host + (port.isEmpty() ? QString() : QLatin1Char(':') + port) + QLatin1Char('/') +
           (db.isEmpty() ? qEnvironmentVariable("PGDATABASE", QStringLiteral("(default)")) : db);
}

namespace {

int scrubOne(char *s)
{
    int scrubbed = 0;
    const size_t n = strlen(s);
    // key=value: password [spaces] = [spaces] value (quoted with '...' or up to a blank or '&').
    for (size_t i = 0; i + 8 <= n; ++i) {
        if (strncmp(s + i, "password", 8) != 0 || (i > 0 && (isalnum(uchar(s[i - 1])) || s[i - 1] == '_')))
            continue;
        size_t j = i + 8;
        while (j < n && s[j] == ' ')
            ++j;
        if (j >= n || s[j] != '=')
            continue;
        ++j;
        while (j < n && s[j] == ' ')
            ++j;
        if (j < n && s[j] == '\'') {
            for (++j; j < n && s[j] != '\''; ++j) {
                if (s[j] == '\\' && j + 1 < n)
                    s[j++] = 'x';
                s[j] = 'x';
            }
        } else {
            for (; j < n && s[j] != ' ' && s[j] != '&'; ++j)
                s[j] = 'x';
        }
        ++scrubbed;
    }
    // URI: scheme://user:password@host
    for (const char *scheme : {"postgresql://", "postgres://"}) {
        const char *at = strstr(s, scheme);
        if (!at)
            continue;
        char *auth = const_cast<char *>(at) + strlen(scheme);
        char *end = auth;
        while (*end && *end != '@' && *end != '/' && *end != '?')
            ++end;
        if (*end != '@')
            continue;
        char *colon = static_cast<char *>(memchr(auth, ':', size_t(end - auth)));
        if (!colon)
            continue;
        for (char *p = colon + 1; p < end; ++p)
            *p = 'x';
        ++scrubbed;
    }
    return scrubbed;
}

} // namespace

int scrubPasswordsInArgv(int argc, char **argv)
{
    int scrubbed = 0;
    for (int i = 1; i < argc; ++i)
        if (argv[i])
            scrubbed += scrubOne(argv[i]);
    return scrubbed;
}

} // namespace bloom
