// bloomctl commands about names: explain, add, check, load.
#include "commands.h"
#include "context.h"

#include "common/printable.h"
#include "model/explanation.h"
#include "model/namereader.h"
#include "postgres/batchcheck.h"
#include "stdindevice.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <unistd.h>

namespace bloom::cli {

namespace {

Result<Geometry> geometryOption(const Args &a)
{
    bool ok1 = true, ok2 = true, ok3 = true;
    const qint64 chunks = a.option("chunks", QStringLiteral("131072")).toLongLong(&ok1);
    const qint64 bits = a.option("chunk-bits", QStringLiteral("8192")).toLongLong(&ok2);
    const int k = a.option("k", QStringLiteral("7")).toInt(&ok3);
    if (!ok1 || !ok2 || !ok3)
        return makeError(ErrorKind::Usage, QStringLiteral("--chunks, --chunk-bits and --k take whole numbers"));
    return Geometry::fromCounts(chunks, bits, k);
}

void printJson(Context &c, const QJsonValue &v)
{
    c.out() << (v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject())).toJson(QJsonDocument::Indented);
}

} // namespace

Result<Geometry> geometryFromArgs(const Args &a)
{
    return geometryOption(a);
}

int cmdExplain(Context &c)
{
    const Args &a = c.args();
    if (a.positional.size() != 2)
        return c.usage(QStringLiteral("explain takes one NAME"));
    auto checked = c.nameArgument(1);
    if (!checked)
        return c.fail(checked.error());
    const QByteArray utf8 = *checked;
    const QString name = QString::fromUtf8(utf8);

    if (!a.has("db")) {
        auto g = geometryOption(a);
        if (!g)
            return c.fail(g.error());
        const Explanation e = Explanation::offline(*g, name);
        if (c.json())
            printJson(c, e.toJson());
        else
            c.out() << e.toText();
        return ExitOk;
    }

    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    FilterStore *s = *store;
    QByteArray lowered = asciiLower(utf8);
    Lowering how = Lowering::Ascii;
    if (!isAscii(utf8)) {
        auto l = s->serverLower({utf8});
        if (!l)
            return c.fail(l.error());
        lowered = l->first();
        how = Lowering::Server;
    }
    const Explanation e = Explanation::build(s->geometry(), name, lowered, how);
    auto row = s->chunkBits(e.placement.chunk);
    if (!row) {
        if (!c.json()) // the hash and placement hold; the row is what is missing
            c.out() << e.toText();
        return c.fail(row.error());
    }
    c.warnIfDamaged();
    QJsonArray setJson, clearJson;
    QStringList setText, clearText;
    for (int b : e.setBits()) {
        const bool on = row->at(b) == '1';
        (on ? setJson : clearJson).append(b);
        (on ? setText : clearText) << QString::number(b);
    }
    const bool maybe = clearJson.isEmpty();
    if (c.json()) {
        QJsonObject o = e.toJson();
        o.insert(QStringLiteral("table"), s->ref().table);
        o.insert(QStringLiteral("bits_set"), setJson);
        o.insert(QStringLiteral("bits_clear"), clearJson);
        o.insert(QStringLiteral("chunk_set_bits"), qint64(row->count('1')));
        o.insert(QStringLiteral("verdict"), maybe ? QStringLiteral("maybe") : QStringLiteral("free"));
        printJson(c, o);
    } else {
        c.out() << e.toText() << "\n"
                << "chunk " << e.placement.chunk << " of " << s->ref().table << ": " << row->count('1') << " of "
                << s->geometry().chunkBits() << " bits set\n"
                << "name's bits set:   {" << setText.join(QLatin1Char(',')) << "}\n"
                << "name's bits clear: {" << clearText.join(QLatin1Char(',')) << "}\n"
                << "row & mask = mask: " << (maybe ? "true" : "false") << "\n"
                << "verdict:           "
                << (maybe ? "maybe taken (all bits set: ask the shards)" : "definitely free (a bit is clear)") << "\n";
    }
    return ExitOk;
}

