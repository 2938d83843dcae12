#pragma once

#include "common/result.h"
#include "redis/redisbloom.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

struct redisContext;
struct redisReply;

namespace bloom {

/** Where a Redis server is: redis://[:password@]host[:port][/db] or unix:///path/to/socket[?db=N].
 *  A password in the URL is accepted (as redis-cli does) but REDISCLI_AUTH is the better place. */
struct RedisTarget {
    QString host = QStringLiteral("127.0.0.1");
    int port = 6379;
    QString socketPath;
    int db = 0;
    QByteArray password; ///< never printed
    static Result<RedisTarget> parse(const QString &url);
    QString describe() const; ///< without the password
};

/** One hiredis connection; binary-safe commands and pipelines. Used by one thread. */
class RedisConn {
public:
    ~RedisConn();
    static Result<std::unique_ptr<RedisConn>> open(const RedisTarget &target, int timeoutSeconds = 5);

    /** An integer reply (SETBIT, GETBIT, BITCOUNT, STRLEN, EXISTS). */
    Result<qint64> integer(const QList<QByteArray> &argv);
    /** A bulk or status reply, as bytes (GETRANGE, TYPE, PING). */
    Result<QByteArray> bytes(const QList<QByteArray> &argv);
    /** Many commands in one round trip; the integer replies in order. */
    Result<std::vector<qint64>> pipelineIntegers(const QList<QList<QByteArray>> &commands);

private:
    explicit RedisConn(redisContext *c, RedisTarget target);
    /** Runs one command; a Redis error reply becomes an Error. */
    Result<std::shared_ptr<redisReply>> command(const QList<QByteArray> &argv);
    Error replyError(const QString &what) const;
    redisContext *mCtx = nullptr;
    RedisTarget mTarget;
};

/** What the reference's positions do to the false-positive rate of a filter of m bits (no Redis needed). */
struct RedisModel {
    quint64 mBits = redisbloom::ReferenceBits;

    /** Positions sha256 can reach: multiples of gcd(m, 2^(lowest exponent of the doubles)). */
    quint64 latticeStep() const;
    /**
     * The FPR of n names under the positions JavaScript really computes: sha256 confined to its
     * lattice (multiples of 128 for m = 10^7), and FNV-1a uneven because its multiplies round in
     * doubles: positions divisible by 2^v get a share of names measured on sample usernames.
     */
    double modelFpr(double names) const;
    /** The set bits n names leave, under the same model (to estimate n from a fill). */
    double expectedSetBits(double names) const;
    /** The chance that a probe's FNV bit is set / that a lattice bit is set, for n names. */
    double fnvBitSet(double names) const;
    double latticeBitSet(double names) const;
    /** The textbook (1 - e^(-kn/m))^k with k = 2: what the reference's design assumed. */
    double naiveModelFpr(double names) const;
};

/** The fill of a Redis bitmap filter, per block of bits, read with BITCOUNT ranges. */
struct RedisFill {
    quint64 bits = 0;             ///< m
    quint64 blockBits = 0;        ///< bits a block (a multiple of 8)
    std::vector<quint32> setBits; ///< per block (the last may be short)
    qint64 keyBytes = 0;          ///< STRLEN: the bitmap grows to its highest set bit
    quint64 totalSet = 0;
    quint64 latticeSet = 0; ///< set bits among the positions sha256 can reach
    quint64 latticeSize = 0;
    double estimatedNames = 0;
    double estimatedFpr = 0; ///< from the fill, the lattice included
    double naiveFpr = 0;     ///< (set/m)^2, what the textbook formula says
    QDateTime takenAt;
    qint64 elapsedMs = 0;
};

/**
 * The reference's Redis filter: one key, m bits, positions of redisbloom. add = SETBIT (pipelined),
 * check = GETBIT (pipelined), fill per block with BITCOUNT ranges - never the whole key at once.
 */
class RedisFilter {
public:
    RedisFilter(RedisConn &conn, QByteArray key = redisbloom::ReferenceKey, quint64 bits = redisbloom::ReferenceBits);

    /** Checks the key: absent (an empty filter), a string not longer than m bits, or an error. */
    Status attach();
    bool exists() const { return mExists; }
    const QByteArray &key() const { return mKey; }
    quint64 bits() const { return mBits; }

    /** true = maybe (both bits set), false = definitely free. */
    Result<QList<bool>> check(const QList<QByteArray> &names);
    Status add(const QList<QByteArray> &names);
    Result<RedisFill> fill(quint64 blockBits = 8192, const std::atomic<bool> *cancel = nullptr);
    /** One block's bits, '0'/'1' (bit 0 first, Redis order: the MSB of each byte first). */
    Result<QByteArray> blockBits(quint64 block, quint64 blockBits = 8192);
    /** The share of `probes` never-added names that check maybe. */
    Result<double> sampleFpr(qint64 probes);

    /** The model of this filter's positions (see RedisModel). */
    RedisModel model() const { return RedisModel{mBits}; }
    quint64 latticeStep() const { return model().latticeStep(); }
    double modelFpr(double names) const { return model().modelFpr(names); }
    double naiveModelFpr(double names) const { return model().naiveModelFpr(names); }

private:
    /** A reply whose number cannot be (a negative BITCOUNT, a GETBIT of 7): a server not to be shown. */
    Error outOfRange(const char *command, qint64 value, const QString &expected) const;
    RedisConn &mConn;
    QByteArray mKey;
    quint64 mBits;
    bool mExists = false;
};

} // namespace bloom
