#include "redis/redisstore.h"

#include "local/demo.h"
#include "model/name.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QUrl>
#include <QUrlQuery>

#include <hiredis/hiredis.h>

#include <array>
#include <cmath>
#include <map>
#include <mutex>

namespace bloom {

namespace {

using ReplyPtr = std::unique_ptr<redisReply, decltype(&freeReplyObject)>;

constexpr int PipelineBatch = 10000;

std::vector<const char *> argvPointers(const QList<QByteArray> &argv, std::vector<size_t> *lens)
{
    std::vector<const char *> ptrs;
    for (const QByteArray &a : argv) {
        ptrs.push_back(a.constData());
        lens->push_back(size_t(a.size()));
    }
    return ptrs;
}

Error serverError(const redisReply *r, const QString &what)
{
    const QString msg = QString::fromUtf8(r->str, int(r->len));
    QString fix;
    if (msg.startsWith(QLatin1String("WRONGTYPE")))
        fix = QStringLiteral("the key holds another Redis type, not a bitmap string: is --key right?");
    else if (msg.startsWith(QLatin1String("NOAUTH")) || msg.startsWith(QLatin1String("WRONGPASS")))
        fix = QStringLiteral("set the password in REDISCLI_AUTH");
    return makeError(ErrorKind::Server, QStringLiteral("%1: %2").arg(what, msg), fix);
}

} // namespace

Result<RedisTarget> RedisTarget::parse(const QString &url)
{
    RedisTarget t;
    const QUrl u(url, QUrl::StrictMode);
    if (!u.isValid() || (u.scheme() != QLatin1String("redis") && u.scheme() != QLatin1String("unix")))
        return makeError(ErrorKind::Usage, QStringLiteral("'%1' is not a Redis URL").arg(url),
                         QStringLiteral("use redis://host:port/db or unix:///path/to/redis.sock"));
    if (u.scheme() == QLatin1String("unix")) {
        t.socketPath = u.path();
        t.db = QUrlQuery(u).queryItemValue(QStringLiteral("db")).toInt();
    } else {
        if (!u.host().isEmpty())
            t.host = u.host();
        t.port = u.port(6379);
        const QString path = u.path().mid(1);
        bool ok = true;
        if (!path.isEmpty())
            t.db = path.toInt(&ok);
        if (!ok || t.db < 0)
            return makeError(ErrorKind::Usage, QStringLiteral("'%1': the database after / must be a number").arg(url));
        if (!u.password().isEmpty())
            t.password = u.password().toUtf8();
    }
    if (t.password.isEmpty())
        t.password = qgetenv("REDISCLI_AUTH");
    return t;
}

QString RedisTarget::describe() const
{
    const QString where = socketPath.isEmpty() ? QStringLiteral("%1:%2").arg(host, QString::number(port)) : socketPath;
    return QStringLiteral("redis %1 db %2").arg(where, QString::number(db));
}

RedisConn::RedisConn(redisContext *c, RedisTarget target)
    : mCtx(c)
    , mTarget(std::move(target))
{
}

RedisConn::~RedisConn()
{
    if (mCtx)
        redisFree(mCtx);
}

Result<std::unique_ptr<RedisConn>> RedisConn::open(const RedisTarget &target, int timeoutSeconds)
{
    const timeval tv{timeoutSeconds, 0};
    redisContext *c = target.socketPath.isEmpty()
                          ? redisConnectWithTimeout(target.host.toUtf8().constData(), target.port, tv)
                          : redisConnectUnixWithTimeout(target.socketPath.toUtf8().constData(), tv);
    if (!c)
        return makeError(ErrorKind::Connection, QStringLiteral("cannot allocate a Redis connection"));
    if (c->err) {
        const QString why = QString::fromUtf8(c->errstr);
        redisFree(c);
        return makeError(ErrorKind::Connection, QStringLiteral("cannot connect to %1: %2").arg(target.describe(), why),
                         QStringLiteral("is redis-server running there? check the URL's host and port"));
    }
    redisSetTimeout(c, tv);
    std::unique_ptr<RedisConn> conn(new RedisConn(c, target));
    if (!target.password.isEmpty())
        if (auto r = conn->bytes({"AUTH", target.password}); !r)
            return makeError(ErrorKind::Authentication,
                             QStringLiteral("%1: authentication failed").arg(target.describe()),
                             QStringLiteral("check REDISCLI_AUTH"));
    if (target.db != 0)
        if (auto r = conn->bytes({"SELECT", QByteArray::number(target.db)}); !r)
            return r.error();
    if (auto r = conn->bytes({"PING"}); !r)
        return r.error();
    return conn;
}

Error RedisConn::replyError(const QString &what) const
{
    return makeError(ErrorKind::Connection,
                     QStringLiteral("%1 on %2: %3").arg(what, mTarget.describe(), QString::fromUtf8(mCtx->errstr)),
                     QStringLiteral("the connection to Redis was lost; reconnect"));
}

Result<std::shared_ptr<redisReply>> RedisConn::command(const QList<QByteArray> &argv)
{
    std::vector<size_t> lens;
    auto ptrs = argvPointers(argv, &lens);
    std::shared_ptr<redisReply> r(
        static_cast<redisReply *>(redisCommandArgv(mCtx, int(ptrs.size()), ptrs.data(), lens.data())),
        &freeReplyObject);
    if (!r)
        return replyError(QString::fromUtf8(argv.value(0)));
    if (r->type == REDIS_REPLY_ERROR)
        return serverError(r.get(), QString::fromUtf8(argv.value(0)));
    return r;
}

Result<qint64> RedisConn::integer(const QList<QByteArray> &argv)
{
    auto r = command(argv);
    if (!r)
        return r.error();
    if ((*r)->type != REDIS_REPLY_INTEGER)
        return makeError(ErrorKind::Server, QStringLiteral("%1: unexpected reply type %2")
                                                .arg(QString::fromUtf8(argv.value(0)), QString::number((*r)->type)));
    return qint64((*r)->integer);
}

Result<QByteArray> RedisConn::bytes(const QList<QByteArray> &argv)
{
    auto reply = command(argv);
    if (!reply)
        return reply.error();
    const redisReply *r = reply->get();
    if (r->type == REDIS_REPLY_NIL)
        return QByteArray();
    if (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS)
        return QByteArray(r->str, qsizetype(r->len));
    return QByteArray::number(qint64(r->integer));
}

Result<std::vector<qint64>> RedisConn::pipelineIntegers(const QList<QList<QByteArray>> &commands)
{
    std::vector<qint64> out;
    out.reserve(size_t(commands.size()));
    for (qsizetype start = 0; start < commands.size(); start += PipelineBatch) {
        const qsizetype end = qMin(commands.size(), start + PipelineBatch);
        for (qsizetype i = start; i < end; ++i) {
            std::vector<size_t> lens;
            auto ptrs = argvPointers(commands[i], &lens);
            if (redisAppendCommandArgv(mCtx, int(ptrs.size()), ptrs.data(), lens.data()) != REDIS_OK)
                return replyError(QStringLiteral("a pipelined command"));
        }
        Error first{};
        bool failed = false;
        for (qsizetype i = start; i < end; ++i) {
            void *raw = nullptr;
            if (redisGetReply(mCtx, &raw) != REDIS_OK)
                return replyError(QStringLiteral("a pipelined reply"));
            ReplyPtr r(static_cast<redisReply *>(raw), &freeReplyObject);
            if (r->type == REDIS_REPLY_ERROR) {
                if (!failed)
                    first = serverError(r.get(), QString::fromUtf8(commands[i].value(0)));
                failed = true; // read every reply so the connection stays in step
            } else if (r->type != REDIS_REPLY_INTEGER) {
                if (!failed)
                    first = makeError(ErrorKind::Server,
                                      QStringLiteral("%1: the server answered a reply of type %2, "
                                                     "not an integer")
                                          .arg(QString::fromUtf8(commands[i].value(0)), QString::number(r->type)));
                failed = true;
            } else {
                out.push_back(qint64(r->integer));
            }
        }
        if (failed)
            return first;
    }
    return out;
}

Error RedisFilter::outOfRange(const char *command, qint64 value, const QString &expected) const
{
    return makeError(ErrorKind::Server,
                     QStringLiteral("redis answered %1 %2 for key %3, where %4 are possible: not a Redis server "
                                    "Bloomscope can read")
                         .arg(QLatin1String(command), QString::number(value), QString::fromUtf8(mKey), expected),
                     QStringLiteral("check --redis: is it a redis-server, and does the key hold the filter?"));
}

RedisFilter::RedisFilter(RedisConn &conn, QByteArray key, quint64 bits)
    : mConn(conn)
    , mKey(std::move(key))
    , mBits(bits)
{
}

Status RedisFilter::attach()
{
    auto type = mConn.bytes({"TYPE", mKey});
    if (!type)
        return type.error();
    if (*type == "none") {
        mExists = false;
        return success();
    }
    if (*type != "string")
        return makeError(
            ErrorKind::ForeignFilter,
            QStringLiteral("key %1 is a Redis %2, not a bitmap").arg(QString::fromUtf8(mKey), QString::fromUtf8(*type)),
            QStringLiteral("pass the filter's key with --key"));
    auto len = mConn.integer({"STRLEN", mKey});
    if (!len)
        return len.error();
    if (*len < 0)
        return outOfRange("STRLEN", *len, QStringLiteral("0 or more bytes"));
    if (quint64(*len) * 8 > mBits + 7)
        return makeError(
            ErrorKind::ForeignFilter,
            QStringLiteral("key %1 holds %2 bits, more than the filter's m = %3: a filter of another size?")
                .arg(QString::fromUtf8(mKey), QString::number(quint64(*len) * 8), QString::number(mBits)),
            QStringLiteral("pass its size with --bits"));
    mExists = true;
    return success();
}

Result<QList<bool>> RedisFilter::check(const QList<QByteArray> &names)
{
    QList<QList<QByteArray>> cmds;
    for (const QByteArray &n : names) {
        if (auto v = validateName(n); !v)
            return v.error();
        const auto p = redisbloom::positions(n, mBits);
        cmds.append({"GETBIT", mKey, QByteArray::number(p.sha256)});
        cmds.append({"GETBIT", mKey, QByteArray::number(p.fnv)});
    }
    auto bits = mConn.pipelineIntegers(cmds);
    if (!bits)
        return bits.error();
    for (qint64 b : *bits)
        if (b != 0 && b != 1)
            return outOfRange("GETBIT", b, QStringLiteral("0 or 1"));
    QList<bool> out;
    for (qsizetype i = 0; i < names.size(); ++i)
        out.append((*bits)[size_t(2 * i)] == 1 && (*bits)[size_t(2 * i + 1)] == 1);
    return out;
}

Status RedisFilter::add(const QList<QByteArray> &names)
{
    QList<QList<QByteArray>> cmds;
    for (const QByteArray &n : names) {
        if (auto v = validateName(n); !v)
            return v.error();
        const auto p = redisbloom::positions(n, mBits);
        cmds.append({"SETBIT", mKey, QByteArray::number(p.sha256), "1"});
        cmds.append({"SETBIT", mKey, QByteArray::number(p.fnv), "1"});
    }
    auto r = mConn.pipelineIntegers(cmds);
    if (!r)
        return r.error();
    mExists = true;
    return success();
}

quint64 RedisModel::latticeStep() const
{
    // A sha256 value of 2^p (p >= 59 but for 2^-197 of names) is a double with 2^(p-52) | value,
    // so value mod m is a multiple of the largest power of two that divides m (at least 2^7).
    quint64 step = 1;
    while (step < (quint64(1) << 7) && mBits % (step * 2) == 0)
        step *= 2;
    return step;
}

namespace {

/**
 * FNV-1a's positions are far from uniform: once x * 16777619 passes 2^53 the double drops low
 * bits, so a position is odd for about 1/8 of names, twice an odd number for 1/8, and so on down
 * the powers of two. Class v holds the positions divisible by 2^v but not 2^(v+1) (m / 2^(v+1) of
 * them when 2^v divides m); its share of names is measured once on a sample of usernames.
 */
struct FnvModel {
    int top = 0; ///< classes 0..top-1, then "divisible by 2^top" (sha256's lattice)
    std::array<double, 64> weight{};
    std::array<double, 64> positions{};
};

FnvModel fnvModel(quint64 m, quint64 latticeStep)
{
    FnvModel f;
    while ((quint64(1) << f.top) < latticeStep)
        ++f.top;
    const QList<QByteArray> sample = demoNames(20000, 4242);
    for (const QByteArray &n : sample) {
        const quint64 pos = redisbloom::positions(n, m).fnv;
        int v = 0;
        while (v < f.top && pos % (quint64(2) << v) == 0)
            ++v;
        f.weight[size_t(v)] += 1.0 / double(sample.size());
    }
    for (int v = 0; v < f.top; ++v)
        f.positions[size_t(v)] = double(m) / double(quint64(2) << v);
    f.positions[size_t(f.top)] = double(m) / double(latticeStep);
    return f;
}

const FnvModel &cachedModel(quint64 m, quint64 step)
{
    static std::mutex mutex;
    static std::map<quint64, FnvModel> models;
    std::lock_guard lock(mutex);
    auto it = models.find(m);
    if (it == models.end())
        it = models.emplace(m, fnvModel(m, step)).first;
    return it->second;
}

} // namespace

double RedisModel::latticeBitSet(double n) const
{
    const FnvModel &f = cachedModel(mBits, latticeStep());
    const double lattice = f.positions[size_t(f.top)];
    return 1 - std::exp(-n / lattice - n * f.weight[size_t(f.top)] / lattice);
}

double RedisModel::fnvBitSet(double n) const
{
    const FnvModel &f = cachedModel(mBits, latticeStep());
    double p = f.weight[size_t(f.top)] * latticeBitSet(n);
    for (int v = 0; v < f.top; ++v)
        p += f.weight[size_t(v)] * (1 - std::exp(-n * f.weight[size_t(v)] / f.positions[size_t(v)]));
    return p;
}

double RedisModel::expectedSetBits(double n) const
{
    const FnvModel &f = cachedModel(mBits, latticeStep());
    double bits = f.positions[size_t(f.top)] * latticeBitSet(n);
    for (int v = 0; v < f.top; ++v)
        bits += f.positions[size_t(v)] * (1 - std::exp(-n * f.weight[size_t(v)] / f.positions[size_t(v)]));
    return bits;
}

double RedisModel::modelFpr(double n) const
{
    return latticeBitSet(n) * fnvBitSet(n);
}

double RedisModel::naiveModelFpr(double n) const
{
    const double p = 1 - std::exp(-2.0 * n / double(mBits));
    return p * p;
}

Result<RedisFill> RedisFilter::fill(quint64 blockBits, const std::atomic<bool> *cancel)
{
    QElapsedTimer t;
    t.start();
    RedisFill f;
    f.bits = mBits;
    f.blockBits = qMax<quint64>(8, blockBits / 8 * 8);
    f.takenAt = QDateTime::currentDateTimeUtc();
    if (auto s = attach(); !s)
        return s.error();
    auto len = mConn.integer({"STRLEN", mKey});
    if (!len)
        return len.error();
    if (*len < 0)
        return outOfRange("STRLEN", *len, QStringLiteral("0 or more bytes"));
    f.keyBytes = *len;
    const quint64 blocks = (mBits + f.blockBits - 1) / f.blockBits;
    QList<QList<QByteArray>> cmds;
    const quint64 blockBytes = f.blockBits / 8;
    for (quint64 b = 0; b < blocks; ++b) // BITCOUNT key start end: a byte range
        cmds.append(
            {"BITCOUNT", mKey, QByteArray::number(b * blockBytes), QByteArray::number((b + 1) * blockBytes - 1)});
    auto counts = mConn.pipelineIntegers(cmds);
    if (!counts)
        return counts.error();
    if (cancel && cancel->load())
        return makeError(ErrorKind::Cancelled, QStringLiteral("the fill was cancelled"));
    for (qint64 c : *counts) {
        // A server's number, checked before anything shows it: a block has 0..blockBits bits set.
        if (c < 0 || quint64(c) > f.blockBits)
            return outOfRange("BITCOUNT", c, QStringLiteral("0 to %1 bits a block").arg(f.blockBits));
        f.setBits.push_back(quint32(c));
        f.totalSet += quint64(c);
    }
    // The lattice sha256 can reach: read in pieces of 64 KiB (GETRANGE), never the key at once.
    const quint64 step = latticeStep();
    f.latticeSize = mBits / step;
    constexpr qint64 Piece = 64 * 1024;
    for (qint64 start = 0; start < f.keyBytes; start += Piece) {
        auto piece = mConn.bytes({"GETRANGE", mKey, QByteArray::number(start), QByteArray::number(start + Piece - 1)});
        if (!piece)
            return piece.error();
        const quint64 firstBit = quint64(start) * 8;
        for (quint64 pos = (firstBit + step - 1) / step * step;
             pos < firstBit + quint64(piece->size()) * 8 && pos < mBits; pos += step)
            if (quint8(piece->at(qsizetype((pos - firstBit) / 8))) & (0x80u >> (pos % 8)))
                ++f.latticeSet;
    }
    const double m = double(mBits);
    const double f2 = double(f.totalSet) / m;
    f.naiveFpr = f2 * f2;
    // n from the set bits (the expected count grows with n: bisection), then the lattice's
    // measured share times the chance that a probe's FNV bit is set.
    double lo = 0, hi = 64 * m;
    if (model().expectedSetBits(hi) <= double(f.totalSet))
        lo = hi;
    for (int i = 0; i < 200 && hi - lo > 0.5; ++i) {
        const double mid = (lo + hi) / 2;
        (model().expectedSetBits(mid) < double(f.totalSet) ? lo : hi) = mid;
    }
    f.estimatedNames = lo;
    f.estimatedFpr =
        double(f.latticeSet) / double(qMax<quint64>(1, f.latticeSize)) * model().fnvBitSet(f.estimatedNames);
    f.elapsedMs = t.elapsed();
    return f;
}

Result<QByteArray> RedisFilter::blockBits(quint64 block, quint64 blockBits)
{
    const quint64 bytes = qMax<quint64>(1, blockBits / 8);
    auto r =
        mConn.bytes({"GETRANGE", mKey, QByteArray::number(block * bytes), QByteArray::number((block + 1) * bytes - 1)});
    if (!r)
        return r.error();
    QByteArray out(qsizetype(bytes * 8), '0');
    for (qsizetype i = 0; i < r->size(); ++i)
        for (int b = 0; b < 8; ++b)
            if (quint8(r->at(i)) & (0x80 >> b)) // Redis: offset 0 is the most significant bit
                out[i * 8 + b] = '1';
    return out;
}

Result<double> RedisFilter::sampleFpr(qint64 probes)
{
    QList<QByteArray> names;
    QRandomGenerator rng = QRandomGenerator::securelySeeded();
    for (qint64 i = 0; i < probes; ++i)
        names.append("bloomscope-probe-" + QByteArray::number(rng.generate64(), 36));
    auto v = check(names);
    if (!v)
        return v.error();
    return probes ? double(v->count(true)) / double(probes) : 0.0;
}

} // namespace bloom
