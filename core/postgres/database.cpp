#include "postgres/database.h"

#include "postgres/connectfailure.h"
#include "postgres/pgarray.h"
#include "postgres/pgconn.h"
#include "postgres/pgdriver.h"
#include "postgres/pgerror.h"

#include <QElapsedTimer>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

#include <libpq-fe.h>

#include <atomic>

namespace bloom {

namespace {

std::atomic<PGcancel *> gSignalCancel{nullptr};

QString uniqueConnectionName()
{
    static std::atomic<int> counter{0};
    return QStringLiteral("bloomscope-%1").arg(counter.fetch_add(1));
}

} // namespace

CancelHandle::CancelHandle(PGconn *conn)
    : mCancel(conn ? PQgetCancel(conn) : nullptr)
{
}

CancelHandle::~CancelHandle()
{
    if (mCancel)
        PQfreeCancel(mCancel);
}

void CancelHandle::cancel() const
{
    // PQcancel only reads the key: concurrent calls from several threads are safe (libpq's docs).
    if (!mCancel)
        return;
    char err[256];
    PQcancel(mCancel, err, sizeof err);
}

Database::Database(QSqlDatabase db, ConnectionSpec spec)
    : mDb(std::move(db))
    , mName(mDb.connectionName())
    , mSpec(std::move(spec))
{
}

Database::~Database()
{
    {
        std::lock_guard lock(mCancelMutex);
        PGcancel *expected = mCancel;
        gSignalCancel.compare_exchange_strong(expected, nullptr);
        if (mCancel)
            PQfreeCancel(mCancel);
        mCancel = nullptr;
    }
    mDb.close();
    mDb = QSqlDatabase();
    QSqlDatabase::removeDatabase(mName);
}

ConnectionSpec Database::sessionSpec(const ConnectionSpec &spec, const Options &options)
{
    ConnectionSpec s = spec;
    if (!s.has(QStringLiteral("connect_timeout")))
        s.set(QStringLiteral("connect_timeout"), QString::number(options.connectTimeoutSeconds));
    // A fallback only: an application_name in the conninfo, or PGAPPNAME, names the session instead.
    if (!s.has(QStringLiteral("application_name")) && !s.has(QStringLiteral("fallback_application_name")))
        s.set(QStringLiteral("fallback_application_name"), QStringLiteral("bloomscope"));
    return s;
}

Result<std::unique_ptr<Database>> Database::open(const ConnectionSpec &specIn, const Options &options)
{
    const ConnectionSpec session = sessionSpec(specIn, options);
    const QString conninfo = session.toConninfo();
    if (conninfo.contains(QLatin1Char(';')))
        return makeError(ErrorKind::Connection,
                         QStringLiteral("a connection option contains ';', which Qt's PostgreSQL driver cannot pass"),
                         QStringLiteral("put the password in ~/.pgpass or the options in a service file"));

    const QString name = uniqueConnectionName();
    std::unique_ptr<Database> d;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(new PgDriver, name);
        // The whole libpq string passes through: service files, sslmode, PG* variables and ~/.pgpass apply.
        db.setConnectOptions(conninfo);
        d.reset(new Database(db, specIn));
    }
    QElapsedTimer connecting;
    connecting.start();
    if (!d->mDb.open()) {
        const QSqlError e = d->mDb.lastError();
        QString text = e.databaseText().trimmed();
        if (text.isEmpty())
            text = e.driverText().trimmed();
        // The driver keeps nothing of the failed attempt but libpq's words (in the client's language): the
        // cause is found from what libpq reports of an attempt of its own, and classified as every failure is.
        return pg::classify(pg::connectFailure(session, specIn, text, connecting.elapsed(),
                                               session.value(QStringLiteral("connect_timeout")).toInt() * 1000),
                            {});
    }
    const QVariant handle = d->mDb.driver()->handle();
    if (handle.isValid() && (qstrcmp(handle.typeName(), "pg_conn*") == 0 || qstrcmp(handle.typeName(), "PGconn*") == 0))
        d->mPg = *static_cast<PGconn *const *>(handle.constData());
    if (!d->mPg)
        return makeError(ErrorKind::Connection,
                         QStringLiteral("Qt's PostgreSQL driver did not expose its libpq handle (type %1)")
                             .arg(QString::fromLatin1(handle.typeName())));
    d->mCancel = PQgetCancel(d->mPg);
    escapeNotices(d->mPg); // a server's NOTICE reaches stderr with its escape sequences escaped
    d->mCancelHandle = std::make_shared<const CancelHandle>(d->mPg);

