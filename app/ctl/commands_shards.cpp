// bloomctl commands over the user shards: check --exact, signup, delete-user.
#include "commands.h"
#include "context.h"

#include "common/printable.h"
#include "local/demo.h"
#include "local/localcluster.h"
#include "postgres/pgconn.h"
#include "shards/audit.h"
#include "shards/shardmap.h"
#include "shards/shardpool.h"
#include "shards/simulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <algorithm>

#include <unistd.h>

namespace bloom::cli {

namespace {

Result<ShardMap> shardMap(const Args &a)
{
    if (!a.has("shards"))
        return makeError(
            ErrorKind::Usage, QStringLiteral("this command needs --shards MAP (a shard map file)"),
            QStringLiteral("see docs/bloomctl.md 'Shards' (or /usr/share/doc/bloomctl/bloomctl.md.gz) for the format"));
    return ShardMap::load(a.option("shards"));
}

} // namespace

int cmdCheckExact(Context &c)
{
    auto map = shardMap(c.args());
    if (!map)
        return c.fail(map.error());
    auto checked = c.checkedNames();
    if (!checked)
        return c.fail(checked.error());
    const QList<QByteArray> &names = checked->names;
    const bool bad = checked->hadBad;
    const QList<bool> &verdicts = checked->verdicts;
    QJsonArray json;
    for (qsizetype i = 0; i < names.size(); ++i) {
        QString verdict = QStringLiteral("free");
        QString by = QStringLiteral("filter");
        ExactAnswer exact;
        if (verdicts.at(i)) { // "maybe": only the shards can say
            auto r = exactLookup(*map, names[i]);
            if (!r)
                return c.fail(r.error());
            exact = *r;
            verdict = exact.taken ? QStringLiteral("taken") : QStringLiteral("free");
            by = exact.deleted ? QStringLiteral("shards (a deleted account's name)") : QStringLiteral("shards");
        }
        if (c.json())
            json.append(QJsonObject{{QStringLiteral("name"), QString::fromUtf8(names[i])},
                                    {QStringLiteral("verdict"), verdict},
                                    {QStringLiteral("answered_by"), by},
                                    {QStringLiteral("shard_queries"), exact.shardQueries},
                                    {QStringLiteral("deleted_account"), exact.deleted},
                                    {QStringLiteral("slowest_shard_ms"), exact.slowestMs}});
        else
            c.out() << escapeField(names[i]) << '\t' << verdict << '\t' << by << '\t' << exact.shardQueries
                    << " shard queries\t" << QString::number(exact.slowestMs, 'f', 2) << " ms slowest\n";
    }
    if (c.json())
        c.out() << QJsonDocument(json).toJson(QJsonDocument::Indented);
    return bad ? ExitBadInput : ExitOk;
}

int cmdAudit(Context &c)
{
    // Users sampled per shard; the never-added probes follow, at least 10,000 and at most 10,000,000.
    const auto sample = wholeOption(c.args(), "sample", 10000, 1, 1'000'000);
    if (!sample)
        return c.usage(sample.error().message);
    auto map = shardMap(c.args());
    if (!map)
        return c.fail(map.error());
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    const qint64 probes = std::clamp<qint64>(*sample * qint64(map->shards.size()), 10000, 10000000);
    auto r = audit(**store, *map, *sample, probes);
    if (!r)
        return c.fail(r.error());
    // Kept beside the filter so the GUI shows the last audit; a read-only role only loses the record.
    bool refused = false;
    if (!c.args().flag("no-record"))
        if (auto rec = recordAudit(**c.database(), (*store)->tableName(), *r, c.args().flag("publication-ok")); !rec) {
            refused = rec.error().kind == ErrorKind::Refused;
            if (refused) // a publication would send the new table to subscribers: exit 8, with their SQL
                c.warn(QStringLiteral("the audit ran but was not recorded: %1\n(or pass --no-record)")
                           .arg(rec.error().toString()));
            else
                c.warn(QStringLiteral("the audit ran but was not recorded: %1 (grant CREATE/INSERT for "
                                      "bloomscope_audit, or pass --no-record)")
                           .arg(rec.error().message));
        }
    if (c.json()) {
        QJsonArray fn;
        for (const QByteArray &n : r->falseNegatives)
            fn.append(QString::fromUtf8(n));
        c.out() << QJsonDocument(QJsonObject{{QStringLiteral("sampled_users"), r->sampled},
                                             {QStringLiteral("false_negatives"), fn},
                                             {QStringLiteral("probes"), r->probes},
                                             {QStringLiteral("false_positives"), r->falsePositives},
                                             {QStringLiteral("measured_fpr"), r->measured},
                                             {QStringLiteral("measured_low95"), r->low95},
                                             {QStringLiteral("measured_high95"), r->high95},
                                             {QStringLiteral("estimated_fpr"), r->estimated}})
                       .toJson(QJsonDocument::Indented);
    } else {
        if (r->falseNegatives.isEmpty())
            c.out() << "no false negative: all " << r->sampled << " sampled users check maybe\n";
        else {
            c.out() << "FALSE NEGATIVES: " << r->falseNegatives.size() << " of " << r->sampled
                    << " sampled users check FREE - their sign-ups bypassed the filter or it lost bits:\n";
            for (const QByteArray &n : r->falseNegatives)
                c.out() << "  " << escapeField(n) << "\n";
        }
        c.out() << "measured FPR " << QString::number(r->measured, 'g', 4) << " (" << r->falsePositives << " of "
                << r->probes << " never-added probes; 95% interval " << QString::number(r->low95, 'g', 3) << " .. "
                << QString::number(r->high95, 'g', 3) << "), estimated " << QString::number(r->estimated, 'g', 4)
                << "\n";
    }
    return !r->falseNegatives.isEmpty() ? ExitFalseNegative : refused ? ExitRefused : ExitOk;
}

int cmdSimulate(Context &c)
{
    const Args &a = c.args();
    const auto count = wholeOption(a, "generate", 1000, 1, 1'000'000);
    const auto takenShare = numberOption(a, "taken-share", 0.1, 0, 1);
    const auto typingMs = wholeOption(a, "typing-ms", 150, 0, 60000);
    const auto debounceMs = wholeOption(a, "debounce-ms", 0, 0, 60000);
    for (const Error *e : {count ? nullptr : &count.error(), takenShare ? nullptr : &takenShare.error(),
                           typingMs ? nullptr : &typingMs.error(), debounceMs ? nullptr : &debounceMs.error()})
        if (e)
            return c.usage(e->message);
    auto map = shardMap(a);
    if (!map)
        return c.fail(map.error());
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    ShardPool pool(*map);
    if (auto s = pool.connect(); !s)
        return c.fail(s.error());
    // The replay: --generate N twelve-character names that are free, and a share of taken ones
    // sampled from the shards (--taken-share, 0.1 by default).
    auto names = replayNames(*map, *count, *takenShare, quint32(QRandomGenerator::global()->generate()));
    if (!names)
        return c.fail(names.error());
    SimulationOptions o;
    o.typingMs = int(*typingMs);
    o.debounceMs = int(*debounceMs);
    auto r = simulate(**store, pool, *names, o);
    if (!r)
        return c.fail(r.error());
    const double perName = double(qMax<qint64>(1, r->names));
    if (c.json()) {
        c.out() << QJsonDocument(QJsonObject{{QStringLiteral("names"), r->names},
                                             {QStringLiteral("shards"), pool.size()},
                                             {QStringLiteral("keystrokes"), r->keystrokes},
                                             {QStringLiteral("checks"), r->checks},
                                             {QStringLiteral("filter_maybes"), r->filterMaybes},
                                             {QStringLiteral("deleted_name_scatter_gathers"), r->deletedScatterGathers},
                                             {QStringLiteral("shard_queries_with_filter"), r->shardQueriesWithFilter},
                                             {QStringLiteral("shard_queries_without_filter"), r->shardQueriesWithout},
                                             {QStringLiteral("filter_p50_ms"), r->filterP50Ms},
                                             {QStringLiteral("filter_p99_ms"), r->filterP99Ms},
                                             {QStringLiteral("shards_p50_ms"), r->shardsP50Ms},
                                             {QStringLiteral("shards_p99_ms"), r->shardsP99Ms}})
                       .toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    c.out() << "typed " << r->names << " names (" << r->keystrokes << " keystrokes, " << r->checks << " checks; typing "
            << o.typingMs << " ms a key, debounce " << o.debounceMs << " ms) against " << pool.size() << " shards\n"
            << "  without the filter: " << r->shardQueriesWithout << " shard queries ("
            << QString::number(r->shardQueriesWithout / perName, 'f', 1) << " a name), a check p50 "
            << QString::number(r->shardsP50Ms, 'f', 2) << " ms, p99 " << QString::number(r->shardsP99Ms, 'f', 2)
            << " ms\n"
            << "  with the filter:    " << r->shardQueriesWithFilter << " shard queries ("
            << QString::number(r->shardQueriesWithFilter / perName, 'f', 1) << " a name; " << r->filterMaybes
            << " checks said maybe, " << r->deletedScatterGathers << " of them deleted accounts' names), a check p50 "
            << QString::number(r->filterP50Ms, 'f', 2) << " ms, p99 " << QString::number(r->filterP99Ms, 'f', 2)
            << " ms\n";
    return ExitOk;
}

int cmdDemo(Context &c)
{
    // A private cluster with the reference filter and N shard databases, until Ctrl-C.
    const auto generate = wholeOption(c.args(), "generate", 200000, 1, 100'000'000);
    if (!generate)
        return c.usage(generate.error().message);
    const auto shardCount = wholeOption(c.args(), "shards", 16, 1, 256);
    if (!shardCount)
        return c.usage(shardCount.error().message);
    const qint64 names = *generate;
    const int shards = int(*shardCount);
    LocalCluster cluster;
    auto map = startShardedDemo(cluster, names, shards, {}, &Context::interrupted());
    if (!map)
        return c.fail(map.error());
    c.out() << "demo ready: " << names << " names in the filter and in " << shards << " shard databases\n"
            << "  --db \"" << cluster.connectionString(QStringLiteral("bloomscope_demo")) << "\"\n"
            << "  --shards " << *map << "\n"
            << "press Ctrl-C to stop it (the cluster and its files go away)\n";
    c.out().flush();
    while (!Context::interrupted().load())
        ::pause();
    return ExitOk;
}

int cmdSignup(Context &c)
{
    if (c.args().positional.size() != 2)
        return c.usage(QStringLiteral("signup takes one NAME"));
    auto map = shardMap(c.args());
    if (!map)
        return c.fail(map.error());
    auto checked = c.nameArgument(1);
    if (!checked)
        return c.fail(checked.error());
    const QByteArray name = *checked;
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    // 1. The filter first (the reference order): a crash after this leaves a false positive at
    //    worst, never a taken name that the filter calls free.
    auto added = (*store)->add({name});
    if (!added && added.error().retry == Error::Retry::Attach) { // a swap since attach: place again
        if (auto s = (*store)->attach(); !s)
            return c.fail(s.error());
        added = (*store)->add({name});
    }
    if (!added)
        return c.fail(added.error());
    if (qEnvironmentVariableIsSet("BLOOMSCOPE_TEST_CRASH_AFTER_FILTER"))
        ::_exit(9); // test hook: the crash window between the two writes
    // 2. The exact answer, then 3. the user row on its shard (id mod shards).
    auto exact = exactLookup(*map, name);
    if (!exact)
        return c.fail(exact.error());
    if (exact->taken) {
        if (c.json())
            c.out() << QJsonDocument(QJsonObject{{QStringLiteral("name"), QString::fromUtf8(name)},
                                                 {QStringLiteral("taken"), true},
                                                 {QStringLiteral("shard"), exact->foundOnShard},
                                                 {QStringLiteral("shard_queries"), exact->shardQueries}})
                           .toJson(QJsonDocument::Indented);
        else
            c.err() << "bloomctl: '" << escapeField(name) << "' is taken (on shard " << exact->foundOnShard << ")\n";
        return ExitTaken;
    }
    const quint64 id = QRandomGenerator::global()->generate64() >> 1;
    const int shard = int(id % quint64(map->shards.size()));
    PgConn conn(map->shards[shard].toConninfo(), PgConn::SearchPath::CatalogFirst);
    if (!conn.ok())
        return c.fail(
            makeError(ErrorKind::Connection, QStringLiteral("shard %1: %2").arg(shard).arg(conn.errorMessage())));
    auto r = conn.column(QStringLiteral("insert into %1 (id, %2) values ($1, $2) returning id")
                             .arg(conn.quoteIdentifier(map->table), conn.quoteIdentifier(map->column)),
                         {QByteArray::number(id), name});
    if (!r)
        return c.fail(r.error());
    if (c.json())
        c.out() << QJsonDocument(QJsonObject{{QStringLiteral("name"), QString::fromUtf8(name)},
                                             {QStringLiteral("taken"), false},
                                             {QStringLiteral("user_id"), QString::number(id)},
                                             {QStringLiteral("shard"), shard},
                                             {QStringLiteral("shard_queries"), exact->shardQueries}})
                       .toJson(QJsonDocument::Indented);
    else
        c.out() << "signed up " << escapeField(name) << " as user " << id << " on shard " << shard << " ("
                << exact->shardQueries << " shard queries for the exact check)\n";
    return ExitOk;
}

int cmdDeleteUser(Context &c)
{
    if (c.args().positional.size() != 2)
        return c.usage(QStringLiteral("delete-user takes one NAME"));
    auto map = shardMap(c.args());
    if (!map)
        return c.fail(map.error());
    auto checked = c.nameArgument(1);
    if (!checked)
        return c.fail(checked.error());
    const QByteArray name = *checked;
    if (!c.confirm(QStringLiteral("Delete every user named %1 from the shards of %2 (the filter keeps the name's "
                                  "bits)?")
                       .arg(escapeField(name), c.args().option("shards"))))
        return ExitUsage;
    auto deletedCount = deleteUser(*map, name);
    if (!deletedCount)
        return c.fail(deletedCount.error());
    const qint64 deleted = *deletedCount;
    // The filter keeps the name's bits: they may belong to other names too (docs/bloomctl.md "Shards").
    if (c.json())
        c.out() << QJsonDocument(QJsonObject{{QStringLiteral("name"), QString::fromUtf8(name)},
                                             {QStringLiteral("deleted"), deleted},
                                             {QStringLiteral("filter_keeps_bits"), true}})
                       .toJson(QJsonDocument::Indented);
    else
        c.out() << "deleted " << deleted << " user(s) named " << escapeField(name)
                << "; the filter keeps its bits, so the name now costs a scatter-gather on every check\n";
    return deleted ? ExitOk : ExitBadInput;
}

} // namespace bloom::cli
