#pragma once

#include <QByteArrayView>
#include <QList>
#include <QtGlobal>

namespace bloom::classic {

/**
 * Positions of a name in the classic (non-blocked) filter of the reference's first example:
 * position i is md5("i:" + name) read as a 128-bit number, modulo m. In hash order i = 0..k-1.
 */
QList<quint64> positions(QByteArrayView name, quint64 m, int k);

} // namespace bloom::classic
