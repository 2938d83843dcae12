#include "maintenance/rebuild.h"

#include "maintenance/helpers.h"
#include "maintenance/nameexport.h"
#include "maintenance/publications.h"

#include "common/testhook.h"

#include "model/fprmodel.h"
#include "model/name.h"
#include "model/namereader.h"
#include "model/placement.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QThread>

#include <libpq-fe.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace bloom {

using maintenance::Helpers;
using maintenance::helpers;
using maintenance::helpersWith;

namespace {
}
using maintenance::granteesOf;
using maintenance::readerGrants;
using maintenance::trustedHelperExists;

Rebuilder::Rebuilder(Database &filterDb, RebuildOptions options)
    : mDb(filterDb)
    , mOptions(std::move(options))
{
    if (mOptions.intoFunction.isEmpty())
        mOptions.intoFunction = mOptions.intoTable + QStringLiteral("_bits");
}

Rebuilder::~Rebuilder()
{
    joinPrefault();
}

void Rebuilder::startPrefault()
{
    // The new filter's array, faulted in on every core while the grace wait sits idle (perf, 10M names
    // into 2^31 bits: the zeroing of its pages on first write was 12% of the client's samples during
    // the export, when client and server share both cores).
    const size_t bytes = size_t(mOptions.geometry.totalBytes());
    mBits.reset(bytes);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < threads; ++i)
        mPrefault.emplace_back(
            [this, bytes, i, threads] { mBits.populate(bytes * i / threads, bytes * (i + 1) / threads); });
}

void Rebuilder::joinPrefault()
{
    for (std::thread &t : mPrefault)
        t.join();
    mPrefault.clear();
}

void Rebuilder::report(const QString &stage, qint64 done, qint64 total)
{
    if (mProgress)
        mProgress(RebuildProgress{stage, done, total, mClock ? double(mClock->nsecsElapsed()) / 1e9 : 0});
}

void Rebuilder::pauseForTests(const QString &stage)
{
    bloom::pauseForTests(stage.toLatin1().constData(), mCancel);
}

Result<RebuildState> Rebuilder::state(Database &db, const FilterRef &live)
{
    RebuildState st;
    auto found = helpersWith(db, live, QString::fromLatin1(RebuildStateName));
    if (!found)
        return found.error();
    if (!*found)
        return st;
    const Helpers *h = &**found;
    // A rebuild an older Bloomscope started: its pending table has none of the write path's columns.
    {
        QSqlQuery c(db.db());
        c.prepare(QStringLiteral("select exists (select from pg_catalog.pg_attribute a join pg_catalog.pg_class t on "
                                 "t.oid = a.attrelid join pg_catalog.pg_namespace n on n.oid = t.relnamespace "
                                 "where n.nspname = ? and t.relname = 'bloomscope_pending' and a.attname = 'written' "
                                 "and not a.attisdropped)"));
        c.addBindValue(h->helperSchemaName);
        if (!c.exec() || !c.next())
            return Database::queryError(c, QStringLiteral("reading the rebuild state"));
        if (!c.value(0).toBool())
            return legacyState(db, *h);
    }
    // The running rebuild's heartbeat (a state table made before it has none: never "running").
    bool beats = false;
    {
        QSqlQuery c(db.db());
        c.prepare(QStringLiteral("select exists (select from pg_catalog.pg_attribute where attrelid = "
                                 "pg_catalog.to_regclass(?) and attname = 'heartbeat_pid' and not attisdropped)"));
        c.addBindValue(h->state);
        if (!c.exec() || !c.next())
            return Database::queryError(c, QStringLiteral("reading the rebuild state"));
        beats = c.value(0).toBool();
    }
    // Running, decided from the state table the same way on every server: on the primary, while the
    // session that beats is connected; on a standby (which sees none of the primary's sessions), while its
    // heartbeat is no older than the stale age before the newest commit replayed (a standby that lags
    // sees both as old as each other; a dead rebuild's heartbeat falls behind the primary's other commits).
    const QString running =
        beats
            ? QStringLiteral("case when stage operator(pg_catalog.=) 'ready' then false " // its last step
                             "when pg_catalog.pg_is_in_recovery() then heartbeat operator(pg_catalog.>=) "
                             "(coalesce(pg_catalog.pg_last_xact_replay_timestamp(), heartbeat) operator(pg_catalog.-) "
                             "pg_catalog.make_interval(secs => %1)) else exists (select from "
                             "pg_catalog.pg_stat_activity a where a.pid operator(pg_catalog.=) heartbeat_pid) end")
                  .arg(QString::number(heartbeatStaleSeconds()))
            : QStringLiteral("false");
    const QString ages =
        beats ? QStringLiteral("extract(epoch from pg_catalog.clock_timestamp() operator(pg_catalog.-) heartbeat), "
                               "extract(epoch from pg_catalog.clock_timestamp() operator(pg_catalog.-) stage_at)")
              : QStringLiteral("null::float8, null::float8");
    // Columns a role that may only read the filter may read too (the pending names are not among them).
    QSqlQuery q(db.db());
    if (!q.exec(QStringLiteral("select live_table, live_function, new_table, new_function, stage, started_at, "
                               "(select coalesce(sum(count), 0) from %1 where not drained), per_source, %3, "
                               "(select coalesce(sum(count), 0) from %1 where not drained and written), %4 "
                               "from %2")
                    .arg(h->pending, h->state, running, ages)))
        return Database::queryError(q, QStringLiteral("reading the rebuild state"));
    if (!q.next())
        return st;
    st.exists = true;
    st.schema = h->liveTable.schema;
    st.liveTable = q.value(0).toString();
    st.liveFunction = q.value(1).toString();
    st.newTable = q.value(2).toString();
    st.newFunction = q.value(3).toString();
    st.stage = q.value(4).toString();
    st.startedAt = q.value(5).toDateTime();
    st.pending = q.value(6).toLongLong();
    st.running = q.value(8).toBool();
    st.pendingWritten = q.value(9).toLongLong();
    st.heartbeatSeconds = q.value(10).isNull() ? -1 : q.value(10).toDouble();
    st.stageSeconds = q.value(11).isNull() ? -1 : q.value(11).toDouble();
    for (const QJsonValue &v : QJsonDocument::fromJson(q.value(7).toString().toUtf8()).array())
        st.perSource.append({v[QLatin1String("source")].toString(), qint64(v[QLatin1String("names")].toDouble())});
    return st;
}

