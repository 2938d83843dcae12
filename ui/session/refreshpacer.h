#pragma once

#include "session/sessiontypes.h"

#include <QObject>

class QTimer;

namespace bloom {

/**
 * When the window refreshes: every interval, unless paused; with "slow down when idle", each refresh
 * that finds nothing written doubles the wait (up to 12 times the interval, at most five minutes unless
 * the interval is longer), and the first change brings the interval back.
 */
class RefreshPacer : public QObject {
    Q_OBJECT
public:
    explicit RefreshPacer(QObject *parent = nullptr);

    void setInterval(int seconds);
    int interval() const { return mInterval; }
    void setAdaptive(bool on);
    bool adaptive() const { return mAdaptive; }
    void setPaused(bool paused);
    bool paused() const { return mPaused; }
    /** Starts ticking (unless paused): a filter is open. */
    void start();
    /** A refresh answered; `unchanged`: it found nothing written. */
    void refreshed(bool unchanged);
    /** The wait now: the interval, or longer while idle. */
    int effectiveSeconds() const;
    /** "every 5 s", "every 5 s, paused", "idle: next in 20 s, every 5 s once it changes". */
    QString cadenceText() const;
    QTimer *timer() const { return mTimer; }
    /** What a refresh cost the server: "checked ...: no write since ..., no row read", "refreshed ...:
     *  12 changed chunk(s), read in 3 ms without reading the other rows", "read all 131,072 rows". */
    static QString describe(const FillResult &r);

signals:
    /** Time for the next refresh. */
    void due();

private:
    void apply();

    QTimer *mTimer = nullptr;
    int mInterval = 5;
    bool mAdaptive = true;
    bool mPaused = false;
    int mIdle = 0; ///< refreshes in a row that found nothing written
};

} // namespace bloom
