#include "session/refreshpacer.h"

#include <QTimer>

namespace bloom {

RefreshPacer::RefreshPacer(QObject *parent)
    : QObject(parent)
    , mTimer(new QTimer(this))
{
    connect(mTimer, &QTimer::timeout, this, &RefreshPacer::due);
    apply();
}

void RefreshPacer::setInterval(int seconds)
{
    mInterval = qMax(1, seconds);
    mIdle = 0;
    apply();
}

void RefreshPacer::setAdaptive(bool on)
{
    mAdaptive = on;
    apply();
}

void RefreshPacer::setPaused(bool paused)
{
    mPaused = paused;
    if (paused)
        mTimer->stop();
    else
        mTimer->start();
}

void RefreshPacer::start()
{
    if (!mPaused)
        mTimer->start();
}

void RefreshPacer::refreshed(bool unchanged)
{
    mIdle = unchanged ? mIdle + 1 : 0;
    apply();
}

int RefreshPacer::effectiveSeconds() const
{
    if (!mAdaptive || mIdle == 0)
        return mInterval;
    const int factor = qMin(12, 1 << qMin(mIdle, 4));
    return qMin(mInterval * factor, qMax(mInterval, 300));
}

QString RefreshPacer::cadenceText() const
{
    const int next = effectiveSeconds();
    if (mPaused)
        return tr("every %1 s, paused").arg(mInterval);
    if (next != mInterval)
        return tr("idle: next in %1 s, every %2 s once it changes").arg(next).arg(mInterval);
    return tr("every %1 s").arg(next);
}

void RefreshPacer::apply()
{
    if (mTimer->interval() != effectiveSeconds() * 1000)
        mTimer->setInterval(effectiveSeconds() * 1000);
}

} // namespace bloom
