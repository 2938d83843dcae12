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

/**
 * A one-dimensional array of non-null elements in PostgreSQL's binary format, for a binary array
 * parameter: a 20-byte header (dimensions, no NULL, element type, length, lower bound 1), then each
 * element as (32-bit big-endian length, bytes).
 */
class BinaryArray {
public:
    explicit BinaryArray(quint32 elementType)
        : mElement(elementType)
    {
        clear();
    }
    void clear()
    {
        mBytes.resize(HeaderBytes); // filled in by data()
        mCount = 0;
    }
    void reserve(qsizetype bytes) { mBytes.reserve(HeaderBytes + bytes); }
    /** One element's field: its length and bytes (as a binary COPY row holds it). */
    void appendField(const char *field, qsizetype size)
    {
        mBytes.append(field, size);
        ++mCount;
    }
    /** `count` fields back to back (a NameList's records). */
    void appendFields(const char *fields, qsizetype size, qsizetype count)
    {
        mBytes.append(fields, size);
        mCount += count;
    }
    qsizetype count() const { return mCount; }
    qsizetype size() const { return mBytes.size(); }
    /** The whole array, header filled in. */
    const char *data();

private:
    static constexpr qsizetype HeaderBytes = 20;
    quint32 mElement;
    QByteArray mBytes;
    qsizetype mCount = 0;
};

} // namespace bloom