    QSqlQuery q(d->mDb);
    if (!q.exec(
            QStringLiteral("select current_setting('server_encoding'), current_setting('server_version'), "
                           "pg_catalog.pg_is_in_recovery(), current_setting('port'), pg_catalog.pg_backend_pid()")) ||
        !q.next())
        return queryError(q, QStringLiteral("reading the server encoding"));
    const QString encoding = q.value(0).toString();
    d->mServerVersion = q.value(1).toString();
    d->mInRecovery = q.value(2).toBool();
    // Something in between listens on another port than the server (a pooler): which mode it pools in
    // decides whether any session state may be set at all.
    if (q.value(3).toString() != QString::fromUtf8(PQport(d->mPg))) {
        const int mine = q.value(4).toInt();
        q.finish();
        d->mPooling = d->probePooling(session.toConninfo(), mine);
    }
    if (encoding != QLatin1String("UTF8"))
        return makeError(ErrorKind::Encoding,
                         QStringLiteral("database %1 uses the %2 encoding, not UTF8: md5(lower(name)) would hash "
                                        "other bytes than the application's")
                             .arg(d->mSpec.describe(), encoding),
                         QStringLiteral("keep the filter in a UTF8 database (create database ... encoding 'UTF8' "
                                        "template template0)"));
    // The role's own search_path names where unqualified filter names live; then pin the session's.
    if (!q.exec(QStringLiteral("select s from pg_catalog.unnest(pg_catalog.current_schemas(false)) "
                               "with ordinality as t(s, o) order by o")))
        return queryError(q, QStringLiteral("reading the search_path"));
    while (q.next())
        d->mUserSchemas << q.value(0).toString();
    if (d->mPooling != Pooling::None) {
        // Behind a transaction pool the server connection serves other clients after each transaction, and
        // a pool's mode is found by looking, not told: behind any pooler nothing is set for the session.
        // Every transaction sets search_path locally, and begins read only in a read-only session.
        static_cast<PgDriver *>(d->mDb.driver())->setPooled(true, options.readOnly);
    } else {
        if (auto s =
                d->exec(QStringLiteral("select pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false)"));
            !s)
            return s.error();
        if (options.readOnly) {
            if (auto s = d->exec(QStringLiteral("set default_transaction_read_only = on")); !s)
                return s.error();
        }
    }
    d->mOptions = options;
    return d;
}

Pooling Database::probePooling(const QString &conninfo, int backend)
{
    // A session pool gives this session one server backend until it ends, and never gives that one to
    // another client meanwhile; a transaction pool hands it on after each transaction, most likely
    // (PgBouncer reuses the last one freed) to the next client to ask. So ask as another client, then as
    // this session, three times: any answer that names this session's first backend to the other client,
    // or another backend to this session, is a transaction pool. (Another client of a busy pool can take
    // the backend in between, hence more than one look.)
    PgConn other(conninfo, PgConn::SearchPath::AsConfigured, PgConn::Wait{1000, nullptr});
    QSqlQuery q(mDb);
    for (int round = 0; round < 3; ++round) {
        if (other.ok())
            if (auto r = other.column(QStringLiteral("select pg_catalog.pg_backend_pid()"));
                r && !r->isEmpty() && r->first().toInt() == backend)
                return Pooling::Transaction;
        if (q.exec(QStringLiteral("select pg_catalog.pg_backend_pid()")) && q.next() && q.value(0).toInt() != backend)
            return Pooling::Transaction;
        if (!other.ok())
            break; // the pool has no server connection for another client: this one is this session's alone
    }
    return Pooling::Session;
}

