#include "heatmap/heatmapwidget.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace bloom {

HeatmapWidget::HeatmapWidget(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(256, 128);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setCursor(Qt::CrossCursor);
    // The keyboard reaches it too: arrows move between chunks, Enter opens one, +/- zoom, 0 fits.
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Heatmap of chunk fill"));
    setAccessibleDescription(tr("Arrow keys move between chunks, Enter shows a chunk's bits, + and - zoom, 0 fits."));
}

void HeatmapWidget::keyPressEvent(QKeyEvent *e)
{
    const qint64 chunks = qint64(mResult.fill.setBits.size());
    if (chunks == 0 || mResult.imageColumns == 0) {
        QWidget::keyPressEvent(e);
        return;
    }
    const qint64 cols = mResult.imageColumns;
    const qint64 step = e->modifiers() & Qt::ShiftModifier ? 16 : 1;
    qint64 c = mHover >= 0 ? mHover : 0;
    switch (e->key()) {
    case Qt::Key_Left:
        c -= step;
        break;
    case Qt::Key_Right:
        c += step;
        break;
    case Qt::Key_Up:
        c -= step * cols;
        break;
    case Qt::Key_Down:
        c += step * cols;
        break;
    case Qt::Key_Home:
        c = 0;
        break;
    case Qt::Key_End:
        c = chunks - 1;
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        emit chunkClicked(quint32(c));
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        setZoom(mZoom * 1.5, cellRect(quint32(c)).center());
        return;
    case Qt::Key_Minus:
        setZoom(mZoom / 1.5, cellRect(quint32(c)).center());
        return;
    case Qt::Key_0:
        fit();
        return;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    c = qBound<qint64>(0, c, chunks - 1);
    if (c != mHover) {
        mHover = c;
        setToolTip(describeChunk(quint32(c)));
        emit hovered(c);
        update();
    }
}

void HeatmapWidget::focusInEvent(QFocusEvent *e)
{
    if (mHover < 0 && !mResult.fill.setBits.empty()) {
        mHover = 0;
        emit hovered(0);
    }
    update();
    QWidget::focusInEvent(e);
}

void HeatmapWidget::setLoading(const Geometry &g)
{
    mResult = FillResult{};
    mHover = -1;
    mLoading = tr("loading the fill of %L1 chunks...").arg(g.chunks());
    update();
}

void HeatmapWidget::setResult(const FillResult &result)
{
    mLoading.clear();
    const bool first = mResult.heatmap.isNull() || mResult.heatmap.size() != result.heatmap.size();
    if (first) { // another filter or geometry
        mChanged.clear();
        mSince.reset();
    } else if (!result.unchanged && !result.throttled && !result.changedChunks.empty())
        mChanged = result.changedChunks; // a read that found changes; the others keep the last ones
    mResult = result;
    if (first)
        fit();
    update();
}

void HeatmapWidget::setChangedSince(const ChangedSince &since)
{
    if (!mResult.heatmap.isNull() && since.dim.size() != mResult.heatmap.size())
        return; // of another geometry than the one shown
    mSince = since;
    update();
}

void HeatmapWidget::clearChangedSince()
{
    mSince.reset();
    update();
}

void HeatmapWidget::setMarkChanges(bool on)
{
    mMarkChanges = on;
    update();
}

QRectF HeatmapWidget::imageRect() const
{
    if (mResult.heatmap.isNull())
        return {};
    const QSizeF img = mResult.heatmap.size();
    const double base = qMin(width() / img.width(), height() / img.height());
    const QSizeF shown = img * base * mZoom;
    const QPointF topLeft((width() - shown.width()) / 2 + mOffset.x(), (height() - shown.height()) / 2 + mOffset.y());
    return {topLeft, shown};
}

qint64 HeatmapWidget::chunkAt(QPointF pos) const
{
    const QRectF r = imageRect();
    if (r.isEmpty() || !r.contains(pos))
        return -1;
    const int col = int((pos.x() - r.left()) / r.width() * mResult.heatmap.width());
    const int row = int((pos.y() - r.top()) / r.height() * mResult.heatmap.height());
    const qint64 chunk = qint64(row) * mResult.imageColumns + col;
    return chunk < qint64(mResult.fill.setBits.size()) ? chunk : -1;
}

QRectF HeatmapWidget::cellRect(quint32 chunk) const
{
    const QRectF r = imageRect();
    if (r.isEmpty() || mResult.imageColumns == 0)
        return {};
    const double cw = r.width() / mResult.heatmap.width();
    const double ch = r.height() / mResult.heatmap.height();
    return {r.left() + (chunk % quint32(mResult.imageColumns)) * cw,
            r.top() + (chunk / quint32(mResult.imageColumns)) * ch, cw, ch};
}

QString HeatmapWidget::describeChunk(quint32 chunk) const
{
    if (chunk >= mResult.fill.setBits.size())
        return {};
    const ChunkDamage &damage = mResult.fill.damage;
    if (std::binary_search(damage.nullChunks.begin(), damage.nullChunks.end(), chunk))
        return tr("chunk %1: its row is NULL, so its names cannot be answered").arg(chunk);
    if (std::binary_search(damage.missingChunks.begin(), damage.missingChunks.end(), chunk))
        return tr("chunk %1: it has no row, so its names cannot be answered").arg(chunk);
    const quint32 s = mResult.fill.setBits[chunk];
    const quint32 b = mResult.fill.geometry.chunkBits();
    const double fill = double(s) / b;
    return tr("chunk %1: %2 of %3 bits set (%4%), chunk FPR %5")
        .arg(QString::number(chunk), QString::number(s), QString::number(b), QString::number(fill * 100, 'f', 2),
             QString::number(std::pow(fill, mResult.fill.geometry.k()), 'g', 3));
}

void HeatmapWidget::setZoom(double zoom, QPointF anchor)
{
    zoom = qBound(1.0, zoom, 256.0);
    const QRectF before = imageRect();
    if (before.isEmpty()) {
        mZoom = zoom;
        return;
    }
    // Keep the image point under the anchor where it is.
    const QPointF rel((anchor.x() - before.left()) / before.width(), (anchor.y() - before.top()) / before.height());
    mZoom = zoom;
    const QRectF after = imageRect();
    mOffset += anchor - QPointF(after.left() + rel.x() * after.width(), after.top() + rel.y() * after.height());
    if (mZoom == 1.0)
        mOffset = {};
    update();
}

void HeatmapWidget::fit()
{
    mZoom = 1.0;
    mOffset = {};
    update();
}

void HeatmapWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base).darker(300));
    if (mResult.heatmap.isNull()) {
        p.setPen(palette().color(QPalette::Text));
        p.drawText(rect(), Qt::AlignCenter, mLoading.isEmpty() ? tr("not connected") : mLoading);
        return;
    }
    p.setRenderHint(QPainter::SmoothPixmapTransform, false); // a cell is a chunk: no blurring
    p.drawImage(imageRect(), mResult.heatmap);
    if (mSince)
        p.drawImage(imageRect(), mSince->dim); // the chunks not written since the snapshot, greyed
    if (!markedChunks().empty()) {
        // A ring around each changed chunk, at least 6 px so that one chunk in 131,072 is seen; past a
        // few thousand the rings would cover the map, so at most MaxRings, spread over all of them.
        p.setPen(QPen(QColor(0, 230, 255), 1.5));
        p.setBrush(Qt::NoBrush);
        forEachRinged([&](quint32 chunk) {
            QRectF cell = cellRect(chunk);
            if (cell.width() < 6)
                cell = QRectF(cell.center() - QPointF(3, 3), QSizeF(6, 6));
            p.drawRect(cell);
        });
    }
    if (!mResult.fill.damage.empty()) {
        // A NULL or missing row: a red square of at least 8 px with a white edge, seen at any zoom.
        p.setPen(QPen(Qt::white, 1));
        p.setBrush(QColor::fromRgb(DamagedColour));
        const ChunkDamage &damage = mResult.fill.damage;
        const QRectF image = imageRect();
        size_t drawn = 0;
        for (const auto *chunks : {&damage.nullChunks, &damage.missingChunks})
            for (size_t i = 0; i < chunks->size() && drawn < MaxRings; ++i, ++drawn) {
                QRectF cell = cellRect((*chunks)[i]);
                if (cell.width() < 8) { // kept inside the picture: chunk 0's square is whole too
                    cell = QRectF(cell.center() - QPointF(4, 4), QSizeF(8, 8));
                    cell.moveLeft(qBound(image.left(), cell.left(), image.right() - cell.width()));
                    cell.moveTop(qBound(image.top(), cell.top(), image.bottom() - cell.height()));
                }
                p.drawRect(cell);
            }
    }
    if (mHover >= 0) {
        QRectF cell = cellRect(quint32(mHover));
        if (cell.width() < 5)
            cell = QRectF(cell.center() - QPointF(3, 3), QSizeF(6, 6));
        p.setPen(QPen(Qt::white, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cell);
    }
    if (hasFocus()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect().adjusted(1, 1, -1, -1));
    }
}

