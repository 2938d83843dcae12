#pragma once

#include "teach/sandbox.h"

#include <QMainWindow>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSlider;
class QSpinBox;
class QTabWidget;
class QTimer;

namespace bloom {

class BitGridWidget;
class CompareView;
class StatusLabel;

/**
 * Teaching mode (`bloomscope --teach`): an in-memory filter, no database. Add and check names and
 * watch each step: hash, positions, bits, verdict; false positives are explained by the names that
 * set their bits. Opens on the reference's own example (m = 16, k = 3).
 */
class TeachWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit TeachWindow(QWidget *parent = nullptr);
    ~TeachWindow() override;

    enum class Action { Add, Check };

    /** A new empty filter of the scheme and size in the controls. */
    bool newFilter();
    /** m = 16, k = 3; add ada and grace; check ada, alan and bjarne. */
    void playReferenceExample();
    /** Queues an add or check; false (and the reason shown) for a name the core rule refuses. */
    bool enqueue(Action action, const QString &name);
    /** Milliseconds a step of the animation lasts (0: no animation). */
    void setStepMs(int ms);
    bool idle() const;
    void showCompare();

    const SandboxFilter &filter() const { return *mFilter; }
    QStringList logLines() const;
    /** Log rows that are false positives (highlighted). */
    QList<int> falsePositiveRows() const;
    QString hashText() const; ///< the hash panel as plain text
    BitGridWidget *grid() const { return mGrid; }
    CompareView *compareView() const { return mCompare; }

    bool saveSession(const QString &path, QString *error);
    bool openSession(const QString &path, QString *error);
    bool exportPicture(const QString &path);

signals:
    void idleNow();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Op {
        Action action;
        QByteArray name;
        SandboxFilter::Trace trace;
        int phase = 0;
    };

    void startNext();
    void advance();
    void render();
    void finishOp();
    void configureControls();
    void updateStatus();
    void chooseSave();
    void chooseOpen();
    void chooseExport();

    std::optional<SandboxFilter> mFilter;
    QList<Op> mQueue;
    std::optional<Op> mCurrent;
    QTimer *mTimer = nullptr;
    int mStepMs = 450;

    QTabWidget *mTabs = nullptr;
    QComboBox *mScheme = nullptr;
    QSpinBox *mBits = nullptr;
    QSpinBox *mChunks = nullptr;
    QComboBox *mChunkBits = nullptr;
    QSpinBox *mK = nullptr;
    QLineEdit *mName = nullptr;
    QPushButton *mAdd = nullptr;
    QPushButton *mCheck = nullptr;
    QSlider *mSpeed = nullptr;
    QLabel *mHash = nullptr;
    QLabel *mVerdict = nullptr;
    StatusLabel *mStatus = nullptr;
    BitGridWidget *mGrid = nullptr;
    QListWidget *mLog = nullptr;
    CompareView *mCompare = nullptr;
};

} // namespace bloom
