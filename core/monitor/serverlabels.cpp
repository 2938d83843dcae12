#include "monitor/serverlabels.h"

#include <libpq-fe.h>

namespace bloom::monitor {

ServerLabels serverLabels(PGconn *conn)
{
    if (!conn)
        return {};
    const auto text = [](const char *s) { return s ? QString::fromUtf8(s) : QString(); };
    return ServerLabels{text(PQhost(conn)) + QLatin1Char(':') + text(PQport(conn)), text(PQdb(conn))};
}

ServerLabels serverLabels(const QString &conninfo)
{
    // libpq resolves the options when a connection starts; the attempt is dropped at once.
    PGconn *conn = PQconnectStart(conninfo.toUtf8().constData());
    const ServerLabels out = serverLabels(conn);
    PQfinish(conn);
    return out;
}

} // namespace bloom::monitor
