#include "model/chunkdamage.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <iterator>

namespace bloom {

namespace {

constexpr qsizetype Named = 5; ///< chunk numbers a message names before "and N more"

void insertSorted(std::vector<quint32> &v, quint32 chunk)
{
    const auto at = std::lower_bound(v.begin(), v.end(), chunk);
    if (at == v.end() || *at != chunk)
        v.insert(at, chunk);
}

void eraseSorted(std::vector<quint32> &v, quint32 chunk)
{
    const auto at = std::lower_bound(v.begin(), v.end(), chunk);
    if (at != v.end() && *at == chunk)
        v.erase(at);
}

QString listed(const std::vector<quint32> &chunks, const QString &one, const QString &many)
{
    if (chunks.size() == 1)
        return one.arg(chunks.front());
    QStringList first;
    for (size_t i = 0; i < chunks.size() && qsizetype(i) < Named; ++i)
        first << QString::number(chunks[i]);
    QString text = first.join(QStringLiteral(", "));
    if (qsizetype(chunks.size()) > Named)
        text += QCoreApplication::translate("bloom", " and %1 more").arg(qsizetype(chunks.size()) - Named);
    return many.arg(QString::number(chunks.size()), text);
}

} // namespace

void ChunkDamage::rowRead(quint32 chunk, bool null)
{
    eraseSorted(missingChunks, chunk);
    if (null)
        insertSorted(nullChunks, chunk);
    else
        eraseSorted(nullChunks, chunk);
}

void ChunkDamage::rowsRead(std::vector<quint32> nulls, std::vector<quint32> whole)
{
    if (nulls.empty() && empty())
        return; // the common case: nothing was or is damaged
    std::sort(nulls.begin(), nulls.end());
    std::sort(whole.begin(), whole.end());
    const auto without = [](const std::vector<quint32> &from, const std::vector<quint32> &gone) {
        std::vector<quint32> out;
        std::set_difference(from.begin(), from.end(), gone.begin(), gone.end(), std::back_inserter(out));
        return out;
    };
    // A row read is there: no longer missing; NULL now or whole now, whatever it was before.
    missingChunks = without(without(missingChunks, whole), nulls);
    std::vector<quint32> stillNull = without(nullChunks, whole);
    nullChunks.clear();
    std::set_union(stillNull.begin(), stillNull.end(), nulls.begin(), nulls.end(), std::back_inserter(nullChunks));
}

void ChunkDamage::rowMissing(quint32 chunk)
{
    eraseSorted(nullChunks, chunk);
    insertSorted(missingChunks, chunk);
}

QString ChunkDamage::describe() const
{
    QStringList parts;
    if (!nullChunks.empty())
        parts << listed(nullChunks, QCoreApplication::translate("bloom", "chunk %1 is NULL"),
                        QCoreApplication::translate("bloom", "%1 chunks are NULL (%2)"));
    if (!missingChunks.empty())
        parts << listed(missingChunks, QCoreApplication::translate("bloom", "chunk %1 has no row"),
                        QCoreApplication::translate("bloom", "%1 chunks have no row (%2)"));
    return parts.join(QStringLiteral("; "));
}

QString ChunkDamage::fix(const Table &table, bool nulls, bool missing)
{
    // All ones answers "maybe" for every name of the chunk: a false positive sends the sign-up to the
    // shards, a false negative would let a taken name through. The application's own check reads NULL
    // or no row for these names until then, which it may well take for "free".
    QStringList now;
    if (nulls)
        now << QStringLiteral("update %1 set bits = ~0::bit(%2) where bits is null")
                   .arg(table.quoted, QString::number(table.geometry.chunkBits()));
    if (missing)
        now << QStringLiteral("insert into %1 (chunk, bits) select c, ~0::bit(%2) from generate_series(0, %3) c "
                              "where not exists (select from %1 f where f.chunk = c)")
                   .arg(table.quoted, QString::number(table.geometry.chunkBits()),
                        QString::number(qint64(table.geometry.chunks()) - 1));
    return QCoreApplication::translate(
               "bloom", "at once, set every bit of the damaged rows, so that their names check maybe and never "
                        "free (%1); then add their names again: rebuild the filter from the sources (bloomctl "
                        "rebuild --into NEW --source CONNINFO...) and swap it in (bloomctl swap NEW). Never write "
                        "an empty row there: every name of the chunk would check free, a silent false negative")
        .arg(now.join(QStringLiteral("; ")));
}

Error ChunkDamage::error(const Table &table) const
{
    return makeError(ErrorKind::DamagedFilter,
                     QCoreApplication::translate(
                         "bloom", "%1 is damaged: %2; a name placed in such a chunk is neither free nor maybe")
                         .arg(table.text, describe()),
                     fix(table, !nullChunks.empty(), !missingChunks.empty()));
}

Error ChunkDamage::chunkError(quint32 chunk, bool null, const Table &table)
{
    return makeError(
        ErrorKind::DamagedFilter,
        (null ? QCoreApplication::translate("bloom", "chunk %1 of %2 is NULL")
              : QCoreApplication::translate("bloom", "chunk %1 has no row in %2"))
                .arg(QString::number(chunk), table.text) +
            QCoreApplication::translate("bloom", ": the names placed in it cannot be answered, neither free nor maybe"),
        fix(table, null, !null));
}

} // namespace bloom
