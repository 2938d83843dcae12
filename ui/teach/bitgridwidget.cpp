#include "teach/bitgridwidget.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace bloom {

namespace {

const QColor SetColour(0x2b, 0x4c, 0x9a);
const QColor ClearColour(0xfa, 0xfa, 0xfa);
const QColor WasSetColour(0x1e, 0x9e, 0x4a);
const QColor WasClearColour(0xd9, 0x34, 0x34);
const QColor NewColour(0xf0, 0x9a, 0x1c);

} // namespace

BitGridWidget::BitGridWidget(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void BitGridWidget::setFilter(const SandboxFilter *filter)
{
    mFilter = filter;
    clearHighlight();
    updateGeometry();
}

void BitGridWidget::setHighlight(const QList<quint64> &positions, const QList<bool> &wasSet, bool tested,
                                 const QList<QByteArray> &labels)
{
    mPositions = positions;
    mWasSet = wasSet;
    mTested = tested;
    mLabels = labels;
    update();
}

void BitGridWidget::clearHighlight()
{
    mPositions.clear();
    mWasSet.clear();
    mLabels.clear();
    update();
}

void BitGridWidget::setCompact(bool compact)
{
    mCompact = compact;
    updateGeometry();
    update();
}

int BitGridWidget::columns() const
{
    if (!mFilter)
        return 1;
    if (mFilter->scheme() == SandboxFilter::Scheme::Blocked)
        return int(qMin<quint64>(mFilter->chunkBits(), 64)); // a chunk a row (wrapped past 64)
    const quint64 m = mFilter->size();
    return int(m <= 32 ? m : 64);
}

int BitGridWidget::cellSize() const
{
    if (!mFilter)
        return 10;
    const int cols = columns();
    const int rows = int((mFilter->size() + quint64(cols) - 1) / quint64(cols));
    const int labelSpace = mCompact ? 0 : 60;
    const int byWidth = (width() - labelSpace - 8) / qMax(1, cols);
    const int rowExtra = mCompact ? 0 : 14; // room for the names under a row
    const int byHeight = (height() - 8) / qMax(1, rows) - rowExtra;
    return qBound(3, qMin(byWidth, byHeight), 56);
}

QPoint BitGridWidget::origin() const
{
    if (mCompact || !mFilter)
        return QPoint(mCompact ? 4 : 64, 4);
    // A small filter sits in the middle of the space, not at its top edge.
    const int cols = columns();
    const int rows = int((mFilter->size() + quint64(cols) - 1) / quint64(cols));
    const int used = rows * (cellSize() + 14);
    return QPoint(64, qMax(4, (height() - used) / 3));
}

QRect BitGridWidget::cellRect(quint64 bit) const
{
    const int cols = columns();
    const int s = cellSize();
    const int rowHeight = s + (mCompact ? 0 : 14);
    const int row = int(bit / quint64(cols));
    const int col = int(bit % quint64(cols));
    return QRect(origin().x() + col * s, origin().y() + row * rowHeight, s, s);
}

qint64 BitGridWidget::bitAt(const QPoint &p) const
{
    if (!mFilter)
        return -1;
    for (quint64 b = 0; b < mFilter->size(); ++b)
        if (cellRect(b).contains(p))
            return qint64(b);
    return -1;
}

QSize BitGridWidget::sizeHint() const
{
    return mCompact ? QSize(300, 300) : QSize(900, 420);
}

QSize BitGridWidget::minimumSizeHint() const
{
    return QSize(200, 80);
}

void BitGridWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!mFilter)
        return;
    const int s = cellSize();
    const bool labels = !mCompact && s >= 16;
    QFont small = font();
    small.setPixelSize(qBound(7, s / 3, 12));
    p.setFont(small);
    const bool blocked = mFilter->scheme() == SandboxFilter::Scheme::Blocked;
    const int cols = columns();
    for (quint64 b = 0; b < mFilter->size(); ++b) {
        const QRect r = cellRect(b);
        p.fillRect(r.adjusted(0, 0, -1, -1), mFilter->bit(b) ? SetColour : ClearColour);
        p.setPen(QColor(0xb0, 0xb0, 0xb0));
        p.drawRect(r.adjusted(0, 0, -1, -1));
        if (labels) {
            p.setPen(mFilter->bit(b) ? Qt::white : QColor(0x60, 0x60, 0x60));
            const quint64 shown = blocked ? b % mFilter->chunkBits() : b;
            p.drawText(r, Qt::AlignCenter, QString::number(shown));
        }
        // Row captions: the chunk (blocked) or the first bit of the row.
        if (!mCompact && b % quint64(cols) == 0) {
            p.setPen(palette().text().color());
            const QString caption =
                blocked ? (b % mFilter->chunkBits() == 0 ? tr("chunk %1").arg(b / mFilter->chunkBits()) : QString())
                        : tr("bit %1").arg(b);
            p.drawText(QRect(0, r.top(), origin().x() - 6, s), Qt::AlignRight | Qt::AlignVCenter, caption);
        }
    }
    // The step in progress.
    for (qsizetype i = 0; i < mPositions.size(); ++i) {
        const QRect r = cellRect(mPositions[i]);
        const QColor c = !mTested ? NewColour : (mWasSet.value(i) ? WasSetColour : WasClearColour);
        p.setPen(QPen(c, qMax(2, s / 8)));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(1, 1, -2, -2));
        if (!mCompact && i < mLabels.size() && !mLabels[i].isEmpty()) {
            p.setPen(c);
            p.drawText(QRect(r.left() - s, r.bottom() + 1, 3 * s, 13), Qt::AlignHCenter | Qt::AlignTop,
                       QString::fromUtf8(mLabels[i]));
        }
    }
}

bool BitGridWidget::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip && mFilter) {
        auto *help = static_cast<QHelpEvent *>(e);
        const qint64 b = bitAt(help->pos());
        if (b < 0) {
            QToolTip::hideText();
            return true;
        }
        QStringList who;
        for (int i : mFilter->owners(quint64(b)))
            who << QString::fromUtf8(mFilter->names().at(i));
        QString where = tr("bit %1").arg(b);
        if (mFilter->scheme() == SandboxFilter::Scheme::Blocked)
            where =
                tr("chunk %1, bit %2").arg(quint64(b) / mFilter->chunkBits()).arg(quint64(b) % mFilter->chunkBits());
        QToolTip::showText(help->globalPos(),
                           who.isEmpty() ? tr("%1: 0").arg(where)
                                         : tr("%1: 1, set by %2").arg(where, who.join(QStringLiteral(", "))),
                           this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace bloom
