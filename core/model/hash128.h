#pragma once

#include <QByteArrayView>
#include <QString>

#include <array>
#include <cstdint>

namespace bloom {

/**
 * An MD5 digest read as one 128-bit number, most significant bit first: bit 0 here is bit 1 of the
 * reference's `('x' || md5(...))::bit(128)`.
 */
class Hash128 {
public:
    Hash128() = default;
    explicit Hash128(const std::array<std::uint8_t, 16> &bytes);

    /** The digest whose state words (MD5's A, B, C, D, each written little-endian) are these. */
    static Hash128 fromMd5Words(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d)
    {
        Hash128 h;
        h.mValue = (U128(__builtin_bswap32(a)) << 96) | (U128(__builtin_bswap32(b)) << 64) |
                   (U128(__builtin_bswap32(c)) << 32) | U128(__builtin_bswap32(d));
        return h;
    }

    /** MD5 of the bytes (OpenSSL; no allocation). */
    static Hash128 md5(QByteArrayView data);

    /** `len` bits (len <= 32) starting at 0-based MSB-first position `start`. */
    std::uint32_t bits(int start, int len) const
    {
        if (len == 0)
            return 0;
        return std::uint32_t((mValue >> (128 - start - len)) & ((U128(1) << len) - 1));
    }
    /** The whole value modulo m (the classic scheme's `int(h, 16) % m`). */
    std::uint64_t mod(std::uint64_t m) const { return std::uint64_t(mValue % m); }

    std::array<std::uint8_t, 16> bytes() const;
    QString hex() const;       ///< 32 lowercase hex digits, as SQL md5()
    QString bitString() const; ///< 128 '0'/'1' characters

    friend bool operator==(const Hash128 &, const Hash128 &) = default;

private:
    __extension__ typedef unsigned __int128 U128;
    U128 mValue = 0;
};

} // namespace bloom
