#include "session/filterworker.h"

#include <QCoreApplication>
#include <QElapsedTimer>
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
    case Operation::History:
        return FilterWorker::tr("history");
    case Operation::ChangedSince:
        return FilterWorker::tr("changed chunks");
    case Operation::Record:
        return FilterWorker::tr("record");
    }
    return {};
}

std::tuple<HeatScale, quint32, quint32> chooseScale(HeatScale mode, quint32 minSetBits, quint32 maxSetBits)
{
    maxSetBits = qMax<quint32>(1, maxSetBits);
    if (mode == HeatScale::Auto)
        mode = minSetBits > 0 && minSetBits * 4 >= maxSetBits ? HeatScale::Relative : HeatScale::Absolute;
    if (mode == HeatScale::Relative && minSetBits < maxSetBits)
        return {mode, minSetBits, maxSetBits};
    return {HeatScale::Absolute, 0, maxSetBits};
}

QRgb fillColour(quint32 v, quint32 max, quint32 min)
{
    // Viridis, sampled at 9 stops, linearly interpolated.
    static const QRgb stops[] = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c,
                                 0x28ae80, 0x5ec962, 0xaddc30, 0xfde725};
    if (max <= min)
        return 0xff000000 | stops[v > min ? 8 : 0];
    const double t = qBound(0.0, (double(v) - double(min)) / double(max - min), 1.0) * 8.0;
    const int i = qMin(7, int(t));
    const double f = t - i;
    const QRgb a = stops[i], b = stops[i + 1];
    const auto mix = [f](int x, int y) { return int(x + (y - x) * f + 0.5); };
    return qRgb(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

FilterWorker::FilterWorker(RequestGate *gate)
    : mGate(gate)
{
}

FilterWorker::~FilterWorker()
{
    close();
}

void FilterWorker::setDatabase(std::unique_ptr<Database> db)
{
    // The gate first: a cancel from now on reaches the new session (or none), never a freed one.
    mGate->setConnection(db ? db->cancelHandle() : nullptr);
    mStore.reset();
    mDb = std::move(db);
}

void FilterWorker::report(Operation operation, int token, const Error &e)
{
    const bool lost = e.kind == ErrorKind::Connection;
    if (lost) // drop the session; the next call reconnects
        setDatabase(nullptr);
    emit failed(operation, token, e, lost);
}

void FilterWorker::cancelledBeforeStart(Operation operation, int token)
{
    emit failed(operation, token,
                makeError(ErrorKind::Cancelled, tr("%1: cancelled before it started").arg(operationName(operation))),
                false);
}

void FilterWorker::open(const ConnectionSpec &spec, const FilterRef &ref, bool readOnly)
{
    // The new session is made beside the old one, which stays (and keeps serving) unless this succeeds.
    auto opened = connectStore(spec, ref, readOnly);
    if (!opened) {
        emit openFailed(opened.error());
        return;
    }
    setDatabase(std::move(opened->first));
    mSpec = spec;
    mRef = ref;
    mReadOnly = readOnly;
    mConfigured = true;
    mStore = std::move(opened->second);
    mLastIdentity = mStore->identity();
    mLast.reset(); // another server may hold a table with the same oid
    FilterSummary s = summary();
    QElapsedTimer t;
    t.start();
    if (mDb->exec(QStringLiteral("select 1")))
        s.roundTripMs = double(t.nsecsElapsed()) / 1e6;
    emit this->opened(s);
}

FilterSummary FilterWorker::summary() const
{
    FilterSummary summary;
    summary.ref = mRef;
    summary.geometry = mStore->geometry();
    summary.where = mSpec.describe();
    summary.serverVersion = mDb->serverVersion();
    summary.readOnly = mReadOnly;
    summary.standby = mDb->inRecovery();
    if (auto may = mStore->mayUpdate())
        summary.mayUpdate = *may;
    summary.checkSql = mStore->checkOneSql();
    summary.addSql = mStore->addSql();
    summary.chunkSql = mStore->chunkBitsSql();
    summary.lowerSql = FilterStore::lowerSql();
    summary.referenceCheckSql = mStore->referenceCheckSql();
    return summary;
}

bool FilterWorker::ensureOpen(Operation operation, int token)
{
    if (!mStore) {
        if (!mConfigured) {
            emit failed(operation, token, makeError(ErrorKind::Connection, QStringLiteral("not connected")), false);
            return false;
        }
        auto opened = connectStore(mSpec, mRef, mReadOnly);
        if (!opened) {
            emit failed(operation, token, opened.error(), opened.error().kind == ErrorKind::Connection);
            return false;
        }
        setDatabase(std::move(opened->first));
        adopt(std::move(opened->second)); // the filter may have been swapped while the connection was down
        return true;                      // attached this moment: nothing to follow yet
    }
    // A swap renames another table to the filter's name: follow it before answering, or a name would be
    // placed with the old geometry and could read "definitely free" in the new table.
    auto same = mStore->stillAttached();
    if (!same) {
        report(operation, token, same.error());
        return false;
    }
    if (!*same) {
        auto store = std::make_unique<FilterStore>(*mDb, mRef);
        store->setCancelFlag(mGate->flag());
        if (auto s = store->attach(); !s) {
            report(operation, token, s.error());
            return false;
        }
        adopt(std::move(store));
    }
    return true;
}

void FilterWorker::adopt(std::unique_ptr<FilterStore> store)
{
    const bool swapped = !mLastIdentity.isEmpty() && store->identity() != mLastIdentity;
    mStore = std::move(store);
    mLastIdentity = mStore->identity();
    if (swapped)
        mLast.reset(); // another table: its picture is read whole
    if (swapped) {     // the window learns it on the same connection: the same session, another filter
        FilterSummary s = summary();
        s.followed = true;
        emit opened(s);
    }
}

Result<std::pair<std::unique_ptr<Database>, std::unique_ptr<FilterStore>>>
FilterWorker::connectStore(const ConnectionSpec &spec, const FilterRef &ref, bool readOnly)
{
    // This thread's own connection, and the filter attached on it; nothing changes on failure.
    Database::Options o;
    o.readOnly = readOnly;
    auto db = Database::open(spec, o);
    if (!db)
        return db.error();
    auto store = std::make_unique<FilterStore>(**db, ref);
    store->setCancelFlag(mGate->flag());
    if (auto s = store->attach(); !s)
        return s.error();
    return std::pair{std::move(db).value(), std::move(store)};
}

namespace {

/** The heatmap image, scale and skew of `r.fill`: computed here from the counts, no read. */
void render(FillResult &r, HeatScale scale)
{
    r.skew = analyzeSkew(r.fill);
    // One pixel per chunk, rows of 2^ceil(c/2) chunks; the scale tops out at the fullest chunk.
    const int c = r.fill.geometry.chunkLog2();
    r.imageColumns = 1 << ((c + 1) / 2);
    const int rows = int((r.fill.setBits.size() + size_t(r.imageColumns) - 1) / size_t(r.imageColumns));
    std::tie(r.scale, r.scaleMin, r.scaleMax) = chooseScale(scale, r.fill.minSetBits(), r.fill.maxSetBits());
    r.heatmap = QImage(r.imageColumns, rows, QImage::Format_RGB32);
    r.heatmap.fill(Qt::black);
    for (size_t i = 0; i < r.fill.setBits.size(); ++i) {
        auto *line = reinterpret_cast<QRgb *>(r.heatmap.scanLine(int(i / size_t(r.imageColumns))));
        line[i % size_t(r.imageColumns)] = fillColour(r.fill.setBits[i], r.scaleMax, r.scaleMin);
    }
    // A NULL or missing row is not an empty chunk: red, a colour the fill's ramp never uses.
    for (const auto *damaged : {&r.fill.damage.nullChunks, &r.fill.damage.missingChunks})
        for (quint32 c : *damaged)
            r.heatmap.setPixel(int(c % quint32(r.imageColumns)), int(c / quint32(r.imageColumns)), DamagedColour);
}

} // namespace

void FilterWorker::refresh(int token, HeatScale scale)
{
    const GateScope gate(*mGate, token);
    if (!gate)
        return cancelledBeforeStart(Operation::Refresh, token);
    const bool hadStore = mStore && !mLastIdentity.isEmpty();
    const QString identityBefore = mLastIdentity;
    if (!ensureOpen(Operation::Refresh, token))
        return;
    // Nothing written since the last read (the stats' write counter has not moved): the picture stands
    // and no row is read. Something written: only the rows written since the last read are read
    // (their xmin is newer). The whole table is read every FullReadEverySeconds whatever the counter
    // says, and always after a swap or a reconnect. A change of scale recolours what was read.
    // On a standby the stats never count a replicated write: the counter is then the replay position,
    // which moves with every replayed write (of any table), and deletes are seen by counting the rows.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    ServerRole role;
    auto counter = mStore->writeCounter(&role);
    if (!counter) {
        report(Operation::Refresh, token, counter.error());
        return;
    }
    const bool same =
        hadStore && identityBefore == mLastIdentity && mLast && mLast->fill.geometry == mStore->geometry();
    // A deleted row leaves nothing for a read of the changes to find: when the stats count a delete
    // since the last read, the whole fill is read (at once: a filter table has no delete in its normal
    // life, and a missing row makes its names unanswerable).
    const bool replay = counter->has_value() && (*counter)->replay;
    const bool deleted =
        counter->has_value() && !replay && mLastCounter && (*counter)->deletes != mLastCounter->deletes;
    const bool fullDue =
        !same || deleted || !mLastFullReadAt.isValid() || mLastFullReadAt.secsTo(now) >= FullReadEverySeconds;
    const bool unchanged =
        same && !fullDue && !mMustRead && counter->has_value() && mLastCounter && **counter == *mLastCounter;
    // A read costs the server a scan: at most one every ReadCostFactor times what the last one took,
    // so an open window never spends more than about a tenth of one backend's time.
    const qint64 lastCost = same ? qMax<qint64>(1, mLast->fill.elapsedMs) : 0;
    const bool throttled =
        same && !unchanged && !fullDue && !mMustRead && mLast->fill.takenAt.msecsTo(now) < ReadCostFactor * lastCost;
    const auto withRebuildState = [&](FillResult &r) {
        if (auto st = Rebuilder::state(*mDb, mStore->ref()))
            r.rebuild = *st; // a planted or unreadable state is not the picture's business: it stays empty
    };
    if (unchanged || throttled) {
        if (scale != mLastScale)
            render(*mLast, scale);
        FillResult r = *mLast;
        r.unchanged = unchanged;
        r.throttled = throttled;
        r.incremental = false;
        r.changedChunks.clear();
        r.nextFullRead = mLast->fill.takenAt.addMSecs(ReadCostFactor * lastCost);
        r.checkedAt = now;
        r.role = role;
        withRebuildState(r);
        mLastScale = scale;
        emit refreshed(token, r);
        return;
    }
    FillResult r;
    r.onWorkerThread = QThread::currentThread() != QCoreApplication::instance()->thread();
    // A read of the changes tests every row's header; when the counter says most rows were written it
    // costs more than reading them all (bench_refresh: 1.7x at 100%), so then the whole fill is read.
    const bool fewWritten = !counter->has_value() || replay || !mLastCounter || mLastCounter->replay ||
                            (*counter)->writes - mLastCounter->writes < qint64(mStore->geometry().chunks() / 4);
    r.incremental = same && !fullDue && fewWritten && !mLast->fill.position.isEmpty();
    // Without the stats (track_counts off, or a standby) a read of the changes also counts the rows, the
    // only way it sees a delete; fewer rows than the last picture had is read again whole.
    auto fill = r.incremental ? mStore->fillSince(mLast->fill, &r.changedChunks, !counter->has_value() || replay)
                              : mStore->fill();
    if (fill && r.incremental && fill->rowCount >= 0 &&
        fill->rowCount != qint64(mStore->geometry().chunks()) - qint64(fill->damage.missingChunks.size())) {
        r.incremental = false;
        r.changedChunks.clear();
        fill = mStore->fill();
    }
    if (!fill) {
        report(Operation::Refresh, token, fill.error());
        return;
    }
    r.fill = std::move(fill).value();
    if (!r.fill.damage.empty())
        r.damageError = mStore->damageError(r.fill.damage);
    if (!r.incremental) {
        mLastFullReadAt = r.fill.takenAt;
        if (same) // what changed since the last picture, for the highlight
            for (size_t i = 0; i < r.fill.setBits.size(); ++i)
                if (r.fill.setBits[i] != mLast->fill.setBits[i])
                    r.changedChunks.push_back(quint32(i));
    }
    render(r, scale);
    withRebuildState(r);
    r.checkedAt = r.fill.takenAt;
    r.fullReadAt = mLastFullReadAt;
    r.role = role;
    mLast = r;
    mMustRead = false;
    mLastCounter = *counter;
    mLastScale = scale;
    emit refreshed(token, r);
}

void FilterWorker::step(int token, const QString &name)
{
    const GateScope gate(*mGate, token);
    if (!gate)
        return cancelledBeforeStart(Operation::Step, token);
    const QByteArray utf8 = name.toUtf8();
    if (auto s = validateName(utf8); !s) {
        emit failed(Operation::Step, token, s.error(), false);
        return;
    }
    if (!ensureOpen(Operation::Step, token))
        return;
    QByteArray lowered = asciiLower(utf8);
    Lowering how = Lowering::Ascii;
    if (!isAscii(utf8)) {
        auto l = mStore->serverLower({utf8});
        if (!l) {
            report(Operation::Step, token, l.error());
            return;
        }
        lowered = l->first();
        how = Lowering::Server;
    }
    StepResult r;
    r.explanation = Explanation::build(mStore->geometry(), name, lowered, how);
    auto bits = mStore->chunkBits(r.explanation.placement.chunk);
    if (!bits) {
        report(Operation::Step, token, bits.error());
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
    const GateScope gate(*mGate, token);
    if (!gate)
        return cancelledBeforeStart(Operation::Chunk, token);
    if (!ensureOpen(Operation::Chunk, token))
        return;
    auto bits = mStore->chunkBits(chunk);
    if (!bits) {
        report(Operation::Chunk, token, bits.error());
        return;
    }
    emit chunkReady(token, chunk, *bits);
}

void FilterWorker::add(int token, const QStringList &names)
{
    const GateScope gate(*mGate, token);
    if (!gate)
        return cancelledBeforeStart(Operation::Add, token);
    if (!ensureOpen(Operation::Add, token))
        return;
    // Our own write, committed or in part: the stats show it only once flushed, so the next refresh reads
    // (the rows written since the last read: ours are among them).
    mMustRead = true;
    QList<QByteArray> utf8;
    for (const QString &n : names) {
        utf8.append(n.toUtf8());
        if (auto s = validateName(utf8.last()); !s) {
            emit failed(Operation::Add, token, s.error(), false);
            return;
        }
    }
    auto written = mStore->add(utf8);
    // A swap between ensureOpen() and the write: nothing was written; follow it and write once more.
    if (!written && written.error().retry == Error::Retry::Attach && ensureOpen(Operation::Add, token))
        written = mStore->add(utf8);
    if (!written) {
        report(Operation::Add, token, written.error());
        return;
    }
    emit added(token, names.size());
}

void FilterWorker::load(int token, const QString &path)
{
    const GateScope gate(*mGate, token);
    if (!gate)
        return cancelledBeforeStart(Operation::Load, token);
    if (!ensureOpen(Operation::Load, token))
        return;
    mMustRead = true; // as for add
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        emit failed(Operation::Load, token,
                    makeError(ErrorKind::Io, tr("cannot read %1: %2").arg(path, f.errorString())), false);
        return;
    }
    const auto progress = [this, token](const LoadProgress &p) { emit loadProgress(token, p); };
    auto r = mStore->load(&f, progress);
    // A swap during the load: the step that found it wrote nothing, and the steps before it (recorded
    // for the rebuild that the swap finished) are in the new filter. Follow it and load the file again.
    if (!r && r.error().retry == Error::Retry::Attach && ensureOpen(Operation::Load, token) && f.seek(0))
        r = mStore->load(&f, progress);
    if (!r) {
        report(Operation::Load, token, r.error());
        return;
    }
    emit loaded(token, *r);
}

void FilterWorker::history(int token, qint64 afterId)
{
    const GateScope gate(*mGate, token);
    if (!gate)
        return cancelledBeforeStart(Operation::History, token);
    if (!ensureOpen(Operation::History, token))
        return;
    HistoryResult r;
    r.append = afterId > 0;
    auto exists = History::exists(*mDb, *mStore);
    if (!exists) {
        report(Operation::History, token, exists.error());
        return;
    }
    r.available = *exists;
    if (r.available) {
        auto list = History::list(*mDb, *mStore, {}, afterId);
        if (!list) {
            report(Operation::History, token, list.error());
            return;
        }
        r.snapshots = std::move(list).value();
    }
    emit historyReady(token, r);
}

void FilterWorker::changedSince(int token, const Snapshot &snapshot)
{
    const GateScope gate(*mGate, token);
    if (!gate)
        return cancelledBeforeStart(Operation::ChangedSince, token);
    if (!ensureOpen(Operation::ChangedSince, token))
        return;
    auto written = mStore->writtenSince(snapshot.position, snapshot.takenAt);
    if (!written) {
        report(Operation::ChangedSince, token, written.error());
        return;
    }
    ChangedSince r;
    r.snapshot = snapshot;
    r.chunks = std::move(written->chunks);
    r.complete = written->complete;
    r.why = written->why;
    r.elapsedMs = written->elapsedMs;
    // As the heatmap lays chunks out: rows of 2^ceil(c/2); grey over every chunk not written since.
    const Geometry &g = mStore->geometry();
    const int columns = 1 << ((g.chunkLog2() + 1) / 2);
    const int rows = int((g.chunks() + quint64(columns) - 1) / quint64(columns));
    r.dim = QImage(columns, rows, QImage::Format_ARGB32);
    r.dim.fill(QColor(128, 128, 128, 210));
    for (quint32 c : r.chunks)
        r.dim.setPixel(int(c % quint32(columns)), int(c / quint32(columns)), qRgba(0, 0, 0, 0));
    emit changedSinceReady(token, r);
}

void FilterWorker::record(int token, bool publicationOk)
{
    const GateScope gate(*mGate, token);
    if (!gate)
        return cancelledBeforeStart(Operation::Record, token);
    if (!ensureOpen(Operation::Record, token))
        return;
    auto snap = History::record(*mDb, *mStore, {}, publicationOk);
    if (!snap) {
        report(Operation::Record, token, snap.error());
        return;
    }
    emit recorded(token, *snap);
}

void FilterWorker::close()
{
    setDatabase(nullptr);
}

} // namespace bloom