QString Database::describePooling() const
{
    switch (mPooling) {
    case Pooling::None:
        return {};
    case Pooling::Session:
        return QStringLiteral("a session pool (a pooler such as PgBouncer in pool_mode = session): the session has a "
                              "server connection of its own");
    case Pooling::Transaction:
        return QStringLiteral("a transaction pool (a pooler such as PgBouncer in pool_mode = transaction): each "
                              "transaction sets what it needs locally and leaves nothing on the server connection; "
                              "rebuild needs a session and is refused here");
    }
    return {};
}

Status Database::requireSession(const QString &what, const QString &why) const
{
    if (mPooling != Pooling::Transaction)
        return success();
    return makeError(ErrorKind::Refused,
                     QStringLiteral("%1 needs a session of its own (%2), and this connection goes through a "
                                    "transaction pool, which hands the server connection to other clients after "
                                    "each transaction")
                         .arg(what, why),
                     QStringLiteral("connect to the server directly, or through a session pool (PgBouncer "
                                    "pool_mode = session, e.g. a second [databases] entry with pool_mode=session)"));
}

QString ServerRole::describe() const
{
    if (!inRecovery)
        return QStringLiteral("primary");
    QString out = QStringLiteral("standby (read-only replica)");
    if (replayLagSeconds)
        out += QStringLiteral(", replay lag %1 s").arg(qMax(0.0, *replayLagSeconds), 0, 'f', 1);
    else
        out += QStringLiteral(", nothing replayed yet");
    if (receivedAhead > 0)
        out += QStringLiteral(" (%L1 bytes received, not yet replayed)").arg(receivedAhead);
    return out;
}

QString ServerRole::describeSubscription() const
{
    if (subscription.isEmpty())
        return QString();
    return subscriptionLagSeconds
               ? QStringLiteral("subscriber of %1, lag %2 s")
                     .arg(subscription, QString::number(qMax(0.0, *subscriptionLagSeconds), 'f', 1))
               : QStringLiteral("subscriber of %1, its apply worker is not running").arg(subscription);
}

Result<ServerRole> Database::readRole()
{
    // On a primary the replay functions are NULL. The lag is the age of the last replayed commit: it
    // grows while the primary writes nothing, which is why the received-but-not-replayed bytes go with it.
    QSqlQuery q(mDb);
    if (!q.exec(QStringLiteral(
            "select pg_catalog.pg_is_in_recovery(), "
            "extract(epoch from pg_catalog.now() - pg_catalog.pg_last_xact_replay_timestamp())::float8, "
            "pg_catalog.pg_last_wal_replay_lsn()::text, "
            "(pg_catalog.pg_last_wal_replay_lsn() - '0/0'::pg_catalog.pg_lsn)::int8, "
            "greatest(pg_catalog.pg_last_wal_receive_lsn() - pg_catalog.pg_last_wal_replay_lsn(), 0)::int8")) ||
        !q.next())
        return queryError(q, QStringLiteral("reading whether the server is a standby"));
    ServerRole r;
    r.inRecovery = q.value(0).toBool();
    if (!q.value(1).isNull())
        r.replayLagSeconds = q.value(1).toDouble();
    r.replayLsn = q.value(2).toString();
    r.replayLsnBytes = q.value(3).isNull() ? -1 : q.value(3).toLongLong();
    r.receivedAhead = q.value(4).toLongLong();
    mInRecovery = r.inRecovery; // a promotion ends recovery: writes are no longer refused up front
    q.finish();
    // A logical subscriber: its enabled subscriptions of this database, the one furthest behind first
    // (pg_subscription's columns but the connection string are readable by every role).
    if (q.exec(
            QStringLiteral("select s.subname::text, extract(epoch from pg_catalog.now() - w.latest_end_time)::float8 "
                           "from pg_catalog.pg_subscription s left join pg_catalog.pg_stat_subscription w "
                           "  on w.subid = s.oid and w.relid is null "
                           "where s.subenabled and s.subdbid = (select d.oid from pg_catalog.pg_database d "
                           "  where d.datname = pg_catalog.current_database()) "
                           "order by w.latest_end_time is not null, w.latest_end_time limit 1")) &&
        q.next()) {
        r.subscription = q.value(0).toString();
        if (!q.value(1).isNull())
            r.subscriptionLagSeconds = q.value(1).toDouble();
    }
    return r;
}

