#pragma once

#include "teach/teachexport.h"
#include "teach/timeline.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSlider;
class QSpinBox;
class QSplitter;
class QToolButton;

namespace bloom {

class BitGridWidget;
class TimelinePlayer;

/**
 * "One filter, step by step": the class's filter and its timeline. The controls (scheme, m or the
 * chunks, k) are always the filter on screen: a change rebuilds it from the timeline at once. Names
 * go into the timeline (Enter adds, Ctrl+Enter checks), the animation plays it, and the transport
 * (Start, Back, Play/Pause, Forward, End; a click on a log line) moves through it.
 */
class StepPage : public QWidget {
    Q_OBJECT
public:
    explicit StepPage(QWidget *parent = nullptr);

    TimelinePlayer *player() const { return mPlayer; }
    /** The filter on screen. */
    const SandboxFilter &filter() const;
    QLineEdit *nameField() const { return mName; }
    BitGridWidget *grid() const { return mGrid; }
    /** What a slide shows: the timeline's position, the hash lines, the grid and the verdict. */
    teachexport::Slide slide() const;

    /** An empty timeline in a filter of the controls' scheme and size (asks first when it holds names). */
    bool newFilter(bool ask);
    /** m = 16, k = 3, classic; add ada and grace; check ada, alan and bjarne. Asks before it discards
     *  the class's entries; false when the teacher says no. */
    bool playReferenceExample(bool ask);
    /** Appends to the timeline; false (and the reason shown) for a name the core rule refuses. */
    bool enqueue(Timeline::Action action, const QString &name, Timeline::Origin origin = Timeline::Origin::Class);
    /** Removes entry `index` (a mistyped name): the later entries stay, every verdict asked again. */
    bool removeEntry(qsizetype index);
    /** A saved timeline, at rest after `position` entries; the controls follow its filter. */
    void setTimeline(const Timeline &timeline, qsizetype position);
    /** Every entry so far (the class's included), whatever the animation shows now. */
    const Timeline &timeline() const;
    void setStepMs(int ms);
    bool idle() const;
    void setPresentation(bool on);

    /** The log's lines of the entries done. */
    QStringList logLines() const;
    QList<int> falsePositiveRows() const;
    QString hashText() const;
    /** Every entry as a table row: step, action, name, origin, hashed, chunk, bits, verdict, line. */
    QList<QStringList> logTable() const;
    /** One line for the status bar. */
    QString statusText() const;

signals:
    void statusChanged();
    void idleNow();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    Result<SandboxFilter> filterFromControls() const;
    void applyControls();
    void syncControls();
    void configureControls();
    void render();
    void renderLog();
    int classEntries() const;
    bool confirmDiscard(const QString &title, const QString &question);

    TimelinePlayer *mPlayer = nullptr;
    bool mSyncing = false;
    bool mPresentation = false;
    bool mResizing = false;
    QString mNote; ///< said once above the hash lines (a rebuild, an error)
    mutable QString mStatusKey;
    mutable QString mStatusCache;

    QWidget *mFilterBar = nullptr;
    QComboBox *mScheme = nullptr;
    QSpinBox *mBits = nullptr;
    QComboBox *mChunks = nullptr;
    QComboBox *mChunkBits = nullptr;
    QSpinBox *mK = nullptr;
    QLineEdit *mName = nullptr;
    QPushButton *mAdd = nullptr;
    QPushButton *mCheck = nullptr;
    QToolButton *mStart = nullptr;
    QToolButton *mBack = nullptr;
    QToolButton *mPlay = nullptr;
    QToolButton *mForward = nullptr;
    QToolButton *mEnd = nullptr;
    QLabel *mWhere = nullptr;
    QWidget *mSpeedBox = nullptr;
    QSlider *mSpeed = nullptr;
    QLabel *mNoteLabel = nullptr;
    QLabel *mHash = nullptr;
    QLabel *mVerdict = nullptr;
    BitGridWidget *mGrid = nullptr;
    QWidget *mSlide = nullptr;
    QLabel *mLogTitle = nullptr;
    QListWidget *mLog = nullptr;
    QSplitter *mSplit = nullptr;
};

} // namespace bloom
