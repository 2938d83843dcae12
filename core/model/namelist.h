#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace bloom {

/**
 * Names kept in one buffer as (32-bit big-endian length, bytes) records, the way a binary text[]
 * array carries its elements: what a write keeps of its names for a rebuild's pending table, with no
 * allocation per name.
 */
class NameList {
public:
    NameList() = default;
    explicit NameList(const QList<QByteArray> &names);

    void append(QByteArrayView name);
    void append(const NameList &other);
    void clear();
    void reserveBytes(qsizetype bytes) { mRecords.reserve(bytes); }

    qint64 size() const { return mCount; }
    bool isEmpty() const { return mCount == 0; }
    /** The records, back to back. */
    const QByteArray &records() const { return mRecords; }
    /** Calls f(name) for every name, in order. */
    template<class F> void forEach(F f) const
    {
        const char *p = mRecords.constData(), *end = p + mRecords.size();
        while (p < end) {
            const qsizetype n = recordLength(p);
            f(QByteArrayView(p + 4, n));
            p += 4 + n;
        }
    }
    QList<QByteArray> toList() const;

    /** The length in a record's first four bytes. */
    static qsizetype recordLength(const char *record)
    {
        const auto *u = reinterpret_cast<const unsigned char *>(record);
        return qsizetype(quint32(u[0]) << 24 | quint32(u[1]) << 16 | quint32(u[2]) << 8 | quint32(u[3]));
    }

private:
    QByteArray mRecords;
    qint64 mCount = 0;
};

} // namespace bloom
