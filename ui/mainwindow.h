#pragma once

#include "connect/profile.h"
#include "session/sessiontypes.h"
#include "shards/shardmap.h"

#include <QMainWindow>

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTimer;

namespace bloom {

class AdminActions;
class ChunkGridWidget;
class ChunkTab;
class ConnectDialog;
class DamageBanner;
class DemoRunner;
class FilterSession;
class FprView;
class HeatmapLegend;
class HeatmapTab;
class HeatmapWidget;
class HistoryController;
class ManualWindow;
class RebuildBanner;
class RefreshPacer;
class SessionBanner;
class ShardSession;
class StatusLabel;
class StepThroughView;
class TypingView;

/**
 * Bloomscope's window: the heatmap of chunk fill, the FPR curve, the step-through of a name and one
 * chunk's bits, over a FilterSession. Read-only unless admin mode is switched on. The Admin menu
 * (AdminActions), the history (HistoryController) and the refresh pace (RefreshPacer) are objects it
 * owns.
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
    /** Help > Contents (F1): the manual's window, made on first use. */
    void showManual();
    /** The manual's window once Help > Contents opened it, else null. */
    ManualWindow *manualWindow() const { return mManual; }
    void showChunk(quint32 chunk);
    /** Whether closing saves the window's size and position and opening restores them (QSettings
     *  "window/geometry"); off for --screenshot, whose window has a fixed size. */
    void setRemembersGeometry(bool on) { mRememberGeometry = on; }

    FilterSession *session() const { return mSession; }
    HeatmapWidget *heatmap() const;
    HeatmapLegend *legend() const;
    FprView *fprView() const { return mFpr; }
    StepThroughView *stepView() const { return mStep; }
    ChunkGridWidget *chunkView() const;
    TypingView *typingView() const { return mTyping; }
    ShardSession *shardSession() const { return mShards; }
    AdminActions *adminActions() const { return mAdminActions; }
    HistoryController *history() const { return mHistory; }
    RefreshPacer *pacer() const { return mPacer; }
    QTimer *refreshTimer() const;
    /** The interval the timer runs at now: the one set, or longer while the filter is idle. */
    int effectiveIntervalSeconds() const;
    int refreshCount() const { return mRefreshes; }
    QString statusText() const;
    QString chunkText() const;
    /** File > Connect's dialog, wired to this window (not shown); the caller owns it. */
    ConnectDialog *makeConnectDialog();
    /** The heatmap's "written since" chooser: 0 is the last refresh, then the snapshots, newest first. */
    QComboBox *sinceChooser() const;
    /** Reads the history again now (the FPR tab's chart and the chooser follow). */
    void reloadHistory();
    /** The environment banner's text ("PRODUCTION \u2014 name \u2014 table on where \u2014 read-only"). */
    QString bannerText() const;
    /** The damaged-filter banner's text while a chunk row is NULL or missing; empty otherwise. */
    QString damageText() const;
    /** Help > About's text: the version, Qt, libpq and the server. */
    QString aboutText() const;
    /** File > Export: the heatmap (one cell a chunk, scaled up, with its title and colour scale), the
     *  fill of every chunk, the FPR chart and the FPR measured since the window opened. */
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

protected:
    /** Asks first when quitting would stop something of this window's or leave a rebuild waiting
     *  (AdminActions::confirmQuit); saves the geometry when it closes. */
    void closeEvent(QCloseEvent *e) override;

private:
    void buildMenus();
    void buildToolbar();
    void opened(const FilterSummary &s);
    void onRefreshed(const FillResult &r);
    void onFailed(Operation operation, const Error &e, bool lost);
    void onOpenFailed(const Error &e);
    void showAbout();
    void reportExport(const QString &path, const Status &s);
    void updateTitle();
    void showConnectDialog();
    void openShards();
    void chooseShardMap();
    void restoreWindowGeometry();

    FilterSession *mSession = nullptr;
    AdminActions *mAdminActions = nullptr;
    HistoryController *mHistory = nullptr;
    RefreshPacer *mPacer = nullptr;
    ShardSession *mShards = nullptr;
    TypingView *mTyping = nullptr;
    QString mShardMapPath;
    ShardMap mShardMap; ///< as read from mShardMapPath
    bool mFilterOpen = false;
    DemoRunner *mDemo = nullptr;
    RebuildBanner *mRebuildBanner = nullptr;
    DamageBanner *mDamageBanner = nullptr;
    ManualWindow *mManual = nullptr;
    Profile mProfile;                ///< of the open session
    QList<Profile> mPendingProfiles; ///< of the connects not answered yet, oldest first
    int mRefreshes = 0;
    bool mRememberGeometry = true;

    QTabWidget *mTabs = nullptr;
    SessionBanner *mBanner = nullptr;
    HeatmapTab *mHeatTab = nullptr;
    FprView *mFpr = nullptr;
    StepThroughView *mStep = nullptr;
    ChunkTab *mChunkTab = nullptr;
    StatusLabel *mStatus = nullptr;
    QSpinBox *mInterval = nullptr;
    QCheckBox *mPause = nullptr;
    QCheckBox *mAdapt = nullptr;
    /** The server's role at the last refresh (a standby's replay lag); none before the session's first. */
    std::optional<ServerRole> mRole;
    QList<QAction *> mExportActions;
};

} // namespace bloom
