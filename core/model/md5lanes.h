#pragma once

#include "model/hash128.h"

#include <QByteArrayView>

namespace bloom {

/**
 * MD5 of several short messages side by side, one SIMD lane each (8 lanes: two SSE2 registers, or one
 * AVX2 register where the CPU has it, chosen at load time). A name of up to 55 bytes is one MD5 block,
 * so eight names cost about one scalar MD5 of one block plus the transpose: the rebuild and the load
 * hash tens of millions of names and spent most of their hashing time in OpenSSL's per-call set-up
 * and padding. Equal to Hash128::md5 for every input (tst_placement checks every length 0..55, and
 * tst_md5lanes_O0 with this code built at -O0).
 */
namespace md5lanes {

inline constexpr int Lanes = 8;
inline constexpr qsizetype MaxBytes = 55; ///< longest message that fits one block with its padding

/**
 * out[i] = MD5(lowercase(msgs[i])) for i < count (count <= Lanes), with ASCII A-Z lowered on the way
 * in when `lowerAscii`; every msgs[i].size() <= MaxBytes.
 */
void hash(const QByteArrayView *msgs, int count, bool lowerAscii, Hash128 *out);

} // namespace md5lanes
} // namespace bloom