Status Database::requirePrimary(const QString &what) const
{
    if (!mInRecovery)
        return success();
    Error e =
        makeError(ErrorKind::Server,
                  QStringLiteral("%1: this server is a standby (read-only replica): connect to the primary").arg(what),
                  QStringLiteral("run it against the primary server; this standby shows the write once it has "
                                 "replayed it"));
    e.sqlState = QStringLiteral("25006");
    return e;
}

void Database::cancel()
{
    std::lock_guard lock(mCancelMutex);
    if (!mCancel)
        return;
    char err[256];
    PQcancel(mCancel, err, sizeof err);
}

void Database::setSignalTarget()
{
    gSignalCancel.store(mCancel);
}

void Database::cancelFromSignal()
{
    // PQcancel is documented as safe to call from a signal handler.
    if (PGcancel *c = gSignalCancel.load()) {
        char err[256];
        PQcancel(c, err, sizeof err);
    }
}

Status Database::exec(const QString &sql)
{
    QSqlQuery q(mDb);
    if (!q.exec(sql))
        return queryError(q, sql.left(80));
    return success();
}

Error Database::queryError(const QSqlQuery &q, const QString &what)
{
    return pg::classify(pg::failureOf(q), what);
}

QString Database::quoteLiteral(const QString &value) const
{
    const QByteArray utf8 = value.toUtf8();
    char *q = PQescapeLiteral(mPg, utf8.constData(), size_t(utf8.size()));
    const QString out = q ? QString::fromUtf8(q) : QStringLiteral("NULL");
    if (q)
        PQfreemem(q);
    return out;
}

Result<QualifiedName> Database::resolve(const QString &text, const QString &what, ObjectKind kind)
{
    auto n = QualifiedName::parse(text, what);
    if (!n || !n->schema.isEmpty())
        return n;
    if (mUserSchemas.isEmpty())
        return makeError(ErrorKind::Usage,
                         QStringLiteral("%1 %2: no schema of the role's search_path exists to hold it").arg(what, text),
                         QStringLiteral("give the schema: %1 SCHEMA.%2").arg(what, text));
    QSqlQuery q(mDb);
    const QString exists =
        kind == ObjectKind::Table
            ? QStringLiteral("select 1 from pg_catalog.pg_class c where c.relnamespace = n.oid and c.relname = ?")
            : QStringLiteral("select 1 from pg_catalog.pg_proc p where p.pronamespace = n.oid and p.proname = ? "
                             "and p.proargtypes = '25'::pg_catalog.oidvector");
    q.prepare(
        QStringLiteral("select n.nspname from pg_catalog.unnest(?::text[]) with ordinality as s(nsp, o) "
                       "join pg_catalog.pg_namespace n on n.nspname = s.nsp where exists (%1) order by s.o limit 1")
            .arg(exists));
    QList<QByteArray> schemas;
    for (const QString &s : mUserSchemas)
        schemas << s.toUtf8();
    q.addBindValue(textArray(schemas));
    q.addBindValue(n->name);
    if (!q.exec())
        return queryError(q, QStringLiteral("looking up %1").arg(text));
    n->schema = q.next() ? q.value(0).toString() : mUserSchemas.first();
    return n;
}

} // namespace bloom
