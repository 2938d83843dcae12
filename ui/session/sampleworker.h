#pragma once

#include "session/requestgate.h"
#include "session/sessiontypes.h"

#include <QObject>

namespace bloom {

/**
 * Samples the measured FPR on a thread and a connection of its own, so that the session's refreshes
 * go on while it runs. Each sample opens a read-only session, attaches, streams its probes a block
 * at a time (FilterStore::sampleFpr) and closes; the gate's cancel stops it between blocks and
 * cancels the block's statement.
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
