#pragma once

#include "session/sessiontypes.h"

#include <QWidget>

#include <algorithm>
#include <optional>

namespace bloom {

/**
 * Every chunk of the filter as one cell of a QImage built off the GUI thread, with zoom (wheel),
 * pan (drag) and fit (double click). Hover reports the chunk; a click asks for its bits.
 */
class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget *parent = nullptr);

    void setResult(const FillResult &result);
    /** Until the first refresh of a (new) filter: no picture, and a line that says it is loading. */
    void setLoading(const Geometry &g);
    const FillResult &result() const { return mResult; }
    /** Outlines the chunks the last read that found a change reported changed (FillResult::changedChunks). */
    void setMarkChanges(bool on);
    bool marksChanges() const { return mMarkChanges; }
    /** The chunks outlined now (empty while marking is off): the last read's changes, or the chunks
     *  written since the snapshot chosen with setChangedSince(). */
    const std::vector<quint32> &markedChunks() const
    {
        return !mMarkChanges ? mNone : mSince ? mSince->chunks : mChanged;
    }
    /** The marked chunks that get a ring: all of them up to MaxRings, else MaxRings spread evenly over
     *  them (the first MaxRings in chunk order drew every ring at the top, as if only those changed). */
    static constexpr size_t MaxRings = 5000;
    std::vector<quint32> ringedChunks() const;
    template<typename F> void forEachRinged(F &&f) const // what ringedChunks() lists, without a copy (paintEvent)
    {
        const std::vector<quint32> &marked = markedChunks();
        const size_t n = std::min(marked.size(), MaxRings);
        for (size_t i = 0; i < n; ++i)
            f(marked[i * marked.size() / n]);
    }
    /** Greys out every chunk not written since a recorded snapshot (and rings the written ones while
     *  marking is on), until clearChangedSince() or another filter. */
    void setChangedSince(const ChangedSince &since);
    void clearChangedSince();
    const std::optional<ChangedSince> &changedSince() const { return mSince; }
    /** The chunk under the mouse or the keyboard's cursor, or -1. */
    qint64 current() const { return mHover; }
    /** The chunk under a widget position, or -1. */
    qint64 chunkAt(QPointF pos) const;
    /** Where a chunk's cell is drawn (for tests and hover marks). */
    QRectF cellRect(quint32 chunk) const;
    double zoom() const { return mZoom; }
    void setZoom(double zoom, QPointF anchor);
    void fit();

    /** "chunk 71962: 54 of 8192 bits set (0.66%), chunk FPR 5.3e-16" */
    QString describeChunk(quint32 chunk) const;

signals:
    void hovered(qint64 chunk);
    void chunkClicked(quint32 chunk);

protected:
    void paintEvent(QPaintEvent *) override;
    void resizeEvent(QResizeEvent *) override;
    void wheelEvent(QWheelEvent *) override;
    void mousePressEvent(QMouseEvent *) override;
    void mouseMoveEvent(QMouseEvent *) override;
    void mouseReleaseEvent(QMouseEvent *) override;
    void mouseDoubleClickEvent(QMouseEvent *) override;
    void leaveEvent(QEvent *) override;
    void keyPressEvent(QKeyEvent *) override;
    void focusInEvent(QFocusEvent *) override;

private:
    QRectF imageRect() const;

    FillResult mResult;
    std::vector<quint32> mChanged; ///< of the last read that found a change
    std::optional<ChangedSince> mSince;
    const std::vector<quint32> mNone;
    bool mMarkChanges = false;
    double mZoom = 1.0; ///< 1.0 = fitted to the widget
    QPointF mOffset;    ///< pan, in widget pixels
    QPoint mPressPos;
    QPointF mPressOffset;
    bool mDragging = false;
    bool mMoved = false;
    qint64 mHover = -1;
    QString mLoading;
};

/**
 * The colour ramp with its scale: set bits, fill share, and the chunk FPR fill^k. Laid out for its
 * width: the caption wraps, the labels take two lines each and only as many ticks are labelled as fit
 * without touching, and the widget asks its layout for the height that takes (heightForWidth), so
 * nothing is drawn over another label or past its edge at any size or scale.
 */
class HeatmapLegend : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapLegend(QWidget *parent = nullptr);
    void setScale(quint32 minSetBits, quint32 maxSetBits, quint32 chunkBits, int k, HeatScale scale);
    /** No scale yet: says so instead of drawing one for an empty filter. */
    void setLoading();
    /** No filter open (none yet, or the open failed): no scale, and no "loading" either. */
    void setNotConnected();
    /** "relative scale: 706..1323 set bits (the emptiest .. the fullest chunk)" */
    QString caption() const;

    /** Where each part goes at `width`: the caption, the ramp, and each tick's label (two lines). */
    struct Layout {
        QRect caption;
        QRect bar;
        QList<int> tickX;
        QList<QRect> labels;
        QStringList labelTexts;
        int height = 0;
    };
    Layout layoutFor(int width) const;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return layoutFor(width).height; }
    QSize sizeHint() const override { return {560, layoutFor(560).height}; }
    QSize minimumSizeHint() const override { return {200, layoutFor(200).height}; }

protected:
    void paintEvent(QPaintEvent *) override;
    void resizeEvent(QResizeEvent *) override;

private:
    QString tickLabel(quint32 v) const;

    quint32 mMin = 0, mMax = 1, mChunkBits = 8192;
    int mK = 7;
    HeatScale mScale = HeatScale::Absolute;
    enum class State { NotConnected, Loading, Shown };
    State mState = State::NotConnected; ///< a scale is drawn only when Shown
    int mLaidOutHeight = -1;
};

} // namespace bloom