std::vector<quint32> HeatmapWidget::ringedChunks() const
{
    std::vector<quint32> ringed;
    forEachRinged([&ringed](quint32 chunk) { ringed.push_back(chunk); });
    return ringed;
}

void HeatmapWidget::resizeEvent(QResizeEvent *)
{
    update();
}

void HeatmapWidget::wheelEvent(QWheelEvent *e)
{
    const double steps = e->angleDelta().y() / 120.0;
    setZoom(mZoom * std::pow(1.25, steps), e->position());
    e->accept();
}

void HeatmapWidget::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton)
        return;
    mDragging = true;
    mMoved = false;
    mPressPos = e->pos();
    mPressOffset = mOffset;
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent *e)
{
    if (mDragging && mZoom > 1.0 && (e->pos() - mPressPos).manhattanLength() > 3) {
        mMoved = true;
        mOffset = mPressOffset + (e->pos() - mPressPos);
        update();
    }
    const qint64 c = chunkAt(e->position());
    if (c != mHover) {
        mHover = c;
        setToolTip(c >= 0 ? describeChunk(quint32(c)) : QString());
        emit hovered(c);
        update();
    }
}

void HeatmapWidget::mouseReleaseEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton)
        return;
    const bool click = mDragging && !mMoved;
    mDragging = false;
    if (click) {
        const qint64 c = chunkAt(e->position());
        if (c >= 0)
            emit chunkClicked(quint32(c));
    }
}

