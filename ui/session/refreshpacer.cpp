#include "session/refreshpacer.h"

#include <QLocale>
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
        return tr("idle: next in %1 s, every %2 s once it changes")
            .arg(QString::number(next), QString::number(mInterval));
    return tr("every %1 s").arg(next);
}

QString RefreshPacer::describe(const FillResult &r)
{
    const QString when = QLocale().toString(r.checkedAt.toLocalTime().time(), QLocale::LongFormat);
    const QString taken = QLocale().toString(r.fill.takenAt.toLocalTime().time(), QLocale::LongFormat);
    if (r.unchanged)
        return (r.role.inRecovery ? tr("checked %1: nothing replayed since %2, no row read")
                                  : tr("checked %1: no write since %2, no row read"))
            .arg(when, taken);
    if (r.throttled)
        return tr("checked %1: the table changed; the picture of %2 stands until %3 (the last read took %4 ms: at "
                  "most one every %5 s)")
            .arg(when, taken, QLocale().toString(r.nextFullRead.toLocalTime().time(), QLocale::LongFormat),
                 QString::number(r.fill.elapsedMs), QString::number(double(r.fill.elapsedMs) * 10 / 1000.0, 'f', 1));
    if (r.incremental)
        return tr("refreshed %1: %Ln changed chunk(s), read in %2 ms without reading the other rows", nullptr,
                  int(r.fill.rowsRead))
            .arg(when, QString::number(r.fill.elapsedMs));
    return tr("refreshed %1: read all %L2 rows in %3 ms")
        .arg(when, QLocale().toString(r.fill.rowsRead), QString::number(r.fill.elapsedMs));
}

void RefreshPacer::apply()
{
    if (mTimer->interval() != effectiveSeconds() * 1000)
        mTimer->setInterval(effectiveSeconds() * 1000);
}

} // namespace bloom
