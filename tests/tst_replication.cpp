// Logical replication (issue 32, part 3): a publisher (wal_level=logical) and a REAL subscriber (a
// second private cluster, CREATE SUBSCRIPTION over loopback TCP). Whatever bloomctl creates or swaps
// on the publisher, the subscriber's apply worker keeps running and its filter never calls an added
// name free: init, record and rebuild refuse (exit 8) with the SQL the subscriber runs first; the
// swap is followed on the subscriber in the transaction that applies it.
#include "local/localcluster.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QTest>
#include <QThread>

#include <atomic>
#include <mutex>
#include <thread>

using namespace bloom;

namespace {

const QString Password = QStringLiteral("replication-test-secret");

/** The SQL block a refusal printed for the subscribers: from its "begin;" line to its "commit;" line. */
QString subscriberSql(const QByteArray &output)
{
    const QString text = QString::fromUtf8(output);
    const qsizetype from = text.indexOf(QLatin1String("\nbegin;\n"));
    const qsizetype to = text.indexOf(QLatin1String("\ncommit;\n"), from);
    if (from < 0 || to < 0)
        return {};
    return text.mid(from + 1, to + 9 - (from + 1));
}

QByteArray one(const QString &conninfo, const QString &sql, const QList<QByteArray> &params = {})
{
    PgConn c(conninfo);
    auto r = c.column(sql, params);
    if (!r)
        qFatal("%s: %s", qPrintable(sql), qPrintable(r.error().message));
    return r->value(0);
}

void run(const QString &conninfo, const QString &sql)
{
    PgConn c(conninfo);
    auto s = c.exec(sql);
    if (!s)
        qFatal("%s: %s", qPrintable(sql.left(200)), qPrintable(s.error().message));
}

/** The application's add: the reference's own statement, through the live username_bits. */
QString referenceAdd()
{
    return QStringLiteral("update username_filter f set bits = f.bits | b.mask from username_bits($1) b "
                          "where f.chunk = b.chunk");
}

} // namespace

class TestReplication : public QObject {
    Q_OBJECT
private:
    LocalCluster mPub, mSub;
    QTemporaryFile mNames;
    QList<QByteArray> mExported; // the names in mNames (also in the live filter)
    int mMarker = 0;

    QString pub(const QString &db) const { return mPub.connectionString(db); }
    QString sub(const QString &db) const { return mSub.connectionString(db); }

    test::CtlRun bloomctl(const QString &db, const QStringList &args)
    {
        return test::runBloomctl(QStringList{QStringLiteral("--db"), pub(db)} + args);
    }

    /** Creates a database on both clusters with the same name. */
    void createDatabases(const QString &db)
    {
        QVERIFY(mPub.createDatabase(db).ok());
        QVERIFY(mSub.createDatabase(db).ok());
    }

    void subscribe(const QString &db, const QString &subscription, const QString &publication)
    {
        run(sub(db), QStringLiteral("create subscription %1 connection 'host=127.0.0.1 port=%2 user=%3 "
                                    "password=%4 dbname=%5' publication %6")
                         .arg(subscription)
                         .arg(mPub.port())
                         .arg(mPub.superuser(), Password, db, publication));
        QVERIFY(
            waitTrue(sub(db), QStringLiteral("select count(*) = 0 from pg_subscription_rel where srsubstate <> 'r'")));
    }

