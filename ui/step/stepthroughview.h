#pragma once

#include "session/sessiontypes.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace bloom {

class ChunkGridWidget;
class FilterSession;

/**
 * A name, one step at a time, as the reference text explains it: lowercase, md5, the 128 bits cut
 * into the chunk and k slices, the chunk row from the database, the k bits inside it,
 * `row & mask = mask`, and the verdict. Updates as the user types; database steps run on the session.
 */
class StepThroughView : public QWidget {
    Q_OBJECT
public:
    enum Step { Lowercase, Md5, HashBits, ChunkRow, ChunkBits, AndMask, Verdict, StepCount };

    explicit StepThroughView(QWidget *parent = nullptr);
    /** The name field's limit (bench_step: a keystroke stays under 16 ms up to it). A longer paste is
     *  cut there, the view says so and shows no verdict: it would be the cut name's, not the one pasted. */
    static constexpr int MaxFieldCharacters = 65536;
    /** The length of the name that was cut to the field's limit (0: the field holds what was typed). */
    qsizetype cutFrom() const { return mCutFrom; }

    void setSession(FilterSession *session);
    void setName(const QString &name);
    QString name() const;
    void setStep(int step);
    int step() const { return mStep; }
    static QString stepTitle(int step);

    /** The verdict as shown ("definitely free" / "maybe taken"), empty until the database answered
     *  and empty when it could not (the chunk's row is NULL or missing). */
    QString verdictText() const;
    bool hasResult() const { return mHaveResult; }
    /** Why the chunk's row could not be read (a NULL or missing row: a damaged filter), shown in place
     *  of step 4 and of any verdict; empty otherwise. */
    const QString &rowError() const { return mRowError; }
    /** The database answered the name: a result, or the error that stands in its place. */
    bool answered() const { return mHaveResult || !mRowError.isEmpty() || mDbFailed; }
    const StepResult &result() const { return mResult; }
    QString text() const; ///< the steps' text as shown (for tests)

signals:
    void resultReady();
    /** The database could not answer the name (resultReady's counterpart; the view shows why). */
    void failedToAnswer();

protected:
    void keyPressEvent(QKeyEvent *) override;

private:
    void nameEdited();
    void render();
    QString stepHtml(int step) const;

    FilterSession *mSession = nullptr;
    QLineEdit *mName = nullptr;
    QPushButton *mBack = nullptr;
    QPushButton *mNext = nullptr;
    QLabel *mTitle = nullptr;
    QTextBrowser *mText = nullptr;
    ChunkGridWidget *mGrid = nullptr;
    QLabel *mVerdict = nullptr;
    QTimer *mDebounce = nullptr;
    int mStep = Verdict;
    Explanation mOffline;
    StepResult mResult;
    bool mHaveResult = false;
    QString mError;
    QString mRowError;
    bool mDbFailed = false;
    qsizetype mCutFrom = 0;
    QString mCutText; ///< what the field held once cut: any edit after it is a name of its own
};

} // namespace bloom
