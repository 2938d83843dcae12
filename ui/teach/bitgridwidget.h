#pragma once

#include "teach/sandbox.h"

#include <QWidget>

namespace bloom {

/**
 * Every bit of a sandbox filter, drawn and numbered: set bits filled, a blocked filter's chunks one
 * row each. Cells big enough carry their number; smaller ones get a ruler of column numbers above
 * and the row's first bit (or chunk) to the left, so every bit can still be named. The current
 * step's positions are outlined (green: already set, red: was 0), and under a false positive's bits
 * the names that set them. A counting filter shows each cell's count.
 */
class BitGridWidget : public QWidget {
    Q_OBJECT
public:
    explicit BitGridWidget(QWidget *parent = nullptr);

    void setFilter(const SandboxFilter *filter);
    /** The positions shown so far of the step in progress; `tested` colours them by their old bit. */
    void setHighlight(const QList<quint64> &positions, const QList<bool> &wasSet, bool tested,
                      const QList<QByteArray> &labels = {});
    void clearHighlight();
    const QList<quint64> &highlighted() const { return mPositions; }
    const QList<bool> &highlightedWasSet() const { return mWasSet; }
    bool tested() const { return mTested; }
    /** Drawn small, without labels (the side-by-side view). */
    void setCompact(bool compact);
    /** Each cell shows its counter (a counting filter) rather than its bit number. */
    void setShowCounts(bool counts);

    int columns() const;
    int cellSize() const;
    /** Numbers are drawn in the cells (else the ruler and row captions number them). */
    bool numbersInCells() const;
    QRect cellRect(quint64 bit) const;
    qint64 bitAt(const QPoint &p) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *) override;
    bool event(QEvent *e) override;

private:
    struct Layout {
        int columns = 1, cell = 10, rowHeight = 10, left = 64, top = 4;
        bool ruler = false, labels = false;
    };
    Layout layoutFor(int columns) const;
    Layout currentLayout() const;
    QRect cellRectIn(const Layout &l, quint64 bit) const;
    QString bitName(quint64 b) const;
    QFont smallFont(int cell) const;

    const SandboxFilter *mFilter = nullptr;
    QList<quint64> mPositions;
    QList<bool> mWasSet;
    QList<QByteArray> mLabels;
    bool mTested = false;
    bool mCompact = false;
    bool mCounts = false;
};

} // namespace bloom