    /** Polls `sql` (one boolean) on `conninfo` until it is true; false after `seconds`. */
    bool waitTrue(const QString &conninfo, const QString &sql, int seconds = 60)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < seconds * 1000) {
            PgConn c(conninfo);
            if (auto r = c.column(sql); r && r->value(0) == "t")
                return true;
            QThread::msleep(100);
        }
        qWarning("not true within %d s: %s", seconds, qPrintable(sql));
        return false;
    }

    /** Adds a new marker name on the publisher and waits until the subscriber calls it maybe: the
     *  subscriber has then applied every transaction the publisher committed before it (apply is in
     *  commit order). False when it does not arrive within 60 s (a stopped apply worker). */
    bool caughtUp(const QString &db)
    {
        const QByteArray marker = "replication-marker-" + QByteArray::number(++mMarker);
        PgConn p(pub(db));
        if (!p.column(referenceAdd() + QStringLiteral(" returning 1"), {marker}))
            return false;
        return waitTrue(sub(db), QStringLiteral("select coalesce((select bits & mask = mask from username_filter "
                                                "join username_bits('%1') using (chunk)), false)")
                                     .arg(QString::fromLatin1(marker)));
    }

    /** How many of `names` the subscriber's filter calls free, through its own reference check. */
    qint64 freeOnSubscriber(const QString &db, const QList<QByteArray> &names)
    {
        return one(sub(db),
                   QStringLiteral("select count(*) from unnest(string_to_array($1, E'\\n')) n where not coalesce("
                                  "(select bits & mask = mask from username_filter join username_bits(n) using "
                                  "(chunk)), false)"),
                   {names.join('\n')})
            .toLongLong();
    }

    /** The exported names, added on the publisher in one statement (the reference's bit_or way). */
    void loadExported(const QString &db)
    {
        PgConn p(pub(db));
        QVERIFY(p.column(QStringLiteral("update username_filter f set bits = f.bits | m.mask from (select b.chunk, "
                                        "bit_or(b.mask) as mask from unnest(string_to_array($1, E'\\n')) n, "
                                        "username_bits(n) b group by b.chunk) m where f.chunk = m.chunk returning 1"),
                         {mExported.join('\n')})
                    .ok());
    }

    void addOnPublisher(const QString &db, const QList<QByteArray> &names)
    {
        PgConn p(pub(db));
        for (const QByteArray &n : names)
            QVERIFY(p.column(referenceAdd() + QStringLiteral(" returning 1"), {n}).ok());
    }

    /** The subscriber's apply worker is running and has never failed. */
    void applyWorkerHealthy(const QString &db, const QString &subscription)
    {
        QCOMPARE(one(sub(db), QStringLiteral("select pid is not null from pg_stat_subscription where subname = '%1' "
                                             "and relid is null")
                                  .arg(subscription)),
                 QByteArray("t"));
        QCOMPARE(one(sub(db), QStringLiteral("select apply_error_count from pg_stat_subscription_stats where "
                                             "subname = '%1'")
                                  .arg(subscription)),
                 QByteArray("0"));
    }

    /**
     * Sign-ups through the reference statement on the publisher while `action` runs (the swap: some
     * are drained inside its transaction); returns the names whose add committed.
     */
    QList<QByteArray> signUpsDuring(const QString &db, const QString &prefix, const std::function<void()> &action)
    {
        std::atomic<bool> stop{false};
        QList<QByteArray> committed;
        std::thread t([&] {
            PgConn p(pub(db));
            for (int i = 0; !stop.load() || i < 20; ++i) {
                const QByteArray name = prefix.toUtf8() + QByteArray::number(i);
                if (p.column(referenceAdd() + QStringLiteral(" returning 1"), {name}))
                    committed << name;
                QThread::msleep(20); // a sign-up form's pace: the guard's 2% counts them before they drain
            }
        });
        action();
        stop.store(true);
        t.join();
        return committed;
    }

    /** The docs' set-up of the helper schema (docs/operations.md "Privileges"): the dedicated schema
     *  `bloomscope`, the filter's owner's, so that the helpers do not live beside the filter. */
    void dedicatedHelperSchema(const QString &db)
    {
        run(pub(db), QStringLiteral("create schema if not exists bloomscope; revoke all on schema bloomscope from "
                                    "public"));
    }

    /** Rebuild and swap of `db`'s filter into 2^11 chunks, every step as the DBA is told. */
    void rebuildAndSwap(const QString &db, const QString &subscription, bool helpersPublished)
    {
        dedicatedHelperSchema(db);
        // Refused without the flag: nothing is created, the subscriber goes on.
        const QStringList rebuild{QStringLiteral("rebuild"),  QStringLiteral("--yes"),
                                  QStringLiteral("--into"),   QStringLiteral("username_filter_v2"),
                                  QStringLiteral("--chunks"), QStringLiteral("2048"),
                                  QStringLiteral("--grace"),  QStringLiteral("0"),
                                  QStringLiteral("--file"),   mNames.fileName()};
        auto r = bloomctl(db, rebuild);
        QCOMPARE(r.code, 8);
        QVERIFY2(r.err.contains("refusing to rebuild public.username_filter on a publisher"), r.err.constData());
        QCOMPARE(one(pub(db), QStringLiteral("select count(*) from pg_class where relname in ('bloomscope_rebuild', "
                                             "'bloomscope_pending', 'bloomscope_swapped', 'username_filter_v2')")),
                 QByteArray("0"));
        const QString sql = subscriberSql(r.err);
        QVERIFY2(sql.contains(QLatin1String("create table \"public\".\"username_filter_v2\"")), r.err.constData());
        QVERIFY(sql.contains(QLatin1String("bloomscope_follow_swap")));
        QCOMPARE(sql.contains(QLatin1String("bloomscope_pending")), helpersPublished);
        // The subscriber follows the printed SQL; then the rebuild goes ahead.
        run(sub(db), sql);
        r = bloomctl(db, rebuild + QStringList{QStringLiteral("--publication-ok")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.contains("REFRESH PUBLICATION"), r.err.constData());
        QVERIFY(caughtUp(db));
        applyWorkerHealthy(db, subscription);
        // Sign-ups while the rebuild waits: recorded, drained, and on the subscriber after the swap.
        QList<QByteArray> added; // few: the guard compares the counts before the swap drains them
        for (int i = 0; i < 20; ++i)
            added << "signed-up-meanwhile-" + QByteArray::number(i);
        addOnPublisher(db, added);
        // The steps the rebuild printed: refresh, then wait for the subscriber to be ready.
        run(sub(db), QStringLiteral("alter subscription %1 refresh publication").arg(subscription));
        const QRegularExpression ready(QStringLiteral("\\n  (select .* as ready_for_the_swap;)"));
        const auto check = ready.match(QString::fromUtf8(r.err));
        QVERIFY2(check.hasMatch(), r.err.constData());
        QVERIFY(waitTrue(sub(db), check.captured(1)));

        // The swap is refused until the DBA says the subscribers are ready.
        const QStringList swap{QStringLiteral("swap"), QStringLiteral("username_filter_v2"), QStringLiteral("--yes"),
                               QStringLiteral("--audit-sample"), QStringLiteral("0")};
        r = bloomctl(db, swap);
        QCOMPARE(r.code, 8);
        QVERIFY2(r.err.contains("published to subscribers"), r.err.constData());
        QVERIFY(r.err.contains("ready_for_the_swap"));
        QCOMPARE(one(pub(db), QStringLiteral("select count(*) from pg_class where relname = 'username_filter_v2'")),
                 QByteArray("1"));
        // A sign-up in flight when the swap wants its lock: the swap waits for it (without queuing a
        // request the other sign-ups would wait behind: it says whom it waits for) and drains its name
        // inside its own transaction (the new table's rows the subscriber applies before it follows the
        // swap). Other sign-ups go on at a form's pace meanwhile.
        PgConn inFlight(pub(db));
        QVERIFY(inFlight.exec(QStringLiteral("begin")).ok());
        QVERIFY(inFlight.column(referenceAdd() + QStringLiteral(" returning 1"), {"in-flight-at-the-swap"}).ok());
        const QByteArray inFlightPid = inFlight.column(QStringLiteral("select pg_backend_pid()"))->value(0);
        QByteArray swapErr;
        added += signUpsDuring(db, QStringLiteral("during-the-swap-"), [&] {
            QProcess p;
            p.start(QStringLiteral(BLOOMCTL_PATH), QStringList{QStringLiteral("--db"), pub(db)} + swap +
                                                       QStringList{QStringLiteral("--publication-ok")});
            QElapsedTimer waiting;
            waiting.start();
            while (!swapErr.contains("blocked by pid " + inFlightPid) && waiting.elapsed() < 60000 &&
                   p.state() != QProcess::NotRunning) {
                p.waitForReadyRead(200); // stdout's channel: it also reads what stderr has
                swapErr += p.readAllStandardError();
            }
            QVERIFY2(swapErr.contains("blocked by pid " + inFlightPid), swapErr.constData());
            QVERIFY(inFlight.exec(QStringLiteral("commit")).ok());
            QVERIFY(p.waitForFinished(120000));
            r.code = p.exitCode();
            r.out = p.readAllStandardOutput();
            swapErr += p.readAllStandardError();
        });
        added << "in-flight-at-the-swap";
        QVERIFY2(r.code == 0, swapErr.constData());
        QVERIFY2(!r.out.contains(" 0 names drained inside the swap"), r.out.constData());
        QVERIFY2(swapErr.contains("drop table if exists"), swapErr.constData());
        qInfo("%s: %s", qPrintable(db), r.out.mid(r.out.indexOf('\n') + 1).trimmed().constData()); // drained in it
        // After the swap: more sign-ups on the publisher; the subscriber has followed (its live table is
        // the new geometry) and calls every added name maybe, through its own username_bits.
        QList<QByteArray> after;
        for (int i = 0; i < 50; ++i)
            after << "after-the-swap-" + QByteArray::number(i);
        addOnPublisher(db, after);
        QVERIFY(caughtUp(db));
        QCOMPARE(one(sub(db), QStringLiteral("select count(*) from username_filter")), QByteArray("2048"));
        QCOMPARE(one(sub(db), QStringLiteral("select count(*) from pg_class where relname like "
                                             "'username_filter_old_%' and relkind = 'r'")),
                 QByteArray("1"));
        QCOMPARE(freeOnSubscriber(db, mExported), 0);
        QCOMPARE(freeOnSubscriber(db, added), 0);
        QCOMPARE(freeOnSubscriber(db, after), 0);
        QCOMPARE(freeOnSubscriber(db, {"never-added-name"}), 1); // the subscriber's filter is a filter
        applyWorkerHealthy(db, subscription);
        // info and metrics on the subscriber say it is one, and its lag (issue 43, 1).
        {
            const auto info = test::runBloomctl({QStringLiteral("--db"), sub(db), QStringLiteral("info")});
            QVERIFY2(info.code == 0 &&
                         info.out.contains("replication     subscriber of " + subscription.toUtf8() + ", lag "),
                     (info.out + info.err).constData());
            const auto metrics = test::runBloomctl({QStringLiteral("--db"), sub(db), QStringLiteral("metrics")});
            QVERIFY2(metrics.code == 0 && metrics.out.contains("bloomscope_subscription_lag_seconds{"),
                     (metrics.out + metrics.err).constData());
        }
        // The steps the swap printed for after it: drop the leftovers, refresh; the apply goes on.
        const QRegularExpression afterSteps(QStringLiteral("\\n  (drop table if exists [^\\n]*;)\\n"));
        const auto drop = afterSteps.match(QString::fromUtf8(swapErr));
        QVERIFY2(drop.hasMatch(), swapErr.constData());
        run(sub(db), drop.captured(1));
        run(sub(db), QStringLiteral("alter subscription %1 refresh publication").arg(subscription));
        addOnPublisher(db, {"after-the-refresh"});
        QVERIFY(caughtUp(db));
        QCOMPARE(freeOnSubscriber(db, {"after-the-refresh"}), 0);
        applyWorkerHealthy(db, subscription);
    }

private slots:
    void initTestCase()
    {
        LocalCluster::Options publisher;
        publisher.settings = {QStringLiteral("wal_level=logical"), QStringLiteral("max_wal_senders=10"),
                              QStringLiteral("max_replication_slots=10")};
        auto s = mPub.start(publisher);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        // The subscriber reaches the publisher over TCP, which always asks for a password.
        QVERIFY(mPub.exec(QStringLiteral("postgres"),
                          QStringLiteral("alter role %1 password '%2'").arg(mPub.superuser(), Password))
                    .ok());
        LocalCluster::Options subscriber;
        subscriber.settings = {QStringLiteral("wal_retrieve_retry_interval=500ms")};
        s = mSub.start(subscriber);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        for (int i = 0; i < 20000; ++i)
            mExported << "exported-user-" + QByteArray::number(i);
        QVERIFY(mNames.open());
        mNames.write(mExported.join('\n'));
        mNames.close();
    }

    /** FOR ALL TABLES: init, record, rebuild and swap, each refused with the subscriber's SQL first. */
    void forAllTables()
    {
        const QString db = QStringLiteral("alltables");
        createDatabases(db);
        run(pub(db), QStringLiteral("create publication everything for all tables"));
        // init: the new filter would reach the subscriber, which has no such table.
        auto r = bloomctl(db, {QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024")});
        QCOMPARE(r.code, 8);
        QVERIFY2(r.err.contains("refusing to create public.username_filter"), r.err.constData());
        QCOMPARE(one(pub(db), QStringLiteral("select count(*) from pg_class where relname = 'username_filter'")),
                 QByteArray("0"));
        run(sub(db), subscriberSql(r.err));
        r = bloomctl(db, {QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024"),
                          QStringLiteral("--publication-ok")});
        QVERIFY2(r.code == 0, r.err.constData());
        subscribe(db, QStringLiteral("sub_all"), QStringLiteral("everything"));
        loadExported(db);
        QVERIFY(caughtUp(db));
        QCOMPARE(freeOnSubscriber(db, mExported), 0);

        // record: refused; nothing created, the subscriber goes on.
        r = bloomctl(db, {QStringLiteral("record")});
        QCOMPARE(r.code, 8);
        QVERIFY2(r.err.contains("refusing to create public.bloomscope_history"), r.err.constData());
        QVERIFY(r.err.contains("REFRESH PUBLICATION"));
        QVERIFY(r.err.contains("sub_all")); // the slot, named after the subscription
        QCOMPARE(one(pub(db), QStringLiteral("select to_regclass('bloomscope_history') is null")), QByteArray("t"));
        r = bloomctl(db, {QStringLiteral("record"), QStringLiteral("--install-function")});
        QCOMPARE(r.code, 8);
        QVERIFY(caughtUp(db));
        applyWorkerHealthy(db, QStringLiteral("sub_all"));
        // The subscriber runs the printed SQL; recording goes ahead; after the refresh the snapshots
        // reach it and so do later adds.
        run(sub(db), subscriberSql(r.err));
        r = bloomctl(db, {QStringLiteral("record"), QStringLiteral("--publication-ok")});
        QVERIFY2(r.code == 0, r.err.constData());
        run(sub(db), QStringLiteral("alter subscription sub_all refresh publication"));
        QVERIFY(
            waitTrue(sub(db), QStringLiteral("select count(*) = 0 from pg_subscription_rel where srsubstate <> 'r'")));
        r = bloomctl(db, {QStringLiteral("record")}); // the table exists now: no refusal
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(caughtUp(db));
        QCOMPARE(one(sub(db), QStringLiteral("select count(*) from bloomscope_history")), QByteArray("2"));
        applyWorkerHealthy(db, QStringLiteral("sub_all"));

        rebuildAndSwap(db, QStringLiteral("sub_all"), true);
    }

    /** FOR TABLE username_filter (with a row filter): the rebuild adds the new table to it, the swap moves
     *  the membership inside its transaction, the subscriber follows. */
    void forTable()
    {
        const QString db = QStringLiteral("onetable");
        createDatabases(db);
        auto r = bloomctl(db, {QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        run(pub(db), QStringLiteral("create publication filter_only for table username_filter where (chunk >= 0)"));
        r = test::runBloomctl({QStringLiteral("--db"), sub(db), QStringLiteral("init"), QStringLiteral("--chunks"),
                               QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        run(sub(db), QStringLiteral("truncate username_filter")); // its rows come from the publisher
        subscribe(db, QStringLiteral("sub_one"), QStringLiteral("filter_only"));
        loadExported(db);
        QVERIFY(caughtUp(db));
        // The history is in no publication: record goes ahead.
        r = bloomctl(db, {QStringLiteral("record")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray liveOid = one(pub(db), QStringLiteral("select 'username_filter'::regclass::oid"));
        // The subscriber's own application role: the new pair gets its grants when the swap is followed.
        run(sub(db), QStringLiteral("create role subscriber_app; grant select on username_filter to subscriber_app; "
                                    "revoke all on function username_bits(text) from public; "
                                    "grant execute on function username_bits(text) to subscriber_app"));

        rebuildAndSwap(db, QStringLiteral("sub_one"), false);

        QCOMPARE(one(sub(db), QStringLiteral("select has_table_privilege('subscriber_app', 'username_filter', "
                                             "'select') and has_function_privilege('subscriber_app', "
                                             "'username_bits(text)', 'execute') and not exists (select from "
                                             "pg_proc p, aclexplode(p.proacl) a where p.oid = "
                                             "'username_bits(text)'::regprocedure and a.grantee = 0)")),
                 QByteArray("t"));

        // The publication lists the new live table, with its row filter, and not the old one.
        QCOMPARE(one(pub(db), QStringLiteral("select string_agg(tablename || ' ' || coalesce(rowfilter, '-'), ', ' "
                                             "order by tablename) from pg_publication_tables where pubname = "
                                             "'filter_only'")),
                 QByteArray("bloomscope_swapped -, username_filter (chunk >= 0)"));
        QVERIFY(one(pub(db), QStringLiteral("select 'username_filter'::regclass::oid")) != liveOid);
    }

    /**
     * A subscriber whose follower was made for another swap (here: its trigger names a new table the
     * publisher does not swap in, as a follower made for an earlier rebuild would) stops its apply worker
     * at the swap instead of skipping it: the old table keeps answering every name it had, the error is
     * counted, and once the follower is right the apply worker follows the swap on its next attempt.
     */
    void brokenFollowStopsTheApplyWorker()
    {
        const QString db = QStringLiteral("broken");
        createDatabases(db);
        auto r = bloomctl(db, {QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        run(pub(db), QStringLiteral("create publication filter_pub for table username_filter"));
        r = test::runBloomctl({QStringLiteral("--db"), sub(db), QStringLiteral("init"), QStringLiteral("--chunks"),
                               QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        run(sub(db), QStringLiteral("truncate username_filter"));
        subscribe(db, QStringLiteral("sub_broken"), QStringLiteral("filter_pub"));
        loadExported(db);
        QVERIFY(caughtUp(db));
        dedicatedHelperSchema(db);
        const QStringList rebuild{QStringLiteral("rebuild"),  QStringLiteral("--yes"),
                                  QStringLiteral("--into"),   QStringLiteral("username_filter_v2"),
                                  QStringLiteral("--chunks"), QStringLiteral("2048"),
                                  QStringLiteral("--grace"),  QStringLiteral("0"),
                                  QStringLiteral("--file"),   mNames.fileName()};
        r = bloomctl(db, rebuild);
        QCOMPARE(r.code, 8);
        run(sub(db), subscriberSql(r.err));
        r = bloomctl(db, rebuild + QStringList{QStringLiteral("--publication-ok")});
        QVERIFY2(r.code == 0, r.err.constData());
        run(sub(db), QStringLiteral("alter subscription sub_broken refresh publication"));
        const QRegularExpression ready(QStringLiteral("\\n  (select .* as ready_for_the_swap;)"));
        const QString check = ready.match(QString::fromUtf8(r.err)).captured(1);
        QVERIFY2(!check.isEmpty(), r.err.constData());
        QVERIFY(waitTrue(sub(db), check));
        QVERIFY(caughtUp(db));
        // The readiness query proves the follower is made for this very swap: a trigger for another
        // new table fails it.
        const QString followerDef = QString::fromUtf8(
            one(sub(db), QStringLiteral("select pg_get_triggerdef(oid) from pg_trigger where tgname = "
                                        "'bloomscope_follow_swap'")));
        QVERIFY2(followerDef.contains(QLatin1String("bloomscope.bloomscope_swapped")), qPrintable(followerDef));
        const auto follower = [&](const QString &from, const QString &to) {
            QString def = followerDef;
            def.replace(QLatin1String("CREATE TRIGGER"), QLatin1String("CREATE OR REPLACE TRIGGER")).replace(from, to);
            run(sub(db), def + QStringLiteral("; alter table bloomscope.bloomscope_swapped enable replica trigger "
                                              "bloomscope_follow_swap"));
        };
        follower(QStringLiteral("'username_filter_v2'"), QStringLiteral("'username_filter_v9'"));
        QCOMPARE(one(sub(db), check), QByteArray("f"));
        // The DBA swaps anyway.
        r = bloomctl(db, {QStringLiteral("swap"), QStringLiteral("username_filter_v2"), QStringLiteral("--yes"),
                          QStringLiteral("--audit-sample"), QStringLiteral("0"), QStringLiteral("--publication-ok")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(waitTrue(sub(db),
                         QStringLiteral("select apply_error_count > 0 from pg_stat_subscription_stats where subname = "
                                        "'sub_broken'"),
                         30));
        // Stopped before the swap: the old table answers, nothing renamed, no name it had is free.
        QCOMPARE(one(sub(db), QStringLiteral("select count(*) from username_filter")), QByteArray("1024"));
        QCOMPARE(one(sub(db), QStringLiteral("select to_regclass('username_filter_v2') is not null")), QByteArray("t"));
        QCOMPARE(freeOnSubscriber(db, mExported), 0);
        // The follower made right: the next attempt follows the swap, and later names arrive.
        follower(QStringLiteral("'username_filter_v9'"), QStringLiteral("'username_filter_v2'"));
        QVERIFY(caughtUp(db));
        QCOMPARE(one(sub(db), QStringLiteral("select count(*) from username_filter")), QByteArray("2048"));
        QList<QByteArray> after;
        for (int i = 0; i < 50; ++i)
            after << "after-the-broken-swap-" + QByteArray::number(i);
        addOnPublisher(db, after);
        QVERIFY(caughtUp(db));
        QCOMPARE(freeOnSubscriber(db, mExported), 0);
        QCOMPARE(freeOnSubscriber(db, after), 0);
    }
};

QTEST_GUILESS_MAIN(TestReplication)
#include "tst_replication.moc"
