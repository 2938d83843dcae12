#pragma once

#include "redis/redisworker.h"

#include <QMainWindow>
#include <QThread>

class QLabel;
class QLineEdit;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QTabWidget;
class QTimer;
class QValueAxis;

namespace bloom {

class HeatmapLegend;
class RedisHeatmap;
class StatusLabel;

/**
 * The reference's Redis bitmap filter in the GUI (`bloomscope --redis URL`): the heatmap of its
 * blocks (BITCOUNT ranges), the FPR view (JavaScript's positions against the textbook) and the
 * step-through of a name's two positions. Every Redis call runs on the worker thread.
 */
class RedisWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit RedisWindow(QWidget *parent = nullptr);
    /** File > Open a Redis bitmap filter: asks for the URL and opens the reference's key in a window of
     *  its own (deleted when closed); a bad URL is said in a box over `parent`. */
    static void openAsked(QWidget *parent);
    ~RedisWindow() override;

    void open(const RedisTarget &target, const QByteArray &key, quint64 bits);
    void startDemo(qint64 names);
    /** "heatmap", "fpr" or "step"; false for another word. */
    bool showView(const QString &view);
    void setStepName(const QString &name);

    bool hasFill() const { return mFill.bits > 0; }
    const RedisFill &fill() const { return mFill; }
    QString summaryText() const;
    QString stepText() const;
    bool hasStep() const { return mStepped; }

signals:
    void refreshed();
    void stepReady();
    void failedToStart(const QString &why);

private:
    void onRefreshed(const RedisRefresh &r);
    void onStepped(int token, const RedisStep &s);

    QThread mThread;
    RedisWorker *mWorker = nullptr;
    RedisFill mFill;
    int mStepToken = 0;
    bool mStepped = false;
    HeatmapLegend *mLegend = nullptr;
    QString mWhere;
    QByteArray mKey;

    QTabWidget *mTabs = nullptr;
    RedisHeatmap *mHeatmap = nullptr;
    QLabel *mSummary = nullptr;
    StatusLabel *mStatus = nullptr;
    QLineSeries *mModelLine = nullptr;
    QLineSeries *mTextbookLine = nullptr;
    QScatterSeries *mNow = nullptr;
    QScatterSeries *mMeasured = nullptr;
    QValueAxis *mNamesAxis = nullptr;
    QLogValueAxis *mFprAxis = nullptr;
    QLabel *mFprText = nullptr;
    QLineEdit *mName = nullptr;
    QLabel *mStep = nullptr;
    QTimer *mTimer = nullptr;
};

} // namespace bloom
