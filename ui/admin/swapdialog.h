#pragma once

#include "maintenance/rebuild.h"
#include "postgres/connectionspec.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;

namespace bloom {

class OffThread;

/**
 * The swap: the guard's findings first (both filters' estimated names, what the rebuild read from
 * each source, the audit of the new table, what is carried over and what cannot be), the exact SQL,
 * then a confirmation that defaults to Cancel. A refused swap stays refused until the DBA says why
 * it is right (the names were deleted; what cannot be carried will be re-created by hand).
 */
class SwapDialog : public QDialog {
    Q_OBJECT
public:
    SwapDialog(const ConnectionSpec &filterSpec, const FilterRef &live, QWidget *parent = nullptr);
    /** On a profile marked production the swap also asks to type the live table's name. */
    void setProduction(bool production);
    /** The field for the typed name (visible on production only). */
    QLineEdit *typedName() const { return mTypedName; }
    QString comparisonText() const;
    QString verdictText() const;
    QString resultText() const;
    bool readyToSwap() const;
    /** The check box that overrides a "fewer names" refusal. */
    QCheckBox *allowFewerNames() const { return mAllowFewer; }
    /** The check box that says every subscriber is ready to follow the swap (a published filter). */
    QCheckBox *publicationOk() const { return mPublicationOk; }
    /** The confirmation the Swap button shows (Cancel is its default button). */
    QMessageBox *confirmation();
    /** Swaps without asking again (the button asks first). */
    void swapNow();
    bool isSwapping() const { return mSwapping; }
    ~SwapDialog() override;

public slots:
    /** While the swap's transaction runs the dialog stays (it says why); a check still running is
     *  cancelled and its thread joined before the dialog goes. */
    void done(int result) override;

signals:
    void swapped(const bloom::SwapReport &report);
    void checked();

private:
    SwapOptions options() const;
    void updateVerdict();

    ConnectionSpec mSpec;
    FilterRef mLive;
    std::optional<SwapCheck> mCheck;
    QLabel *mComparison = nullptr;
    QLabel *mCarried = nullptr;
    QLabel *mVerdict = nullptr;
    QLabel *mResult = nullptr;
    QCheckBox *mAllowFewer = nullptr;
    QCheckBox *mAcceptUncarried = nullptr;
    QCheckBox *mPublicationOk = nullptr;
    QPlainTextEdit *mSql = nullptr;
    QPushButton *mSwap = nullptr;
    QPushButton *mCancelSwap = nullptr; ///< shown while the swap runs (it may wait for its lock)
    bool mSwapping = false;
    OffThread *mJob = nullptr;
    bool mProduction = false;
    QLineEdit *mTypedName = nullptr;
    QLabel *mTypedLabel = nullptr;
};

} // namespace bloom
