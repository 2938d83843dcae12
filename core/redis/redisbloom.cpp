#include "redis/redisbloom.h"

#include <openssl/evp.h>

#include <array>
#include <cmath>

namespace bloom::redisbloom {

double parseHexAsJs(QByteArrayView hex)
{
    // Exact big integer first (up to 4096 bits here), then one correct rounding to a double.
    std::array<quint32, 128> words{}; // little-endian 32-bit limbs
    int used = 0;
    for (char ch : hex) {
        int d = 0;
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (ch >= 'a' && ch <= 'f')
            d = ch - 'a' + 10;
        else if (ch >= 'A' && ch <= 'F')
            d = ch - 'A' + 10;
        else
            break; // parseInt stops at the first character that is not a digit
        quint32 carry = quint32(d);
        for (int i = 0; i < used; ++i) {
            const quint64 v = (quint64(words[size_t(i)]) << 4) | carry;
            words[size_t(i)] = quint32(v);
            carry = quint32(v >> 32);
        }
        if (carry) {
            if (used == int(words.size()))
                return HUGE_VAL; // past 2^4096: JavaScript's number is Infinity long before
            words[size_t(used++)] = carry;
        }
    }
    while (used > 0 && words[size_t(used - 1)] == 0)
        --used;
    if (used == 0)
        return 0;
    const auto bitAt = [&](int i) { return (words[size_t(i / 32)] >> (i % 32)) & 1u; };
    const int top = (used - 1) * 32 + (31 - __builtin_clz(words[size_t(used - 1)])); // highest set bit
    if (top >= 1024)
        return HUGE_VAL; // beyond the largest double, as parseInt gives Infinity
    if (top < 53) {
        quint64 v = 0;
        for (int i = top; i >= 0; --i)
            v = (v << 1) | bitAt(i);
        return double(v);
    }
    quint64 mantissa = 0; // the 53 bits from the top
    for (int i = top; i > top - 53; --i)
        mantissa = (mantissa << 1) | bitAt(i);
    const int roundBit = top - 53;
    const bool half = bitAt(roundBit);
    bool sticky = false;
    for (int i = roundBit - 1; i >= 0 && !sticky; --i)
        sticky = bitAt(i);
    if (half && (sticky || (mantissa & 1)))
        ++mantissa; // may become 2^53: still exact
    return std::ldexp(double(mantissa), top - 52);
}

namespace {

constexpr double FnvOffsetBasis = 2166136261.0;

/** `hash ^= c`: ToInt32 of the (integer-valued) double, XORed; the result is an Int32. */
qint32 fnvXor(double hash, quint16 unit)
{
    return qint32(quint32(qint64(hash))) ^ qint32(unit);
}

/** `hash *= FNV_PRIME`, in doubles: exact below 2^53, rounded above. */
double fnvMultiply(qint32 xored)
{
    return double(xored) * 16777619.0;
}

} // namespace

quint32 fnvAsJs(const QString &name)
{
    double hash = FnvOffsetBasis;
    for (QChar unit : name) // charCodeAt: UTF-16 code units
        hash = fnvMultiply(fnvXor(hash, unit.unicode()));
    return quint32(qint64(hash)); // hash >>> 0
}

QList<FnvStep> fnvSteps(const QString &name)
{
    QList<FnvStep> steps;
    double hash = FnvOffsetBasis;
    for (QChar unit : name) {
        FnvStep s;
        s.unit = unit.unicode();
        s.xored = fnvXor(hash, s.unit);
        s.product = fnvMultiply(s.xored);
        s.rounded = qint64(s.product) != qint64(s.xored) * 16777619LL;
        hash = s.product;
        steps.append(s);
    }
    return steps;
}

Positions positions(QByteArrayView utf8, quint64 m)
{
    Positions p;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(utf8.data(), size_t(utf8.size()), md, &len, EVP_sha256(), nullptr);
    p.sha256Hex = QByteArray(reinterpret_cast<const char *>(md), int(len)).toHex();
    p.sha256Number = parseHexAsJs(p.sha256Hex);
    p.sha256 = quint64(std::fmod(p.sha256Number, double(m)));
    p.fnvUnsigned = fnvAsJs(QString::fromUtf8(utf8));
    p.fnv = p.fnvUnsigned % m;
    return p;
}

} // namespace bloom::redisbloom
