#pragma once

#include <QString>

typedef struct pg_conn PGconn;

namespace bloom::monitor {

/** The server and database of a connection for metrics' labels: host:port and dbname as libpq resolved
 *  them (a socket's directory as its host), never a user or password. */
struct ServerLabels {
    QString server;
    QString database;
};

/** The labels of an open connection (PQhost, PQport, PQdb). */
ServerLabels serverLabels(PGconn *conn);
/** The labels of `conninfo` as libpq resolves it (service file, PG* variables, defaults), for a server that
 *  could not be reached: the same strings an open connection gives, so the series stay the same. */
ServerLabels serverLabels(const QString &conninfo);

} // namespace bloom::monitor
