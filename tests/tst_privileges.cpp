// The privileges a deployment grants, as docs/operations.md "Privileges" writes them (issue 43, item 6):
// the documented role set is read from the docs file and run as written, then the DBA it describes
// rebuilds, swaps and drops the old pair while the application adds names. Where the filter's owner
// lacks a privilege the rebuild needs, the refusal names that role and the exact GRANT; a superuser DBA
// does it itself, and the objects are still the owner's.
#include "local/localcluster.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QTest>

using namespace bloom;

class TestPrivileges : public QObject {
    Q_OBJECT
private:
    using Run = test::CtlRun;
    LocalCluster mCluster;
    QTemporaryFile mNames;
    QList<QByteArray> mUsers;

    QString as(const QString &role, const QString &db = QStringLiteral("filter")) const
    {
        return QStringLiteral("host=%1 port=%2 user=%3 dbname=%4")
            .arg(quoteConninfoValue(mCluster.socketDir()), QString::number(mCluster.port()), role, db);
    }
    Run ctl(const QString &role, const QStringList &args)
    {
        return test::runBloomctl(QStringList{QStringLiteral("--db"), as(role)} + args);
    }
    QByteArray one(const QString &sql)
    {
        PgConn c(mCluster.connectionString(QStringLiteral("filter")));
        auto r = c.column(sql);
        if (!r)
            qFatal("%s: %s", qPrintable(sql), qPrintable(r.error().message));
        return r->value(0);
    }
    static QString context(const Run &r) { return QString::fromUtf8(r.out + "\n" + r.err); }

    /** docs/operations.md's role set: the SQL block after "The three roles of a deployment". The
     *  statements for the filter's database, and the one for every source shard (a comment there). */
    static std::pair<QString, QString> documentedRoles()
    {
        QFile f(QStringLiteral(BLOOM_SOURCE_DIR "/docs/operations.md"));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        const QString doc = QString::fromUtf8(f.readAll());
        const qsizetype at = doc.indexOf(QLatin1String("The three roles of a deployment"));
        const qsizetype from = doc.indexOf(QLatin1String("```sql\n"), at);
        const qsizetype to = doc.indexOf(QLatin1String("```"), from + 7);
        if (at < 0 || from < 0 || to < 0)
            return {};
        const QString sql = doc.mid(from + 7, to - from - 7);
        const QRegularExpression shardLine(QStringLiteral("--\\s*on every source shard:\\s*(.*;)"));
        return {sql, shardLine.match(sql).captured(1)};
    }

    /** A rebuild as the DBA into `into`, small and quick. */
    Run rebuildAs(const QString &role, const QString &into)
    {
        return ctl(role, {QStringLiteral("rebuild"), QStringLiteral("--yes"), QStringLiteral("--into"), into,
                          QStringLiteral("--chunks"), QStringLiteral("4096"), QStringLiteral("--allow-smaller"),
                          QStringLiteral("--grace"), QStringLiteral("0"), QStringLiteral("--source"),
                          as(QStringLiteral("filter_dba"), QStringLiteral("shard"))});
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        // The filter exists before any of the documented roles: owned by its own role, created by a
        // superuser and handed over (the owner itself has no CREATE on public in PostgreSQL 15).
        QVERIFY(mCluster.exec(QStringLiteral("postgres"), QStringLiteral("create role filter_owner nologin")).ok());
        QVERIFY(mCluster.createDatabase(QStringLiteral("filter")).ok());
        QVERIFY(mCluster
                    .exec(QStringLiteral("filter"),
                          test::sqlResource(QStringLiteral("reference.sql")) +
                              QStringLiteral("\nalter table username_filter owner to filter_owner;\n"
                                             "alter function username_bits(text) owner to filter_owner;\n"
                                             "revoke all on function username_bits(text) from public;\n"))
                    .ok());
        QVERIFY(mCluster.createDatabase(QStringLiteral("shard")).ok());
        QVERIFY(mNames.open());
        for (int i = 0; i < 3000; ++i) {
            mUsers << QByteArray("member_") + QByteArray::number(i);
            mNames.write(mUsers.last() + '\n');
        }
        mUsers << QByteArray("Ünïcödé_user") << QByteArray("MixedCase");
        mNames.write("Ünïcödé_user\nMixedCase\n");
        mNames.flush();
        QVERIFY(mCluster
                    .exec(QStringLiteral("shard"),
                          QStringLiteral("create table users (id bigserial primary key, username text not null)"))
                    .ok());
        {
            PgConn shard(mCluster.connectionString(QStringLiteral("shard")));
            QVERIFY(shard
                        .column(QStringLiteral("insert into users (username) select "
                                               "unnest(string_to_array($1, E'\\n')) returning 1"),
                                {mUsers.join('\n')})
                        .ok());
        }
        // The docs' role set, exactly as written.
        const auto [sql, onShards] = documentedRoles();
        QVERIFY2(sql.contains(QLatin1String("create role filter_dba")), qPrintable(sql));
        QVERIFY2(onShards.contains(QLatin1String("grant select on users")), qPrintable(sql));
        const auto run = mCluster.exec(QStringLiteral("filter"), sql);
        QVERIFY2(run.ok(), qPrintable(run.ok() ? QString() : run.error().toString()));
        QVERIFY(mCluster.exec(QStringLiteral("shard"), onShards).ok());
        // The live filter holds every user.
        const Run load = ctl(QStringLiteral("filter_admin"), {QStringLiteral("load"), mNames.fileName()});
        QVERIFY2(load.code == 0, qPrintable(context(load)));
        QCOMPARE(test::referenceFree(as(QStringLiteral("filter_admin")), mUsers), 0);
    }

