#pragma once

#include "session/sessiontypes.h"

#include <QObject>

class QAction;
class QComboBox;
class QWidget;

namespace bloom {

class FilterSession;
class FprView;
class HeatmapWidget;
class StatusLabel;

/**
 * The window's history: the recorded snapshots in the FPR tab (read whole at open, then the ones
 * recorded since, with the refreshes), the heatmap's "written since a snapshot" chooser, and
 * Admin > Record a snapshot now. Every read runs on the session's worker.
 */
class HistoryController : public QObject {
    Q_OBJECT
public:
    HistoryController(FilterSession *session, FprView *fpr, HeatmapWidget *heatmap, StatusLabel *status,
                      QWidget *window);

    /** The "written since" chooser with its label, for the heatmap tab. */
    QWidget *makeSinceChooser(QWidget *parent);
    /** 0 is the last refresh, then the snapshots, newest first. */
    QComboBox *sinceChooser() const { return mSince; }
    /** Admin > Record a snapshot now (a write: enabled in admin mode). */
    QAction *recordAction() const { return mRecord; }

    /** Another filter (or the same after a swap): its history is read whole, the chooser starts over. */
    void opened();
    /** A refresh answered: snapshots recorded elsewhere are asked for now and then, and "written
     *  since" follows a read that found writes. */
    void refreshed(const FillResult &r);
    /** Reads the history again now. */
    void reload();

public slots:
    void recordSnapshot();

private:
    void onHistory(const HistoryResult &r);
    void onChangedSince(const ChangedSince &r);
    void record(bool publicationOk);

    FilterSession *mSession;
    FprView *mFpr;
    HeatmapWidget *mHeatmap;
    StatusLabel *mStatus;
    QWidget *mWindow;
    QComboBox *mSince = nullptr;
    QAction *mRecord = nullptr;
    qint64 mAskedAtMs = 0;
    int mRecordToken = 0;
};

} // namespace bloom
