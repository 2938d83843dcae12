#include "postgres/connectionspec.h"

#include "postgres/pgconn.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <libpq-fe.h>

namespace bloom {

Result<ConnectionSpec> ConnectionSpec::parse(const QString &conninfo)
{
    ConnectionSpec spec;
    if (conninfo.trimmed().isEmpty())
        return spec;
    // libpq's (and psql's) rule: a word without '=' that is not a URI is a database name.
    const QString trimmed = conninfo.trimmed();
    if (!trimmed.contains(QLatin1Char('=')) && !trimmed.startsWith(QLatin1String("postgresql://")) &&
        !trimmed.startsWith(QLatin1String("postgres://"))) {
        spec.mOptions.append({QStringLiteral("dbname"), trimmed});
        return spec;
    }
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

bool isBlank(char c)
{
    return std::isspace(uchar(c)) != 0; // libpq's own test (conninfo_parse)
}

bool isSecretKeyword(QByteArrayView key)
{
    return key == "password" || key == "sslpassword";
}

void overwrite(char *from, const char *to)
{
    for (; from < to; ++from)
        *from = 'x';
}

/** A URI component decoded as libpq decodes it (%XX; '+' stays a plus). */
QByteArray uriDecoded(const char *from, const char *to)
{
    return QByteArray::fromPercentEncoding(QByteArray(from, to - from));
}

/** `s` read as libpq's key = value syntax (conninfo_parse): whitespace around '=', values in quotes
 *  or not, a backslash escaping the next character in either. Stops where libpq would fail. */
int scrubKeyValues(char *s)
{
    int scrubbed = 0;
    char *p = s;
    while (*p) {
        if (isBlank(*p)) {
            ++p;
            continue;
        }
        const char *key = p;
        while (*p && *p != '=' && !isBlank(*p))
            ++p;
        const QByteArrayView keyword(key, p - key);
        while (*p && isBlank(*p))
            ++p;
        if (*p != '=')
            return scrubbed; // not a connection string (or libpq refuses the rest)
        ++p;
        while (*p && isBlank(*p))
            ++p;
        char *value = p;
        char *valueEnd = nullptr;
        if (*p == '\'') {
            value = ++p;
            while (*p && *p != '\'') {
                if (*p == '\\' && p[1])
                    ++p;
                ++p;
            }
            valueEnd = p;
            if (*p)
                ++p;
        } else {
            while (*p && !isBlank(*p)) {
                if (*p == '\\' && p[1])
                    ++p;
                ++p;
            }
            valueEnd = p;
        }
        if (isSecretKeyword(keyword) && valueEnd > value) {
            overwrite(value, valueEnd);
            ++scrubbed;
        }
    }
    return scrubbed;
}

/** `s` read as libpq's URI (conninfo_uri_parse_options): the userinfo's password, and the query's
 *  parameters whose percent-decoded key is a password (`passwor%64=`). */
int scrubUri(char *s)
{
    const char *prefix = nullptr;
    for (const char *scheme : {"postgresql://", "postgres://"})
        if (qstrncmp(s, scheme, qstrlen(scheme)) == 0)
            prefix = scheme;
    if (!prefix)
        return 0;
    int scrubbed = 0;
    char *start = s + qstrlen(prefix);
    char *p = start;
    while (*p && *p != '@' && *p != '/') // libpq looks this far for user credentials
        ++p;
    char *rest = start;
    if (*p == '@') {
        char *colon = start;
        while (colon < p && *colon != ':')
            ++colon;
        if (colon < p && colon + 1 < p) {
            overwrite(colon + 1, p);
            ++scrubbed;
        }
        rest = p + 1;
    }
    char *query = std::strchr(rest, '?');
    if (!query)
        return scrubbed;
    for (char *param = query + 1; *param;) {
        char *end = param;
        while (*end && *end != '&')
            ++end;
        char *eq = static_cast<char *>(std::memchr(param, '=', size_t(end - param)));
        if (eq && isSecretKeyword(uriDecoded(param, eq)) && eq + 1 < end) {
            overwrite(eq + 1, end);
            ++scrubbed;
        }
        param = *end ? end + 1 : end;
    }
    return scrubbed;
}

int scrubOne(char *s)
{
    // The argument itself, and the value of an `--option=value` argument.
    int scrubbed = scrubUri(s) + scrubKeyValues(s);
    if (s[0] == '-')
        if (char *eq = std::strchr(s, '='))
            scrubbed += scrubUri(eq + 1) + scrubKeyValues(eq + 1);
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

ProcessArguments::ProcessArguments(int argc, char **argv)
{
    mOriginal.reserve(argc);
    for (int i = 0; i < argc; ++i)
        mOriginal.append({argv[i], QByteArray(argv[i])});
    mScrubbed = scrubPasswordsInArgv(argc, argv);
}

QList<QByteArray> ProcessArguments::remaining(int argc, char **argv) const
{
    QList<QByteArray> out;
    for (int i = 1; i < argc; ++i) {
        const auto it = std::find_if(mOriginal.cbegin(), mOriginal.cend(),
                                     [arg = argv[i]](const auto &o) { return o.first == arg; });
        out.append(it != mOriginal.cend() ? it->second : QByteArray(argv[i]));
    }
    return out;
}

} // namespace bloom
