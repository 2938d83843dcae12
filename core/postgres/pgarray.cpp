#include "postgres/pgarray.h"

#include "model/binaryrows.h"

namespace bloom {

QString textArray(const QList<QByteArray> &items, qsizetype from, qsizetype count)
{
    QByteArray out = "{";
    for (qsizetype i = from; i < from + count; ++i) {
        if (i > from)
            out += ',';
        out += '"';
        for (char c : items[i]) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        out += '"';
    }
    out += '}';
    return QString::fromUtf8(out);
}

Result<QList<QByteArray>> decodeTextArray(QByteArrayView a)
{
    const auto be32 = [&a](qsizetype at) {
        const auto *u = reinterpret_cast<const unsigned char *>(a.data() + at);
        return quint32(u[0]) << 24 | quint32(u[1]) << 16 | quint32(u[2]) << 8 | quint32(u[3]);
    };
    QList<QByteArray> out;
    if (a.size() < 12)
        return makeError(ErrorKind::Server, QStringLiteral("a binary array of %1 bytes").arg(a.size()));
    const quint32 dims = be32(0);
    if (dims == 0)
        return out; // the empty array
    if (dims != 1 || a.size() < 20)
        return makeError(ErrorKind::Server, QStringLiteral("an array of %1 dimensions").arg(dims));
    const quint32 count = be32(12);
    out.reserve(count);
    qsizetype at = 20;
    for (quint32 i = 0; i < count; ++i) {
        if (at + 4 > a.size())
            return makeError(ErrorKind::Server, QStringLiteral("a binary array cut short"));
        const quint32 n = be32(at);
        at += 4;
        if (n == 0xFFFFFFFFu || at + qsizetype(n) > a.size())
            return makeError(ErrorKind::Server, QStringLiteral("a NULL element or one cut short"));
        out.append(QByteArray(a.data() + at, qsizetype(n)));
        at += n;
    }
    return out;
}

const char *BinaryArray::data()
{
    char *at = mBytes.data();
    putBe32(at, 1);
    putBe32(at, 0);
    putBe32(at, mElement);
    putBe32(at, quint32(mCount));
    putBe32(at, 1);
    return mBytes.constData();
}

QString intArray(const std::vector<qint64> &values)
{
    QString out;
    out.reserve(qsizetype(values.size()) * 6 + 2);
    out += QLatin1Char('{');
    for (size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += QLatin1Char(',');
        out += QString::number(values[i]);
    }
    out += QLatin1Char('}');
    return out;
}

} // namespace bloom
