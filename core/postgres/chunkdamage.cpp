#include "postgres/chunkdamage.h"

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
        text += QStringLiteral(" and %1 more").arg(qsizetype(chunks.size()) - Named);
    return many.arg(chunks.size()).arg(text);
}

} // namespace

bool ChunkDamage::contains(quint32 chunk) const
{
    return std::binary_search(nullChunks.begin(), nullChunks.end(), chunk) ||
           std::binary_search(missingChunks.begin(), missingChunks.end(), chunk);
}

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
        parts << listed(nullChunks, QStringLiteral("chunk %1 is NULL"), QStringLiteral("%1 chunks are NULL (%2)"));
    if (!missingChunks.empty())
        parts << listed(missingChunks, QStringLiteral("chunk %1 has no row"),
                        QStringLiteral("%1 chunks have no row (%2)"));
    return parts.join(QStringLiteral("; "));
}

QString ChunkDamage::fix()
{
    return QStringLiteral("the names of a damaged chunk must be added again: rebuild the filter from the sources "
                          "(bloomctl rebuild --into NEW --source CONNINFO...), then swap it in (bloomctl swap NEW); "
                          "an empty row in its place would make every name of that chunk a silent false negative");
}

Error ChunkDamage::error(const QString &table) const
{
    return makeError(ErrorKind::DamagedFilter,
                     QStringLiteral("%1 is damaged: %2; a name placed in such a chunk is neither free nor maybe")
                         .arg(table, describe()),
                     fix());
}

Error ChunkDamage::chunkError(quint32 chunk, bool null, const QString &table)
{
    return makeError(ErrorKind::DamagedFilter,
                     (null ? QStringLiteral("chunk %1 of %2 is NULL") : QStringLiteral("chunk %1 has no row in %2"))
                             .arg(chunk)
                             .arg(table) +
                         QStringLiteral(": the names placed in it cannot be answered, neither free nor maybe"),
                     fix());
}

} // namespace bloom
