#include "session/filterworker.h"

#include <QCoreApplication>
#include <QFile>
#include <QThread>

namespace bloom {

QString operationName(Operation op)
{
    switch (op) {
    case Operation::Refresh:
        return FilterWorker::tr("refresh");
    case Operation::Step:
        return FilterWorker::tr("step-through");
    case Operation::Chunk:
        return FilterWorker::tr("chunk");
    case Operation::Add:
        return FilterWorker::tr("add");
    case Operation::Load:
        return FilterWorker::tr("load");
    case Operation::Sample:
        return FilterWorker::tr("sample");
    }
    return {};
}

QRgb fillColour(quint32 v, quint32 max)
{
    // Viridis, sampled at 9 stops, linearly interpolated.
    static const QRgb stops[] = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c,
                                 0x28ae80, 0x5ec962, 0xaddc30, 0xfde725};
    if (max == 0)
        return 0xff000000 | stops[0];
    const double t = qBound(0.0, double(v) / double(max), 1.0) * 8.0;
    const int i = qMin(7, int(t));
    const double f = t - i;
    const QRgb a = stops[i], b = stops[i + 1];
    const auto mix = [f](int x, int y) { return int(x + (y - x) * f + 0.5); };
    return qRgb(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

namespace {

/** Clears the cancel flag when an operation ends, however it ends. */
struct CancelScope {
    std::atomic<bool> *flag;
    ~CancelScope() { flag->store(false); }
};

} // namespace

FilterWorker::FilterWorker(std::atomic<bool> *cancel)
    : mCancel(cancel)
{
}

FilterWorker::~FilterWorker() = default;

void FilterWorker::cancelRunning()
{
    if (Database *db = mRunning.load())
        db->cancel();
}

void FilterWorker::report(Operation operation, const Error &e)
{
    const bool lost = e.kind == ErrorKind::Connection;
    if (lost) { // drop the session; the next call reconnects
        mRunning.store(nullptr);
        mStore.reset();
        mDb.reset();
    }
    emit failed(operation, e, lost);
}

void FilterWorker::open(const ConnectionSpec &spec, const FilterRef &ref, bool readOnly)
{
    mSpec = spec;
    mRef = ref;
    mConfigured = true;
    mReadOnly = readOnly;
    mRunning.store(nullptr);
    mStore.reset();
    mDb.reset();
    if (auto s = connectStore(); !s) {
        emit openFailed(s.error());
        return;
    }
    FilterSummary summary;
    summary.ref = ref;
    summary.geometry = mStore->geometry();
    summary.where = spec.describe();
    summary.serverVersion = mDb->serverVersion();
    summary.readOnly = readOnly;
    summary.checkSql = mStore->checkOneSql();
    summary.addSql = mStore->addSql();
    summary.chunkSql = QStringLiteral("select bits from %1 where chunk = $1").arg(mStore->quotedTable());
    emit opened(summary);
}

bool FilterWorker::ensureOpen(Operation operation)
{
    if (mStore)
        return true;
    if (!mConfigured) {
        emit failed(operation, makeError(ErrorKind::Connection, QStringLiteral("not connected")), false);
        return false;
    }
    if (auto s = connectStore(); !s) {
        emit failed(operation, s.error(), s.error().kind == ErrorKind::Connection);
        return false;
    }
    return true;
}

Status FilterWorker::connectStore()
{
    // This thread's own connection, and the filter attached on it; nothing changes on failure.
    Database::Options o;
    o.readOnly = mReadOnly;
    auto db = Database::open(mSpec, o);
    if (!db)
        return db.error();
    auto store = std::make_unique<FilterStore>(**db, mRef);
    store->setCancelFlag(mCancel);
    if (auto s = store->attach(); !s)
        return s;
    mDb = std::move(db).value();
    mStore = std::move(store);
    mRunning.store(mDb.get());
    return success();
}

void FilterWorker::refresh(int token)
{
    CancelScope scope{mCancel};
    if (!ensureOpen(Operation::Refresh))
        return;
    auto fill = mStore->fill();
    if (!fill) {
        report(Operation::Refresh, fill.error());
        return;
    }
    FillResult r;
    r.onWorkerThread = QThread::currentThread() != QCoreApplication::instance()->thread();
    r.fill = std::move(fill).value();
    r.skew = analyzeSkew(r.fill);
    if (auto st = Rebuilder::state(*mDb, mStore->ref()))
        r.rebuild = *st; // a planted or unreadable state is not the picture's business: it stays empty
    // One pixel per chunk, rows of 2^ceil(c/2) chunks; the scale tops out at the fullest chunk.
    const int c = r.fill.geometry.chunkLog2();
    r.imageColumns = 1 << ((c + 1) / 2);
    const int rows = int((r.fill.setBits.size() + size_t(r.imageColumns) - 1) / size_t(r.imageColumns));
    r.scaleMax = qMax<quint32>(1, r.fill.maxSetBits());
    r.heatmap = QImage(r.imageColumns, rows, QImage::Format_RGB32);
    r.heatmap.fill(Qt::black);
    for (size_t i = 0; i < r.fill.setBits.size(); ++i) {
        auto *line = reinterpret_cast<QRgb *>(r.heatmap.scanLine(int(i / size_t(r.imageColumns))));
        line[i % size_t(r.imageColumns)] = fillColour(r.fill.setBits[i], r.scaleMax);
    }
    emit refreshed(token, r);
}

void FilterWorker::step(int token, const QString &name)
{
    CancelScope scope{mCancel};
    const QByteArray utf8 = name.toUtf8();
    if (auto s = validateName(utf8); !s) {
        emit failed(Operation::Step, s.error(), false);
        return;
    }
    if (!ensureOpen(Operation::Step))
        return;
    QByteArray lowered = asciiLower(utf8);
    Lowering how = Lowering::Ascii;
    if (!isAscii(utf8)) {
        auto l = mStore->serverLower({utf8});
        if (!l) {
            report(Operation::Step, l.error());
            return;
        }
        lowered = l->first();
        how = Lowering::Server;
    }
    StepResult r;
    r.explanation = Explanation::build(mStore->geometry(), name, lowered, how);
    auto bits = mStore->chunkBits(r.explanation.placement.chunk);
    if (!bits) {
        report(Operation::Step, bits.error());
        return;
    }
    r.chunkBits = *bits;
    r.maybe = true;
    for (int b : r.explanation.setBits())
        r.maybe = r.maybe && r.chunkBits.at(b) == '1';
    emit stepReady(token, r);
}

void FilterWorker::chunk(int token, quint32 chunk)
{
    CancelScope scope{mCancel};
    if (!ensureOpen(Operation::Chunk))
        return;
    auto bits = mStore->chunkBits(chunk);
    if (!bits) {
        report(Operation::Chunk, bits.error());
        return;
    }
    emit chunkReady(token, chunk, *bits);
}

void FilterWorker::add(const QStringList &names)
{
    CancelScope scope{mCancel};
    if (!ensureOpen(Operation::Add))
        return;
    QList<QByteArray> utf8;
    for (const QString &n : names) {
        utf8.append(n.toUtf8());
        if (auto s = validateName(utf8.last()); !s) {
            emit failed(Operation::Add, s.error(), false);
            return;
        }
    }
    auto placed = mStore->place(utf8);
    if (!placed) {
        report(Operation::Add, placed.error());
        return;
    }
    if (auto s = mStore->add(*placed); !s) {
        report(Operation::Add, s.error());
        return;
    }
    emit added(names.size());
}

void FilterWorker::load(const QString &path)
{
    CancelScope scope{mCancel};
    if (!ensureOpen(Operation::Load))
        return;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        emit failed(Operation::Load, makeError(ErrorKind::Io, tr("cannot read %1: %2").arg(path, f.errorString())),
                    false);
        return;
    }
    auto r = mStore->load(&f, [this](const LoadProgress &p) { emit loadProgress(p); });
    if (!r) {
        report(Operation::Load, r.error());
        return;
    }
    emit loaded(*r);
}

void FilterWorker::sample(qint64 probes)
{
    CancelScope scope{mCancel};
    if (!ensureOpen(Operation::Sample))
        return;
    auto s = mStore->sampleFpr(probes);
    if (!s) {
        report(Operation::Sample, s.error());
        return;
    }
    emit sampled(*s);
}

void FilterWorker::close()
{
    mRunning.store(nullptr);
    mStore.reset();
    mDb.reset();
}

} // namespace bloom