namespace {

/** stdout written in large pieces, after what the QTextStream held. */
class RawOut {
public:
    explicit RawOut(Context &c) { c.out().flush(); }
    ~RawOut() { flush(); }
    QByteArray &buffer() { return mBuffer; }
    void maybeFlush()
    {
        if (mBuffer.size() >= (1 << 18))
            flush();
    }
    void flush()
    {
        if (!mBuffer.isEmpty())
            std::fwrite(mBuffer.constData(), 1, size_t(mBuffer.size()), stdout);
        std::fflush(stdout);
        mBuffer.resize(0);
    }

private:
    QByteArray mBuffer;
};

} // namespace

int cmdCheck(Context &c)
{
    if (c.args().positional.size() < 2)
        return c.usage(QStringLiteral("check takes NAME... or - for stdin"));
    if (c.args().positional.mid(1) != QStringList{QStringLiteral("-")}) {
        auto checked = c.checkedNames();
        if (!checked)
            return c.fail(checked.error());
        c.warnIfDamaged();
        const QList<QByteArray> &names = checked->names;
        const bool bad = checked->hadBad;
        const QList<bool> &verdicts = checked->verdicts;
        if (c.json()) {
            QJsonArray arr;
            for (qsizetype i = 0; i < names.size(); ++i)
                arr.append(QJsonObject{
                    {QStringLiteral("name"), QString::fromUtf8(names[i])},
                    {QStringLiteral("verdict"), verdicts.at(i) ? QStringLiteral("maybe") : QStringLiteral("free")}});
            printJson(c, arr);
        } else {
            for (qsizetype i = 0; i < names.size(); ++i)
                c.out() << escapeField(names[i]) << '\t' << (verdicts.at(i) ? "maybe" : "free") << '\n';
        }
        return bad ? ExitBadInput : ExitOk;
    }
    // check -: names stream from stdin to stdout a block at a time; past the crossover the filter is
    // read once and every name answered from memory, as of that read's snapshot.
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    BatchCheck batch(**store);
    StdinDevice in;
    NameReader reader(&in);
    RawOut out(c);
    QByteArray asOf;
    bool first = true;
    const bool json = c.json(); // not a flag lookup a name
    if (json)
        out.buffer() += '[';
    auto answered = batch.checkStream(reader, [&](const NameBlock &block, const RowVerdict *verdicts, qsizetype count) {
        QByteArray &b = out.buffer();
        if (json && batch.inMemory() && asOf.isEmpty())
            asOf = batch.snapshot().toString(Qt::ISODateWithMs).toUtf8();
        for (qsizetype i = 0; i < count; ++i) {
            const QByteArrayView name = block.name(size_t(i));
            const char *verdict = verdicts[i] == RowVerdict::Maybe ? "maybe" : "free";
            if (json) {
                b += first ? "\n    {\n" : ",\n    {\n";
                first = false;
                if (!asOf.isEmpty()) {
                    b += "        \"as_of\": \"";
                    b += asOf;
                    b += "\",\n";
                }
                b += "        \"name\": ";
                appendJsonString(b, name);
                b += ",\n        \"verdict\": \"";
                b += verdict;
                b += "\"\n    }";
            } else {
                appendEscapedField(b, name);
                b += '\t';
                b += verdict;
                b += '\n';
            }
            if ((i & 1023) == 1023)
                out.maybeFlush();
        }
        out.maybeFlush();
        return success();
    });
    if (json)
        out.buffer() += first ? "]\n" : "\n]\n";
    out.flush();
    c.reportBadLines(QStringLiteral("stdin"), reader.badLines(), reader.badLineCount());
    if (!answered)
        return c.fail(answered.error());
    c.warnIfDamaged();
    return reader.badLineCount() == 0 ? ExitOk : ExitBadInput;
}

