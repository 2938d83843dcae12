#include "maintenance/rebuild.h"

#include "maintenance/nameexport.h"

#include "model/name.h"
#include "model/namereader.h"
#include "model/placement.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"
#include "postgres/pgcopy.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSqlQuery>
#include <QThread>

#include <libpq-fe.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace bloom {

namespace {

/** Where the helper objects of a rebuild live: beside the live table. */
struct Names {
    QString schema;  // quoted
    QString state;   // schema.bloomscope_rebuild
    QString pending; // schema.bloomscope_pending
    QString record;  // schema.bloomscope_record
};

Result<Names> helperNames(Database &db, const QString &liveTable)
{
    QSqlQuery q(db.db());
    q.prepare(QStringLiteral("select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace "
                             "where c.oid = to_regclass(?)"));
    q.addBindValue(db.quoteIdentifier(liveTable));
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("finding the schema of %1").arg(liveTable));
    QString schema = QStringLiteral("public");
    if (q.next())
        schema = q.value(0).toString();
    Names n;
    n.schema = db.quoteIdentifier(schema);
    n.state = n.schema + QStringLiteral(".bloomscope_rebuild");
    n.pending = n.schema + QStringLiteral(".bloomscope_pending");
    n.record = n.schema + QStringLiteral(".bloomscope_record");
    return n;
}

} // namespace

Rebuilder::Rebuilder(Database &filterDb, RebuildOptions options)
    : mDb(filterDb)
    , mOptions(std::move(options))
{
    if (mOptions.intoFunction.isEmpty())
        mOptions.intoFunction = mOptions.intoTable + QStringLiteral("_bits");
}

void Rebuilder::report(const QString &stage, qint64 done, qint64 total)
{
    if (mProgress)
        mProgress(RebuildProgress{stage, done, total, mClock ? double(mClock->nsecsElapsed()) / 1e9 : 0});
}

void Rebuilder::pauseForTests(const QString &stage)
{
    // Test hook: BLOOMSCOPE_TEST_PAUSE_AT=<stage> holds the rebuild at that stage so a test can kill it.
    if (qEnvironmentVariable("BLOOMSCOPE_TEST_PAUSE_AT") == stage) {
        fprintf(stderr, "bloomscope: paused at %s\n", qPrintable(stage));
        fflush(stderr);
        const int seconds = qEnvironmentVariableIntValue("BLOOMSCOPE_TEST_PAUSE_SECONDS");
        for (int i = 0; i < (seconds > 0 ? seconds : 60) * 10 && !cancelled(); ++i)
            QThread::msleep(100);
    }
}

Result<RebuildState> Rebuilder::state(Database &db)
{
    RebuildState st;
    QSqlQuery q(db.db());
    if (!q.exec(QStringLiteral("select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace "
                               "where c.relname = 'bloomscope_rebuild' and c.relkind = 'r' limit 1")))
        return Database::queryError(q, QStringLiteral("looking for a rebuild"));
    if (!q.next())
        return st;
    const QString schema = db.quoteIdentifier(q.value(0).toString());
    if (!q.exec(
            QStringLiteral("select live_table, live_function, new_table, new_function, stage, started_at, "
                           "(select count(*) from %1.bloomscope_pending where not drained) from %1.bloomscope_rebuild")
                .arg(schema)))
        return Database::queryError(q, QStringLiteral("reading the rebuild state"));
    if (!q.next())
        return st;
    st.exists = true;
    st.liveTable = q.value(0).toString();
    st.liveFunction = q.value(1).toString();
    st.newTable = q.value(2).toString();
    st.newFunction = q.value(3).toString();
    st.stage = q.value(4).toString();
    st.startedAt = q.value(5).toDateTime();
    st.pending = q.value(6).toLongLong();
    return st;
}

