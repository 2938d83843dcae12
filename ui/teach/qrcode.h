#pragma once

#include <QByteArray>
#include <QImage>

namespace bloom {

/** `text` as a QR code (libqrencode, error correction M): one pixel a module, a quiet zone of four
 *  modules, black on white; a null image when it cannot be encoded. Scale it without smoothing. */
QImage qrCode(const QByteArray &text);

} // namespace bloom
