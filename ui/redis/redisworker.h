#pragma once

#include "local/localredis.h"
#include "redis/redisstore.h"

#include <QMetaType>
#include <QObject>
#include <QPointF>

#include <memory>

namespace bloom {

/** The database steps of one name in the Redis filter, with its positions. */
struct RedisStep {
    QByteArray name;
    redisbloom::Positions positions;
    bool shaBit = false, fnvBit = false;
};

/** One refresh: the fill, and the model's curves worked out on the worker. */
struct RedisRefresh {
    RedisFill fill;
    double modelFpr = 0, textbookFpr = 0; ///< at the estimated number of names
    quint64 latticeStep = 1;
    QList<QPointF> modelCurve, textbookCurve; ///< FPR against names, up to twice the estimate
};

/** On its own thread, with its own connection: fill, steps and samples of a Redis bitmap filter. */
class RedisWorker : public QObject {
    Q_OBJECT
public:
    RedisWorker();
    ~RedisWorker() override;

    /** Starts a private redis-server with `names` demo names under the reference's key first. */
    void startDemo(qint64 names);
    void open(const bloom::RedisTarget &target, const QByteArray &key, quint64 bits);
    void refresh();
    void step(int token, const QByteArray &name);
    void sample(qint64 probes);

signals:
    void opened(const QString &where, const QByteArray &key, quint64 bits);
    void failed(const QString &what, const bloom::Error &error);
    void refreshed(const bloom::RedisRefresh &refresh);
    void stepped(int token, const bloom::RedisStep &step);
    void sampled(qint64 probes, double measured);

private:
    std::unique_ptr<LocalRedis> mDemo;
    std::unique_ptr<RedisConn> mConn;
    std::unique_ptr<RedisFilter> mFilter;
    RedisTarget mTarget;
};

} // namespace bloom

Q_DECLARE_METATYPE(bloom::RedisRefresh)
Q_DECLARE_METATYPE(bloom::RedisStep)
Q_DECLARE_METATYPE(bloom::RedisTarget)
