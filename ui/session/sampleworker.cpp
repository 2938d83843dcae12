#include "session/sampleworker.h"

#include "postgres/batchcheck.h"

namespace bloom {

SampleWorker::SampleWorker(RequestGate *gate)
    : mGate(gate)
{
}

void SampleWorker::sample(int token, const ConnectionSpec &spec, const FilterRef &ref, qint64 probes)
{
    const GateScope gate(*mGate, token);
    if (!gate) {
        emit failed(Operation::Sample, token,
                    makeError(ErrorKind::Cancelled, tr("sample: cancelled before it started")), false);
        return;
    }
    Database::Options o;
    o.readOnly = true; // a sample only reads
    auto db = Database::open(spec, o);
    if (!db) {
        emit failed(Operation::Sample, token, db.error(), false);
        return;
    }
    mGate->setConnection((*db)->cancelHandle());
    struct Forget { // the gate never keeps the key of a session closed here
        RequestGate *gate;
        ~Forget() { gate->setConnection(nullptr); }
    } forget{mGate};
    FilterStore store(**db, ref);
    store.setCancelFlag(mGate->flag());
    if (auto s = store.attach(); !s) {
        emit failed(Operation::Sample, token, s.error(), false);
        return;
    }
    // Past BatchCheck's crossover the filter is read once (one snapshot) and the probes answered from
    // memory on every core; progress every 20 ms at most, the gate's flag and cancel stop it.
    BatchCheck batch(store);
    auto s = batch.sampleFpr(probes, [&](qint64 done, qint64 total, qint64 falsePositives) {
        emit progress(token, SampleProgress{done, total, falsePositives});
    });
    if (!s) {
        emit failed(Operation::Sample, token, s.error(), false);
        return;
    }
    emit sampled(token, *s);
}

} // namespace bloom
