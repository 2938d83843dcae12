#pragma once

#include "common/result.h"
#include "model/chunkdamage.h"
#include "model/placement.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <vector>

typedef struct pg_conn PGconn;

namespace bloom {

/**
 * The check on the sign-up path, through libpq itself: prepared once per connection (PQprepare), run
 * with binary int4 parameters and a binary bool back (PQexecPrepared), so a check is one round trip
 * with nothing to parse. A batch is pipelined (libpq 14+): every check is sent, then one sync, then
 * the answers are read in order. Behind a transaction pool (`unnamed`) nothing is prepared on the server:
 * each check sends its statement with its parameters (PQexecParams, the unnamed statement), since a
 * prepared one stays on a server connection that the next transaction may not get.
 */
class PreparedCheck {
public:
    /** `table` quoted; `k` positions a name. Prepares on first use, unless `unnamed`. */
    PreparedCheck(PGconn *pg, const QString &table, int k, bool unnamed = false);
    ~PreparedCheck();
    PreparedCheck(const PreparedCheck &) = delete;
    PreparedCheck &operator=(const PreparedCheck &) = delete;

    /** Maybe, Free, or what stands in the way of an answer: a NULL row, no row. */
    Result<RowVerdict> check(const Placement &p);
    /** The same for many names, pipelined in windows of `window` checks. */
    Result<QList<RowVerdict>> checkPipelined(const QList<Placement> &placements, int window = 1000);

    /** The statement, as prepared ("select get_bit(bits, $2) & ... = 1 from T where chunk = $1"). */
    const QByteArray &sql() const { return mSql; }

private:
    Status prepare();

    PGconn *mPg;
    QByteArray mName, mSql;
    QString mWhat;
    int mK;
    bool mPrepared = false;
    bool mUnnamed = false;
    std::vector<unsigned int> mTypes; ///< int4 for every parameter
};

} // namespace bloom
