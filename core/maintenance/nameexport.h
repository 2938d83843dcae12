#pragma once

#include "common/result.h"
#include "model/bitarray.h"
#include "model/geometry.h"
#include "postgres/connectionspec.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace bloom {

/** What an export read, source by source (shards first, then files, in the order given). */
struct ExportReport {
    qint64 names = 0;           ///< every valid name read
    QList<qint64> perSource;    ///< names read from each source
    QList<QByteArray> nonAscii; ///< names only the filter database may lowercase: not yet placed
    double seconds = 0;
};

/**
 * Reads every name of the shards (COPY ... TO STDOUT in a repeatable-read, read-only snapshot, all
 * shards at once) and of name files, places the ASCII ones on every core and ORs their bits into a
 * bit array of the new geometry (chunk-major, MSB first, as a bit(N) row). Non-ASCII names are
 * returned for the filter database's lower().
 */
class NameExport {
public:
    using ProgressFn = std::function<void(qint64 namesSoFar)>;

    NameExport(const Geometry &geometry, BitArray &bits);
    void setCancelFlag(const std::atomic<bool> *flag) { mCancel = flag; }
    void setProgress(ProgressFn fn) { mProgress = std::move(fn); }

    Result<ExportReport> run(const QList<ConnectionSpec> &sources, const QString &query, const QStringList &files);

    /** ORs one placement's bits into a bit array of geometry g (thread-safe). */
    static void setBits(BitArray &bits, const Geometry &g, const struct Placement &p);

private:
    bool cancelled() const { return mCancel && mCancel->load(); }

    Geometry mGeometry;
    BitArray &mBits;
    const std::atomic<bool> *mCancel = nullptr;
    ProgressFn mProgress;
};

/** The first column of a COPY text row. */
QByteArrayView copyFirstField(QByteArrayView line);

} // namespace bloom
