#include "postgres/pgarray.h"

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
