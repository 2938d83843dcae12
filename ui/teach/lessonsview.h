#pragma once

#include "teach/lessons.h"

#include <QWidget>

#include <optional>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QListWidget;
class QLogValueAxis;
class QPushButton;
class QScatterSeries;
class QStackedWidget;
class QValueAxis;

namespace bloom {

class BitGridWidget;

/**
 * Lessons on the class's own filter (the state the timeline is at): find a false positive among
 * candidate names, with the fewest names that explain it; delete a name from a plain filter (another
 * name turns "definitely not": a false negative) and from a counting filter (which keeps it); the
 * theory beside the practice (FPR against n with the class's point, the best k, half the bits set).
 */
class LessonsView : public QWidget {
    Q_OBJECT
public:
    enum Lesson { FindFalsePositive, DeleteName, Theory };
    explicit LessonsView(QWidget *parent = nullptr);

    /** The class's filter, as the timeline has it now. */
    void setFilter(const SandboxFilter &f);
    void showLesson(Lesson lesson);

    /** Runs the search; the result shows. */
    void findFalsePositive();
    /** Deletes `name` (empty: the one that does the most harm) from a plain, or a counting, filter. */
    void deleteName(const QByteArray &name, bool counting);

    const std::optional<lessons::FoundFalsePositive> &found() const { return mFound; }
    const std::optional<lessons::Deletion> &deletion() const { return mDeletion; }
    QString text() const; ///< the lesson's words, plain
    BitGridWidget *grid() const { return mGrid; }
    void setPresentation(bool on);

signals:
    /** "Check it in the timeline": the teacher wants the class to see it happen. */
    void checkInTimeline(const QString &name);
    /** "Add ... for the class": a name that shares a bit with one of the class's. */
    void addInTimeline(const QString &name);

private:
    /** When no deletion harms anyone: why, and the name that would (empty otherwise). */
    QString sharingHint() const;
    void refresh();
    void showDeletion(bool counting);
    void drawTheory();

    std::optional<SandboxFilter> mFilter;
    std::optional<lessons::FoundFalsePositive> mFound;
    std::optional<lessons::Deletion> mDeletion;
    std::optional<SandboxFilter> mShown; ///< what the grid draws

    QComboBox *mPicker = nullptr;
    QStackedWidget *mPages = nullptr;
    QLabel *mText = nullptr;
    BitGridWidget *mGrid = nullptr;
    QListWidget *mChecks = nullptr;
    QPushButton *mSearch = nullptr;
    QPushButton *mCheckIt = nullptr;
    QComboBox *mVictim = nullptr;
    QPushButton *mPlain = nullptr;
    QPushButton *mCounting = nullptr;
    QPushButton *mShare = nullptr;
    QByteArray mSharing, mSharingWith; ///< a name that would share a bit, and with whom
    quint64 mSharingBit = 0;
    QChartView *mChartView = nullptr;
    QLineSeries *mModel = nullptr;
    QLineSeries *mBest = nullptr;
    QLineSeries *mHalf = nullptr;
    QScatterSeries *mClass = nullptr;
    QValueAxis *mNAxis = nullptr;
    QLogValueAxis *mFprAxis = nullptr;
};

} // namespace bloom
