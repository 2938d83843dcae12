#pragma once

#include "shards/shardtypes.h"

#include <QGroupBox>

class QBarSet;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QValueAxis;

namespace bloom {

class ShardSession;

/**
 * The replay: types a list of generated names key by key on the session's worker, with the filter
 * and without it, and charts the shard queries as they add up and the latency of both paths.
 */
class ReplayPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit ReplayPanel(ShardSession *session, QWidget *parent = nullptr);

    /** Starts a replay with the settings in the panel (the screenshot and the tests use it). */
    void startReplay();
    void setReplaySize(int names);
    bool replayDone() const { return mReplayDone; }
    const ReplayResult &lastReplay() const { return mLastReplay; }
    QString replaySummary() const;
    /** Points drawn on the queries chart: {with the filter, without}. */
    QPair<int, int> chartPoints() const;
    void setControlsEnabled(bool on);

signals:
    void replayFinished();

private:
    void onProgress(const ReplayPoint &p);
    void onReplayFinished(const ReplayResult &r);
    void onFailed(ShardTask task, const Error &e);

    ShardSession *mSession;
    bool mReplayDone = false;
    ReplayResult mLastReplay;

    QSpinBox *mReplayNames = nullptr;
    QSpinBox *mTakenPercent = nullptr;
    QSpinBox *mTypingMs = nullptr;
    QSpinBox *mReplayDebounce = nullptr;
    QPushButton *mReplayButton = nullptr;
    QPushButton *mCancelButton = nullptr;
    QProgressBar *mProgress = nullptr;
    QLabel *mReplayLine = nullptr;
    QLineSeries *mWith = nullptr;
    QLineSeries *mWithout = nullptr;
    QValueAxis *mNamesAxis = nullptr;
    QLogValueAxis *mQueriesAxis = nullptr;
    QBarSet *mLatencyWith = nullptr;
    QBarSet *mLatencyWithout = nullptr;
    QValueAxis *mLatencyAxis = nullptr;
};

} // namespace bloom
