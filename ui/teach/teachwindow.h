#pragma once

#include "common/result.h"
#include "teach/timeline.h"

#include <QMainWindow>

class QAction;
class QDockWidget;
class QHostAddress;
class QTabWidget;
class QUrl;

namespace bloom {

class BitGridWidget;
class ClassJoinPanel;
class ClassJoinServer;
class CompareView;
class LessonsView;
class ManualWindow;
class StatusLabel;
class StepPage;

/**
 * Teaching mode (`bloomscope --teach`): an in-memory filter, no database. Add and check names and
 * watch each step: hash, positions, bits, verdict; false positives are explained by the names that
 * set their bits. Every add and check is an entry of one timeline the teacher can pause, step back
 * through and jump in. Opens on the reference's own example (m = 16, k = 3). F11: presentation mode.
 */
class TeachWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit TeachWindow(QWidget *parent = nullptr);
    ~TeachWindow() override;

    using Action = Timeline::Action;

    /** A new empty filter of the scheme and size in the controls (no question asked). */
    bool newFilter();
    /** m = 16, k = 3; add ada and grace; check ada, alan and bjarne (no question asked). */
    void playReferenceExample();
    /** Appends an add or check to the timeline; false (and the reason shown) for a name the core rule refuses. */
    bool enqueue(Action action, const QString &name);
    /** Milliseconds a step of the animation lasts (0: no animation). */
    void setStepMs(int ms);
    bool idle() const;
    void showCompare();
    void showLessons();
    /** Larger type and bits, the filter's controls, menus and status bar hidden, the whole screen. */
    void setPresentation(bool on);
    /** Help > Contents (F1): the manual, with this window's shortcuts. */
    void showManual();
    ManualWindow *manualWindow() const { return mManual; }
    bool presentation() const { return mPresentation; }

    const SandboxFilter &filter() const;
    /** Entries in the timeline. */
    qsizetype timelineSize() const;
    QStringList logLines() const;
    /** Log rows that are false positives (highlighted). */
    QList<int> falsePositiveRows() const;
    QString hashText() const; ///< the hash panel as plain text
    BitGridWidget *grid() const;
    StepPage *stepPage() const { return mStep; }
    CompareView *compareView() const { return mCompare; }
    LessonsView *lessonsView() const { return mLessons; }

    bool saveSession(const QString &path, QString *error);
    bool openSession(const QString &path, QString *error);
    bool exportPicture(const QString &path);
    /** The hash lines, the bit array and the verdict as .svg, .pdf or .png. */
    bool exportSlide(const QString &path, QString *error);
    /** The timeline as a CSV table. */
    bool exportLog(const QString &path, QString *error);

    /** Teaching > Let the class join: the class's page on `address`:`port` (0: a free port), its QR code
     *  and address on the window (in presentation mode too); with `approval`, each name waits for the
     *  lecturer (ClassJoinQueue). Returns the join URL. Stops with the window. */
    Result<QUrl> startClassJoin(const QHostAddress &address, quint16 port, bool approval);
    void stopClassJoin();
    ClassJoinServer *classJoin() const { return mJoin; }
    ClassJoinPanel *classJoinPanel() const { return mJoinPanel; }

signals:
    void idleNow();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void updateStatus();
    void switchTab(int index);
    void chooseSave();
    void chooseOpen();
    void chooseExport();
    void chooseSlide();
    void chooseLog();
    void chooseClassJoin();

    bool mPresentation = false;
    bool mShownOnce = false;
    QFont mBaseFont;
    QRect mNormalGeometry;

    QTabWidget *mTabs = nullptr;
    StepPage *mStep = nullptr;
    CompareView *mCompare = nullptr;
    LessonsView *mLessons = nullptr;
    StatusLabel *mStatus = nullptr;
    QAction *mPresentAction = nullptr;
    ManualWindow *mManual = nullptr;
    ClassJoinServer *mJoin = nullptr;
    ClassJoinPanel *mJoinPanel = nullptr;
    QDockWidget *mJoinDock = nullptr;
};

} // namespace bloom
