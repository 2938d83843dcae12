#pragma once

#include "teach/timeline.h"

#include <QObject>

#include <optional>

class QTimer;

namespace bloom {

/**
 * Plays a Timeline as an animation, one step a tick: an entry's hash, each of its positions, its
 * bits and verdict, then a pause before the next entry. Entries appended at any moment (in a pause
 * included) join the end of the timeline, so none is ever dropped. The teacher can pause, step
 * forward, step back and jump to any entry: the filter on screen is the state after that many entries.
 */
class TimelinePlayer : public QObject {
    Q_OBJECT
public:
    explicit TimelinePlayer(const SandboxFilter &empty, QObject *parent = nullptr);

    const Timeline &timeline() const { return mTimeline; }
    /** Milliseconds a step lasts; 0: no animation, every entry shown whole at once. */
    void setStepMs(int ms);
    int stepMs() const { return mStepMs; }

    /** Entries done (0..size). */
    qsizetype position() const { return mPosition; }
    /** -1: at rest (entry position()-1 shown whole); 0..lastPhase(): a step of entry position(). */
    int phase() const { return mPhase; }
    /** The last step of the entry in progress: k + 1 (bits and verdict). */
    int lastPhase() const;
    bool paused() const { return mPaused; }
    /** Nothing in progress and nothing left to play. */
    bool atEnd() const { return mPhase < 0 && mPosition == mTimeline.size(); }

    /** The entry on screen: the one in progress, else the last one done; -1 before the first. */
    qsizetype shownEntry() const;
    /** Its trace (against the filter before it); valid when shownEntry() >= 0. */
    const SandboxFilter::Trace &shownTrace() const { return mTrace; }
    /** The filter on screen (an add in progress sets its bits at its bits step). */
    const SandboxFilter &filter() const { return mState; }
    /** Every entry's trace against the filter before it (the log's lines). */
    const QList<SandboxFilter::Trace> &traces() const { return mTraces; }

    Result<qsizetype> append(Timeline::Action action, const QByteArray &name,
                             Timeline::Origin origin = Timeline::Origin::Class);
    /** Removes entry `index`: the entries after it stay, replayed; the one shown stays shown. */
    void removeEntry(qsizetype index);
    /** Another timeline (a session, the example), at rest after `position` entries. */
    void reset(const Timeline &timeline, qsizetype position);
    /** The same entries in another filter, at once: the position stays, the step in progress restarts. */
    void setFilter(const SandboxFilter &empty);

    void setPaused(bool paused);
    /** Shows the entry in progress whole, or the next one; pauses. */
    void stepForward();
    /** Back to the rest before the entry on screen; pauses. */
    void stepBack();
    /** At rest after `position` entries; pauses. */
    void jumpTo(qsizetype position);

signals:
    void changed();
    void entryFinished(qsizetype index);
    /** Everything played. */
    void idleNow();

private:
    void tick();
    void startEntry();
    void finishEntry();
    void restAt(qsizetype position);
    void schedule();

    Timeline mTimeline;
    QList<SandboxFilter::Trace> mTraces;
    SandboxFilter mState;
    SandboxFilter::Trace mTrace;
    qsizetype mPosition = 0;
    int mPhase = -1;
    bool mPaused = false;
    int mStepMs = 450;
    QTimer *mTimer = nullptr;
};

} // namespace bloom
