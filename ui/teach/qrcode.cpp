#include "teach/qrcode.h"

#include <qrencode.h>

#include <memory>

namespace bloom {

QImage qrCode(const QByteArray &text)
{
    std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
        QRcode_encodeString(text.constData(), 0, QR_ECLEVEL_M, QR_MODE_8, 1), &QRcode_free);
    if (!code)
        return {};
    constexpr int Quiet = 4;
    const int width = code->width, size = width + 2 * Quiet;
    QImage image(size, size, QImage::Format_Mono);
    image.setColorTable({qRgb(255, 255, 255), qRgb(0, 0, 0)});
    image.fill(0);
    for (int y = 0; y < width; ++y)
        for (int x = 0; x < width; ++x)
            if (code->data[y * width + x] & 1)
                image.setPixel(x + Quiet, y + Quiet, 1);
    return image;
}

} // namespace bloom
