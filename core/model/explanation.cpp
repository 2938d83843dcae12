#include "model/explanation.h"

#include "common/printable.h"

#include <QJsonArray>

namespace bloom {

Explanation Explanation::build(const Geometry &g, const QString &name, const QByteArray &normalized, Lowering lowering)
{
    Explanation e;
    e.geometry = g;
    e.name = name;
    e.normalized = QString::fromUtf8(normalized);
    e.lowering = lowering;
    e.hash = Hash128::md5(normalized);
    e.placement = place(g, e.hash);

    const QString all = e.hash.bitString();
    const int c = g.chunkLog2();
    HashSlice chunk;
    chunk.isChunk = true;
    chunk.firstBit = 1;
    chunk.lastBit = c;
    chunk.bits = all.mid(0, c);
    chunk.value = e.placement.chunk;
    e.slices.append(chunk);
    const int b = g.bitsLog2();
    for (int i = 0; i < g.k(); ++i) {
        HashSlice s;
        s.index = i;
        s.firstBit = c + i * b + 1;
        s.lastBit = c + (i + 1) * b;
        s.bits = all.mid(c + i * b, b);
        s.value = e.placement.positions[size_t(i)];
        e.slices.append(s);
    }
    return e;
}

Explanation Explanation::offline(const Geometry &g, const QString &name)
{
    Lowering how = Lowering::Ascii;
    const QByteArray lowered = offlineLower(name.toUtf8(), &how);
    return build(g, name, lowered, how);
}

QJsonObject Explanation::toJson() const
{
    QJsonArray slicesJson;
    QJsonArray positionsJson;
    for (const HashSlice &s : slices) {
        slicesJson.append(
            QJsonObject{{QStringLiteral("kind"), s.isChunk ? QStringLiteral("chunk") : QStringLiteral("bit")},
                        {QStringLiteral("first_bit"), s.firstBit},
                        {QStringLiteral("last_bit"), s.lastBit},
                        {QStringLiteral("bits"), s.bits},
                        {QStringLiteral("value"), qint64(s.value)}});
        if (!s.isChunk)
            positionsJson.append(qint64(s.value));
    }
    QJsonArray bitsJson;
    for (int b : setBits())
        bitsJson.append(b);
    return QJsonObject{
        {QStringLiteral("name"), name},
        {QStringLiteral("normalized"), normalized},
        {QStringLiteral("exact"), exact()},
        {QStringLiteral("lowering"), lowering == Lowering::Ascii    ? QStringLiteral("ascii")
                                     : lowering == Lowering::Server ? QStringLiteral("server")
                                                                    : QStringLiteral("approximate")},
        {QStringLiteral("md5"), md5Hex()},
        {QStringLiteral("hash_bits"), hash.bitString()},
        {QStringLiteral("chunks"), qint64(geometry.chunks())},
        {QStringLiteral("chunk_bits"), qint64(geometry.chunkBits())},
        {QStringLiteral("k"), geometry.k()},
        {QStringLiteral("chunk"), qint64(placement.chunk)},
        {QStringLiteral("positions"), positionsJson},
        {QStringLiteral("bits"), bitsJson},
        {QStringLiteral("slices"), slicesJson},
    };
}

QString Explanation::toText() const
{
    QString out;
    const auto line = [&out](const QString &s) { out += s + QLatin1Char('\n'); };
    // Line-oriented text: the name with its control characters escaped (docs/bloomctl.md "bloomctl").
    line(QStringLiteral("name        %1").arg(escapeField(name)));
    line(QStringLiteral("lower       %1    (%2)").arg(escapeField(normalized), loweringLabel(lowering)));
    line(QStringLiteral("md5         %1").arg(md5Hex()));
    line(QStringLiteral("geometry    %1").arg(geometry.describe()));
    line(QString());
    int width = 0;
    for (const HashSlice &s : slices)
        width = qMax(width, int(s.bits.size()));
    for (const HashSlice &s : slices) {
        const QString range = QStringLiteral("bits %1-%2").arg(QString::number(s.firstBit), QString::number(s.lastBit));
        line(QStringLiteral("%1  %2  %3 %4")
                 .arg(range.leftJustified(13), s.bits.leftJustified(width),
                      s.isChunk ? QStringLiteral("chunk") : QStringLiteral("bit  "), QString::number(s.value)));
    }
    line(QString());
    QStringList bits;
    for (int b : setBits())
        bits << QString::number(b);
    line(QStringLiteral("chunk %1, bits {%2}").arg(QString::number(placement.chunk), bits.join(QLatin1Char(','))));
    if (!exact())
        line(QStringLiteral("note: the name is not ASCII; its placement is approximate until the filter "
                            "database's lower() is used (bloomctl --db ... explain NAME)."));
    return out;
}

} // namespace bloom
