#include "teach/bitgridwidget.h"
#include "teach/bitcolours.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace bloom {

namespace {

constexpr int NumberCell = 16; ///< the smallest cell that carries its own number
constexpr int MaxCell = 56;

} // namespace

BitGridWidget::BitGridWidget(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAccessibleName(tr("The filter's bits"));
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

void BitGridWidget::setShowCounts(bool counts)
{
    mCounts = counts;
    update();
}

BitGridWidget::Layout BitGridWidget::layoutFor(int cols) const
{
    Layout l;
    l.columns = qMax(1, cols);
    const quint64 m = mFilter ? mFilter->size() : 16;
    const int rows = int((m + quint64(l.columns) - 1) / quint64(l.columns));
    if (mCompact) {
        l.left = 4;
        l.cell = qBound(2, qMin((width() - 8) / l.columns, (height() - 8) / qMax(1, rows)), MaxCell);
        l.rowHeight = l.cell;
        return l;
    }
    const int line = fontMetrics().height();
    l.left = fontMetrics().horizontalAdvance(QStringLiteral("chunk 000")) + 8;
    // First without a ruler and with a line under each row for the names that set a false positive's bits.
    int byWidth = (width() - l.left - 8) / l.columns;
    int byHeight = (height() - 8) / qMax(1, rows) - line;
    l.cell = qBound(3, qMin(byWidth, byHeight), MaxCell);
    if (l.cell >= NumberCell) {
        l.labels = true;
        l.rowHeight = l.cell + line;
        return l;
    }
    // Too small to number each cell: a ruler of column numbers above, row captions in the small type,
    // and the rows packed.
    l.ruler = true;
    const QFontMetrics small(smallFont(3));
    l.left = small.horizontalAdvance(QStringLiteral("chunk 000")) + 6;
    l.top = small.height() + 6;
    byWidth = (width() - l.left - 8) / l.columns;
    byHeight = (height() - l.top - 4) / qMax(1, rows) - 1;
    l.cell = qBound(3, qMin(byWidth, byHeight), MaxCell);
    l.rowHeight = l.cell + 1;
    return l;
}

QFont BitGridWidget::smallFont(int cell) const
{
    QFont small = font();
    small.setPixelSize(qBound(8, cell / 3 + 2, qMax(12, fontMetrics().height() * 2 / 3)));
    return small;
}

BitGridWidget::Layout BitGridWidget::currentLayout() const
{
    if (!mFilter)
        return layoutFor(16);
    if (mFilter->scheme() == SandboxFilter::Scheme::Blocked)
        return layoutFor(int(qMin<quint64>(mFilter->chunkBits(), 64))); // a chunk a row (wrapped past 64)
    // Classic: the number of columns (a power of two, or all of a small filter) that gives the biggest cells.
    const quint64 m = mFilter->size();
    Layout best = layoutFor(int(qMin<quint64>(m, 64)));
    if (m <= 32 && best.cell >= 24)
        return best; // a small filter in one row, as the reference prints its 16 positions
    for (int cols : {8, 16, 32, 64}) {
        if (quint64(cols) >= m)
            break;
        const Layout l = layoutFor(cols);
        if (l.cell > best.cell || (l.cell == best.cell && cols > best.columns))
            best = l;
    }
    return best;
}

int BitGridWidget::columns() const
{
    return currentLayout().columns;
}

int BitGridWidget::cellSize() const
{
    return currentLayout().cell;
}

bool BitGridWidget::numbersInCells() const
{
    return currentLayout().labels;
}

QRect BitGridWidget::cellRect(quint64 bit) const
{
    return cellRectIn(currentLayout(), bit);
}

QRect BitGridWidget::cellRectIn(const Layout &l, quint64 bit) const
{
    const quint64 m = mFilter ? mFilter->size() : 16;
    const int rows = int((m + quint64(l.columns) - 1) / quint64(l.columns));
    // A small filter sits in the middle of the space, not at its top edge.
    const int used = l.top + rows * l.rowHeight;
    const int top = mCompact ? l.top : l.top + qMax(0, (height() - used) / 3);
    const int row = int(bit / quint64(l.columns));
    const int col = int(bit % quint64(l.columns));
    return QRect(l.left + col * l.cell, top + row * l.rowHeight, l.cell, l.cell);
}

qint64 BitGridWidget::bitAt(const QPoint &p) const
{
    if (!mFilter)
        return -1;
    const Layout l = currentLayout();
    for (quint64 b = 0; b < mFilter->size(); ++b)
        if (cellRectIn(l, b).contains(p))
            return qint64(b);
    return -1;
}

QSize BitGridWidget::sizeHint() const
{
    return mCompact ? QSize(300, 300) : QSize(640, 360);
}

QSize BitGridWidget::minimumSizeHint() const
{
    return QSize(200, 80);
}

QString BitGridWidget::bitName(quint64 b) const
{
    if (mFilter && mFilter->scheme() == SandboxFilter::Scheme::Blocked)
        return tr("chunk %1, bit %2")
            .arg(QString::number(b / mFilter->chunkBits()), QString::number(b % mFilter->chunkBits()));
    return tr("bit %1").arg(b);
}

void BitGridWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!mFilter)
        return;
    const Layout l = currentLayout();
    const int s = l.cell;
    const QFont small = smallFont(s);
    const QFont captionFont = l.ruler ? small : font();
    // Captions far enough apart not to overlap when the rows are packed.
    const int captionEvery = qMax(1, (QFontMetrics(captionFont).height() + l.rowHeight - 1) / l.rowHeight);
    const bool blocked = mFilter->scheme() == SandboxFilter::Scheme::Blocked;
    const quint64 chunkBits = mFilter->chunkBits();
    for (quint64 b = 0; b < mFilter->size(); ++b) {
        const QRect r = cellRectIn(l, b);
        p.fillRect(r.adjusted(0, 0, -1, -1), mFilter->bit(b) ? bitcolours::Set : bitcolours::Clear);
        p.setPen(QColor(0xb0, 0xb0, 0xb0));
        p.drawRect(r.adjusted(0, 0, -1, -1));
        if (l.labels || (mCounts && s >= 9)) {
            p.setFont(small);
            p.setPen(mFilter->bit(b) ? Qt::white : QColor(0x60, 0x60, 0x60));
            const quint64 shown = blocked ? b % chunkBits : b;
            p.drawText(r, Qt::AlignCenter, mCounts ? QString::number(mFilter->count(b)) : QString::number(shown));
        }
        // Row captions: the chunk (blocked) or the first bit of the row.
        const quint64 row = b / quint64(l.columns);
        if (!mCompact && b % quint64(l.columns) == 0 && row % quint64(captionEvery) == 0) {
            p.setFont(captionFont);
            p.setPen(palette().text().color());
            const QString caption =
                blocked ? (b % chunkBits == 0 ? tr("chunk %1").arg(b / chunkBits) : tr("+%1").arg(b % chunkBits))
                        : tr("bit %1").arg(b);
            p.drawText(QRect(0, r.top() - 8, l.left - 4, s + 16), Qt::AlignRight | Qt::AlignVCenter, caption);
        }
    }
    // The ruler: every eighth column's number (bits inside the chunk for blocked).
    if (l.ruler && !mCompact) {
        p.setFont(small);
        p.setPen(palette().text().color());
        const QRect first = cellRectIn(l, 0);
        const int step = l.columns >= 32 ? 8 : 4;
        for (int c = 0; c < l.columns; c += step) {
            const int x = first.left() + c * s;
            p.drawLine(x, first.top() - 4, x, first.top() - 1);
            p.drawText(QRect(x - 2, first.top() - l.top + 2, 4 * s + 20, l.top - 6), Qt::AlignLeft | Qt::AlignBottom,
                       QString::number(c));
        }
    }
    // The step in progress.
    for (qsizetype i = 0; i < mPositions.size(); ++i) {
        const QRect r = cellRectIn(l, mPositions[i]);
        const QColor c = !mTested ? bitcolours::New : (mWasSet.value(i) ? bitcolours::WasSet : bitcolours::WasClear);
        p.setPen(QPen(c, qMax(2, s / 8)));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(1, 1, -2, -2));
        if (l.labels && i < mLabels.size() && !mLabels[i].isEmpty()) {
            p.setFont(small);
            p.setPen(c);
            p.drawText(QRect(r.left() - s, r.bottom() + 1, 3 * s, fontMetrics().height()),
                       Qt::AlignHCenter | Qt::AlignTop, QString::fromUtf8(mLabels[i]));
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
        const QString where = bitName(quint64(b));
        QString text =
            who.isEmpty() ? tr("%1: 0").arg(where) : tr("%1: 1, set by %2").arg(where, who.join(QStringLiteral(", ")));
        if (mCounts)
            text += tr(" (count %1)").arg(mFilter->count(quint64(b)));
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace bloom
