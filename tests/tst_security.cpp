// What a hostile role on the same server, a fault or a bad input can do: nothing (issue 14).
// Every case runs on a real cluster, with roles that are not superusers where a deployment has them.
#include "local/demo.h"
#include "local/localcluster.h"
#include "maintenance/rebuild.h"
#include "model/name.h"
#include "model/namereader.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/identifier.h"
#include "postgres/pgconn.h"
#include "shards/shardmap.h"
#include "testcluster.h"

#include <QBuffer>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <csignal>

using namespace bloom;

class TestSecurity : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    QTemporaryFile mNames;
    QList<QByteArray> mAdded;

    /** The filter database as `role` over the private socket. */
    QString as(const QString &role) const
    {
        return QStringLiteral("host=%1 port=%2 user=%3 dbname=filter")
            .arg(quoteConninfoValue(mCluster.socketDir()))
            .arg(mCluster.port())
            .arg(role);
    }
    QString superDb() const { return mCluster.connectionString(QStringLiteral("filter")); }

    bool evilIsSuperuser()
    {
        PgConn c(superDb());
        return c.column(QStringLiteral("select rolsuper from pg_roles where rolname = 'evil'"))->value(0) == "t";
    }

    qint64 referenceFree(const QList<QByteArray> &names)
    {
        return test::referenceFree(as(QStringLiteral("app")), names);
    }

    struct Run {
        int code = -1;
        QByteArray out, err;
    };
    Run bloomctl(const QString &db, const QStringList &args, const QByteArray &stdinData = {})
    {
        QProcess p;
        p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--db"), db} + args);
        p.waitForStarted();
        if (!stdinData.isEmpty())
            p.write(stdinData);
        p.closeWriteChannel();
        p.waitForFinished(120000);
        return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
    }

    std::unique_ptr<Database> open(const QString &conninfo)
    {
        auto db = Database::open(*ConnectionSpec::parse(conninfo));
        if (!db)
            qFatal("%s", qPrintable(db.error().toString()));
        return std::move(db).value();
    }

    /** A rebuild of the live filter from the names file into `into`, left ready to swap. */
    Result<RebuildReport> rebuild(Database &db, const QString &into)
    {
        RebuildOptions o;
        o.intoTable = into;
        o.geometry = *Geometry::fromCounts(262144, 8192, 7);
        o.files = {mNames.fileName()};
        o.graceSeconds = 0;
        return Rebuilder(db, o).run();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("filter")).ok());
        // As in a deployment: the application role may add and check, nothing else; a hostile role
        // may create objects in the filter's schema (in PG 15, e.g. the database owner's).
        QVERIFY(
            mCluster.exec(QStringLiteral("postgres"), QStringLiteral("create role app login; create role evil login;"))
                .ok());
        QVERIFY(mCluster.exec(QStringLiteral("filter"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        QVERIFY(mCluster
                    .exec(QStringLiteral("filter"),
                          QStringLiteral("grant create on schema public to evil; "
                                         "revoke all on function username_bits(text) from public; "
                                         "grant execute on function username_bits(text) to app; "
                                         "grant select, update on username_filter to app"))
                    .ok());
        mAdded = demoNames(3000, 7);
        mAdded << "Straße"
               << "İstanbul"
               << "ÆSIR";
        QVERIFY(mNames.open());
        mNames.write(mAdded.join('\n'));
        mNames.flush();
        auto db = open(superDb());
        FilterStore store(*db, FilterRef{});
        QVERIFY(store.attach().ok());
        QFile f(mNames.fileName());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(store.load(&f).ok());
        QCOMPARE(referenceFree(mAdded), 0);
    }

    // ---- privilege escalation ------------------------------------------------------------------

    void quotingMatchesTheServer()
    {
        // Every hostile name, quoted by core, names exactly the table the server made with %I.
        const QStringList hostile{QStringLiteral("a\"b"),        QStringLiteral("x;alter role evil superuser;--\""),
                                  QStringLiteral("\"leading"),   QStringLiteral("trailing\""),
                                  QStringLiteral("50%_\\off"),   QStringLiteral("dot.ted"),
                                  QStringLiteral("Ünïcode name")};
        PgConn c(superDb());
        for (const QString &name : hostile) {
            QVERIFY(c.exec(QStringLiteral("do $$ begin execute format('create table %I (x int)', %1); end $$")
                               .arg(c.quoteLiteral(name)))
                        .ok());
            auto same =
                c.column(QStringLiteral("select to_regclass($1) = (select oid from pg_class where relname = $2)"),
                         {quoteIdent(name).toUtf8(), name.toUtf8()});
            QVERIFY2(same && same->value(0) == "t", qPrintable(name));
            QVERIFY(c.exec(QStringLiteral("drop table %1").arg(quoteIdent(name))).ok());
        }
        QVERIFY(!evilIsSuperuser());
    }

    void hostileOptionValuesAreUsageErrors()
    {
        for (const auto &[option, value] :
             {std::pair{QStringLiteral("--table"), QStringLiteral("x\"; drop table username_filter; --")},
              std::pair{QStringLiteral("--function"), QStringLiteral("username_bits\"")},
              std::pair{QStringLiteral("--table"), QStringLiteral("a.b.c")},
              std::pair{QStringLiteral("--into"), QStringLiteral("\"evil")}}) {
            const QStringList args = option == QLatin1String("--into")
                                         ? QStringList{QStringLiteral("rebuild"), option, value}
                                         : QStringList{option, value, QStringLiteral("info")};
            const Run r = bloomctl(superDb(), args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(option.toUtf8()), r.err.constData());
        }
        PgConn c(superDb());
        QCOMPARE(c.column(QStringLiteral("select count(*) from username_filter"))->value(0), QByteArray("131072"));
    }

    void searchPathShadowsAreNotCalled()
    {
        // evil owns public (on the superuser's search_path) and shadows unnest(text[]) and lower(text):
        // the DBA's sessions must never run them.
        QVERIFY(mCluster
                    .exec(QStringLiteral("filter"),
                          QStringLiteral("set role evil;\n"
                                         "create function public.unnest(a text[]) returns setof text language plpgsql "
                                         "as $$ begin execute 'alter role evil superuser'; return query select x from "
                                         "pg_catalog.unnest(a) x; end $$;\n"
                                         "create function public.unnest(a int[]) returns setof int language plpgsql "
                                         "as $$ begin execute 'alter role evil superuser'; return query select x from "
                                         "pg_catalog.unnest(a) x; end $$;\n"
                                         "reset role;"))
                    .ok());
        QByteArray names = "ada\nGrace\nStraße\n";
        for (const QStringList &cmd :
             {QStringList{QStringLiteral("check"), QStringLiteral("-")},
              QStringList{QStringLiteral("add"), QStringLiteral("-")},
              QStringList{QStringLiteral("fpr"), QStringLiteral("--sample"), QStringLiteral("200")},
              QStringList{QStringLiteral("info")}, QStringList{QStringLiteral("skew")},
              QStringList{QStringLiteral("load"), QStringLiteral("-")}}) {
            const Run r = bloomctl(superDb(), cmd, names);
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY2(!evilIsSuperuser(), qPrintable(cmd.join(QLatin1Char(' '))));
        }
        QVERIFY(mCluster
                    .exec(QStringLiteral("filter"),
                          QStringLiteral("drop function public.unnest(text[]); drop function public.unnest(int[])"))
                    .ok());
    }

    void recordingFunctionIsGrantedNarrowlyAndCapped()
    {
        auto db = open(superDb());
        auto r = rebuild(*db, QStringLiteral("username_filter_rec"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        PgConn evil(as(QStringLiteral("evil")));
        // The filter's schema is one evil may create in: the helpers are in a schema of their own.
        auto denied = evil.exec(QStringLiteral("select bloomscope.bloomscope_record('spam')"));
        QVERIFY(!denied.ok());
        QVERIFY2(denied.error().message.contains(QLatin1String("permission denied")),
                 qPrintable(denied.error().message));
        PgConn app(as(QStringLiteral("app")));
        // The application's own add still works while the rebuild records...
        QVERIFY(app.exec(QStringLiteral("update username_filter f set bits = f.bits | b.mask from "
                                        "username_bits('recorded-name') b where f.chunk = b.chunk"))
                    .ok());
        // ...and a 2 MiB name is refused, not written into the pending table.
        const QByteArray huge(2 << 20, 'x');
        auto big = app.column(QStringLiteral("select (username_bits($1)).chunk"), {huge});
        QVERIFY(!big.ok());
        QVERIFY2(big.error().message.contains(QLatin1String("over 1 MiB")), qPrintable(big.error().message));
        PgConn c(superDb());
        QCOMPARE(c.column(QStringLiteral(
                              "select count(*) from bloomscope.bloomscope_pending where octet_length(name) > 1048576"))
                     ->value(0),
                 QByteArray("0"));
        QVERIFY(Rebuilder::abort(*db).ok());
        // ("recorded-name" is in no source: like a sign-up that never wrote its user row, the next
        // rebuild rightly leaves it out.)
    }

    void schemaOwnerCannotHijackARebuild()
    {
        // Issue 33, 1, 2 and 5: in PG 15 the database owner owns public. evil owns this database; the
        // filter (reference SQL as written: EXECUTE for PUBLIC) is the superuser's, who rebuilds it.
        QVERIFY(mCluster.exec(QStringLiteral("postgres"), QStringLiteral("create database owned owner evil")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("owned"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        QVERIFY(mCluster
                    .exec(QStringLiteral("owned"),
                          QStringLiteral("grant select, update on username_filter to app; "
                                         "update username_filter f set bits = f.bits | b.mask from "
                                         "username_bits('before') b where f.chunk = b.chunk"))
                    .ok());
        const QString super = mCluster.connectionString(QStringLiteral("owned"));
        const auto role = [&](const QString &r) {
            return QString(as(r)).replace(QStringLiteral("dbname=filter"), QStringLiteral("dbname=owned"));
        };
        const QStringList rebuildArgs{QStringLiteral("rebuild"),
                                      QStringLiteral("--into"),
                                      QStringLiteral("username_filter_v2"),
                                      QStringLiteral("--chunks"),
                                      QStringLiteral("1024"),
                                      QStringLiteral("--file"),
                                      mNames.fileName(),
                                      QStringLiteral("--grace"),
                                      QStringLiteral("0"),
                                      QStringLiteral("--allow-smaller")};
        PgConn evil(role(QStringLiteral("evil")));
        // A helper schema evil created first is refused, with nothing changed.
        QVERIFY(evil.exec(QStringLiteral("create schema bloomscope")).ok());
        Run r = bloomctl(super, rebuildArgs);
        QCOMPARE(r.code, 8);
        QVERIFY2(r.err.contains("helper schema") && r.err.contains("evil"), r.err.constData());
        PgConn c(super);
        QVERIFY(!c.column(QStringLiteral("select pg_get_functiondef('username_bits(text)'::regprocedure)"))
                     ->value(0)
                     .contains("bloomscope"));
        QVERIFY(c.exec(QStringLiteral("drop schema bloomscope")).ok());

        // The rebuild makes its own schema, owned by the filter's owner, CREATE for nobody else.
        r = bloomctl(super, rebuildArgs);
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(c.column(QStringLiteral("select nspowner = (select relowner from pg_class where oid = "
                                         "'public.username_filter'::regclass) and not "
                                         "has_schema_privilege('evil', oid, 'CREATE') from pg_namespace "
                                         "where nspname = 'bloomscope'"))
                     ->value(0),
                 QByteArray("t"));
        // 5: the recorders are granted to the roles that may update the filter, not to PUBLIC.
        QCOMPARE(
            c.column(QStringLiteral("select string_agg(p.proname || ':' || coalesce(array_to_string(p.proacl, ' '), "
                                    "'default'), ', ' order by proname) ~ '(^|[ ,:])=X' from pg_proc p where "
                                    "p.pronamespace = 'bloomscope'::regnamespace"))
                ->value(0),
            QByteArray("f"));
        QCOMPARE(c.column(QStringLiteral("select has_function_privilege('evil', 'bloomscope.bloomscope_record(text)', "
                                         "'execute')"))
                     ->value(0),
                 QByteArray("f"));

        // 1 and 2: evil plants look-alikes where the old rebuild kept them, each escalating when run.
        QVERIFY(evil.exec(QStringLiteral(
                              "create function public.escalate() returns trigger language plpgsql as $$ begin "
                              "execute 'alter role evil superuser'; return new; end $$; "
                              "create table public.bloomscope_pending (id serial, name text, names text[], count int, "
                              "written bool, drained bool, at timestamptz); "
                              "create trigger t before insert on public.bloomscope_pending for each row execute "
                              "function public.escalate(); grant all on public.bloomscope_pending to public; "
                              "create function public.bloomscope_record(text) returns void language plpgsql as $$ "
                              "begin execute 'alter role evil superuser'; end $$; "
                              "grant execute on function public.bloomscope_record(text) to public"))
                    .ok());
        // A check by evil (no UPDATE on the filter) records nothing; the application's add is recorded
        // in the real pending table.
        QVERIFY(evil.exec(QStringLiteral("select * from username_bits('spam')")).ok());
        PgConn app(role(QStringLiteral("app")));
        QVERIFY(app.exec(QStringLiteral("update username_filter f set bits = f.bits | b.mask from "
                                        "username_bits('during') b where f.chunk = b.chunk"))
                    .ok());
        QVERIFY(!evilIsSuperuser());
        QCOMPARE(
            c.column(QStringLiteral("select string_agg(name, ',' order by name) from bloomscope.bloomscope_pending "
                                    "where name in ('spam', 'during')"))
                ->value(0),
            QByteArray("during"));
        QCOMPARE(c.column(QStringLiteral("select count(*) from public.bloomscope_pending"))->value(0), QByteArray("0"));
        // The DBA's swap drains (probing the live function) and swaps: still nothing of evil's runs.
        r = bloomctl(super, {QStringLiteral("swap"), QStringLiteral("username_filter_v2"), QStringLiteral("--yes"),
                             QStringLiteral("--audit-sample"), QStringLiteral("0")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(!evilIsSuperuser());
        QCOMPARE(test::referenceFree(role(QStringLiteral("app")), {"during", "Straße", mAdded.first()}), 0);
        QVERIFY(mCluster.exec(QStringLiteral("postgres"), QStringLiteral("drop database owned with (force)")).ok());
    }

    void dropOldTouchesOnlyWhatASwapRecorded()
    {
        // evil plants names that look like old pairs, one a second-order injection, before and after.
        PgConn evil(as(QStringLiteral("evil")));
        const QStringList planted{QStringLiteral("username_filter_old_X;alter role evil superuser;--\""),
                                  QStringLiteral("username_filter_old_%"), QStringLiteral("username_filter_old_1")};
        for (const QString &t : planted)
            QVERIFY(evil.exec(QStringLiteral("create table public.%1 (x int)").arg(quoteIdent(t))).ok());
        auto db = open(superDb());
        auto r = rebuild(*db, QStringLiteral("username_filter_next"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        SwapOptions o;
        o.auditSample = 0; // files only: nothing to sample
        auto s = Rebuilder::swap(*db, QStringLiteral("username_filter_next"), o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        QCOMPARE(referenceFree(mAdded), 0);
        const Run dropped = bloomctl(superDb(), {QStringLiteral("drop-old"), QStringLiteral("--yes")});
        QVERIFY2(dropped.code == 0, dropped.err.constData());
        QVERIFY2(dropped.out.contains(s->oldTable.toUtf8()), dropped.out.constData());
        QVERIFY(!evilIsSuperuser());
        PgConn c(superDb());
        for (const QString &t : planted)
            QVERIFY2(
                c.column(QStringLiteral("select to_regclass($1) is not null"), {quoteIdent(t).toUtf8()})->value(0) ==
                    "t",
                qPrintable(t));
        QCOMPARE(c.column(QStringLiteral("select to_regclass($1) is null"), {s->oldTable.toUtf8()})->value(0),
                 QByteArray("t"));
        // A planted state table is refused, never executed: its "original function" is evil's SQL.
        QVERIFY(evil.exec(QStringLiteral(
                              "create table public.bloomscope_rebuild (live_table text, live_function text, "
                              "new_table text, new_function text, original_function text, stage text, started_at "
                              "timestamptz, per_source text, sources text, query text); insert into "
                              "public.bloomscope_rebuild values ('username_filter', 'username_bits', 'x', 'x_bits', "
                              "'alter role evil superuser', 'ready', now(), '[]', '[]', '')"))
                    .ok());
        const Run abort =
            bloomctl(superDb(), {QStringLiteral("rebuild"), QStringLiteral("--abort"), QStringLiteral("--yes")});
        // public is evil's here, so the helpers live in schema bloomscope: the planted table is not even
        // read, and there is no rebuild to abort.
        QCOMPARE(abort.code, 2);
        QVERIFY2(abort.err.contains("no rebuild"), abort.err.constData());
        QVERIFY(!evilIsSuperuser());
        QVERIFY(c.exec(QStringLiteral("drop table public.bloomscope_rebuild")).ok());
        for (const QString &t : planted)
            QVERIFY(c.exec(QStringLiteral("drop table public.%1").arg(quoteIdent(t))).ok());
    }

    // ---- correctness ---------------------------------------------------------------------------

    void schemaQualifiedFilterSwaps()
    {
        const QStringList live{QStringLiteral("--table"), QStringLiteral("public.username_filter"),
                               QStringLiteral("--function"), QStringLiteral("public.username_bits")};
        Run r =
            bloomctl(superDb(), live + QStringList{QStringLiteral("rebuild"), QStringLiteral("--into"),
                                                   QStringLiteral("username_filter_q"), QStringLiteral("--file"),
                                                   mNames.fileName(), QStringLiteral("--grace"), QStringLiteral("0")});
        QVERIFY2(r.code == 0, r.err.constData());
        r = bloomctl(superDb(), live + QStringList{QStringLiteral("swap"), QStringLiteral("username_filter_q"),
                                                   QStringLiteral("--yes"), QStringLiteral("--audit-sample"),
                                                   QStringLiteral("0")});
        QVERIFY2(r.code == 0, r.err.constData());
        PgConn c(superDb());
        QCOMPARE(c.column(QStringLiteral("select count(*) from public.username_filter"))->value(0),
                 QByteArray("524288"));
        QCOMPARE(referenceFree(mAdded), 0);
        r = bloomctl(superDb(), live + QStringList{QStringLiteral("drop-old"), QStringLiteral("--yes")});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void readmeShardMapParses()
    {
        auto map = ShardMap::parse(QStringLiteral("# comments and blank lines are ignored\n"
                                                  "table = users          # the users table on every shard\n"
                                                  "column = username      # its name column\n"
                                                  "shard = host=db1 dbname=users_0\n"
                                                  "shard = service=users_1 password='a #b' # a comment\n"));
        QVERIFY2(map.ok(), qPrintable(map.ok() ? QString() : map.error().toString()));
        QCOMPARE(map->table, QStringLiteral("users"));
        QCOMPARE(map->column, QStringLiteral("username"));
        QCOMPARE(map->shards.size(), 2);
        QCOMPARE(map->shards[1].value(QStringLiteral("password")), QStringLiteral("a #b"));
    }

    void failedRebuildRestoresTheLiveFunction()
    {
        auto db = open(superDb());
        RebuildOptions o;
        o.intoTable = QStringLiteral("username_filter_fail");
        o.geometry = *Geometry::fromCounts(1048576, 8192, 7);
        o.sources = {*ConnectionSpec::parse(mCluster.connectionString(QStringLiteral("no_such_database")))};
        o.graceSeconds = 0;
        auto r = Rebuilder(*db, o).run();
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("live function was restored")),
                 qPrintable(r.error().message));
        PgConn c(superDb());
        QVERIFY(!c.column(QStringLiteral("select pg_get_functiondef('username_bits(text)'::regprocedure)"))
                     ->value(0)
                     .contains("bloomscope_record"));
        // Nothing of the failed rebuild stays (bloomscope_swapped is the earlier swaps' record, kept).
        QCOMPARE(
            c.column(QStringLiteral("select coalesce(string_agg(oid::regclass::text, ', '), '') from pg_class "
                                    "where (relname like 'bloomscope%' and relname not like 'bloomscope\\_swapped%') "
                                    "or relname like 'username_filter_fail%'"))
                ->value(0),
            QByteArray());
        QVERIFY(!Rebuilder::state(*db)->exists);
    }

    void oneNameRuleWhereverTheLineStarts()
    {
        const QByteArray limit(MaxNameBytes, 'n');
        QVERIFY(validateName(limit).ok());
        QVERIFY(!validateName(limit + 'n').ok());
        QVERIFY(!validateName("   ").ok());
        QVERIFY(!validateName("\t \u00a0").ok()); // a no-break space is a blank too
        QVERIFY(validateName(" ada").ok());
        // A 1 MiB + 1 line is rejected at every offset in the reader's blocks; 1 MiB is kept.
        for (qsizetype offset : {qsizetype(0), qsizetype(1), qsizetype(MaxNameBytes - 10), qsizetype(MaxNameBytes + 7),
                                 qsizetype(3 * MaxNameBytes / 2)}) {
            QByteArray data;
            while (data.size() + 2 <= offset) // short names up to the offset
                data += "x\n";
            data += limit + "n\n" + limit + "\n   \nada\n";
            QBuffer b(&data);
            QVERIFY(b.open(QIODevice::ReadOnly));
            NameReader reader(&b);
            QList<QByteArray> out;
            while (reader.next(1000, out)) {
            }
            QVERIFY2(!out.contains(limit + 'n'), qPrintable(QString::number(offset)));
            QVERIFY(out.contains(limit));
            QVERIFY(out.contains("ada"));
            QCOMPARE(reader.badLines().size(), 2); // the long line and the blank one
        }
        const Run r = bloomctl(superDb(), {QStringLiteral("check"), QStringLiteral("   "), QStringLiteral("ada")});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains("only blanks"), r.err.constData());
    }

    void jsonErrorsAreJson()
    {
        const Run r = bloomctl(QStringLiteral("host=/nonexistent-bloomscope port=1 dbname=x"),
                               {QStringLiteral("--json"), QStringLiteral("info")});
        QCOMPARE(r.code, 3);
        const QJsonObject e = QJsonDocument::fromJson(r.err).object().value(QLatin1String("error")).toObject();
        QCOMPARE(e.value(QLatin1String("code")).toInt(), 3);
        QCOMPARE(e.value(QLatin1String("kind")).toString(), QStringLiteral("connection"));
        QVERIFY(!e.value(QLatin1String("message")).toString().isEmpty());
        QVERIFY(!e.value(QLatin1String("fix")).toString().isEmpty());
        const Run u = bloomctl(superDb(), {QStringLiteral("--json"), QStringLiteral("--table"), QStringLiteral("a\"b"),
                                           QStringLiteral("info")});
        QCOMPARE(u.code, 2);
        QCOMPARE(QJsonDocument::fromJson(u.err)
                     .object()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("kind"))
                     .toString(),
                 QStringLiteral("usage"));
    }

    // ---- faults --------------------------------------------------------------------------------

    void cancelledLoadSaysWhatWasWritten()
    {
        PgConn c(superDb());
        const QByteArray before =
            c.column(QStringLiteral("select sum(bit_count(bits)) from username_filter"))->value(0);
        QProcess p;
        p.start(QStringLiteral(BLOOMCTL_PATH),
                {QStringLiteral("--db"), superDb(), QStringLiteral("load"), QStringLiteral("-")});
        QVERIFY(p.waitForStarted());
        p.write(demoNames(20000, 99).join('\n') + '\n');
        QTest::qWait(1000); // read, still waiting for more input
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 130);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("nothing was written"), err.constData());
        QCOMPARE(c.column(QStringLiteral("select sum(bit_count(bits)) from username_filter"))->value(0), before);
    }

    void passwordsLeaveTheCommandLine()
    {
        char a0[] = "bloomctl", a1[] = "--db", a2[] = "host=h password=hunter2 user=u",
             a3[] = "--source=postgresql://u:s3cret@db1/x?password=two", a4[] = "password = 'a b\\'c' x";
        char *argv[] = {a0, a1, a2, a3, a4};
        QCOMPARE(scrubPasswordsInArgv(5, argv), 4);
        QCOMPARE(QByteArray(a2), QByteArray("host=h password=xxxxxxx user=u"));
        QCOMPARE(QByteArray(a3), QByteArray("--source=postgresql://u:xxxxxx@db1/x?password=xxx"));
        QVERIFY(!QByteArray(a4).contains("a b"));
        // A running load: /proc/PID/cmdline no longer shows it.
        QProcess p;
        p.start(QStringLiteral(BLOOMCTL_PATH), {QStringLiteral("--db"), superDb() + QStringLiteral(" password=hunter2"),
                                                QStringLiteral("load"), QStringLiteral("-")});
        QVERIFY(p.waitForStarted());
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(p.processId()));
        QByteArray seen;
        QTRY_VERIFY_WITH_TIMEOUT((cmdline.open(QIODevice::ReadOnly), seen = cmdline.readAll(), cmdline.close(),
                                  seen.contains("password=xxxxxxx")),
                                 10000);
        QVERIFY(!seen.contains("hunter2"));
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
    }

    void demoServerStopsWithTheWindowAndOrphansAreReaped()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QFile::setPermissions(tmp.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                              QFileDevice::ExeOther | QFileDevice::ExeGroup);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const auto clusterDirs = [&] {
            return QDir(tmp.path()).entryList({QStringLiteral("bloomscope-pg-*")}, QDir::Dirs);
        };
        // The server's pid once postmaster.pid says "ready" (initdb's single-user runs write the file
        // too, with a negative pid: a slow CI machine was caught there, before the server had started).
        const auto readyPostmaster = [&]() -> pid_t {
            const QStringList dirs = clusterDirs();
            if (dirs.size() != 1)
                return 0;
            QFile f(tmp.path() + QLatin1Char('/') + dirs.first() + QStringLiteral("/data/postmaster.pid"));
            if (!f.open(QIODevice::ReadOnly))
                return 0;
            const QList<QByteArray> lines = f.readAll().split('\n');
            const pid_t pid = pid_t(lines.value(0).trimmed().toLongLong());
            return pid > 0 && lines.size() > 7 && lines.at(7).trimmed() == "ready" ? pid : 0;
        };
        const auto startDemo = [&](QProcess &p) {
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(BLOOMSCOPE_PATH),
                    {QStringLiteral("--demo"), QStringLiteral("--demo-names"), QStringLiteral("1000")});
            QVERIFY(p.waitForStarted());
            QTRY_VERIFY_WITH_TIMEOUT(readyPostmaster() > 0, 90000);
            QTest::qWait(1500);
        };
        for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
            QProcess p;
            startDemo(p);
            ::kill(pid_t(p.processId()), sig);
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QTRY_VERIFY_WITH_TIMEOUT(clusterDirs().isEmpty(), 10000);
        }
        // SIGKILL cannot be handled: the server outlives the window until the next start reaps it.
        QProcess p;
        startDemo(p);
        const pid_t postmaster = readyPostmaster();
        QVERIFY(postmaster > 0);
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(::kill(postmaster, 0), 0); // still running
        QCOMPARE(LocalCluster::reapOrphans(tmp.path()), 1);
        QVERIFY(clusterDirs().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(::kill(postmaster, 0) != 0, 10000);
    }
};

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
