// The rows Bloomscope writes chunk masks as: PostgreSQL's binary COPY framing of (chunk int4, bits
// bit(N)). The same bytes go to a COPY into a new table and, as array elements, to the UPDATE that ORs
// masks into a filter (postgres/pgcopy.h).
#pragma once

#include <QtGlobal>

#include <cstring>
#include <functional>

namespace bloom {

/** Takes the next piece of a byte stream; false stops the writer. */
using ByteSink = std::function<bool(const char *data, qsizetype size)>;

/** Big-endian writers. */
inline void putBe16(char *&at, quint16 v)
{
    *at++ = char(v >> 8);
    *at++ = char(v);
}
inline void putBe32(char *&at, quint32 v)
{
    *at++ = char(v >> 24);
    *at++ = char(v >> 16);
    *at++ = char(v >> 8);
    *at++ = char(v);
}
/** The 19-byte header of a binary row stream. */
inline void putRowsHeader(char *&at)
{
    memcpy(at, "PGCOPY\n\377\r\n\0", 11);
    at += 11;
    putBe32(at, 0);
    putBe32(at, 0);
}
/** A (chunk, mask) row up to its mask: the mask's chunkBits / 8 bytes follow. */
inline void putMaskRowStart(char *&at, quint32 chunk, quint32 chunkBits)
{
    putBe16(at, 2);
    putBe32(at, 4);
    putBe32(at, chunk);
    putBe32(at, 4 + chunkBits / 8);
    putBe32(at, chunkBits);
}
/** Bytes of a mask row's start (putMaskRowStart). */
constexpr qsizetype MaskRowStartBytes = 2 + 4 + 4 + 4 + 4;
/** The stream's end marker. */
inline void putRowsTrailer(char *&at)
{
    putBe16(at, 0xFFFF);
}

} // namespace bloom
