#pragma once
// What the benchmarks measure against: the reference's check statement, prepared and pipelined as an
// application would send it (libpq's pipeline mode, a sync every 1,000 names).

#include <QByteArray>
#include <QList>

#include <libpq-fe.h>

namespace bench {

/** Sends the prepared one-parameter `statement` for names[0..count) and reads every answer. */
inline void pipelinePrepared(PGconn *conn, const char *statement, const QList<QByteArray> &names, qint64 count)
{
    PQenterPipelineMode(conn);
    for (qint64 from = 0; from < count; from += 1000) {
        for (qint64 i = from; i < qMin(count, from + 1000); ++i) {
            const char *v = names[i].constData();
            PQsendQueryPrepared(conn, statement, 1, &v, nullptr, nullptr, 0);
        }
        PQpipelineSync(conn);
        for (;;) {
            PGresult *r = PQgetResult(conn);
            if (!r)
                continue;
            const bool sync = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
            PQclear(r);
            if (sync)
                break;
        }
    }
    PQexitPipelineMode(conn);
}

} // namespace bench