int cmdAdd(Context &c)
{
    if (c.args().positional.size() < 2)
        return c.usage(QStringLiteral("add takes NAME... or - for stdin"));
    auto placed = c.placedNames();
    if (!placed)
        return c.fail(placed.error());
    const QList<QByteArray> &names = placed->names;
    const bool bad = placed->hadBad;
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    auto added = (*store)->add(names, placed->placements);
    if (!added && added.error().retry == Error::Retry::Attach) {
        // A swap renamed a new filter in since attach: its geometry may differ, so place again.
        if (auto s = (*store)->attach(); !s)
            return c.fail(s.error());
        added = (*store)->add(names);
    }
    if (!added)
        return c.fail(added.error());
    c.warnIfDamaged(); // an add into a NULL row changes nothing: the damage must be seen
    if (c.json())
        printJson(c, QJsonObject{{QStringLiteral("added"), qint64(names.size())}});
    else
        c.out() << "added " << names.size() << " name(s) to " << (*store)->ref().table << '\n';
    return bad ? ExitBadInput : ExitOk;
}

int cmdLoad(Context &c)
{
    const Args &a = c.args();
    if (a.positional.size() != 2)
        return c.usage(QStringLiteral("load takes one FILE, or - for stdin"));
    const auto jobs = wholeOption(a, "jobs", 2, 1, 8);
    if (!jobs)
        return c.usage(jobs.error().message);
    auto store = c.store();
    if (!store)
        return c.fail(store.error());
    (*store)->setLoadConnections(int(*jobs));
    const QString path = a.positional[1];
    QFile file(path);
    StdinDevice stdinDevice;
    QIODevice *in = &stdinDevice;
    if (path != QLatin1String("-")) {
        if (!file.open(QIODevice::ReadOnly))
            return c.fail(makeError(ErrorKind::Io, QStringLiteral("cannot read %1: %2").arg(path, file.errorString())));
        in = &file;
    }
    const bool tty = ::isatty(STDERR_FILENO) == 1;
    auto report = (*store)->load(in, [&c, tty](const LoadProgress &p) {
        if (tty)
            c.progress(
                QStringLiteral("loading: %1 lines read, %2 names, %3 bad lines")
                    .arg(QString::number(p.linesRead), QString::number(p.namesAdded), QString::number(p.badLines)));
    });
    if (tty && !c.json())
        c.err() << "\n";
    if (!report)
        return c.fail(report.error());
    c.reportBadLines(path == QLatin1String("-") ? QStringLiteral("stdin") : path, report->bad, report->badCount);
    if (c.json()) {
        QJsonArray bad;
        for (const BadLine &b : report->bad)
            bad.append(QJsonObject{{QStringLiteral("line"), b.line}, {QStringLiteral("reason"), b.reason}});
        printJson(c, QJsonObject{{QStringLiteral("lines"), report->lines},
                                 {QStringLiteral("added"), report->namesAdded},
                                 {QStringLiteral("chunks_updated"), report->chunksUpdated},
                                 {QStringLiteral("batches"), report->batches},
                                 {QStringLiteral("vacuum_seconds"), report->vacuumSeconds},
                                 {QStringLiteral("vacuum_refused"), report->vacuumRefused},
                                 {QStringLiteral("connections"), report->connections},
                                 {QStringLiteral("vacuum_connection"), report->vacuumConnection},
                                 {QStringLiteral("bad_lines"), bad},
                                 {QStringLiteral("bad_line_count"), report->badCount},
                                 {QStringLiteral("seconds"), report->seconds}});
    } else {
        c.out() << "loaded " << report->namesAdded << " names from " << report->lines << " lines into "
                << (*store)->ref().table << " (" << report->chunksUpdated << " chunk updates, " << report->batches
                << " committed step(s), " << QString::number(report->seconds, 'f', 2) << " s)";
        if (report->badCount > 0)
            c.out() << "; " << report->badCount << " bad line(s) skipped";
        c.out() << '\n';
    }
    for (const QString &note : report->notes((*store)->ref().table))
        c.note(note, QStringLiteral("note: "));
    c.warnIfDamaged();
    return report->badCount == 0 ? ExitOk : ExitBadInput;
}

} // namespace bloom::cli
