#pragma once

#include "maintenance/rebuild.h"

#include <QObject>

class QAction;
class QMainWindow;
class QMenu;

namespace bloom {

class FilterSession;
class StatusLabel;
struct Error;
struct FilterSummary;

/**
 * The window's Admin menu: admin mode, add a name, load a file, sample the measured FPR, rebuild, swap
 * and the old filters. Every write is confirmed with the table, the rows and the exact SQL. Each
 * request's handlers live in an object that goes with its progress dialog (or with the answer), and
 * take only the answer carrying their own token, so a failure elsewhere never closes this request's
 * dialog, and nothing outlives what it shows.
 */
class AdminActions : public QObject {
    Q_OBJECT
public:
    AdminActions(FilterSession *session, QMainWindow *window, StatusLabel *status);

    /** Fills the Admin menu; `record` (the history's) goes between the sample and the rebuild. */
    void populate(QMenu *menu, QAction *record);
    bool adminMode() const { return mAdmin; }
    /** The actions that write, enabled in admin mode only. */
    const QList<QAction *> &writeActions() const { return mWriteActions; }
    /** The session (re)opened: read-only or not, as the server granted. */
    void sessionOpened(const FilterSummary &summary);
    /** A connect failed while a session was open: the menu says what the session still is. */
    void sessionKept(bool readOnly);
    /** What the last refresh knew: the estimated names (the wizard sizes from them) and a rebuild of
     *  the filter (quitting says what stays behind). */
    void setLastRefresh(double estimatedNames, const RebuildState &rebuild);
    void setProduction(bool production) { mProduction = production; }

    /** Asks before the window closes when quitting would stop a rebuild, a swap, a load or a sample of
     *  this window's, or leave a rebuilt filter waiting for its swap; false: stay. Stops what it said. */
    bool confirmQuit();

public slots:
    void setAdminMode(bool on);
    void addName();
    void loadFile();
    void loadPath(const QString &path); ///< loadFile() once the file is chosen
    void sampleFpr();
    void sample(qint64 probes); ///< sampleFpr() once the number is chosen
    void openRebuild();
    void openSwap();
    void openOldFilters();
    /** Admin > Abort the rebuild: what bloomctl rebuild --abort does, confirmed first. */
    void abortRebuild();

signals:
    /** Admin > Add a name wrote it (the status bar says so). */
    void nameAdded(const QString &name);
    /** A swap from the window made another pair the live one. */
    void swapped();
    /** A rebuild from the wizard finished: its table waits for the swap. */
    void rebuilt(const QString &table);

private:
    bool confirmWrite(const QString &what, const QString &sql);
    /** A failure's box: a Cancel the user asked for is said as such, not as a failure. */
    void reportFailure(const QString &what, const Error &e);

    FilterSession *mSession;
    QMainWindow *mWindow;
    StatusLabel *mStatus;
    bool mAdmin = false;
    bool mProduction = false;
    double mLastNames = 0;
    RebuildState mRebuild;
    QAction *mAdminAction = nullptr;
    QAction *mSampleAction = nullptr;
    QList<QAction *> mWriteActions;
};

} // namespace bloom
