#include "model/maskrows.h"

#include "model/binaryrows.h"

#include <vector>

namespace bloom {

qint64 MaskRowsSource::writeChunkRows(const ByteSink &sink, qsizetype pieceBytes, quint32 first, quint32 end,
                                      int chunkBits, const std::function<bool(quint32, std::uint8_t *)> &mask)
{
    const size_t maskBytes = size_t(chunkBits) / 8;
    const size_t rowBytes = MaskRowStartBytes + maskBytes;
    std::vector<char> buffer(size_t(pieceBytes) + rowBytes + 32);
    char *at = buffer.data();
    putRowsHeader(at);
    qint64 rows = 0;
    for (quint32 c = first; c < end; ++c) {
        char *row = at;
        putMaskRowStart(at, c, quint32(chunkBits));
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
    putRowsTrailer(at);
    return sink(buffer.data(), at - buffer.data()) ? rows : -1;
}

} // namespace bloom
