#include "model/md5lanes.h"

#include <QtEndian>

#include <cstdint>
#include <cstring>

namespace bloom::md5lanes {

namespace {

typedef std::uint32_t V __attribute__((vector_size(32))); // 8 lanes of 32 bits

// MD5's rotation and round functions are macros, not functions: block() is cloned for AVX2, and a
// helper taking or returning V by value that stays out of line (at -O0) is built for the default
// target, which passes and returns 32-byte vectors in memory, while the AVX2 clone calls it with them
// in ymm registers: every digest came out wrong, and differently from run to run (issue 32). With no
// call inside block() there is no ABI to disagree on. tst_md5lanes_O0 checks this file built at -O0.
#define BLOOM_MD5_ROTL(x, s) (((x) << (s)) | ((x) >> (32 - (s))))
#define BLOOM_MD5_F(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define BLOOM_MD5_G(b, c, d) ((c) ^ ((d) & ((b) ^ (c))))
#define BLOOM_MD5_H(b, c, d) ((b) ^ (c) ^ (d))
#define BLOOM_MD5_I(b, c, d) ((c) ^ ((b) | ~(d)))

#define BLOOM_MD5_STEP(f, a, b, c, d, w, k, s)                                                                         \
    a += BLOOM_MD5_##f(b, c, d) + m[w] + std::uint32_t(k);                                                             \
    a = BLOOM_MD5_ROTL(a, s) + b

/** One MD5 block in each lane: m[w] holds word w of every lane; the digest words go to out[0..3]. */
__attribute__((target_clones("avx2", "default"))) void block(const V *m, V *out)
{
    V a = V{} + 0x67452301u, b = V{} + 0xefcdab89u, c = V{} + 0x98badcfeu, d = V{} + 0x10325476u;
    BLOOM_MD5_STEP(F, a, b, c, d, 0, 0xd76aa478, 7);
    BLOOM_MD5_STEP(F, d, a, b, c, 1, 0xe8c7b756, 12);
    BLOOM_MD5_STEP(F, c, d, a, b, 2, 0x242070db, 17);
    BLOOM_MD5_STEP(F, b, c, d, a, 3, 0xc1bdceee, 22);
    BLOOM_MD5_STEP(F, a, b, c, d, 4, 0xf57c0faf, 7);
    BLOOM_MD5_STEP(F, d, a, b, c, 5, 0x4787c62a, 12);
    BLOOM_MD5_STEP(F, c, d, a, b, 6, 0xa8304613, 17);
    BLOOM_MD5_STEP(F, b, c, d, a, 7, 0xfd469501, 22);
    BLOOM_MD5_STEP(F, a, b, c, d, 8, 0x698098d8, 7);
    BLOOM_MD5_STEP(F, d, a, b, c, 9, 0x8b44f7af, 12);
    BLOOM_MD5_STEP(F, c, d, a, b, 10, 0xffff5bb1, 17);
    BLOOM_MD5_STEP(F, b, c, d, a, 11, 0x895cd7be, 22);
    BLOOM_MD5_STEP(F, a, b, c, d, 12, 0x6b901122, 7);
    BLOOM_MD5_STEP(F, d, a, b, c, 13, 0xfd987193, 12);
    BLOOM_MD5_STEP(F, c, d, a, b, 14, 0xa679438e, 17);
    BLOOM_MD5_STEP(F, b, c, d, a, 15, 0x49b40821, 22);

    BLOOM_MD5_STEP(G, a, b, c, d, 1, 0xf61e2562, 5);
    BLOOM_MD5_STEP(G, d, a, b, c, 6, 0xc040b340, 9);
    BLOOM_MD5_STEP(G, c, d, a, b, 11, 0x265e5a51, 14);
    BLOOM_MD5_STEP(G, b, c, d, a, 0, 0xe9b6c7aa, 20);
    BLOOM_MD5_STEP(G, a, b, c, d, 5, 0xd62f105d, 5);
    BLOOM_MD5_STEP(G, d, a, b, c, 10, 0x02441453, 9);
    BLOOM_MD5_STEP(G, c, d, a, b, 15, 0xd8a1e681, 14);
    BLOOM_MD5_STEP(G, b, c, d, a, 4, 0xe7d3fbc8, 20);
    BLOOM_MD5_STEP(G, a, b, c, d, 9, 0x21e1cde6, 5);
    BLOOM_MD5_STEP(G, d, a, b, c, 14, 0xc33707d6, 9);
    BLOOM_MD5_STEP(G, c, d, a, b, 3, 0xf4d50d87, 14);
    BLOOM_MD5_STEP(G, b, c, d, a, 8, 0x455a14ed, 20);
    BLOOM_MD5_STEP(G, a, b, c, d, 13, 0xa9e3e905, 5);
    BLOOM_MD5_STEP(G, d, a, b, c, 2, 0xfcefa3f8, 9);
    BLOOM_MD5_STEP(G, c, d, a, b, 7, 0x676f02d9, 14);
    BLOOM_MD5_STEP(G, b, c, d, a, 12, 0x8d2a4c8a, 20);

    BLOOM_MD5_STEP(H, a, b, c, d, 5, 0xfffa3942, 4);
    BLOOM_MD5_STEP(H, d, a, b, c, 8, 0x8771f681, 11);
    BLOOM_MD5_STEP(H, c, d, a, b, 11, 0x6d9d6122, 16);
    BLOOM_MD5_STEP(H, b, c, d, a, 14, 0xfde5380c, 23);
    BLOOM_MD5_STEP(H, a, b, c, d, 1, 0xa4beea44, 4);
    BLOOM_MD5_STEP(H, d, a, b, c, 4, 0x4bdecfa9, 11);
    BLOOM_MD5_STEP(H, c, d, a, b, 7, 0xf6bb4b60, 16);
    BLOOM_MD5_STEP(H, b, c, d, a, 10, 0xbebfbc70, 23);
    BLOOM_MD5_STEP(H, a, b, c, d, 13, 0x289b7ec6, 4);
    BLOOM_MD5_STEP(H, d, a, b, c, 0, 0xeaa127fa, 11);
    BLOOM_MD5_STEP(H, c, d, a, b, 3, 0xd4ef3085, 16);
    BLOOM_MD5_STEP(H, b, c, d, a, 6, 0x04881d05, 23);
    BLOOM_MD5_STEP(H, a, b, c, d, 9, 0xd9d4d039, 4);
    BLOOM_MD5_STEP(H, d, a, b, c, 12, 0xe6db99e5, 11);
    BLOOM_MD5_STEP(H, c, d, a, b, 15, 0x1fa27cf8, 16);
    BLOOM_MD5_STEP(H, b, c, d, a, 2, 0xc4ac5665, 23);

    BLOOM_MD5_STEP(I, a, b, c, d, 0, 0xf4292244, 6);
    BLOOM_MD5_STEP(I, d, a, b, c, 7, 0x432aff97, 10);
    BLOOM_MD5_STEP(I, c, d, a, b, 14, 0xab9423a7, 15);
    BLOOM_MD5_STEP(I, b, c, d, a, 5, 0xfc93a039, 21);
    BLOOM_MD5_STEP(I, a, b, c, d, 12, 0x655b59c3, 6);
    BLOOM_MD5_STEP(I, d, a, b, c, 3, 0x8f0ccc92, 10);
    BLOOM_MD5_STEP(I, c, d, a, b, 10, 0xffeff47d, 15);
    BLOOM_MD5_STEP(I, b, c, d, a, 1, 0x85845dd1, 21);
    BLOOM_MD5_STEP(I, a, b, c, d, 8, 0x6fa87e4f, 6);
    BLOOM_MD5_STEP(I, d, a, b, c, 15, 0xfe2ce6e0, 10);
    BLOOM_MD5_STEP(I, c, d, a, b, 6, 0xa3014314, 15);
    BLOOM_MD5_STEP(I, b, c, d, a, 13, 0x4e0811a1, 21);
    BLOOM_MD5_STEP(I, a, b, c, d, 4, 0xf7537e82, 6);
    BLOOM_MD5_STEP(I, d, a, b, c, 11, 0xbd3af235, 10);
    BLOOM_MD5_STEP(I, c, d, a, b, 2, 0x2ad7d2bb, 15);
    BLOOM_MD5_STEP(I, b, c, d, a, 9, 0xeb86d391, 21);

    out[0] = a + 0x67452301u;
    out[1] = b + 0xefcdab89u;
    out[2] = c + 0x98badcfeu;
    out[3] = d + 0x10325476u;
}

#undef BLOOM_MD5_STEP
#undef BLOOM_MD5_I
#undef BLOOM_MD5_H
#undef BLOOM_MD5_G
#undef BLOOM_MD5_F
#undef BLOOM_MD5_ROTL

} // namespace

void hash(const QByteArrayView *msgs, int count, bool lowerAscii, Hash128 *out)
{
    // Each lane's padded block (message, 0x80, zeros, bit length), then its words transposed so that
    // m[w] holds word w of every lane. Lanes past `count` hash an empty message, unread.
    alignas(32) std::uint32_t words[16][Lanes];
    for (int lane = 0; lane < Lanes; ++lane) {
        alignas(16) unsigned char b[64];
        std::memset(b, 0, sizeof b);
        const qsizetype n = lane < count ? msgs[lane].size() : 0;
        if (n > 0) {
            std::memcpy(b, msgs[lane].data(), size_t(n));
            if (lowerAscii)
                for (qsizetype i = 0; i < n; ++i)
                    b[i] = unsigned(b[i] - 'A') < 26u ? static_cast<unsigned char>(b[i] + ('a' - 'A')) : b[i];
        }
        b[n] = 0x80;
        const std::uint64_t bits = qToLittleEndian(std::uint64_t(n) * 8);
        std::memcpy(b + 56, &bits, sizeof bits);
        for (int w = 0; w < 16; ++w)
            words[w][lane] = qFromLittleEndian<std::uint32_t>(b + 4 * w);
    }
    alignas(32) V m[16];
    std::memcpy(m, words, sizeof m);
    alignas(32) V digest[4];
    block(m, digest);
    for (int lane = 0; lane < count; ++lane)
        out[lane] = Hash128::fromMd5Words(digest[0][lane], digest[1][lane], digest[2][lane], digest[3][lane]);
}

} // namespace bloom::md5lanes
