#pragma once

#include "session/sessiontypes.h"

#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QLabel;

namespace bloom {

class FilterSession;
class HeatmapLegend;
class HeatmapWidget;
class SkewChart;

/**
 * The Heatmap tab: a summary line, the map of every chunk with its legend, the colour scale, "mark
 * changed chunks" and "written since", the hover line, and the fill histogram beside the model.
 */
class HeatmapTab : public QWidget {
    Q_OBJECT
public:
    HeatmapTab(FilterSession *session, QWidget *parent = nullptr);

    HeatmapWidget *heatmap() const { return mHeatmap; }
    HeatmapLegend *legend() const { return mLegend; }
    /** Puts the history's "written since" chooser beside "mark changed chunks". */
    void addSinceChooser(QWidget *chooser);
    /** Another filter: its fill is loading. */
    void opened(const FilterSummary &s);
    /** No filter came (the open failed). */
    void notConnected();
    /** A refresh's picture: the map, the legend, the histogram and the summary line. */
    void refreshed(const FillResult &r);

signals:
    void chunkClicked(quint32 chunk);

private:
    FilterSession *mSession;
    HeatmapWidget *mHeatmap = nullptr;
    HeatmapLegend *mLegend = nullptr;
    QLabel *mSummary = nullptr;
    QLabel *mHover = nullptr;
    SkewChart *mSkew = nullptr;
    QComboBox *mScaleMode = nullptr;
    QHBoxLayout *mChangesRow = nullptr;
};

} // namespace bloom
