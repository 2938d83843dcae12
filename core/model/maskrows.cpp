#include "model/maskrows.h"

#include "postgres/pgcopy.h"

#include <vector>

namespace bloom {

qint64 MaskRowsSource::writeMaskRows(const CopyPieceSink &sink, qsizetype pieceBytes, quint32 first, quint32 end,
                                     int chunkBits, const std::function<bool(quint32, std::uint8_t *)> &mask)
{
    const size_t maskBytes = size_t(chunkBits) / 8;
    const size_t rowBytes = 2 + 4 + 4 + 4 + 4 + maskBytes;
    std::vector<char> buffer(size_t(pieceBytes) + rowBytes + 32);
    char *at = buffer.data();
    putCopyHeader(at);
    qint64 rows = 0;
    for (quint32 c = first; c < end; ++c) {
        char *row = at;
        putBe16(at, 2);
        putBe32(at, 4);
        putBe32(at, c);
        putBe32(at, quint32(4 + maskBytes));
        putBe32(at, quint32(chunkBits));
        if (!mask(c, reinterpret_cast<std::uint8_t *>(at))) {
            at = row;
            continue;
        }
        at += maskBytes;
        ++rows;
        if (at - buffer.data() >= pieceBytes) {
            if (!sink(buffer.data(), at - buffer.data()))
                return -1;
            at = buffer.data();
        }
    }
    putBe16(at, 0xFFFF);
    return sink(buffer.data(), at - buffer.data()) ? rows : -1;
}

} // namespace bloom
