// bloomctl rebuild, swap and drop-old.
#include "commands.h"
#include "context.h"

#include "common/printable.h"
#include "maintenance/rebuild.h"
#include "model/fprmodel.h"
#include "model/geometry.h"
#include "shards/shardmap.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <unistd.h>

namespace bloom::cli {

namespace {

void printJson(Context &c, const QJsonObject &o)
{
    c.out() << QJsonDocument(o).toJson(QJsonDocument::Indented);
}

} // namespace

namespace {
FilterRef liveRef(const Args &a);

/** The lock policy of --lock-timeout and --lock-wait (else the environment's), reporting every wait on
 *  stderr: one line, or one JSON object under --json. */
Result<maintenance::LockPolicy> lockPolicy(Context &c)
{
    const Args &a = c.args();
    maintenance::LockPolicy p = maintenance::LockPolicy::fromEnvironment();
    if (a.has("lock-timeout")) {
        const auto ms = FilterStore::parseTimeout(a.option("lock-timeout"));
        if (!ms || *ms < 100 || *ms > 60000)
            return makeError(ErrorKind::Usage,
                             QStringLiteral("--lock-timeout takes a time from 100ms to 1m (1s, 500ms), not '%1'")
                                 .arg(a.option("lock-timeout")));
        p.attemptMs = *ms;
    }
    if (a.has("lock-wait")) {
        const auto ms = FilterStore::parseTimeout(a.option("lock-wait"));
        if (!ms)
            return makeError(
                ErrorKind::Usage,
                QStringLiteral("--lock-wait takes a time from 0 to 1h (30s, 5m), not '%1'").arg(a.option("lock-wait")));
        p.totalMs = *ms;
    }
    p.cancel = &Context::interrupted();
    p.onWait = [&c](const maintenance::LockWait &w) {
        if (c.json())
            c.errJson({{QStringLiteral("lock_wait"), w.toJson()}});
        else
            c.note(w.describe());
        c.err().flush();
    };
    return p;
}
} // namespace

int cmdRebuild(Context &c)
{
    const Args &a = c.args();
    const auto grace = wholeOption(a, "grace", 2, 0, 3600);
    if (!grace)
        return c.usage(grace.error().message);
    const auto expectedNames = numberOption(a, "expected-names", 0, 1, 1e12);
    if (!expectedNames)
        return c.usage(expectedNames.error().message);
    auto db = c.writableDatabase(QStringLiteral("rebuilding %1").arg(a.option("table", FilterRef().table)));
    if (!db)
        return c.fail(db.error());
    if (a.flag("abort")) {
        if (!c.confirm(QStringLiteral("Abort the rebuild: restore the live function and drop the half-built pair "
                                      "and its pending names?")))
            return ExitUsage;
        auto lock = lockPolicy(c);
        if (!lock)
            return c.fail(lock.error());
        if (auto s = Rebuilder::abort(**db, liveRef(a), *lock); !s)
            return c.fail(s.error());
        c.out() << "rebuild aborted: the live function is restored and the rebuild's tables are gone\n";
        return ExitOk;
    }
    RebuildOptions o;
    o.live = liveRef(a);
    o.intoTable = a.option("into");
    o.intoFunction = a.option("into-function");
    o.allowSmaller = a.flag("allow-smaller");
    o.publicationOk = a.flag("publication-ok");
    auto lock = lockPolicy(c);
    if (!lock)
        return c.fail(lock.error());
    o.lock = *lock;
    if (o.intoTable.isEmpty())
        return c.usage(QStringLiteral("rebuild needs --into TABLE (or --abort)"));
    for (const QString &s : a.all("source")) {
        auto spec = ConnectionSpec::parse(s);
        if (!spec)
            return c.fail(spec.error());
        o.sources.append(*spec);
    }
    o.files = a.all("file");
    o.query = a.option("query", o.query);
    o.sqlMethod = a.option("method", QStringLiteral("client")) == QLatin1String("sql");
    if (a.has("method") && !o.sqlMethod && a.option("method") != QLatin1String("client"))
        return c.usage(QStringLiteral("--method is client or sql"));
    o.graceSeconds = int(*grace);
    if (a.has("target-fpr") || a.has("expected-names")) {
        const double target = rateOption(a, "target-fpr", 0.0).value_or(0.0);
        const double names = *expectedNames;
        auto sizing = fpr::sizing(names, target);
        if (!sizing)
            return c.usage(QStringLiteral("--target-fpr P (0 < P < 1) and --expected-names N (> 0) go together"));
        o.geometry = sizing->geometry;
        c.note(QStringLiteral("sized for %1 names at %2: %3 (FPR %4)")
                   .arg(qRound64(names))
                   .arg(target)
                   .arg(o.geometry.describe())
                   .arg(sizing->fpr));
    } else if (a.has("chunks") || a.has("chunk-bits") || a.has("k")) {
        auto g = geometryFromArgs(a);
        if (!g)
            return c.fail(g.error());
        o.geometry = *g;
    } else {
        // The reference's growth step: the live filter's k and chunk size, twice its chunks.
        FilterStore live(**db, o.live);
        if (auto s = live.attach(); !s)
            return c.fail(s.error());
        auto g = Geometry::create(qMin(live.geometry().chunkLog2() + 1, Geometry::MaxChunkLog2),
                                  live.geometry().bitsLog2(), live.geometry().k());
        if (!g)
            return c.fail(g.error());
        o.geometry = *g;
        c.note(QStringLiteral("no geometry given: twice the live filter's chunks, ") + o.geometry.describe());
    }
    // It changes the production filter (the live function records every name until swap or abort).
    if (!c.confirm(QStringLiteral("Rebuild %1 into %2 (%3)? Until it is swapped in or aborted, the live function %4 "
                                  "is replaced by a version that also records every name it places.")
                       .arg(o.live.table, o.intoTable, o.geometry.describe(), o.live.function)))
        return ExitUsage;
    Rebuilder rebuilder(**db, o);
    rebuilder.setCancelFlag(&Context::interrupted());
    const bool tty = ::isatty(STDERR_FILENO) == 1;
    QString lastStage;
    rebuilder.setProgress([&](const RebuildProgress &p) {
        if (p.stage != lastStage && !tty)
            c.note(QStringLiteral("rebuild stage ") + p.stage);
        if (tty)
            c.progress(QStringLiteral("%1: %2%3  (%4 s)        ")
                           .arg(p.stage)
                           .arg(p.done)
                           .arg(p.total ? QStringLiteral(" of %1").arg(p.total) : QString())
                           .arg(p.seconds, 0, 'f', 1));
        c.err().flush();
        lastStage = p.stage;
    });
    auto r = rebuilder.run();
    if (tty && !c.json())
        c.err() << "\n";
    if (!r)
        return c.fail(r.error());
    if (c.json()) {
        printJson(c, QJsonObject{{QStringLiteral("table"), r->newTable},
                                 {QStringLiteral("function"), r->newFunction},
                                 {QStringLiteral("chunks"), qint64(o.geometry.chunks())},
                                 {QStringLiteral("chunk_bits"), qint64(o.geometry.chunkBits())},
                                 {QStringLiteral("k"), o.geometry.k()},
                                 {QStringLiteral("exported"), r->exported},
                                 {QStringLiteral("drained"), r->drained},
                                 {QStringLiteral("non_ascii"), r->nonAscii},
                                 {QStringLiteral("export_seconds"), r->exportSeconds},
                                 {QStringLiteral("write_seconds"), r->writeSeconds},
                                 {QStringLiteral("index_seconds"), r->indexSeconds},
                                 {QStringLiteral("drain_seconds"), r->drainSeconds},
                                 {QStringLiteral("total_seconds"), r->totalSeconds}});
    } else {
        c.out() << "rebuilt " << r->newTable << " / " << r->newFunction << "(text): " << o.geometry.describe() << "\n"
                << "  " << r->exported << " names exported (" << r->nonAscii << " non-ASCII, lowered by the server) in "
                << QString::number(r->exportSeconds, 'f', 2) << " s; written in "
                << QString::number(r->writeSeconds, 'f', 2) << " s, indexed in "
                << QString::number(r->indexSeconds, 'f', 2) << " s; " << r->drained
                << " names drained from sign-ups meanwhile\n"
                << "  the live filter keeps recording new names until: bloomctl swap " << r->newTable << "\n";
    }
    if (!r->subscriberSteps.isEmpty())
        c.note(r->subscriberSteps);
    return ExitOk;
}

namespace {

FilterRef liveRef(const Args &a)
{
    FilterRef live;
    live.table = a.option("table", live.table);
    live.function = a.option("function", live.function);
    return live;
}

QJsonObject checkJson(const SwapCheck &k)
{
    QJsonArray sources;
    for (const SourceCount &s : k.perSource)
        sources.append(QJsonObject{{QStringLiteral("source"), s.source}, {QStringLiteral("names"), s.names}});
    QJsonArray misses;
    for (const QByteArray &n : k.auditMisses)
        misses.append(QString::fromUtf8(n));
    return QJsonObject{{QStringLiteral("live_table"), k.liveTable},
                       {QStringLiteral("new_table"), k.newTable},
                       {QStringLiteral("live_estimated_names"), k.liveNames},
                       {QStringLiteral("new_estimated_names"), k.newNames},
                       {QStringLiteral("missing_share"), k.missingShare},
                       {QStringLiteral("tolerance"), k.tolerance},
                       {QStringLiteral("per_source"), sources},
                       {QStringLiteral("pending"), k.pending},
                       {QStringLiteral("pending_written"), k.pendingWritten},
                       {QStringLiteral("carried"), QJsonArray::fromStringList(k.carried)},
                       {QStringLiteral("not_carried"), QJsonArray::fromStringList(k.notCarried)},
                       {QStringLiteral("publications"), QJsonArray::fromStringList(k.publications)},
                       {QStringLiteral("audited"), k.audited},
                       {QStringLiteral("audit_sampled"), k.auditSampled},
                       {QStringLiteral("audit_misses"), misses}};
}

void printCheck(Context &c, const SwapCheck &k)
{
    if (c.json()) {
        QJsonObject o = checkJson(k);
        o.insert(QStringLiteral("sql"), k.sql);
        c.errJson({{QStringLiteral("swap_check"), o}});
        return;
    }
    QTextStream &e = c.err();
    e << "live " << k.liveTable << ": " << k.liveGeometry.describe() << ", about "
      << formatCount(std::llround(k.liveNames)) << " names\n"
      << "new  " << k.newTable << ": " << k.newGeometry.describe() << ", about "
      << formatCount(std::llround(k.newNames)) << " names\n";
    for (const SourceCount &s : k.perSource)
        e << "  the rebuild read " << formatCount(s.names) << " names from " << s.source << "\n";
    e << "  pending names to drain: " << formatCount(k.pending);
    if (k.pendingWritten > 0)
        e << " (" << formatCount(k.pendingWritten) << " of them added by Bloomscope's writes, counted with the new "
          << "filter's)";
    e << "; live names the new filter would miss: " << QString::number(k.missingShare * 100, 'f', 1) << "%\n";
    e << "  audit: "
      << (k.audited ? QStringLiteral("%1 sampled users, %2 free in the new table")
                          .arg(formatCount(k.auditSampled))
                          .arg(k.auditMisses.size())
                    : k.auditNote)
      << "\n";
    e << "  carried over: "
      << (k.carried.isEmpty() ? QStringLiteral("nothing to carry") : k.carried.join(QStringLiteral("; "))) << "\n";
    if (!k.notCarried.isEmpty())
        e << "  cannot be carried over: " << k.notCarried.join(QStringLiteral("; ")) << "\n";
    if (!k.publications.isEmpty())
        e << "  published to subscribers: " << k.subscriberCheck << "\n";
    e << "the swap runs:\n" << k.sql;
}

} // namespace

int cmdSwap(Context &c)
{
    const Args &a = c.args();
    if (a.positional.size() != 2)
        return c.usage(QStringLiteral("swap takes the rebuilt TABLE"));
    const auto auditSample = wholeOption(a, "audit-sample", SwapOptions{}.auditSample, 0, 1'000'000);
    if (!auditSample)
        return c.usage(auditSample.error().message);
    auto db = c.writableDatabase(QStringLiteral("swapping in %1").arg(a.positional[1]));
    if (!db)
        return c.fail(db.error());
    const QString table = a.positional[1];
    SwapOptions o;
    o.live = liveRef(a);
    o.allowFewerNames = a.flag("allow-fewer-names");
    o.allowUncarried = a.flag("accept-uncarried");
    o.publicationOk = a.flag("publication-ok");
    o.auditSample = *auditSample; // 0 skips the audit
    auto lock = lockPolicy(c);
    if (!lock)
        return c.fail(lock.error());
    o.lock = *lock;
    if (a.has("shards")) {
        auto map = ShardMap::load(a.option("shards"));
        if (!map)
            return c.fail(map.error());
        o.shards = *map;
    }
    // The guard first: nothing is asked or changed when it refuses.
    auto check = Rebuilder::checkSwap(**db, table, o);
    if (!check)
        return c.fail(check.error());
    if (!c.json() || !a.flag("yes"))
        printCheck(c, *check);
    if (!check->refusal.isEmpty()) {
        Error refused =
            makeError(ErrorKind::Refused, QStringLiteral("refusing to swap in %1: %2").arg(table, check->refusal),
                      check->refusalFix);
        refused.consent = check->refusalConsent;
        return c.fail(refused);
    }
    if (!c.confirm(QStringLiteral("Swap %1 in as the live filter (%2 and its function are kept under a dated name)?")
                       .arg(check->newTable, check->liveTable)))
        return ExitUsage;
    auto r = Rebuilder::swap(**db, table, o);
    if (!r)
        return c.fail(r.error());
    if (c.json())
        printJson(c, QJsonObject{{QStringLiteral("old_table"), r->oldTable},
                                 {QStringLiteral("old_function"), r->oldFunction},
                                 {QStringLiteral("drained_in_swap"), r->drainedInSwap},
                                 {QStringLiteral("verified_names"), r->verifiedNames},
                                 {QStringLiteral("exclusive_ms"), r->exclusiveMs},
                                 {QStringLiteral("lock_ms"), r->lockMs},
                                 {QStringLiteral("guard"), checkJson(r->check)}});
    else
        c.out() << "swapped in " << table << "; the old pair is " << r->oldTable << " / " << r->oldFunction
                << "(text)\n"
                << "  carried over: "
                << (r->check.carried.isEmpty() ? QStringLiteral("nothing to carry")
                                               : r->check.carried.join(QStringLiteral("; ")))
                << "\n  " << r->verifiedNames << " drained names checked in the new filter before the lock; "
                << r->drainedInSwap << " names drained inside the swap; checks waited "
                << QString::number(r->exclusiveMs, 'f', 1) << " ms, adds " << QString::number(r->lockMs, 'f', 1)
                << " ms\n  drop the old pair with: bloomctl drop-old\n";
    if (!r->check.publications.isEmpty())
        c.note(QString(r->check.subscriberAfter).replace(QStringLiteral("<OLD_TABLE>"), r->oldTable));
    return ExitOk;
}

int cmdDropOld(Context &c)
{
    auto db = c.writableDatabase(QStringLiteral("dropping the old pair"));
    if (!db)
        return c.fail(db.error());
    const FilterRef live = liveRef(c.args());
    auto lock = lockPolicy(c);
    if (!lock)
        return c.fail(lock.error());
    auto pairs = Rebuilder::dropOld(**db, live, /*dryRun=*/true);
    if (!pairs)
        return c.fail(pairs.error());
    if (pairs->isEmpty()) {
        if (c.json())
            printJson(c, QJsonObject{{QStringLiteral("table"), live.table}, {QStringLiteral("dropped"), QJsonArray()}});
        else
            c.out() << "no old pair recorded by a swap of " << live.table << ": nothing to drop\n";
        return ExitOk;
    }
    if (!c.confirm(QStringLiteral("Drop %1 (the old pair the swap kept) in one transaction?")
                       .arg(pairs->join(QStringLiteral(", ")))))
        return ExitUsage;
    auto r = Rebuilder::dropOld(**db, live, /*dryRun=*/false, *lock);
    if (!r)
        return c.fail(r.error());
    if (c.json()) {
        printJson(c, QJsonObject{{QStringLiteral("table"), live.table},
                                 {QStringLiteral("dropped"), QJsonArray::fromStringList(*r)}});
        return ExitOk;
    }
    QStringList dropped;
    for (const QString &t : *r) // catalog names: a newline in one must not forge a line
        dropped << escapeField(t);
    c.out() << "dropped " << (dropped.isEmpty() ? QStringLiteral("no old pair") : dropped.join(QStringLiteral(", ")))
            << "\n";
    return ExitOk;
}

} // namespace bloom::cli
