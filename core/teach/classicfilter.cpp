#include "teach/classicfilter.h"
#include "model/hash128.h"

namespace bloom::classic {

QList<quint64> positions(QByteArrayView name, quint64 m, int k)
{
    QList<quint64> out;
    out.reserve(k);
    for (int i = 0; i < k; ++i) {
        QByteArray input = QByteArray::number(i) + ':';
        input.append(name);
        out.append(Hash128::md5(input).mod(m));
    }
    return out;
}

} // namespace bloom::classic
