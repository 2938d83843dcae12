#include "redis/redisworker.h"

#include "local/demo.h"
#include "model/name.h"

namespace bloom {

RedisWorker::RedisWorker() = default;
RedisWorker::~RedisWorker() = default;

void RedisWorker::startDemo(qint64 names)
{
    mDemo = std::make_unique<LocalRedis>();
    if (auto s = mDemo->start(); !s) {
        emit failed(tr("starting the demo redis-server"), s.error());
        return;
    }
    auto conn = RedisConn::open(mDemo->target());
    if (!conn) {
        emit failed(tr("the demo"), conn.error());
        return;
    }
    RedisFilter f(**conn);
    if (auto s = f.add(demoNames(names)); !s) {
        emit failed(tr("the demo"), s.error());
        return;
    }
    open(mDemo->target(), redisbloom::ReferenceKey, redisbloom::ReferenceBits);
}

void RedisWorker::open(const RedisTarget &target, const QByteArray &key, quint64 bits)
{
    mFilter.reset();
    mConn.reset();
    auto conn = RedisConn::open(target);
    if (!conn) {
        emit failed(tr("connecting"), conn.error());
        return;
    }
    auto filter = std::make_unique<RedisFilter>(**conn, key, bits);
    if (auto s = filter->attach(); !s) {
        emit failed(tr("attaching the filter"), s.error());
        return;
    }
    mConn = std::move(conn).value();
    mFilter = std::move(filter);
    mTarget = target;
    emit opened(target.describe(), key, bits);
    refresh();
}

void RedisWorker::refresh()
{
    if (!mFilter)
        return;
    auto fill = mFilter->fill();
    if (!fill) {
        emit failed(tr("refresh"), fill.error());
        return;
    }
    RedisRefresh r;
    r.fill = *fill;
    const RedisModel model = mFilter->model();
    r.modelFpr = model.modelFpr(fill->estimatedNames);
    r.textbookFpr = model.naiveModelFpr(fill->estimatedNames);
    r.latticeStep = model.latticeStep();
    const double top = qMax(2.0 * fill->estimatedNames, 100000.0);
    for (int i = 1; i <= 100; ++i) {
        const double n = top * i / 100.0;
        r.modelCurve.append({n, model.modelFpr(n)});
        r.textbookCurve.append({n, model.naiveModelFpr(n)});
    }
    emit refreshed(r);
}

void RedisWorker::step(int token, const QByteArray &name)
{
    if (!mFilter)
        return;
    if (auto v = validateName(name); !v) {
        emit failed(tr("step-through"), v.error());
        return;
    }
    RedisStep s;
    s.name = name;
    s.positions = redisbloom::positions(name, mFilter->bits());
    auto bits = mConn->pipelineIntegers({{"GETBIT", mFilter->key(), QByteArray::number(s.positions.sha256)},
                                         {"GETBIT", mFilter->key(), QByteArray::number(s.positions.fnv)}});
    if (!bits) {
        emit failed(tr("step-through"), bits.error());
        return;
    }
    s.shaBit = (*bits)[0] == 1;
    s.fnvBit = (*bits)[1] == 1;
    emit stepped(token, s);
}

void RedisWorker::sample(qint64 probes)
{
    if (!mFilter)
        return;
    auto r = mFilter->sampleFpr(probes);
    if (!r)
        emit failed(tr("sample"), r.error());
    else
        emit sampled(probes, *r);
}

} // namespace bloom