void HeatmapWidget::mouseDoubleClickEvent(QMouseEvent *)
{
    fit();
}

void HeatmapWidget::leaveEvent(QEvent *)
{
    mHover = -1;
    emit hovered(-1);
    update();
}

HeatmapLegend::HeatmapLegend(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("heatmapLegend"));
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setAccessibleName(tr("Colour scale"));
}

void HeatmapLegend::setScale(quint32 minSetBits, quint32 maxSetBits, quint32 chunkBits, int k, HeatScale scale)
{
    mMin = minSetBits;
    mMax = qMax<quint32>(minSetBits + 1, maxSetBits);
    mChunkBits = chunkBits;
    mK = k;
    mScale = scale;
    mState = State::Shown;
    setAccessibleDescription(caption());
    updateGeometry();
    update();
}

void HeatmapLegend::setLoading()
{
    mState = State::Loading;
    setAccessibleDescription(caption());
    updateGeometry();
    update();
}

void HeatmapLegend::setNotConnected()
{
    mState = State::NotConnected;
    setAccessibleDescription(caption());
    updateGeometry();
    update();
}

QString HeatmapLegend::caption() const
{
    if (mState != State::Shown)
        return mState == State::Loading ? tr("loading...") : tr("no filter open");
    return mScale == HeatScale::Relative
               ? tr("Relative scale: %1..%2 set bits, the emptiest to the fullest chunk (colours show differences, "
                    "not fill)")
                     .arg(QString::number(mMin), QString::number(mMax))
               : tr("Absolute scale: 0..%1 set bits, empty to the fullest chunk").arg(mMax);
}