    /** The documented DBA rebuilds, the application adds a name meanwhile, the DBA swaps and drops the
     *  old pair: every name maybe for the application throughout, and the pair still the owner's. */
    void theDocumentedRolesRebuildSwapAndDropOld()
    {
        Run r = rebuildAs(QStringLiteral("filter_dba"), QStringLiteral("username_filter_v2"));
        QVERIFY2(r.code == 0, qPrintable(context(r)));
        r = ctl(QStringLiteral("filter_admin"), {QStringLiteral("add"), QStringLiteral("latecomer")});
        QVERIFY2(r.code == 0, qPrintable(context(r)));
        r = ctl(QStringLiteral("filter_dba"),
                {QStringLiteral("swap"), QStringLiteral("--yes"), QStringLiteral("username_filter_v2")});
        QVERIFY2(r.code == 0, qPrintable(context(r)));
        QCOMPARE(test::referenceFree(as(QStringLiteral("filter_admin")), mUsers + QList<QByteArray>{"latecomer"}), 0);
        QCOMPARE(test::referenceFree(as(QStringLiteral("viewer")), mUsers + QList<QByteArray>{"latecomer"}), 0);
        QCOMPARE(one(QStringLiteral("select relowner::regrole::text from pg_class where oid = "
                                    "'username_filter'::regclass")),
                 QByteArray("filter_owner"));
        QCOMPARE(one(QStringLiteral("select count(*) from pg_class where relname = 'username_filter_v2'")),
                 QByteArray("0"));
        r = ctl(QStringLiteral("filter_dba"), {QStringLiteral("drop-old"), QStringLiteral("--yes")});
        QVERIFY2(r.code == 0, qPrintable(context(r)));
        QCOMPARE(one(QStringLiteral("select count(*) from pg_class where relname like 'username_filter_old%' "
                                    "and relkind = 'r'")),
                 QByteArray("0"));
    }

    /** An owner without CREATE on its schema: the DBA's rebuild is refused naming that role and the
     *  GRANT, and nothing is left behind. */
    void anOwnerWithoutCreateIsNamedWithTheGrant()
    {
        QVERIFY(
            mCluster.exec(QStringLiteral("filter"), QStringLiteral("revoke create on schema public from filter_owner"))
                .ok());
        const QByteArray before = one(QStringLiteral("select md5(prosrc) from pg_proc where oid = "
                                                     "'username_bits(text)'::regprocedure"));
        const Run r = rebuildAs(QStringLiteral("filter_dba"), QStringLiteral("username_filter_v3"));
        QVERIFY(mCluster.exec(QStringLiteral("filter"), QStringLiteral("grant create on schema public to filter_owner"))
                    .ok());
        QVERIFY2(r.code == 8, qPrintable(context(r)));
        QVERIFY2(r.err.contains("filter_owner") && r.err.contains("grant create on schema public to filter_owner"),
                 qPrintable(context(r)));
        QVERIFY2(!r.err.contains("this role lacks"), qPrintable(context(r)));
        QCOMPARE(one(QStringLiteral("select md5(prosrc) from pg_proc where oid = 'username_bits(text)'::regprocedure")),
                 before);
        QCOMPARE(one(QStringLiteral("select count(*) from pg_class where relname in ('username_filter_v3', "
                                    "'bloomscope_rebuild', 'bloomscope_pending')")),
                 QByteArray("0"));
    }

    /** A superuser DBA, the owner without CREATE: the rebuild goes on as it used to, and its helper
     *  objects are the owner's (a security definer recorder owned by a superuser would run as one; the
     *  new pair is the DBA's until the swap hands it over, as for every DBA). */
    void aSuperuserDbaDoesItItself()
    {
        QVERIFY(
            mCluster.exec(QStringLiteral("filter"), QStringLiteral("revoke create on schema public from filter_owner"))
                .ok());
        const Run r = test::runBloomctl(
            {QStringLiteral("--db"), mCluster.connectionString(QStringLiteral("filter")), QStringLiteral("rebuild"),
             QStringLiteral("--yes"), QStringLiteral("--into"), QStringLiteral("username_filter_su"),
             QStringLiteral("--chunks"), QStringLiteral("4096"), QStringLiteral("--allow-smaller"),
             QStringLiteral("--grace"), QStringLiteral("0"), QStringLiteral("--file"), mNames.fileName()});
        const QByteArray owners = one(QStringLiteral(
            "select string_agg(distinct o, ',') from ("
            " select relowner::regrole::text o from pg_class where relname in ('bloomscope_rebuild', "
            "   'bloomscope_pending', 'bloomscope_swapped') and relkind = 'r' "
            " union all select proowner::regrole::text from pg_proc where proname in ('bloomscope_record', "
            "   'bloomscope_record_names')) x"));
        const Run abort =
            test::runBloomctl({QStringLiteral("--db"), mCluster.connectionString(QStringLiteral("filter")),
                               QStringLiteral("rebuild"), QStringLiteral("--abort"), QStringLiteral("--yes")});
        QVERIFY(mCluster.exec(QStringLiteral("filter"), QStringLiteral("grant create on schema public to filter_owner"))
                    .ok());
        QVERIFY2(r.code == 0, qPrintable(context(r)));
        QCOMPARE(owners, QByteArray("filter_owner"));
        QVERIFY2(abort.code == 0, qPrintable(context(abort)));
    }

    void cleanupTestCase() { QVERIFY(mCluster.stop().ok()); }
};

QTEST_GUILESS_MAIN(TestPrivileges)
#include "tst_privileges.moc"
