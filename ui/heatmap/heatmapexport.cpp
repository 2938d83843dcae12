#include "heatmap/heatmapexport.h"

#include "heatmap/heatmapwidget.h"

#include <QCoreApplication>
#include <QFile>
#include <QPainter>

#include <cmath>

namespace bloom {

QImage heatmapPicture(const FillResult &r, const QString &title, const QPalette &palette)
{
    const QImage &img = r.heatmap;
    // One pixel a chunk is too small to look at: scale up without smoothing, so a cell stays a chunk.
    const int scale = qMax(1, 1024 / qMax(1, img.width()));
    const QImage map = img.scaled(img.size() * scale, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    const int width = qMax(map.width(), 640);
    HeatmapLegend legend;
    legend.setPalette(palette);
    legend.setScale(r.scaleMin, r.scaleMax, r.fill.geometry.chunkBits(), r.fill.geometry.k(), r.scale);
    legend.resize(width, legend.heightForWidth(width));
    QFont titleFont = legend.font();
    titleFont.setBold(true);
    const QFontMetrics fm(titleFont);
    const QRect titleRect = fm.boundingRect(QRect(8, 6, width - 16, 10000), Qt::TextWordWrap, title);
    const int mapTop = titleRect.bottom() + 8;
    QImage out(width, mapTop + map.height() + 8 + legend.height(), QImage::Format_RGB32);
    out.fill(palette.color(QPalette::Window));
    QPainter p(&out);
    p.setFont(titleFont);
    p.setPen(palette.color(QPalette::WindowText));
    p.drawText(QRect(8, 6, width - 16, titleRect.height()), Qt::TextWordWrap, title);
    p.drawImage((width - map.width()) / 2, mapTop, map);
    p.end();
    legend.render(&out, QPoint(0, mapTop + map.height() + 8), QRegion(), QWidget::DrawChildren);
    return out;
}

Status writeFillCsv(const FillSnapshot &f, const QString &path)
{
    if (f.setBits.empty())
        return makeError(ErrorKind::Usage,
                         QCoreApplication::translate("bloom", "nothing to export yet: the fill has not been read"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return makeError(ErrorKind::Io,
                         QCoreApplication::translate("bloom", "cannot write %1: %2").arg(path, file.errorString()));
    QByteArray out = "chunk,set_bits,chunk_bits,fill,chunk_fpr\n";
    const double b = f.geometry.chunkBits();
    for (size_t c = 0; c < f.setBits.size(); ++c) {
        const double fill = f.setBits[c] / b;
        out += QByteArray::number(qulonglong(c)) + ',' + QByteArray::number(f.setBits[c]) + ',' +
               QByteArray::number(f.geometry.chunkBits()) + ',' + QByteArray::number(fill, 'g', 6) + ',' +
               QByteArray::number(std::pow(fill, f.geometry.k()), 'g', 6) + '\n';
    }
    if (file.write(out) != out.size() || !file.flush())
        return makeError(ErrorKind::Io,
                         QCoreApplication::translate("bloom", "cannot write %1: %2").arg(path, file.errorString()));
    return success();
}

} // namespace bloom
