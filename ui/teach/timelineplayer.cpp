#include "teach/timelineplayer.h"

#include <QTimer>

namespace bloom {

TimelinePlayer::TimelinePlayer(const SandboxFilter &empty, QObject *parent)
    : QObject(parent)
    , mTimeline(empty)
    , mState(empty.emptyCopy())
{
    mTimer = new QTimer(this);
    connect(mTimer, &QTimer::timeout, this, &TimelinePlayer::tick);
}

void TimelinePlayer::setStepMs(int ms)
{
    mStepMs = qMax(0, ms);
    if (mTimer->isActive())
        mTimer->setInterval(mStepMs);
    schedule();
}

int TimelinePlayer::lastPhase() const
{
    return int(mTrace.positions.size()) + 1;
}

qsizetype TimelinePlayer::shownEntry() const
{
    return mPhase >= 0 ? mPosition : mPosition - 1;
}

Result<qsizetype> TimelinePlayer::append(Timeline::Action action, const QByteArray &name, Timeline::Origin origin)
{
    auto i = mTimeline.append(action, name, origin);
    if (!i)
        return i;
    // Its trace against the filter after every entry before it: the end of one replay.
    SandboxFilter end = mTimeline.stateAfter(*i);
    mTraces << *end.trace(name);
    emit changed();
    schedule();
    return i;
}

void TimelinePlayer::reset(const Timeline &timeline, qsizetype position)
{
    mTimer->stop();
    mTimeline = timeline;
    mTraces = mTimeline.traces();
    restAt(qBound<qsizetype>(0, position, mTimeline.size()));
    emit changed();
    schedule();
}

void TimelinePlayer::removeEntry(qsizetype index)
{
    if (!mTimeline.remove(index))
        return;
    mTimer->stop();
    mTraces = mTimeline.traces();
    // An entry before the one in progress or done moves the rest one back; the one in progress goes.
    restAt(qBound<qsizetype>(0, index < mPosition ? mPosition - 1 : mPosition, mTimeline.size()));
    emit changed();
    schedule();
}

void TimelinePlayer::setFilter(const SandboxFilter &empty)
{
    mTimeline.setFilter(empty);
    mTraces = mTimeline.traces();
    restAt(mPosition);
    emit changed();
    schedule();
}

void TimelinePlayer::setPaused(bool paused)
{
    mPaused = paused;
    if (paused)
        mTimer->stop();
    emit changed();
    schedule();
}

void TimelinePlayer::stepForward()
{
    mPaused = true;
    mTimer->stop();
    if (mPhase < 0 && mPosition < mTimeline.size())
        startEntry();
    if (mPhase >= 0)
        finishEntry();
    emit changed();
}

void TimelinePlayer::stepBack()
{
    mPaused = true;
    mTimer->stop();
    restAt(mPhase >= 0 ? mPosition : qMax<qsizetype>(0, mPosition - 1));
    emit changed();
}

void TimelinePlayer::jumpTo(qsizetype position)
{
    mPaused = true;
    mTimer->stop();
    restAt(qBound<qsizetype>(0, position, mTimeline.size()));
    emit changed();
}

void TimelinePlayer::restAt(qsizetype position)
{
    mPosition = position;
    mPhase = -1;
    mState = mTimeline.stateAfter(position);
    if (position > 0)
        mTrace = mTraces.at(position - 1);
    else
        mTrace = {};
}

void TimelinePlayer::schedule()
{
    if (mPaused || atEnd()) {
        mTimer->stop();
        return;
    }
    if (mStepMs <= 0) {
        // No animation: every entry left, whole, now.
        mTimer->stop();
        while (!atEnd()) {
            if (mPhase < 0)
                startEntry();
            finishEntry();
        }
        emit changed();
        emit idleNow();
        return;
    }
    if (!mTimer->isActive()) {
        // Was at rest at the end: the new entry starts now, its hash on screen at once.
        if (mPhase < 0) {
            startEntry();
            emit changed();
        }
        mTimer->start(mStepMs);
    }
}

void TimelinePlayer::startEntry()
{
    mTrace = mTraces.at(mPosition);
    mPhase = 0;
}

void TimelinePlayer::finishEntry()
{
    const Timeline::Entry &e = mTimeline.entries().at(mPosition);
    if (e.action == Timeline::Action::Add && mPhase < lastPhase())
        (void)mState.add(e.name);
    mPhase = -1;
    ++mPosition;
    emit entryFinished(mPosition - 1);
}

void TimelinePlayer::tick()
{
    // One step a tick; the tick after an entry's last step is the pause before the next entry.
    if (mPhase < 0) {
        if (mPosition >= mTimeline.size()) {
            mTimer->stop();
            emit idleNow();
            return;
        }
        startEntry();
    } else if (mPhase < lastPhase()) {
        ++mPhase;
        const Timeline::Entry &e = mTimeline.entries().at(mPosition);
        if (mPhase == lastPhase() && e.action == Timeline::Action::Add)
            (void)mState.add(e.name); // the bits are set at their step
    } else {
        finishEntry();
        if (atEnd()) {
            mTimer->stop();
            emit changed();
            emit idleNow();
            return;
        }
    }
    emit changed();
}

} // namespace bloom
