#include "local/demoactivity.h"

#include "local/demo.h"
#include "maintenance/history.h"
#include "postgres/connectionspec.h"
#include "postgres/database.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"

#include <QDateTime>
#include <QElapsedTimer>

#include <chrono>

namespace bloom {

DemoActivity::DemoActivity(const QString &conninfo, const Options &options)
    : mConninfo(conninfo)
    , mOptions(options)
{
}

DemoActivity::~DemoActivity()
{
    stop();
}

void DemoActivity::start()
{
    if (mThread.joinable())
        return;
    mStop.store(false);
    mThread = std::thread([this] { run(); });
}

void DemoActivity::stop()
{
    mStop.store(true);
    if (mThread.joinable())
        mThread.join();
}

QString DemoActivity::lastError() const
{
    std::lock_guard lock(mErrorMutex);
    return mError;
}

void DemoActivity::setError(const QString &e)
{
    std::lock_guard lock(mErrorMutex);
    mError = e;
}

void DemoActivity::run()
{
    // The application's side: the reference's add, as the sign-up path runs it (the name a parameter).
    PgConn app(mConninfo, PgConn::SearchPath::AsConfigured);
    if (!app.ok()) {
        setError(app.errorMessage());
        return;
    }
    const QString add = QStringLiteral("update username_filter f set bits = f.bits | b.mask "
                                       "from username_bits($1) b where f.chunk = b.chunk");
    // The DBA's side: snapshots, with the demo's clock.
    auto db = Database::open(*ConnectionSpec::parse(mConninfo));
    if (!db) {
        setError(db.error().toString());
        return;
    }
    FilterStore store(**db, FilterRef{});
    if (auto s = store.attach(); !s) {
        setError(s.error().toString());
        return;
    }
    const QDateTime origin = QDateTime::currentDateTimeUtc();
    QElapsedTimer clock;
    clock.start();
    qint64 nextRecordMs = 0;
    char name[DemoNameMax];
    while (!mStop.load()) {
        const qint64 now = clock.elapsed();
        // Names due by now, at most a second's worth at once (a slow server is not flooded later).
        const qint64 due = qint64(mOptions.rate * double(now) / 1000.0) - mAdded.load();
        for (qint64 i = 0; i < qMin<qint64>(due, qint64(mOptions.rate) + 1) && !mStop.load(); ++i) {
            const QByteArray n(name, demoName(mOptions.firstName + mAdded.load(), DemoSeed, name));
            if (auto r = app.column(add, {n}); !r) {
                setError(r.error().toString());
                break;
            }
            mAdded.fetch_add(1);
        }
        if (now >= nextRecordMs) {
            const QDateTime at = origin.addMSecs(qint64(double(now) * mOptions.clockFactor));
            if (auto s = History::record(**db, store, at); !s)
                setError(s.error().toString());
            else
                mSnapshots.fetch_add(1);
            nextRecordMs = now + mOptions.recordEveryMs;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

} // namespace bloom
