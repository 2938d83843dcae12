#pragma once

#include "connect/profile.h"
#include "session/sessiontypes.h"
#include "shards/shardmap.h"

#include <QMainWindow>

#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTimer;

namespace bloom {

class ChunkGridWidget;
class ConnectDialog;
class DemoRunner;
class FilterSession;
class FprView;
class HeatmapLegend;
class HeatmapWidget;
class ShardSession;
class SkewChart;
class StatusLabel;
class StepThroughView;
class TypingView;

/**
 * Bloomscope's window: the heatmap of chunk fill, the FPR curve, the step-through of a name and one
 * chunk's bits, over a FilterSession. Read-only unless admin mode is switched on.
 */
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void connectTo(const ConnectionSpec &spec, const FilterRef &ref, const Profile &profile = {});
    /** The demo database; with shards > 0 also shard databases, opened in the Shards view; with a
     *  traffic rate, names keep arriving and snapshots are recorded on a clock `clockFactor` times fast. */
    void startDemo(qint64 names, int shards = 0, double trafficRate = 0, double clockFactor = 3600);
    /** The shards behind the filter, for the Shards view; false (with the reason shown) on a bad file. */
    bool setShardMap(const QString &path);
    /** "heatmap", "fpr", "step", "chunk" or "shards"; false for another word. */
    bool showView(const QString &view);
    void setRefreshInterval(int seconds);
    void showChunk(quint32 chunk);

    FilterSession *session() const { return mSession; }
    HeatmapWidget *heatmap() const { return mHeatmap; }
    FprView *fprView() const { return mFpr; }
    StepThroughView *stepView() const { return mStep; }
    ChunkGridWidget *chunkView() const { return mChunk; }
    TypingView *typingView() const { return mTyping; }
    ShardSession *shardSession() const { return mShards; }
    QTimer *refreshTimer() const { return mTimer; }
    /** The interval the timer runs at now: the one set, or longer while the filter is idle. */
    int effectiveIntervalSeconds() const;
    int refreshCount() const { return mRefreshes; }
    QString statusText() const;
    /** File > Connect's dialog, wired to this window (not shown); the caller owns it. */
    ConnectDialog *makeConnectDialog();
    /** The heatmap's "written since" chooser: 0 is the last refresh, then the snapshots, newest first. */
    QComboBox *sinceChooser() const { return mSince; }
    /** Reads the history again now (the FPR tab's chart and the chooser follow). */
    void reloadHistory();
    /** The environment banner's text ("PRODUCTION \u2014 name \u2014 table on where \u2014 read-only"). */
    QString bannerText() const;
    /** The damaged-filter banner's text while a chunk row is NULL or missing; empty otherwise. */
    QString damageText() const;
    /** Help > About's text: the version, Qt, libpq and the server. */
    QString aboutText() const;
    /** File > Export: the heatmap (one cell a chunk, scaled up), the fill of every chunk, the FPR chart
     *  and the FPR measured since the window opened. */
    Status exportHeatmapPng(const QString &path) const;
    Status exportFillCsv(const QString &path) const;
    Status exportFprPng(const QString &path) const;
    Status exportFprCsv(const QString &path) const;

signals:
    void refreshed();
    void failedToStart(const QString &why);
    /** A connection the window has nothing else to show for could not be opened (the status bar says why). */
    void openFailed(const QString &why);
    /** Admin > Add a name wrote it (the status bar says so). */
    void nameAdded(const QString &name);

private:
    void buildMenus();
    void opened(const FilterSummary &s);
    void onRefreshed(const FillResult &r);
    void onFailed(Operation operation, const Error &e, bool lost);
    void onOpenFailed(const Error &e);
    void showAbout();
    void reportExport(const QString &path, const Status &s);
    void updateTitle();
    void showConnectDialog();
    void setAdminMode(bool on);
    void addName();
    void loadFile();
    void sampleFpr();
    bool confirmWrite(const QString &what, const QString &sql);
    void openRebuild();
    void openSwap();
    void openShards();
    void chooseShardMap();
    // History (fpr/mainwindow_history.cpp): the FPR tab's snapshots and the heatmap's "written since".
    QWidget *makeSinceChooser(QWidget *parent);
    void historyOpened();
    void historyRefreshed(const FillResult &r);
    void onHistory(const HistoryResult &r);
    void onChangedSince(const ChangedSince &r);
    void recordSnapshot();

    FilterSession *mSession = nullptr;
    ShardSession *mShards = nullptr;
    TypingView *mTyping = nullptr;
    QString mShardMapPath;
    ShardMap mShardMap; ///< as read from mShardMapPath
    bool mFilterOpen = false;
    DemoRunner *mDemo = nullptr;
    QLabel *mRebuildBanner = nullptr;
    QLabel *mDamageBanner = nullptr; ///< red while a chunk row is NULL or missing, with the fix
    Profile mProfile;                ///< of the open session
    QList<Profile> mPendingProfiles; ///< of the connects not answered yet, oldest first
    bool mAdmin = false;
    int mRefreshes = 0;
    double mLastNames = 0;

    QTabWidget *mTabs = nullptr;
    QLabel *mBanner = nullptr;
    HeatmapWidget *mHeatmap = nullptr;
    HeatmapLegend *mLegend = nullptr;
    QLabel *mSummary = nullptr;
    QLabel *mHover = nullptr;
    SkewChart *mSkew = nullptr;
    FprView *mFpr = nullptr;
    StepThroughView *mStep = nullptr;
    ChunkGridWidget *mChunk = nullptr;
    QLabel *mChunkLabel = nullptr;
    QSpinBox *mChunkNumber = nullptr;
    QComboBox *mScaleMode = nullptr;
    QComboBox *mSince = nullptr; ///< "written since": the last refresh, or a recorded snapshot
    qint64 mHistoryAskedAtMs = 0;
    StatusLabel *mStatus = nullptr;
    QSpinBox *mInterval = nullptr;
    QCheckBox *mPause = nullptr;
    QCheckBox *mAdapt = nullptr;
    QTimer *mTimer = nullptr;
    int mIdleRefreshes = 0; ///< refreshes in a row that found nothing written
    /** The server's role at the last refresh (a standby's replay lag); none before the session's first. */
    std::optional<ServerRole> mRole;
    QAction *mAdminAction = nullptr;
    QList<QAction *> mWriteActions;
    QList<QAction *> mExportActions;
};

} // namespace bloom