Result<RebuildState> Rebuilder::legacyState(Database &db, const maintenance::Helpers &h)
{
    // A rebuild an older Bloomscope started: it can only be aborted (its pending table has none of the
    // write path's columns); info names it, writes are refused.
    RebuildState st;
    QSqlQuery q(db.db());
    if (!q.exec(QStringLiteral("select live_table, live_function, new_table, new_function, stage, started_at from %1")
                    .arg(h.state)))
        return Database::queryError(q, QStringLiteral("reading the rebuild state"));
    if (!q.next())
        return st;
    st.exists = true;
    st.legacy = true;
    st.schema = h.liveTable.schema;
    st.liveTable = q.value(0).toString();
    st.liveFunction = q.value(1).toString();
    st.newTable = q.value(2).toString();
    st.newFunction = q.value(3).toString();
    st.stage = q.value(4).toString();
    st.startedAt = q.value(5).toDateTime();
    return st;
}

Result<RebuildReport> Rebuilder::run()
{
    QElapsedTimer clock;
    clock.start();
    mClock = &clock;
    if (auto s = mDb.requireSession(QStringLiteral("rebuilding %1").arg(mOptions.live.table),
                                    QStringLiteral("a heartbeat that names its server session, which says to info "
                                                   "and to every standby that it runs (a transaction pool shares "
                                                   "that session with other clients)"));
        !s)
        return s.error();
    if (mOptions.sources.isEmpty() && mOptions.files.isEmpty())
        return makeError(ErrorKind::Usage, QStringLiteral("a rebuild needs --source CONNINFO or --file NAMES"));
    // The heartbeat: a session of its own stamps the state table every HeartbeatSeconds while this
    // rebuild runs, which every server (a standby too) reads as "running" (state()).
    struct Heartbeat {
        std::atomic<bool> stop{false};
        std::thread thread;
        ~Heartbeat() { end(); }
        void end()
        {
            stop.store(true);
            if (thread.joinable())
                thread.join();
        }
    } heartbeat;
    const auto beat = [this, &heartbeat] {
        auto names = helpers(mDb, mOptions.live);
        if (!names)
            return;
        const QString sql = QStringLiteral("update %1 set heartbeat = pg_catalog.clock_timestamp(), heartbeat_pid = "
                                           "pg_catalog.pg_backend_pid()")
                                .arg(names->state);
        heartbeat.thread = std::thread([conninfo = mDb.spec().toConninfo(), sql, &heartbeat] {
            PgConn c(conninfo, PgConn::SearchPath::Pinned);
            while (!heartbeat.stop.load()) {
                (void)c.exec(sql);
                for (int i = 0; i < HeartbeatSeconds * 10 && !heartbeat.stop.load(); ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        });
    };
    if (auto s = prepare(); !s)
        return s.error();
    beat();
    auto r = runPrepared();
    heartbeat.end(); // before anything drops the state table; a finished rebuild waits for its swap
    joinPrefault();
    if (r)
        return r;
    // A rebuild that fails or is cancelled leaves the live filter as it found it: the application's
    // function back, the half-built pair and the pending names gone. Only a rebuild that cannot
    // reach its server any more (or is killed) leaves that to 'rebuild --abort'.
    Error e = r.error();
    if (mDb.db().isOpen() && mDb.db().transaction())
        mDb.db().rollback(); // whatever the failure left open
    if (auto s = abort(mDb, mOptions.live); s) {
        e.message += QStringLiteral("; the live function was restored and the partial rebuild removed");
    } else {
        e.message += QStringLiteral("; restoring the live function failed too (%1), so it still records every "
                                    "name it places")
                         .arg(s.error().message);
        e.fix = QStringLiteral("run 'bloomctl rebuild --abort' once the server is reachable");
    }
    return e;
}

Result<RebuildReport> Rebuilder::runPrepared()
{
    QElapsedTimer &clock = *mClock;
    RebuildReport r;
    r.newTable = mOptions.intoTable;
    r.newFunction = mOptions.intoFunction;
    const auto stage = [this](const char *name) {
        pauseForTests(QString::fromLatin1(name));
        return cancelled() ? Status(makeError(ErrorKind::Cancelled, QStringLiteral("rebuild cancelled"))) : success();
    };
    // Names the live function places from now on are recorded. An add that happened just before
    // and whose user row commits after the export snapshot is covered by the grace wait.
    report(QStringLiteral("grace"), 0, mOptions.graceSeconds);
    // The grace wait faults the new array in (256 MiB: 0.01-0.5 s measured, more when the kernel has to
    // compact memory for huge pages; the export waits for the rest). Without a grace the export's
    // writers fault it in as they go: started before prepare(), the prefault slowed prepare's server
    // work by 0.2-0.4 s and bench_rebuild saw no gain in the export above its noise.
    if (!mOptions.sqlMethod && mOptions.graceSeconds > 0)
        startPrefault();
    for (int i = 0; i < mOptions.graceSeconds * 10 && !cancelled(); ++i)
        QThread::msleep(100);
    if (auto s = stage("export"); !s)
        return s.error();
    joinPrefault();
    QElapsedTimer t;
    t.start();
    if (auto s = mOptions.sqlMethod ? exportSql(r) : exportAndHash(r); !s)
        return s.error();
    r.exportSeconds = double(t.nsecsElapsed()) / 1e9;
    if (auto s = recordSources(r); !s)
        return s.error();
    if (auto s = stage("write"); !s)
        return s.error();
    if (!mOptions.sqlMethod) {
        t.restart();
        if (auto s = writeTable(r); !s)
            return s.error();
        r.writeSeconds = double(t.nsecsElapsed()) / 1e9 - r.indexSeconds;
    }
    r.arrayBytes = mBits.size();
    mBits.reset();
    if (auto steps = maintenance::publishRebuilt(mDb, mOptions.live, mOptions.intoTable, mOptions.intoFunction); steps)
        r.subscriberSteps = *steps;
    else
        return steps.error();
    if (auto s = stage("drain"); !s)
        return s.error();
    t.restart();
    auto st = state(mDb, mOptions.live);
    if (!st)
        return st.error();
    auto drained = drain(mDb, *st, false);
    if (!drained)
        return drained.error();
    r.drained = *drained;
    r.drainSeconds = double(t.nsecsElapsed()) / 1e9;
    auto names = helpers(mDb, mOptions.live);
    if (!names)
        return names.error();
    if (auto s = mDb.exec(QStringLiteral("update %1 set stage = 'ready', stage_at = now()").arg(names->state)); !s)
        return s.error();
    r.totalSeconds = double(clock.nsecsElapsed()) / 1e9;
    report(QStringLiteral("done"), r.exported, r.exported);
    return r;
}

Result<std::pair<QualifiedName, QualifiedName>> Rebuilder::intoNames(Database &db, const maintenance::Helpers &h,
                                                                     const QString &table, const QString &function)
{
    auto t = QualifiedName::parse(table, QStringLiteral("--into"));
    if (!t)
        return t.error();
    auto f = QualifiedName::parse(function.isEmpty() ? t->name + QStringLiteral("_bits") : function,
                                  QStringLiteral("--into-function"));
    if (!f)
        return f.error();
    for (QualifiedName *n : {&*t, &*f}) {
        if (n->schema.isEmpty())
            n->schema = h.liveTable.schema;
        else if (n->schema != h.liveTable.schema)
            return makeError(
                ErrorKind::Usage,
                QStringLiteral("%1 is not in the live filter's schema %2").arg(n->text(), h.liveTable.schema),
                QStringLiteral("the swap renames the pair in place: build it beside %1").arg(h.liveTable.text()));
    }
    (void)db;
    return std::pair{*t, *f};
}

Status Rebuilder::prepare()
{
    report(QStringLiteral("prepare"), 0, 0);
    if (auto s = maintenance::checkRebuild(mDb, mOptions.live, mOptions.intoTable, mOptions.intoFunction,
                                           mOptions.geometry, mOptions.publicationOk);
        !s)
        return s;
    FilterStore live(mDb, mOptions.live);
    if (auto s = live.attach(); !s)
        return s;
    if (mOptions.geometry.totalBits() < live.geometry().totalBits() && !mOptions.allowSmaller) {
        auto fill = live.fill();
        if (!fill)
            return fill.error();
        const double names = fill->estimatedNames();
        return makeError(
            ErrorKind::Refused,
            QStringLiteral("refusing to rebuild %1 smaller: %2 has fewer bits than the live %3; at today's "
                           "%4 names its FPR would be %5 (now %6)")
                .arg(live.tableText(), mOptions.geometry.describe(), live.geometry().describe(),
                     formatCount(std::llround(names)), fpr::oneIn(fpr::blocked(names, mOptions.geometry)),
                     fpr::oneIn(fpr::blocked(names, live.geometry()))),
            QStringLiteral("give a geometry at least as large, or pass --allow-smaller if that FPR is "
                           "what you want"));
    }
    auto existing = state(mDb, mOptions.live);
    if (!existing)
        return existing.error();
    if (existing->exists)
        return makeError(
            ErrorKind::Usage,
            QStringLiteral("a rebuild into %1 started %2 and is still %3")
                .arg(existing->newTable, existing->startedAt.toString(Qt::ISODate), existing->stage),
            QStringLiteral("finish it with 'bloomctl swap %1', or remove it with 'bloomctl rebuild --abort'")
                .arg(existing->newTable));
    auto names = helpers(mDb, mOptions.live);
    if (!names)
        return names.error();
    auto into = intoNames(mDb, *names, mOptions.intoTable, mOptions.intoFunction);
    if (!into)
        return into.error();
    mOptions.intoTable = into->first.name;
    mOptions.intoFunction = into->second.name;
    mInto = into->first;
    mIntoFunction = into->second;
    // The helper schema first (created as the live table's owner's, or refused with the SQL to run).
    if (auto s = maintenance::ensureHelperSchema(mDb, *names); !s)
        return s;
    for (const QString &helper : {QStringLiteral("bloomscope_pending"), QStringLiteral("bloomscope_swapped")})
        if (auto trusted = trustedHelperExists(mDb, *names, helper); !trusted)
            return trusted.error();
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("select pg_catalog.to_regclass(?) is not null, "
                             "pg_catalog.to_regprocedure(? || '(text)') is not null, "
                             "pg_catalog.pg_get_functiondef(pg_catalog.to_regprocedure(? || '(text)'))"));
    q.addBindValue(mInto.quoted());
    q.addBindValue(mIntoFunction.quoted());
    q.addBindValue(live.quotedFunction());
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("checking the rebuild's names"));
    if (q.value(0).toBool() || q.value(1).toBool())
        return makeError(ErrorKind::Usage,
                         QStringLiteral("%1 or %2(text) already exists").arg(mInto.text(), mIntoFunction.text()),
                         QStringLiteral("choose another --into name"));
    const QString original = q.value(2).toString();
    q.finish();

    // Who may update the live table may record names, and nobody else: both recorders go to the
    // table's UPDATE grantees (on the table or its bits column; PUBLIC only when PUBLIC may update it),
    // and the recording live function calls its recorder only when its caller may update the table. A
    // role that may only check records nothing (a check adds no name).
    auto writers = granteesOf(mDb, *names, QStringLiteral("UPDATE"));
    if (!writers)
        return writers.error();
    auto owner = maintenance::ownerAct(mDb, *names, {names->helperSchemaName, names->liveTable.schema},
                                       QStringLiteral("rebuild %1").arg(names->liveTable.text()));
    if (!owner)
        return owner.error();
    QString readers;
    for (const auto &[table, columns] :
         {std::pair{names->state, QString()}, std::pair{names->swapped, QString()},
          std::pair{names->pending, QStringLiteral("id, count, written, drained, at")}}) {
        auto grants = readerGrants(mDb, *names, table, columns);
        if (!grants)
            return grants.error();
        readers += *grants;
    }

    // The recording version of the live function: the same placement (generated from the geometry
    // attach verified), plus one insert into the pending table.
    QString recording = renderFunctionSql(live.geometry(), live.quotedFunction());
    recording.replace(QLatin1String("create function"), QLatin1String("create or replace function"));
    recording.replace(QLatin1String("\nbegin\n"),
                      QStringLiteral("\nbegin\n"
                                     "  -- bloomscope rebuild: record the name, when the caller may add names\n"
                                     "  if pg_catalog.has_column_privilege(%2::oid, 'bits', 'UPDATE') then\n"
                                     "    perform %1(name);\n"
                                     "  end if;\n")
                          .arg(names->record, QString::number(live.tableOid())));
    // SHARE on the live table first: it waits for every write in flight (they hold ROW EXCLUSIVE from
    // their guard to their commit, FilterWriter), and the writes after this commit see the recorder.
    // The pending table holds the live function's names a row each (name: checks record them too) and
    // the write path's a batch a row (names: every one of them was added).
    // As the live table's owner (when this role may act as it): the helper objects and the security
    // definer recorders are the owner's, in the helper schema only the owner may create in.
    QString sql =
        QStringLiteral(
            "set local client_min_messages = warning;\n" // no NOTICE on stderr for the drop of a table never made
            "drop table if exists %2;\n"
            "create table %1 (live_table text primary key, live_function text not null, new_table text not null, "
            "  new_function text not null, original_function text not null, stage text not null, "
            "  started_at timestamptz not null default now(), per_source text not null default '[]', "
            "  sources text not null default '[]', query text not null default '', heartbeat timestamptz "
            "  not null default now(), heartbeat_pid integer not null default pg_catalog.pg_backend_pid(), "
            "  stage_at timestamptz not null default now());\n"
            "create table %2 (id bigserial primary key, name text, names text[], "
            "  count integer not null default 1, written boolean not null default false, "
            "  drained boolean not null default false, "
            "  at timestamptz not null default now(), check ((name is null) <> (names is null)));\n"
            "alter table %2 alter column names set storage external;\n" // written once, read once: no compression
            "create index on %2 (id) where not drained;\n"
            "create function %3(name text) returns void language plpgsql security definer "
            "set search_path = pg_catalog, pg_temp as $fn$\n"
            "begin\n"
            "  if octet_length(name) > %4 then\n"
            "    raise exception using errcode = '22001', message = 'bloomscope_record: a name over 1 MiB cannot be "
            "recorded during a rebuild';\n"
            "  end if;\n"
            "  insert into %2(name) values (name);\n"
            "exception when read_only_sql_transaction then\n"
            "  null; -- a check in a read-only transaction adds no name\n"
            "end\n$fn$;\n"
            "create function %5(live regclass, names text[]) returns boolean language plpgsql security definer "
            "set search_path = pg_catalog, pg_temp as $fn$\n"
            "begin\n"
            "  if live::oid <> %6::oid then\n"
            "    return false; -- another table: this rebuild does not record its names\n"
            "  end if;\n"
            "  if coalesce(cardinality(names), 0) = 0 then\n"
            "    return true;\n"
            "  end if;\n"
            "  -- a row holds one call's names: bounded as Bloomscope writes them (FilterWriter)\n"
            "  if cardinality(names) > %7 or pg_catalog.pg_column_size(names) > %8 then\n"
            "    raise exception using errcode = '22001', message = 'bloomscope_record_names: more than %7 names "
            "or %8 bytes in one call';\n"
            "  end if;\n"
            "  insert into %2(names, count, written) values (names, cardinality(names), true);\n"
            "  return true;\n"
            "end\n$fn$;\n"
            "revoke all on function %3(text) from public;\n"
            "revoke all on function %5(regclass, text[]) from public;\n"
            "revoke all on table %1, %2 from public;\n")
            .arg(names->state, names->pending, names->record, QString::number(MaxNameBytes), names->recordNames,
                 QString::number(live.tableOid()), QString::number(FilterWriter::RecordSliceNames),
                 QString::number(FilterWriter::RecordSliceBytes + qint64(MaxNameBytes) +
                                 64 * FilterWriter::RecordSliceNames));
    for (const QString &g : *writers) {
        if (names->dedicated()) // the recorders' schema, for the roles that call them
            sql += QStringLiteral("grant usage on schema %1 to %2;\n").arg(names->helperSchema, g);
        sql += QStringLiteral("grant execute on function %1(text) to %2;\n"
                              "grant execute on function %3(regclass, text[]) to %2;\n")
                   .arg(names->record, g, names->recordNames);
    }
    // The swaps' record of the old pairs, made here (by the owner) so that drop-old finds it.
    sql += maintenance::swappedTableSql(names->swapped) + readers +
           owner->epilogue(
               {names->state, names->pending, names->swapped},
               {names->record + QStringLiteral("(text)"), names->recordNames + QStringLiteral("(regclass, text[])")});
    if (!mDb.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin the rebuild's transaction"));
    QSqlQuery tx(mDb.db());
    // SHARE by the lock policy: never queued behind an old transaction, so sign-ups go on while it waits.
    Status script = maintenance::execScript(mDb, owner->prologue, QStringLiteral("acting as the filter's owner"));
    if (script)
        script = maintenance::lockTable(mDb, live.quotedTable(), names->liveTable.text(), QStringLiteral("SHARE"),
                                        mOptions.lock);
    if (script)
        script = maintenance::execScript(mDb, sql, QStringLiteral("preparing the rebuild"));
    bool ok = script.ok();
    if (ok) {
        QJsonArray sources;
        for (const ConnectionSpec &s : mOptions.sources)
            sources.append(s.withoutPassword().toConninfo()); // never a password in a table
        tx.prepare(QStringLiteral("insert into %1 (live_table, live_function, new_table, new_function, "
                                  "original_function, stage, sources, query) values (?, ?, ?, ?, ?, 'export', ?, ?)")
                       .arg(names->state));
        tx.addBindValue(names->liveTable.name);
        tx.addBindValue(names->liveFunction.name);
        tx.addBindValue(mInto.name);
        tx.addBindValue(mIntoFunction.name);
        tx.addBindValue(original);
        tx.addBindValue(QString::fromUtf8(QJsonDocument(sources).toJson(QJsonDocument::Compact)));
        tx.addBindValue(mOptions.sources.isEmpty() ? QStringLiteral("")
                                                   : mOptions.query); // "" binds as text, QString() as null
        ok = tx.exec() && tx.exec(recording);
    }
    if (!ok) {
        Error e = script ? Database::queryError(tx, QStringLiteral("preparing the rebuild")) : script.error();
        mDb.db().rollback();
        return e;
    }
    if (!mDb.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of the rebuild's set-up failed"));
    return success();
}

Status Rebuilder::recordSources(const RebuildReport &r)
{
    auto names = helpers(mDb, mOptions.live);
    if (!names)
        return names.error();
    QJsonArray per;
    for (qsizetype i = 0; i < r.perSource.size(); ++i) {
        const QString label = i < mOptions.sources.size()
                                  ? mOptions.sources[i].describe()
                                  : QStringLiteral("file %1").arg(mOptions.files.value(i - mOptions.sources.size()));
        per.append(QJsonObject{{QStringLiteral("source"), label}, {QStringLiteral("names"), double(r.perSource[i])}});
    }
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("update %1 set per_source = ?").arg(names->state));
    q.addBindValue(QString::fromUtf8(QJsonDocument(per).toJson(QJsonDocument::Compact)));
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("recording the names read from each source"));
    return success();
}