QString HeatmapLegend::tickLabel(quint32 v) const
{
    const double fill = double(v) / mChunkBits;
    const QString bits = v == 1 ? tr("1 bit") : tr("%L1 bits").arg(v);
    return tr("%1 (%2%)\nchunk FPR %3")
        .arg(bits, QString::number(fill * 100, 'f', 2), QString::number(std::pow(fill, mK), 'g', 2));
}

HeatmapLegend::Layout HeatmapLegend::layoutFor(int width) const
{
    Layout l;
    const QFontMetrics fm(font());
    const int margin = 8;
    const int inner = qMax(40, width - 2 * margin);
    l.caption = fm.boundingRect(QRect(margin, 2, inner, 100000), Qt::TextWordWrap, caption());
    l.caption.moveTopLeft(QPoint(margin, 2));
    l.height = l.caption.bottom() + 4;
    if (mState != State::Shown)
        return l;
    const int barHeight = qMax(10, fm.height() * 3 / 4);
    l.bar = QRect(margin, l.caption.bottom() + 5, inner, barHeight);
    // As many ticks as fit with a gap of an "M" between labels: 4 intervals, 2, or the two ends.
    const int gap = fm.horizontalAdvance(QLatin1Char('M'));
    for (int ticks : {4, 2, 1}) {
        l.tickX.clear();
        l.labels.clear();
        l.labelTexts.clear();
        bool fits = true;
        for (int i = 0; i <= ticks && fits; ++i) {
            const quint32 v = mMin + quint32(std::lround(double(mMax - mMin) * i / ticks));
            const QString text = tickLabel(v);
            const QSize size = fm.size(0, text);
            const int x = l.bar.left() + int(std::lround(double(l.bar.width() - 1) * i / ticks));
            const int left = i == 0       ? l.bar.left()
                             : i == ticks ? l.bar.right() + 1 - size.width()
                                          : x - size.width() / 2;
            const QRect r(QPoint(qBound(l.bar.left(), left, qMax(l.bar.left(), l.bar.right() + 1 - size.width())),
                                 l.bar.bottom() + 6),
                          size);
            if (!l.labels.isEmpty() && r.left() < l.labels.last().right() + gap)
                fits = false;
            l.tickX << x;
            l.labels << r;
            l.labelTexts << text;
        }
        if (fits)
            break;
        if (ticks == 1) { // not even the two ends fit side by side: the low end, then the high end under it
            l.labels[1].moveTop(l.labels[0].bottom() + 2);
            l.labels[1].moveRight(l.bar.right());
        }
    }
    int bottom = l.bar.bottom();
    for (const QRect &r : l.labels)
        bottom = qMax(bottom, r.bottom());
    l.height = bottom + 4;
    return l;
}

void HeatmapLegend::resizeEvent(QResizeEvent *e)
{
    QWidget::resizeEvent(e);
    // A new width may need another height (the caption wraps, the labels stack): ask the layout again.
    if (const int h = layoutFor(width()).height; h != mLaidOutHeight) {
        mLaidOutHeight = h;
        updateGeometry();
    }
}

void HeatmapLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const Layout l = layoutFor(width());
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(l.caption, Qt::TextWordWrap, caption());
    if (mState != State::Shown)
        return;
    for (int x = 0; x < l.bar.width(); ++x) {
        p.setPen(QColor::fromRgb(fillColour(quint32(x), quint32(l.bar.width() - 1))));
        p.drawLine(l.bar.left() + x, l.bar.top(), l.bar.left() + x, l.bar.bottom());
    }
    p.setPen(palette().color(QPalette::WindowText));
    for (qsizetype i = 0; i < l.labels.size(); ++i) {
        p.drawLine(l.tickX[i], l.bar.bottom(), l.tickX[i], l.bar.bottom() + 4);
        const Qt::Alignment align = i == 0                     ? Qt::AlignLeft
                                    : i == l.labels.size() - 1 ? Qt::AlignRight
                                                               : Qt::AlignHCenter;
        p.drawText(l.labels[i], int(align | Qt::AlignTop), l.labelTexts[i]);
    }
}

} // namespace bloom
