// bloomctl rebuild, swap and drop-old.
#include "commands.h"
#include "context.h"

#include "maintenance/rebuild.h"
#include "model/fprmodel.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <unistd.h>

namespace bloom::cli {

namespace {

void printJson(Context &c, const QJsonObject &o)
{
    c.out() << QJsonDocument(o).toJson(QJsonDocument::Indented);
}

} // namespace

int cmdRebuild(Context &c)
{
    const Args &a = c.args();
    auto db = c.database();
    if (!db)
        return c.fail(db.error());
    if (a.flag("abort")) {
        if (auto s = Rebuilder::abort(**db); !s)
            return c.fail(s.error());
        c.out() << "rebuild aborted: the live function is restored and the rebuild's tables are gone\n";
        return ExitOk;
    }
    RebuildOptions o;
    o.live.table = a.option("table", o.live.table);
    o.live.function = a.option("function", o.live.function);
    o.intoTable = a.option("into");
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
    o.graceSeconds = a.option("grace", QStringLiteral("2")).toInt();
    if (a.has("target-fpr") || a.has("expected-names")) {
        const double target = a.option("target-fpr").toDouble();
        const double names = a.option("expected-names").toDouble();
        auto sizing = fpr::sizing(names, target);
        if (!sizing)
            return c.usage(QStringLiteral("--target-fpr P (0 < P < 1) and --expected-names N (> 0) go together"));
        o.geometry = sizing->geometry;
        c.err() << "bloomctl: sized for " << qRound64(names) << " names at " << target << ": " << o.geometry.describe()
                << " (FPR " << sizing->fpr << ")\n";
    } else {
        auto g = geometryFromArgs(a);
        if (!g)
            return c.fail(g.error());
        o.geometry = *g;
    }
    Rebuilder rebuilder(**db, o);
    rebuilder.setCancelFlag(&Context::interrupted());
    const bool tty = ::isatty(STDERR_FILENO) == 1;
    QString lastStage;
    rebuilder.setProgress([&](const RebuildProgress &p) {
        if (p.stage != lastStage && !tty)
            c.err() << "bloomctl: rebuild stage " << p.stage << "\n";
        if (tty)
            c.err() << "\r" << p.stage << ": " << p.done
                    << (p.total ? QStringLiteral(" of %1").arg(p.total) : QString()) << "  ("
                    << QString::number(p.seconds, 'f', 1) << " s)        ";
        c.err().flush();
        lastStage = p.stage;
    });
    auto r = rebuilder.run();
    if (tty)
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
    return ExitOk;
}

int cmdSwap(Context &c)
{
    if (c.args().positional.size() != 2)
        return c.usage(QStringLiteral("swap takes the rebuilt TABLE"));
    auto db = c.database();
    if (!db)
        return c.fail(db.error());
    const QString table = c.args().positional[1];
    if (!c.confirm(QStringLiteral("Swap %1 in as the live filter (%2 and its function are kept under a dated name)?")
                       .arg(table, c.args().option("table", QStringLiteral("username_filter")))))
        return ExitUsage;
    auto r = Rebuilder::swap(**db, table);
    if (!r)
        return c.fail(r.error());
    if (c.json())
        printJson(c, QJsonObject{{QStringLiteral("old_table"), r->oldTable},
                                 {QStringLiteral("old_function"), r->oldFunction},
                                 {QStringLiteral("drained_in_swap"), r->drainedInSwap},
                                 {QStringLiteral("exclusive_ms"), r->exclusiveMs},
                                 {QStringLiteral("lock_ms"), r->lockMs}});
    else
        c.out() << "swapped in " << table << "; the old pair is " << r->oldTable << " / " << r->oldFunction
                << "(text)\n"
                << "  " << r->drainedInSwap << " names drained inside the swap; checks waited "
                << QString::number(r->exclusiveMs, 'f', 1) << " ms, adds " << QString::number(r->lockMs, 'f', 1)
                << " ms\n  drop the old pair with: bloomctl drop-old\n";
    return ExitOk;
}

int cmdDropOld(Context &c)
{
    auto db = c.database();
    if (!db)
        return c.fail(db.error());
    FilterRef live;
    live.table = c.args().option("table", live.table);
    live.function = c.args().option("function", live.function);
    if (!c.confirm(QStringLiteral("Drop every %1_old_* table and %2_old_* function?").arg(live.table, live.function)))
        return ExitUsage;
    auto r = Rebuilder::dropOld(**db, live);
    if (!r)
        return c.fail(r.error());
    c.out() << "dropped " << (r->isEmpty() ? QStringLiteral("no old pair") : r->join(QStringLiteral(", "))) << "\n";
    return ExitOk;
}

} // namespace bloom::cli
