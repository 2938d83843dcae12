#pragma once

#include "maintenance/rebuild.h"
#include "postgres/connectionspec.h"
#include "session/sessiontypes.h"

#include <QDialog>

#include <atomic>
#include <memory>

class QCheckBox;
class QCloseEvent;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace bloom {

class OffThread;

/**
 * The rebuild wizard: sources, sizing from the FPR model for the expected growth, a preview of the
 * FPR before and after, then the rebuild on a worker thread with its own connection, progress per
 * stage and cancel.
 */
class RebuildDialog : public QDialog {
    Q_OBJECT
public:
    RebuildDialog(const ConnectionSpec &filterSpec, const FilterSummary &live, double estimatedNames,
                  QWidget *parent = nullptr);
    ~RebuildDialog() override;

    RebuildOptions options() const;
    QString previewText() const;
    /** The table a finished rebuild produced (empty until then). */
    QString rebuiltTable() const { return mRebuilt; }
    /** Starts the rebuild (as the Start button does). */
    void start();
    void setSources(const QStringList &conninfos, const QString &file);

    /** Shown when the geometry is smaller than the live one: ticking it is the explicit confirmation. */
    QCheckBox *allowSmaller() const { return mAllowSmaller; }
    /** Shown once a publication refused the rebuild: ticking it says the subscribers ran the SQL shown. */
    QCheckBox *publicationOk() const { return mPublicationOk; }
    QPushButton *startButton() const { return mStart; }
    QString stageText() const;
    /** The fix of a publication's refusal (the subscribers' SQL), or the subscribers' steps after it. */
    QString subscriberText() const;
    /** A rebuild runs now (from Start to its end, a cancel included). */
    bool isRunning() const { return mRunning; }
    /** The table a running rebuild builds. */
    QString buildingTable() const { return mBuilding; }
    /** Cancels a running rebuild and waits until it has put the live filter back (quitting). */
    void cancelAndWait();

public slots:
    /** Every way out (Close, Escape, the window's X, accept and reject) comes here: while a rebuild
     *  runs the wizard asks whether to cancel it and closes only once it has ended. */
    void done(int result) override;

signals:
    void finished(const QString &table);
    /** After a rebuild: the user chose "Swap now...". */
    void swapRequested(const QString &table);

private:
    void recommend();
    void updatePreview();
    ConnectionSpec mSpec;
    FilterSummary mLive;
    double mNames;
    QPlainTextEdit *mSources = nullptr;
    QLineEdit *mQuery = nullptr, *mFile = nullptr, *mInto = nullptr;
    QDoubleSpinBox *mExpected = nullptr, *mTarget = nullptr;
    QSpinBox *mChunksLog2 = nullptr, *mBitsLog2 = nullptr, *mK = nullptr;
    QLabel *mPreview = nullptr, *mStage = nullptr;
    QProgressBar *mProgress = nullptr;
    QPushButton *mStart = nullptr, *mCancel = nullptr;
    QCheckBox *mAllowSmaller = nullptr;
    QCheckBox *mPublicationOk = nullptr;
    QPlainTextEdit *mSubscriberSql = nullptr; ///< a publication's refusal: the fix, with the subscribers' SQL
    OffThread *mJob = nullptr;
    QString mRebuilt;
    QString mBuilding;
    bool mRunning = false;
    bool mCloseWhenDone = false; ///< asked to close while running: closes once the cancel has ended it
    int mCloseResult = 0;
};

} // namespace bloom
