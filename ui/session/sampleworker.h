#pragma once

#include "session/requestgate.h"
#include "session/sessiontypes.h"

#include <QObject>

namespace bloom {

/**
 * Samples the measured FPR on a thread and a connection of its own, so that the session's refreshes
 * go on while it runs. Each sample opens a read-only session, attaches, answers its probes through
 * BatchCheck (past its crossover one read of the filter, the probes answered from memory a block at
 * a time; below it FilterStore::sampleFpr) and closes; the gate's cancel stops it between blocks and
 * cancels the statement (the read's COPY included).
 */
class SampleWorker : public QObject {
    Q_OBJECT
public:
    explicit SampleWorker(RequestGate *gate);

public slots:
    void sample(int token, const bloom::ConnectionSpec &spec, const bloom::FilterRef &ref, qint64 probes);

signals:
    void progress(int token, const bloom::SampleProgress &progress);
    void sampled(int token, const bloom::FprSample &sample);
    void failed(bloom::Operation operation, int token, const bloom::Error &error, bool lost);

private:
    RequestGate *mGate;
};

} // namespace bloom
