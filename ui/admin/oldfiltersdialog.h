#pragma once

#include "maintenance/rebuild.h"
#include "postgres/connectionspec.h"

#include <QDialog>

#include <optional>

class QLabel;
class QMessageBox;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace bloom {

class OffThread;

/**
 * Admin > Old filters: the old pairs the swaps of the live filter recorded (bloomscope_swapped) and
 * kept under dated names, with their sizes and ages, and the SQL that drops them; Drop asks with that
 * SQL and runs exactly what `bloomctl drop-old` runs (Rebuilder::dropOld). Reads and the drop run on a
 * thread of the dialog's, joined before it goes.
 */
class OldFiltersDialog : public QDialog {
    Q_OBJECT
public:
    OldFiltersDialog(const ConnectionSpec &spec, const FilterRef &live, QWidget *parent = nullptr);
    ~OldFiltersDialog() override;

    /** Reads the list again. */
    void reload();
    /** What was found (empty until the first read). */
    const std::optional<OldPairs> &found() const { return mFound; }
    QString summaryText() const;
    QString sqlText() const;
    QTreeWidget *list() const { return mList; }
    QPushButton *dropButton() const { return mDrop; }
    /** The confirmation the Drop button shows (Cancel is its default): the pairs, the bytes, the SQL. */
    QMessageBox *confirmation();
    /** Drops without asking again (the button asks first). */
    void dropNow();

public slots:
    void done(int result) override;

signals:
    /** A read answered (the list and the SQL are up to date). */
    void loaded();
    void dropped(const QStringList &objects);

private:
    void present(const Result<OldPairs> &r);

    ConnectionSpec mSpec;
    FilterRef mLive;
    std::optional<OldPairs> mFound;
    QLabel *mSummary = nullptr;
    QTreeWidget *mList = nullptr;
    QPlainTextEdit *mSql = nullptr;
    QLabel *mResult = nullptr;
    QPushButton *mDrop = nullptr;
    QPushButton *mReload = nullptr;
    OffThread *mJob = nullptr;
    bool mDropping = false;
};

} // namespace bloom
