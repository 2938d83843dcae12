#pragma once

#include <QByteArray>
#include <QList>
#include <QWidget>

namespace bloom {

/** The bits of one chunk as a grid (8,192 bits: 128 x 64), with a name's positions highlighted. */
class ChunkGridWidget : public QWidget {
    Q_OBJECT
public:
    explicit ChunkGridWidget(QWidget *parent = nullptr);

    void setChunk(quint32 chunk, const QByteArray &bits);
    void setHighlight(const QList<int> &positions);
    void clear();

    quint32 chunk() const { return mChunk; }
    const QByteArray &bits() const { return mBits; }
    const QList<int> &highlight() const { return mHighlight; }
    int columns() const;
    QSize sizeHint() const override { return {640, 340}; }

protected:
    void paintEvent(QPaintEvent *) override;
    void mouseMoveEvent(QMouseEvent *) override;

private:
    QRectF cell(int bit) const;
    int bitAt(QPointF pos) const;

    quint32 mChunk = 0;
    QByteArray mBits;
    QList<int> mHighlight;
};

} // namespace bloom
