#include "model/geometry.h"

#include <QCoreApplication>

#include <bit>

namespace bloom {

Result<Geometry> Geometry::create(int chunkLog2, int bitsLog2, int k)
{
    if (chunkLog2 < 0 || chunkLog2 > MaxChunkLog2)
        return makeError(ErrorKind::Usage, QStringLiteral("chunk count 2^%1 is out of range").arg(chunkLog2),
                         QStringLiteral("use between 1 (2^0) and 2^%1 chunks").arg(MaxChunkLog2));
    if (bitsLog2 < MinBitsLog2 || bitsLog2 > MaxBitsLog2)
        return makeError(ErrorKind::Usage, QStringLiteral("bits per chunk 2^%1 is out of range").arg(bitsLog2),
                         QStringLiteral("use between %1 and %2 bits per chunk (a power of two)")
                             .arg(QString::number(1 << MinBitsLog2), QString::number(1 << MaxBitsLog2)));
    if (k < 1 || k > MaxK)
        return makeError(ErrorKind::Usage, QStringLiteral("k = %1 is out of range").arg(k),
                         QStringLiteral("use k between 1 and %1").arg(MaxK));
    const int used = chunkLog2 + k * bitsLog2;
    if (used > HashBits)
        return makeError(ErrorKind::Usage,
                         QStringLiteral("the geometry needs %1 hash bits (%2 for the chunk + %3 x %4 for the "
                                        "positions) but MD5 has only %5")
                             .arg(QString::number(used), QString::number(chunkLog2), QString::number(k),
                                  QString::number(bitsLog2), QString::number(HashBits)),
                         QStringLiteral("lower k, or use fewer chunks or fewer bits per chunk"));
    return Geometry(chunkLog2, bitsLog2, k);
}

Result<Geometry> Geometry::fromCounts(qint64 chunks, qint64 chunkBits, int k)
{
    const auto isPow2 = [](qint64 v) { return v > 0 && std::has_single_bit(quint64(v)); };
    if (!isPow2(chunks))
        return makeError(ErrorKind::Usage, QStringLiteral("%1 chunks is not a power of two").arg(chunks),
                         QStringLiteral("the chunk number is cut from the hash's bits, so use 1, 2, 4, ... "
                                        "(the reference uses 131072)"));
    if (!isPow2(chunkBits))
        return makeError(ErrorKind::Usage, QStringLiteral("%1 bits per chunk is not a power of two").arg(chunkBits),
                         QStringLiteral("positions are cut from the hash's bits, so use 8, 16, ..., 65536 "
                                        "(the reference uses 8192)"));
    return create(std::countr_zero(quint64(chunks)), std::countr_zero(quint64(chunkBits)), k);
}

quint64 Geometry::heapSizeEstimate(int fillfactor) const
{
    const quint64 payload = chunkBits() / 8;
    const quint64 tuple = ((24 + 4 + 4 + 4 + payload + 7) / 8) * 8 + 4;
    // A page takes rows while it has more than (100 - fillfactor)% of its 8,192 bytes free.
    const quint64 reserve = 8192 * quint64(100 - qBound(10, fillfactor, 100)) / 100;
    const quint64 perPage = qMax<quint64>(1, (8192 - 24 - reserve) / tuple);
    return (chunks() + perPage - 1) / perPage * 8192;
}

quint64 Geometry::tableSizeEstimate() const
{
    // Heap tuple: 24-byte header, int4, varlena header (4), bit length (4), payload; MAXALIGN 8;
    // plus a 4-byte line pointer. 8,192-byte pages with a 24-byte header.
    const quint64 payload = chunkBits() / 8;
    const quint64 tuple = ((24 + 4 + 4 + 4 + payload + 7) / 8) * 8 + 4;
    const quint64 perPage = qMax<quint64>(1, (8192 - 24) / tuple);
    const quint64 heapPages = (chunks() + perPage - 1) / perPage;
    // btree on int4: about 16 bytes an entry, leaves ~90% full.
    const quint64 indexBytes = quint64(chunks()) * 16 * 10 / 9 + 8192 * 2;
    return heapPages * 8192 + indexBytes;
}

QString Geometry::describe() const
{
    return QCoreApplication::translate("bloom", "%1 chunks x %2 bits, k=%3 (2^%4 bits, %5)")
        .arg(QString::number(chunks()), QString::number(chunkBits()), QString::number(mK),
             QString::number(mChunkLog2 + mBitsLog2), formatBytes(totalBytes()));
}

QString formatCount(qint64 n)
{
    QString digits = QString::number(n < 0 ? -n : n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return n < 0 ? QLatin1Char('-') + digits : digits;
}

QString formatBytes(quint64 bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    if (u == 0)
        return QStringLiteral("%1 B").arg(bytes);
    const int decimals = (v == double(qint64(v))) ? 0 : 1;
    return QStringLiteral("%1 %2").arg(QString::number(v, 'f', decimals), QLatin1String(units[u]));
}

} // namespace bloom
