#include "model/namelist.h"

namespace bloom {

NameList::NameList(const QList<QByteArray> &names)
{
    qsizetype bytes = 0;
    for (const QByteArray &n : names)
        bytes += 4 + n.size();
    reserveBytes(bytes);
    for (const QByteArray &n : names)
        append(n);
}

void NameList::append(QByteArrayView name)
{
    const auto n = quint32(name.size());
    const char length[4] = {char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
    mRecords.append(length, 4);
    mRecords.append(name.data(), name.size());
    ++mCount;
}

void NameList::append(const NameList &other)
{
    mRecords.append(other.mRecords);
    mCount += other.mCount;
}

void NameList::clear()
{
    mRecords.clear();
    mCount = 0;
}

QList<QByteArray> NameList::toList() const
{
    QList<QByteArray> out;
    out.reserve(mCount);
    forEach([&out](QByteArrayView n) { out.append(n.toByteArray()); });
    return out;
}

} // namespace bloom