Result<RebuildReport> Rebuilder::run()
{
    QElapsedTimer clock;
    clock.start();
    mClock = &clock;
    RebuildReport r;
    r.newTable = mOptions.intoTable;
    r.newFunction = mOptions.intoFunction;
    if (mOptions.sources.isEmpty() && mOptions.files.isEmpty())
        return makeError(ErrorKind::Usage, QStringLiteral("a rebuild needs --source CONNINFO or --file NAMES"));
    if (auto s = prepare(); !s)
        return s.error();
    const auto stage = [this](const char *name) {
        pauseForTests(QString::fromLatin1(name));
        return cancelled() ? Status(makeError(ErrorKind::Cancelled,
                                              QStringLiteral("rebuild cancelled; the live filter is untouched. "
                                                             "Clean up with: bloomctl rebuild --abort")))
                           : success();
    };
    // Names the live function places from now on are recorded. An add that happened just before
    // and whose user row commits after the export snapshot is covered by the grace wait.
    report(QStringLiteral("grace"), 0, mOptions.graceSeconds);
    for (int i = 0; i < mOptions.graceSeconds * 10 && !cancelled(); ++i)
        QThread::msleep(100);
    if (auto s = stage("export"); !s)
        return s.error();
    QElapsedTimer t;
    t.start();
    if (auto s = mOptions.sqlMethod ? exportSql(r) : exportAndHash(r); !s)
        return s.error();
    r.exportSeconds = double(t.nsecsElapsed()) / 1e9;
    if (auto s = stage("write"); !s)
        return s.error();
    if (!mOptions.sqlMethod) {
        t.restart();
        if (auto s = writeTable(r); !s)
            return s.error();
        r.writeSeconds = double(t.nsecsElapsed()) / 1e9 - r.indexSeconds;
    }
    r.arrayBytes = mBits.size();
    mBits.clear();
    mBits.shrink_to_fit();
    if (auto s = stage("drain"); !s)
        return s.error();
    t.restart();
    auto st = state(mDb);
    if (!st)
        return st.error();
    auto drained = drain(mDb, *st, false);
    if (!drained)
        return drained.error();
    r.drained = *drained;
    r.drainSeconds = double(t.nsecsElapsed()) / 1e9;
    auto names = helperNames(mDb, mOptions.live.table);
    if (!names)
        return names.error();
    if (auto s = mDb.exec(QStringLiteral("update %1 set stage = 'ready'").arg(names->state)); !s)
        return s.error();
    r.totalSeconds = double(clock.nsecsElapsed()) / 1e9;
    report(QStringLiteral("done"), r.exported, r.exported);
    return r;
}

