#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <vector>

namespace bloom {

/** Array literals for bound parameters ($1::text[], $1::int[]): values travel as one parameter,
 *  never spliced into a statement. */
/** A text[] literal of items[from, from + count): {"a","b\\"c"}; names hold no NUL (validated). */
QString textArray(const QList<QByteArray> &items, qsizetype from, qsizetype count);
inline QString textArray(const QList<QByteArray> &items)
{
    return textArray(items, 0, items.size());
}
/** The elements of a binary one-dimensional text[] (libpq's binary result format); NULL elements and
 *  other shapes are errors. */
Result<QList<QByteArray>> decodeTextArray(QByteArrayView binary);
/** An int[] / bigint[] literal: {1,2,3}. */
QString intArray(const std::vector<qint64> &values);

} // namespace bloom
