#pragma once

#include "teach/sandbox.h"

#include <QWidget>

namespace bloom {

/**
 * Every bit of a sandbox filter, drawn and labelled: set bits filled, a blocked filter's chunks one
 * row each. The current step's positions are outlined (green: already set, red: was 0), and under a
 * false positive's bits the names that set them.
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
    /** Drawn small, without labels (the side-by-side view). */
    void setCompact(bool compact);

    int columns() const;
    QRect cellRect(quint64 bit) const;
    qint64 bitAt(const QPoint &p) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *) override;
    bool event(QEvent *e) override;

private:
    int cellSize() const;
    QPoint origin() const;

    const SandboxFilter *mFilter = nullptr;
    QList<quint64> mPositions;
    QList<bool> mWasSet;
    QList<QByteArray> mLabels;
    bool mTested = false;
    bool mCompact = false;
};

} // namespace bloom
