#include "heatmap/chunkgridwidget.h"

#include <QMouseEvent>
#include <QPainter>

#include <bit>

namespace bloom {

ChunkGridWidget::ChunkGridWidget(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(256, 140);
}

void ChunkGridWidget::setChunk(quint32 chunk, const QByteArray &bits)
{
    mChunk = chunk;
    mBits = bits;
    update();
}

void ChunkGridWidget::setHighlight(const QList<int> &positions)
{
    mHighlight = positions;
    update();
}

void ChunkGridWidget::clear()
{
    mBits.clear();
    mHighlight.clear();
    update();
}

int ChunkGridWidget::columns() const
{
    const int n = int(qMax<qsizetype>(1, mBits.size()));
    const int log2 = std::bit_width(unsigned(n)) - 1;
    return 1 << ((log2 + 1) / 2); // 8192 -> 128 columns, 64 rows
}

QRectF ChunkGridWidget::cell(int bit) const
{
    const int cols = columns();
    const int rows = int((mBits.size() + cols - 1) / cols);
    const double size = qMin((width() - 2.0) / cols, (height() - 2.0) / rows);
    const double left = (width() - size * cols) / 2;
    const double top = (height() - size * rows) / 2;
    return {left + (bit % cols) * size, top + (bit / cols) * size, size, size};
}

int ChunkGridWidget::bitAt(QPointF pos) const
{
    if (mBits.isEmpty())
        return -1;
    const QRectF first = cell(0);
    const int col = int((pos.x() - first.left()) / first.width());
    const int row = int((pos.y() - first.top()) / first.height());
    if (col < 0 || row < 0 || col >= columns())
        return -1;
    const int bit = row * columns() + col;
    return bit < mBits.size() ? bit : -1;
}

void ChunkGridWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(0x16, 0x18, 0x1a));
    if (mBits.isEmpty()) {
        p.setPen(Qt::lightGray);
        p.drawText(rect(), Qt::AlignCenter, tr("click a chunk in the heatmap to see its bits"));
        return;
    }
    const QColor off(0x2b, 0x31, 0x38), on(0x5e, 0xa1, 0xff), hit(0x5e, 0xff, 0x6c), miss(0xff, 0x4d, 0x4d);
    for (int b = 0; b < mBits.size(); ++b) {
        const QRectF c = cell(b).adjusted(0.5, 0.5, -0.5, -0.5);
        p.fillRect(c, mBits.at(b) == '1' ? on : off);
    }
    for (int b : mHighlight) {
        if (b < 0 || b >= mBits.size())
            continue;
        const bool set = mBits.at(b) == '1';
        const QRectF c = cell(b);
        const QRectF mark = c.width() < 9 ? QRectF(c.center() - QPointF(5, 5), QSizeF(10, 10)) : c;
        p.fillRect(mark, set ? hit : miss);
        p.setPen(QPen(Qt::white, 1));
        p.drawRect(mark);
    }
}

void ChunkGridWidget::mouseMoveEvent(QMouseEvent *e)
{
    const int b = bitAt(e->position());
    setToolTip(b >= 0 ? tr("bit %1 of chunk %2: %3")
                            .arg(QString::number(b), QString::number(mChunk), QString(QLatin1Char(mBits.at(b))))
                      : QString());
}

} // namespace bloom