Status Rebuilder::prepare()
{
    report(QStringLiteral("prepare"), 0, 0);
    FilterStore live(mDb, mOptions.live);
    if (auto s = live.attach(); !s)
        return s;
    auto existing = state(mDb);
    if (!existing)
        return existing.error();
    if (existing->exists)
        return makeError(
            ErrorKind::Usage,
            QStringLiteral("a rebuild into %1 started %2 and is still %3")
                .arg(existing->newTable, existing->startedAt.toString(Qt::ISODate), existing->stage),
            QStringLiteral("finish it with 'bloomctl swap %1', or remove it with 'bloomctl rebuild --abort'")
                .arg(existing->newTable));
    auto names = helperNames(mDb, mOptions.live.table);
    if (!names)
        return names.error();
    QSqlQuery q(mDb.db());
    q.prepare(QStringLiteral("select to_regclass(?) is not null, to_regprocedure(? || '(text)') is not null, "
                             "pg_get_functiondef(to_regprocedure(? || '(text)'))"));
    q.addBindValue(mDb.quoteIdentifier(mOptions.intoTable));
    q.addBindValue(mDb.quoteIdentifier(mOptions.intoFunction));
    q.addBindValue(live.quotedFunction());
    if (!q.exec() || !q.next())
        return Database::queryError(q, QStringLiteral("checking the rebuild's names"));
    if (q.value(0).toBool() || q.value(1).toBool())
        return makeError(ErrorKind::Usage,
                         QStringLiteral("%1 or %2(text) already exists").arg(mOptions.intoTable, mOptions.intoFunction),
                         QStringLiteral("choose another --into name"));
    const QString original = q.value(2).toString();
    q.finish();

    // The recording version of the live function: the same placement (generated from the geometry
    // attach verified), plus one insert into the pending table.
    QString recording = renderFunctionSql(live.geometry(), live.quotedFunction());
    recording.replace(QLatin1String("create function"), QLatin1String("create or replace function"));
    recording.replace(
        QLatin1String("\nbegin\n"),
        QStringLiteral("\nbegin\n  perform %1(name); -- bloomscope rebuild: record the name\n").arg(names->record));
    const QString sql =
        QStringLiteral(
            "create table %1 (live_table text not null, live_function text not null, new_table text not null, "
            "  new_function text not null, original_function text not null, stage text not null, "
            "  started_at timestamptz not null default now());\n"
            "create table %2 (id bigserial primary key, name text not null, drained boolean not null default false, "
            "  at timestamptz not null default now());\n"
            "create index on %2 (id) where not drained;\n"
            "create function %3(name text) returns void language plpgsql security definer "
            "set search_path = pg_catalog as $fn$\n"
            "begin\n"
            "  insert into %2(name) values (name);\n"
            "exception when read_only_sql_transaction then\n"
            "  null; -- a check in a read-only transaction adds no name\n"
            "end\n$fn$;\n")
            .arg(names->state, names->pending, names->record);
    if (!mDb.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin the rebuild's transaction"));
    QSqlQuery tx(mDb.db());
    bool ok = tx.exec(sql);
    if (ok) {
        tx.prepare(QStringLiteral("insert into %1 (live_table, live_function, new_table, new_function, "
                                  "original_function, stage) values (?, ?, ?, ?, ?, 'export')")
                       .arg(names->state));
        tx.addBindValue(mOptions.live.table);
        tx.addBindValue(mOptions.live.function);
        tx.addBindValue(mOptions.intoTable);
        tx.addBindValue(mOptions.intoFunction);
        tx.addBindValue(original);
        ok = tx.exec() && tx.exec(recording);
    }
    if (!ok) {
        Error e = Database::queryError(tx, QStringLiteral("preparing the rebuild"));
        mDb.db().rollback();
        return e;
    }
    if (!mDb.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of the rebuild's set-up failed"));
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
    auto names = helperNames(mDb, mOptions.live.table);
    if (!names)
        return names.error();
    const QString table = mDb.quoteIdentifier(mOptions.intoTable);
    const QString function = mDb.quoteIdentifier(mOptions.intoFunction);
    if (!mDb.db().transaction())
        return makeError(ErrorKind::Connection, QStringLiteral("cannot begin writing %1").arg(table));
    const auto rollback = [this](Error e) {
        mDb.db().rollback();
        return e;
    };
    QSqlQuery q(mDb.db());
    if (!q.exec(QStringLiteral("create table %1 (chunk int not null, bits bit(%2) not null)")
                    .arg(table)
                    .arg(g.chunkBits())))
        return rollback(Database::queryError(q, QStringLiteral("creating %1").arg(table)));
    q.finish();
    report(QStringLiteral("write"), 0, g.chunks());
    const size_t maskBytes = g.chunkBits() / 8;
    auto rows = copyIn(mDb.pgconn(), QStringLiteral("copy %1 from stdin (format binary)").arg(table),
                       [&](const CopySink &sink) -> qint64 {
                           // Straight from the bit array, 1 MiB at a time: no second copy of it.
                           std::vector<char> buffer(size_t(1 << 20) + maskBytes + 64);
                           char *at = buffer.data();
                           putCopyHeader(at);
                           for (quint32 c = 0; c < g.chunks(); ++c) {
                               putBe16(at, 2);
                               putBe32(at, 4);
                               putBe32(at, c);
                               putBe32(at, quint32(4 + maskBytes));
                               putBe32(at, g.chunkBits());
                               memcpy(at, mBits.data() + size_t(c) * maskBytes, maskBytes);
                               at += maskBytes;
                               if (at - buffer.data() >= (1 << 20)) {
                                   if (cancelled() || !sink(buffer.data(), at - buffer.data()))
                                       return -1;
                                   at = buffer.data();
                                   report(QStringLiteral("write"), c + 1, g.chunks());
                               }
                           }
                           putBe16(at, 0xFFFF);
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
    const QString comment = QStringLiteral("'bloomscope filter: chunks=%1 chunk_bits=%2 k=%3 function=%4 rebuilt=%5'")
                                .arg(g.chunks())
                                .arg(g.chunkBits())
                                .arg(g.k())
                                .arg(QString(mOptions.intoFunction).replace(QLatin1Char('\''), QStringLiteral("''")),
                                     QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    if (!q.exec(renderFunctionSql(g, function)) ||
        !q.exec(QStringLiteral("comment on table %1 is %2").arg(table, comment)) ||
        !q.exec(QStringLiteral("update %1 set stage = 'drain'").arg(names->state)))
        return rollback(Database::queryError(q, QStringLiteral("creating %1").arg(function)));
    q.finish();
    if (!mDb.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of %1 failed").arg(table));
    // Statistics now, so that autovacuum has no reason to hold the new table when it is swapped in.
    (void)mDb.exec(QStringLiteral("analyze %1").arg(table));
    return success();
}

Status Rebuilder::exportSql(RebuildReport &r)
{
    // The reference's way, for comparison: names into the filter database, then one
    // bit_or ... group by with the new function on the server.
    const Geometry &g = mOptions.geometry;
    auto names = helperNames(mDb, mOptions.live.table);
    if (!names)
        return names.error();
    const QString table = mDb.quoteIdentifier(mOptions.intoTable);
    const QString function = mDb.quoteIdentifier(mOptions.intoFunction);
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
        PgConn conn(source.toConninfo());
        if (!conn.ok())
            return rollback(makeError(ErrorKind::Connection,
                                      QStringLiteral("source %1: %2").arg(source.describe(), conn.errorMessage())));
        (void)conn.exec(QStringLiteral("begin isolation level repeatable read read only"));
        Result<qint64> out = qint64(0);
        auto in = copyIn(mDb.pgconn(), QStringLiteral("copy pg_temp.bloomscope_names from stdin"),
                         [&](const CopySink &sink) -> qint64 {
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
                         [&](const CopySink &sink) -> qint64 {
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
                            .arg(table)
                            .arg(g.chunkBits())
                            .arg(renderFunctionSql(g, function), function)
                            .arg(qint64(g.chunks()) - 1);
    if (!q.exec(sql))
        return rollback(Database::queryError(q, QStringLiteral("building %1 with bit_or").arg(table)));
    report(QStringLiteral("index"), 0, 0);
    if (!q.exec(QStringLiteral("alter table %1 add primary key (chunk)").arg(table)) ||
        !q.exec(QStringLiteral("update %1 set stage = 'drain'").arg(names->state)))
        return rollback(Database::queryError(q, QStringLiteral("indexing %1").arg(table)));
    q.finish();
    if (!mDb.db().commit())
        return makeError(ErrorKind::Server, QStringLiteral("commit of %1 failed").arg(table));
    return success();
}

} // namespace bloom
