#pragma once

#include "maintenance/rebuild.h"
#include "postgres/connectionspec.h"
#include "session/sessiontypes.h"

#include <QDialog>

#include <atomic>
#include <memory>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace bloom {

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
    std::shared_ptr<std::atomic<bool>> mCancelFlag = std::make_shared<std::atomic<bool>>(false);
    QString mRebuilt;
    bool mRunning = false;
};

} // namespace bloom
