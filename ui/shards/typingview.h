#pragma once

#include "shards/shardtypes.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace bloom {

class ReplayPanel;
class ShardSession;

/**
 * The typing simulator: type a name and see, at every keystroke, the filter's verdict, whether the
 * shards were asked, the shard queries with the filter and without it, and both latencies, measured
 * live; replay a list of generated names and chart the same; the last audit of the filter.
 */
class TypingView : public QWidget {
    Q_OBJECT
public:
    explicit TypingView(ShardSession *session, QWidget *parent = nullptr);

    /** Shown when no shard map is open: how to get one. */
    void setUnavailable(const QString &why);

    /** Per-session counters of the live typing. */
    struct Totals {
        qint64 keystrokes = 0, checks = 0;
        qint64 queriesWith = 0, queriesWithout = 0;
        qint64 deletedScatterGathers = 0, deletedQueries = 0;
    };
    const Totals &totals() const { return mTotals; }
    const Totals &nameTotals() const { return mName; }
    int loggedChecks() const;
    QString logCell(int row, int column) const;
    QString auditText() const;

    /** Types `text` into the live field one key at a time, as a user would. */
    void typeText(const QString &text);
    /** The replay panel beside the live typing. */
    ReplayPanel *replay() const { return mReplay; }
    /** Runs an audit of 1,000 users a shard, as the button does. */
    void runAudit();

signals:
    void auditShown();

private:
    void keystroke(const QString &text);
    void fire();
    void onChecked(int token, const KeystrokeCheck &k);
    void onAudit(const AuditState &s);
    void onFailed(ShardTask task, const Error &e);
    void updateTotals();
    void setEnabledAll(bool on);

    ShardSession *mSession;
    Totals mTotals, mName;
    QString mCurrent;
    AuditState mAudit;

    QLabel *mState = nullptr;
    QLineEdit *mInput = nullptr;
    QSpinBox *mDebounce = nullptr;
    QTimer *mDebounceTimer = nullptr;
    QTableWidget *mLog = nullptr;
    QLabel *mNameLine = nullptr;
    QLabel *mSessionLine = nullptr;

    ReplayPanel *mReplay = nullptr;

    QLabel *mAuditLine = nullptr;
    QPushButton *mAuditButton = nullptr;
};

} // namespace bloom
