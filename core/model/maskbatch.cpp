#include "model/maskbatch.h"
#include "model/binaryrows.h"

#include <algorithm>
#include <cstring>

namespace bloom {

void MaskBatch::add(const Placement &p)
{
    mChunks.push_back(p.chunk);
    for (int j = 0; j < mGeometry.k(); ++j)
        mPositions.push_back(j < p.k ? p.positions[size_t(j)] : p.positions[0]);
}

void MaskBatch::clear()
{
    mChunks.clear();
    mPositions.clear();
}

qint64 MaskBatch::writeRows(const std::function<bool(const char *, qsizetype)> &sink, qsizetype pieceBytes) const
{
    // Names in chunk order: sort (chunk, name index) keys.
    std::vector<std::uint64_t> order(mChunks.size());
    for (size_t i = 0; i < mChunks.size(); ++i)
        order[i] = (std::uint64_t(mChunks[i]) << 32) | i;
    std::sort(order.begin(), order.end());

    const qsizetype maskBytes = qsizetype(mGeometry.chunkBits() / 8);
    const qsizetype rowBytes = MaskRowStartBytes + maskBytes;
    const int k = mGeometry.k();
    std::vector<char> buffer(size_t(qMax(pieceBytes, rowBytes) + rowBytes + 32));
    char *at = buffer.data();
    const auto flush = [&]() {
        const qsizetype n = at - buffer.data();
        at = buffer.data();
        return n == 0 || sink(buffer.data(), n);
    };
    putRowsHeader(at);
    qint64 rows = 0;
    for (size_t i = 0; i < order.size();) {
        const std::uint32_t chunk = std::uint32_t(order[i] >> 32);
        putMaskRowStart(at, chunk, mGeometry.chunkBits());
        char *mask = at;
        memset(mask, 0, size_t(maskBytes));
        for (; i < order.size() && std::uint32_t(order[i] >> 32) == chunk; ++i) {
            const std::uint16_t *pos = mPositions.data() + size_t(order[i] & 0xFFFFFFFFu) * size_t(k);
            for (int j = 0; j < k; ++j)
                mask[pos[j] >> 3] = char(mask[pos[j] >> 3] | (0x80 >> (pos[j] & 7)));
        }
        at += maskBytes;
        ++rows;
        if (at - buffer.data() >= pieceBytes && !flush())
            return -1;
    }
    putRowsTrailer(at);
    return flush() ? rows : -1;
}

MaskBatch MaskBatch::splitFrom(std::uint32_t firstChunk)
{
    MaskBatch upper(mGeometry);
    const size_t k = size_t(mGeometry.k());
    size_t kept = 0;
    for (size_t i = 0; i < mChunks.size(); ++i) {
        const std::uint16_t *pos = mPositions.data() + i * k;
        if (mChunks[i] >= firstChunk) {
            upper.mChunks.push_back(mChunks[i]);
            upper.mPositions.insert(upper.mPositions.end(), pos, pos + k);
        } else {
            mChunks[kept] = mChunks[i];
            std::copy(pos, pos + k, mPositions.data() + kept * k);
            ++kept;
        }
    }
    mChunks.resize(kept);
    mPositions.resize(kept * k);
    return upper;
}

QByteArray MaskBatch::rowsData() const
{
    QByteArray out;
    writeRows([&out](const char *d, qsizetype n) {
        out.append(d, n);
        return true;
    });
    return out;
}

} // namespace bloom