Status Rebuilder::exportAndHash(RebuildReport &r)
{
    const Geometry &g = mOptions.geometry;
    NameExport exporter(g, mBits);
    exporter.setCancelFlag(mCancel);
    exporter.setProgress([this](qint64 names) { report(QStringLiteral("export"), names, 0); });
    auto exported = exporter.run(mOptions.sources, mOptions.query, mOptions.files);
    if (!exported)
        return exported.error();
    r.exported = exported->names;
    r.perSource = exported->perSource;

    // Non-ASCII names: the filter database's lower(), in batches, then their bits.
    r.nonAscii = exported->nonAscii.size();
    if (!exported->nonAscii.isEmpty()) {
        report(QStringLiteral("lower"), 0, exported->nonAscii.size());
        FilterStore live(mDb, mOptions.live);
        if (auto s = live.attach(); !s)
            return s;
        auto lowered = live.serverLower(exported->nonAscii);
        if (!lowered)
            return lowered.error();
        for (const QByteArray &l : *lowered)
            NameExport::setBits(mBits, g, placeLowered(g, l));
    }
    return success();
}

Status Rebuilder::writeTable(RebuildReport &r)
{
    const Geometry &g = mOptions.geometry;
    auto names = helpers(mDb, mOptions.live);
    if (!names)
        return names.error();
    const QString table = mInto.quoted();
    const QString function = mIntoFunction.quoted();
    if (!mDb.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin writing %1").arg(table));
    const auto rollback = [this](Error e) {
        mDb.db().rollback();
        return e;
    };
    QSqlQuery q(mDb.db());
    if (!q.exec(QStringLiteral("create table %1 (chunk int not null, bits bit(%2) not null)")
                    .arg(table, QString::number(g.chunkBits()))))
        return rollback(Database::queryError(q, QStringLiteral("creating %1").arg(table)));
    q.finish();
    report(QStringLiteral("write"), 0, g.chunks());
    const size_t maskBytes = g.chunkBits() / 8;
    auto rows = copyIn(mDb.pgconn(), QStringLiteral("copy %1 from stdin (format binary, freeze)").arg(table),
                       [&](const ByteSink &sink) -> qint64 {
                           // Straight from the bit array, 1 MiB at a time: no second copy of it. FREEZE:
                           // the table was made in this transaction, so its rows go in frozen and
                           // all-visible, and no VACUUM has to rewrite them after the swap.
                           std::vector<char> buffer(size_t(1 << 20) + maskBytes + 64);
                           char *at = buffer.data();
                           putRowsHeader(at);
                           for (quint32 c = 0; c < g.chunks(); ++c) {
                               putMaskRowStart(at, c, g.chunkBits());
                               memcpy(at, mBits.data() + size_t(c) * maskBytes, maskBytes);
                               at += maskBytes;
                               if (at - buffer.data() >= (1 << 20)) {
                                   if (cancelled() || !sink(buffer.data(), at - buffer.data()))
                                       return -1;
                                   at = buffer.data();
                                   report(QStringLiteral("write"), c + 1, g.chunks());
                               }
                           }
                           putRowsTrailer(at);
                           return sink(buffer.data(), at - buffer.data()) ? qint64(g.chunks()) : -1;
                       });
    if (!rows)
        return rollback(cancelled() ? makeError(ErrorKind::Cancelled,
                                                QStringLiteral("rebuild cancelled while writing %1").arg(table))
                                    : rows.error());
    report(QStringLiteral("index"), 0, 0);
    pauseForTests(QStringLiteral("index")); // inside the write transaction: a kill here leaves nothing
    if (cancelled())
        return rollback(
            makeError(ErrorKind::Cancelled, QStringLiteral("rebuild cancelled while writing %1").arg(table)));
    QElapsedTimer t;
    t.start();
    if (!q.exec(QStringLiteral("alter table %1 add primary key (chunk)").arg(table)))
        return rollback(Database::queryError(q, QStringLiteral("indexing %1").arg(table)));
    r.indexSeconds = double(t.nsecsElapsed()) / 1e9;
    report(QStringLiteral("function"), 0, 0);
    const QString comment =
        QStringLiteral("'bloomscope filter: chunks=%1 chunk_bits=%2 k=%3 function=%4 rebuilt=%5'")
            .arg(QString::number(g.chunks()), QString::number(g.chunkBits()), QString::number(g.k()),
                 QString(mOptions.intoFunction).replace(QLatin1Char('\''), QStringLiteral("''")),
                 QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    if (!q.exec(renderFunctionSql(g, function)) ||
        !q.exec(QStringLiteral("comment on table %1 is %2").arg(table, comment)) ||
        !q.exec(QStringLiteral("update %1 set stage = 'drain', stage_at = now()").arg(names->state)))
        return rollback(Database::queryError(q, QStringLiteral("creating %1").arg(function)));
    q.finish();
    if (!mDb.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of %1 failed").arg(table));
    // Statistics now, so that autovacuum has no reason to hold the new table when it is swapped in; a
    // small sample is enough for a table read only by its key (a tenth of the default: 40 ms, not 400).
    (void)mDb.exec(QStringLiteral("set default_statistics_target = 10"));
    (void)mDb.exec(QStringLiteral("analyze %1").arg(table));
    (void)mDb.exec(QStringLiteral("reset default_statistics_target"));
    return success();
}

Status Rebuilder::exportSql(RebuildReport &r)
{
    // The reference's way, for comparison: names into the filter database, then one
    // bit_or ... group by with the new function on the server.
    const Geometry &g = mOptions.geometry;
    auto names = helpers(mDb, mOptions.live);
    if (!names)
        return names.error();
    const QString table = mInto.quoted();
    const QString function = mIntoFunction.quoted();
    if (!mDb.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin writing %1").arg(table));
    const auto rollback = [this](Error e) {
        mDb.db().rollback();
        return e;
    };
    QSqlQuery q(mDb.db());
    if (!q.exec(QStringLiteral("create temp table bloomscope_names (name text) on commit drop")))
        return rollback(Database::queryError(q, QStringLiteral("creating the names table")));
    q.finish();
    for (const ConnectionSpec &source : mOptions.sources) {
        PgConn conn(source.toConninfo(), PgConn::SearchPath::CatalogFirst);
        if (!conn.ok())
            return rollback(makeError(ErrorKind::Connection,
                                      QStringLiteral("source %1: %2").arg(source.describe(), conn.errorMessage())));
        (void)conn.exec(QStringLiteral("begin isolation level repeatable read read only"));
        Result<qint64> out = qint64(0);
        auto in = copyIn(mDb.pgconn(), QStringLiteral("copy pg_temp.bloomscope_names from stdin"),
                         [&](const ByteSink &sink) -> qint64 {
                             out = copyOut(conn.handle(), QStringLiteral("copy (%1) to stdout").arg(mOptions.query),
                                           [&](QByteArrayView line) {
                                               const QByteArrayView field = copyFirstField(line);
                                               return sink(field.data(), field.size()) && sink("\n", 1);
                                           });
                             return out ? *out : -1;
                         });
        if (!out)
            return rollback(out.error());
        if (!in)
            return rollback(in.error());
        r.exported += *in;
    }
    for (const QString &path : mOptions.files) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return rollback(makeError(ErrorKind::Io, QStringLiteral("cannot read %1").arg(path)));
        NameReader reader(&f);
        auto in = copyIn(mDb.pgconn(), QStringLiteral("copy pg_temp.bloomscope_names from stdin"),
                         [&](const ByteSink &sink) -> qint64 {
                             qint64 n = 0;
                             bool more = true;
                             while (more) {
                                 QList<QByteArray> batch;
                                 more = reader.next(50000, batch);
                                 for (QByteArray &name : batch) {
                                     name.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r");
                                     if (!sink(name.constData(), name.size()) || !sink("\n", 1))
                                         return -1;
                                 }
                                 n += batch.size();
                             }
                             return n;
                         });
        if (!in)
            return rollback(in.error());
        r.exported += *in;
    }
    report(QStringLiteral("write"), 0, 0);
    const QString sql = QStringLiteral("create table %1 (chunk int not null, bits bit(%2) not null);\n"
                                       "%3\n"
                                       "insert into %1 select b.chunk, bit_or(b.mask) from pg_temp.bloomscope_names n "
                                       "cross join lateral %4(n.name) b group by b.chunk;\n"
                                       "insert into %1 select c, 0::bit(%2) from generate_series(0, %5) c "
                                       "where not exists (select 1 from %1 f where f.chunk = c);\n")
                            .arg(table, QString::number(g.chunkBits()), renderFunctionSql(g, function), function,
                                 QString::number(qint64(g.chunks()) - 1));
    if (auto built = maintenance::execScript(mDb, sql, QStringLiteral("building %1 with bit_or").arg(table)); !built)
        return rollback(built.error());
    report(QStringLiteral("index"), 0, 0);
    if (!q.exec(QStringLiteral("alter table %1 add primary key (chunk)").arg(table)) ||
        !q.exec(QStringLiteral("update %1 set stage = 'drain', stage_at = now()").arg(names->state)))
        return rollback(Database::queryError(q, QStringLiteral("indexing %1").arg(table)));
    q.finish();
    if (!mDb.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of %1 failed").arg(table));
    return success();
}

} // namespace bloom
