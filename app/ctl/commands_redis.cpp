// bloomctl on the reference's Redis bitmap filter: --redis URL [--key KEY] [--bits M].
#include "commands.h"
#include "context.h"

#include "common/printable.h"
#include "local/demo.h"
#include "local/localredis.h"
#include "redis/redisstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

#include <unistd.h>

namespace bloom::cli {

namespace {

struct RedisSession {
    RedisTarget target;
    std::unique_ptr<RedisConn> conn;
    std::unique_ptr<RedisFilter> filter;
};

/** --bits: m, from 8 to 2^32 (a Redis string holds at most 512 MiB). */
Result<qint64> bitsOption(const Args &a)
{
    return wholeOption(a, "bits", qint64(redisbloom::ReferenceBits), 8, qint64(1) << 32);
}

Result<RedisSession> openRedis(const Args &a)
{
    auto target = RedisTarget::parse(a.option("redis"));
    if (!target)
        return target.error();
    const auto bits = bitsOption(a);
    if (!bits)
        return bits.error();
    auto conn = RedisConn::open(*target);
    if (!conn)
        return conn.error();
    RedisSession s;
    s.target = *target;
    s.conn = std::move(conn).value();
    s.filter = std::make_unique<RedisFilter>(
        *s.conn, a.option("key", QString::fromLatin1(redisbloom::ReferenceKey)).toUtf8(), quint64(*bits));
    if (auto st = s.filter->attach(); !st)
        return st.error();
    return s;
}

QString pct(double v)
{
    return QString::number(v * 100, 'g', 4) + QLatin1Char('%');
}

int redisExplain(Context &c, RedisFilter *filter, quint64 bits)
{
    bool bad = false;
    const QList<QByteArray> names = c.names(1, &bad);
    QJsonArray json;
    for (const QByteArray &n : names) {
        const auto p = redisbloom::positions(n, bits);
        std::optional<bool> maybe;
        if (filter) {
            auto v = filter->check({n});
            if (!v)
                return c.fail(v.error());
            maybe = v->first();
        }
        if (c.json()) {
            QJsonObject o{{QStringLiteral("name"), QString::fromUtf8(n)},
                          {QStringLiteral("bits"), qint64(bits)},
                          {QStringLiteral("sha256"), QString::fromLatin1(p.sha256Hex)},
                          {QStringLiteral("sha256_number"), p.sha256Number},
                          {QStringLiteral("sha256_position"), qint64(p.sha256)},
                          {QStringLiteral("fnv1a"), qint64(p.fnvUnsigned)},
                          {QStringLiteral("fnv1a_position"), qint64(p.fnv)}};
            if (maybe)
                o.insert(QStringLiteral("verdict"), *maybe ? QStringLiteral("maybe") : QStringLiteral("free"));
            json.append(o);
            continue;
        }
        c.out() << "name        " << escapeField(n) << "\n"
                << "sha256      " << p.sha256Hex << "\n"
                << "  parseInt(hex, 16) = " << QString::number(p.sha256Number, 'g', 17) << " (a double)\n"
                << "  % " << bits << " = bit " << p.sha256 << "\n"
                << "fnv-1a      " << p.fnvUnsigned << " (hash >>> 0, over " << QString::fromUtf8(n).size()
                << " UTF-16 code units)\n"
                << "  % " << bits << " = bit " << p.fnv << "\n";
        if (maybe)
            c.out() << "verdict     " << (*maybe ? "maybe" : "definitely free") << "\n";
        c.out() << "\n";
    }
    if (c.json())
        c.out() << QJsonDocument(json).toJson(QJsonDocument::Indented);
    return bad ? ExitBadInput : ExitOk;
}

} // namespace

int cmdRedisDemo(Context &c)
{
    // A private redis-server with the reference's key holding generated names, until Ctrl-C.
    const auto generate = wholeOption(c.args(), "generate", 100000, 1, 10'000'000);
    if (!generate)
        return c.usage(generate.error().message);
    const qint64 count = *generate;
    LocalRedis redis;
    if (auto st = redis.start(); !st)
        return c.fail(st.error());
    auto conn = RedisConn::open(redis.target());
    if (!conn)
        return c.fail(conn.error());
    RedisFilter f(**conn);
    if (auto st = f.add(demoNames(count)); !st)
        return c.fail(st.error());
    c.out() << "demo ready: " << count << " names in " << redisbloom::ReferenceKey << "\n"
            << "  --redis " << redis.url() << "\n"
            << "press Ctrl-C to stop it\n";
    c.out().flush();
    while (!Context::interrupted().load())
        ::pause();
    return ExitOk;
}

int runRedis(Context &c)
{
    const Args &a = c.args();
    const QString command = a.positional.first();
    const auto bits = bitsOption(a);
    if (!bits)
        return c.usage(bits.error().message);
    // Probes of fpr --sample: each is a pipelined pair of GETBITs.
    const auto probes = wholeOption(a, "sample", 100000, 1, 10'000'000);
    if (!probes)
        return c.usage(probes.error().message);
    if (command == QLatin1String("explain") && !a.has("redis"))
        return redisExplain(c, nullptr, quint64(*bits));
    auto s = openRedis(a);
    if (!s)
        return c.fail(s.error());
    RedisFilter &f = *s->filter;
    if (command == QLatin1String("explain"))
        return redisExplain(c, &f, f.bits());
    if (command == QLatin1String("check") || command == QLatin1String("add")) {
        bool bad = false;
        const QList<QByteArray> names = c.names(1, &bad);
        if (command == QLatin1String("add")) {
            if (auto st = f.add(names); !st)
                return c.fail(st.error());
            if (c.json())
                c.out() << QJsonDocument(QJsonObject{{QStringLiteral("key"), QString::fromUtf8(f.key())},
                                                     {QStringLiteral("added"), qint64(names.size())}})
                               .toJson(QJsonDocument::Indented);
            else
                c.out() << "added " << names.size() << " name(s) to " << escapeField(f.key()) << "\n";
            return bad ? ExitBadInput : ExitOk;
        }
        auto v = f.check(names);
        if (!v)
            return c.fail(v.error());
        QJsonArray json;
        for (qsizetype i = 0; i < names.size(); ++i) {
            if (c.json())
                json.append(QJsonObject{
                    {QStringLiteral("name"), QString::fromUtf8(names[i])},
                    {QStringLiteral("verdict"), v->at(i) ? QStringLiteral("maybe") : QStringLiteral("free")}});
            else
                c.out() << escapeField(names[i]) << '\t' << (v->at(i) ? "maybe" : "free") << '\n';
        }
        if (c.json())
            c.out() << QJsonDocument(json).toJson(QJsonDocument::Indented);
        return bad ? ExitBadInput : ExitOk;
    }
    if (command == QLatin1String("info") || command == QLatin1String("fill")) {
        auto fill = f.fill(8192, &Context::interrupted());
        if (!fill)
            return c.fail(fill.error());
        const double n = fill->estimatedNames;
        if (command == QLatin1String("fill") && a.flag("csv")) {
            c.out() << "block,set_bits\n";
            for (size_t b = 0; b < fill->setBits.size(); ++b)
                c.out() << b << ',' << fill->setBits[b] << '\n';
            return ExitOk;
        }
        if (c.json()) {
            c.out() << QJsonDocument(QJsonObject{{QStringLiteral("key"), QString::fromUtf8(f.key())},
                                                 {QStringLiteral("exists"), f.exists()},
                                                 {QStringLiteral("bits"), qint64(f.bits())},
                                                 {QStringLiteral("key_bytes"), fill->keyBytes},
                                                 {QStringLiteral("set_bits"), qint64(fill->totalSet)},
                                                 {QStringLiteral("lattice_set"), qint64(fill->latticeSet)},
                                                 {QStringLiteral("lattice_size"), qint64(fill->latticeSize)},
                                                 {QStringLiteral("estimated_names"), n},
                                                 {QStringLiteral("estimated_fpr"), fill->estimatedFpr},
                                                 {QStringLiteral("naive_fpr"), fill->naiveFpr},
                                                 {QStringLiteral("model_fpr"), f.modelFpr(n)},
                                                 {QStringLiteral("blocks"), qint64(fill->setBits.size())},
                                                 {QStringLiteral("elapsed_ms"), fill->elapsedMs}})
                           .toJson(QJsonDocument::Indented);
            return ExitOk;
        }
        const double m = double(f.bits());
        c.out() << "filter      Redis bitmap " << escapeField(f.key()) << " on " << s->target.describe()
                << (f.exists() ? "" : " (the key does not exist yet: an empty filter)") << "\n"
                << "size        m = " << f.bits() << " bits, k = 2 (sha256, FNV-1a), key " << fill->keyBytes
                << " bytes\n"
                << "set bits    " << fill->totalSet << " (" << pct(double(fill->totalSet) / m) << ") in "
                << fill->setBits.size() << " blocks of " << fill->blockBits << " bits, read with BITCOUNT in "
                << fill->elapsedMs << " ms\n"
                << "sha256      reaches only " << fill->latticeSize << " positions (multiples of " << f.latticeStep()
                << ": JavaScript parses the hash into a double), " << fill->latticeSet << " of them set ("
                << pct(double(fill->latticeSet) / double(qMax<quint64>(1, fill->latticeSize))) << ")\n"
                << "names       ~" << qRound64(n) << " (from the set bits)\n"
                << "FPR         " << pct(fill->estimatedFpr) << " from the fill, model " << pct(f.modelFpr(n))
                << "; the textbook (1 - e^(-kn/m))^k says " << pct(f.naiveModelFpr(n)) << "\n";
        return ExitOk;
    }
    if (command == QLatin1String("fpr")) {
        auto fill = f.fill(8192, &Context::interrupted());
        if (!fill)
            return c.fail(fill.error());
        auto measured = f.sampleFpr(*probes);
        if (!measured)
            return c.fail(measured.error());
        if (c.json()) {
            c.out() << QJsonDocument(QJsonObject{{QStringLiteral("key"), QString::fromUtf8(f.key())},
                                                 {QStringLiteral("probes"), *probes},
                                                 {QStringLiteral("measured_fpr"), *measured},
                                                 {QStringLiteral("estimated_fpr"), fill->estimatedFpr},
                                                 {QStringLiteral("estimated_names"), fill->estimatedNames},
                                                 {QStringLiteral("model_fpr"), f.modelFpr(fill->estimatedNames)},
                                                 {QStringLiteral("naive_fpr"), f.naiveModelFpr(fill->estimatedNames)}})
                           .toJson(QJsonDocument::Indented);
            return ExitOk;
        }
        c.out() << "measured    " << pct(*measured) << " (" << *probes << " never-added probes)\n"
                << "estimate    " << pct(fill->estimatedFpr) << " from the fill (~" << qRound64(fill->estimatedNames)
                << " names)\n"
                << "model       " << pct(f.modelFpr(fill->estimatedNames)) << " (JavaScript's positions)\n"
                << "textbook    " << pct(f.naiveModelFpr(fill->estimatedNames)) << " ((1 - e^(-kn/m))^k, k = 2)\n";
        return ExitOk;
    }
    return c.usage(QStringLiteral("with --redis the commands are info, fill, fpr, check, add and explain"));
}

} // namespace bloom::cli
