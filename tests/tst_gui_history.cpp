// The filter over time in the window: the FPR tab plots the recorded snapshots with the growth fit,
// the crossing date and the geometry to rebuild into; the heatmap greys every chunk not written since
// a chosen snapshot; Admin > Record a snapshot now; a history the role may not read is said, not hidden.
#include "fpr/fprview.h"
#include "fpr/historychart.h"
#include "guitest.h"
#include "heatmap/heatmapwidget.h"
#include "maintenance/history.h"
#include "mainwindow.h"
#include "model/placement.h"
#include "postgres/database.h"
#include "session/filtersession.h"
#include "testcluster.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace bloom;

class TestGuiHistory : public QObject {
    Q_OBJECT
private:
    QTemporaryDir mConfig;
    LocalCluster mCluster;
    std::unique_ptr<MainWindow> mWindow;

    ConnectionSpec spec(const QString &db, const QString &user = {}) const
    {
        QString conn = mCluster.connectionString(db);
        if (!user.isEmpty())
            conn += QStringLiteral(" user=") + user;
        return *ConnectionSpec::parse(conn);
    }
    /** Records one snapshot as the test's superuser, through core as bloomctl record does. */
    Snapshot recordNow(const QString &db)
    {
        auto d = Database::open(spec(db));
        if (!d)
            qFatal("%s", qPrintable(d.error().toString()));
        FilterStore store(**d, FilterRef{});
        if (auto s = store.attach(); !s)
            qFatal("%s", qPrintable(s.error().toString()));
        auto snap = History::record(**d, store);
        if (!snap)
            qFatal("%s", qPrintable(snap.error().toString()));
        return *snap;
    }
    /** A menu action, by its objectName (not by text a translation changes). */
    QAction *adminAction(const char *objectName) const
    {
        return mWindow->findChild<QAction *>(QLatin1String(objectName));
    }
    void openWindow(const QString &db, const QString &user = {})
    {
        mWindow = std::make_unique<MainWindow>();
        mWindow->setRefreshInterval(1);
        mWindow->show();
        QSignalSpy opened(mWindow->session(), &FilterSession::opened);
        mWindow->connectTo(spec(db, user), FilterRef{});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->refreshCount() >= 1, 20000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(mConfig.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(mConfig.path()));
        QVERIFY(test::startCluster(mCluster));
        for (const QString &db : {QStringLiteral("app"), QStringLiteral("locked")}) {
            QVERIFY(mCluster.createDatabase(db).ok());
            QVERIFY(mCluster.exec(db, test::sqlResource(QStringLiteral("reference.sql"))).ok());
        }
    }

    void withoutHistoryTheRefreshesArePlottedAndSaidSo()
    {
        openWindow(QStringLiteral("app"));
        HistoryChart *h = mWindow->fprView()->history();
        QTRY_VERIFY_WITH_TIMEOUT(h->sourceText().contains(QLatin1String("No history table")), 15000);
        QVERIFY(h->sourceText().contains(QLatin1String("bloomctl record")));
        QVERIFY(!h->usesSnapshots());
        QCOMPARE(mWindow->sinceChooser()->count(), 1); // only "the last refresh"
    }

    void recordedSnapshotsArePlottedWithTheForecast()
    {
        // One real snapshot (it creates the table and knows its read position), then 30 days of planted
        // history growing 1M names a day up to 110M: the fit finds the pace, the 1% target of the
        // reference geometry (about 112.4M names) is crossed within days, and 12 months at that pace need
        // a bigger filter.
        const Snapshot real = recordNow(QStringLiteral("app"));
        QVERIFY(!real.position.isEmpty());
        QString plant =
            QStringLiteral("update bloomscope_history set estimated_names = 110e6 where id = %1;\n").arg(real.id);
        for (int d = 30; d >= 1; --d)
            plant += QStringLiteral("insert into bloomscope_history (taken_at, filter_table, chunks, chunk_bits, k, "
                                    "set_bits, estimated_names, estimated_fpr, fullest_chunk, fullest_set_bits, "
                                    "histogram, cost_ms) values (now() - interval '%1 days', '%2', 131072, 8192, 7, "
                                    "0, %3, 0.005, 0, 0, '{0,0,0,0,0,0,0,0,0,0}', 1);\n")
                         .arg(d)
                         .arg(real.table)
                         .arg(110e6 - d * 1e6, 0, 'f', 0);
        QVERIFY(mCluster.exec(QStringLiteral("app"), plant).ok());
        mWindow->reloadHistory();
        HistoryChart *h = mWindow->fprView()->history();
        QTRY_COMPARE_WITH_TIMEOUT(h->snapshots().size(), 31, 15000);
        QVERIFY(h->usesSnapshots());
        QVERIFY(h->sourceText().contains(QLatin1String("31 snapshot")));
        QCOMPARE(h->namesSeries()->count(), 31);
        QVERIFY(h->fit());
        QVERIFY2(std::abs(h->fit()->perDay(h->fit()->slope) - 1e6) < 1e4, qPrintable(h->forecastText()));
        QVERIFY2(h->forecastText().contains(QLatin1String("crossed around")), qPrintable(h->forecastText()));
        QVERIFY(h->forecastText().contains(QLatin1String("Theil-Sen")) ||
                h->forecastText().contains(QLatin1String("robust linear")));
        QVERIFY2(h->recommendationText().contains(QLatin1String("bloomctl rebuild --chunks")),
                 qPrintable(h->recommendationText()));
        QVERIFY(h->forecastSeries()->count() >= 2);
        if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty()) {
            mWindow->resize(1280, 800);
            mWindow->showView(QStringLiteral("fpr"));
            QTest::qWait(300);
            mWindow->grab().save(dir + QStringLiteral("/history.png"));
        }
        // The window's choices: a 7-day window still finds 1M a day; the exponential fit says a rate.
        h->setWindowDays(7);
        QVERIFY(h->fit()->points <= 8);
        QVERIFY(std::abs(h->fit()->perDay(h->fit()->slope) - 1e6) < 1e4);
        h->setMethod(forecast::Method::Exponential);
        QVERIFY2(h->forecastText().contains(QLatin1String("% a day")), qPrintable(h->forecastText()));
        h->setMethod(forecast::Method::Linear);
        h->setWindowDays(30);
        // Snapshots recorded elsewhere come in with the refreshes (every 10 s at most).
        recordNow(QStringLiteral("app"));
        QTRY_COMPARE_WITH_TIMEOUT(h->snapshots().size(), 32, 30000);
        // The chooser lists the snapshots that know their read position: the two real ones.
        QTRY_COMPARE(mWindow->sinceChooser()->count(), 3);
    }

    void writtenSinceASnapshotGreysTheRest()
    {
        QComboBox *since = mWindow->sinceChooser();
        QTRY_COMPARE(since->count(), 3);
        // Two names added after the newest snapshot, by another session (the application).
        QVERIFY(mCluster
                    .exec(QStringLiteral("app"), QStringLiteral("update username_filter f set bits = f.bits | "
                                                                "b.mask from unnest(array['ada', 'grace']) n, "
                                                                "username_bits(n) b where f.chunk = b.chunk"))
                    .ok());
        const Geometry g;
        const quint32 ada = placeAscii(g, "ada").chunk, grace = placeAscii(g, "grace").chunk;
        // Keyboard only: focus the chooser, Down picks the newest snapshot.
        since->setFocus();
        QTest::keyClick(since, Qt::Key_Down);
        QCOMPARE(since->currentIndex(), 1);
        HeatmapWidget *map = mWindow->heatmap();
        QTRY_VERIFY_WITH_TIMEOUT(map->changedSince().has_value(), 15000);
        const ChangedSince c = *map->changedSince();
        QVERIFY(c.complete);
        std::vector<quint32> expect{qMin(ada, grace), qMax(ada, grace)};
        QCOMPARE(c.chunks, expect);
        QCOMPARE(map->markedChunks(), expect);
        const int cols = c.dim.width();
        QCOMPARE(qAlpha(c.dim.pixel(int(ada % quint32(cols)), int(ada / quint32(cols)))), 0); // written: clear
        QVERIFY(qAlpha(c.dim.pixel(0, 0)) > 100);                                             // not: greyed
        QVERIFY(mWindow->statusText().contains(QLatin1String("2 of 131,072 chunks written since")));
        if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty()) {
            mWindow->showView(QStringLiteral("heatmap"));
            QTest::qWait(300);
            mWindow->grab().save(dir + QStringLiteral("/heatmap-since.png"));
        }
        // The older snapshot: the same two (the planted rows changed no chunk).
        QTest::keyClick(since, Qt::Key_Down);
        QTRY_VERIFY_WITH_TIMEOUT(map->changedSince() && map->changedSince()->snapshot.id != c.snapshot.id, 15000);
        QCOMPARE(map->changedSince()->chunks, expect);
        // Back to "the last refresh": no grey.
        QTest::keyClick(since, Qt::Key_Home);
        QCOMPARE(since->currentIndex(), 0);
        QVERIFY(!map->changedSince().has_value());
    }

    void recordingNeedsAdminModeAndWrites()
    {
        QAction *record = adminAction("actionRecordSnapshot");
        QVERIFY(record);
        QVERIFY(!record->isEnabled()); // read-only: a write action
        const qsizetype before = mWindow->fprView()->history()->snapshots().size();
        // Admin mode asks, reconnects writable; then the action records and the chart grows by one.
        test::answerNextBox(QMessageBox::Yes);
        adminAction("actionAdminMode")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!mWindow->session()->summary().readOnly, 20000);
        QVERIFY(record->isEnabled());
        record->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(mWindow->fprView()->history()->snapshots().size(), before + 1, 15000);
        QVERIFY(mWindow->statusText().contains(QLatin1String("Recorded a snapshot")));
    }

    void aHistoryTheRoleMayNotReadIsSaid()
    {
        // A monitoring role that may read the filter but not the history its DBA keeps.
        recordNow(QStringLiteral("locked"));
        QVERIFY(mCluster
                    .exec(QStringLiteral("locked"),
                          QStringLiteral("create role watcher login; grant select on username_filter to watcher; "
                                         "grant execute on function username_bits(text) to watcher"))
                    .ok());
        openWindow(QStringLiteral("locked"), QStringLiteral("watcher"));
        HistoryChart *h = mWindow->fprView()->history();
        QTRY_VERIFY_WITH_TIMEOUT(h->sourceText().contains(QLatin1String("cannot be read")), 15000);
        QVERIFY2(h->sourceText().contains(QLatin1String("permission denied")), qPrintable(h->sourceText()));
        QVERIFY(!h->usesSnapshots());
        // The window goes on: the refreshes are plotted.
        const int refreshes = mWindow->refreshCount();
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->refreshCount() > refreshes, 15000);
        QVERIFY(h->namesSeries()->count() >= 1);
    }

    void aLivingDemosSnapshotsArriveInTheFprTab()
    {
        // --demo --demo-traffic: the snapshots the demo records (on its own clock) come into the chart
        // while the window is open, and the fit uses them.
        mWindow = std::make_unique<MainWindow>();
        mWindow->setRefreshInterval(1);
        mWindow->show();
        mWindow->startDemo(20'000, 0, 500, 3600);
        HistoryChart *h = mWindow->fprView()->history();
        QTRY_VERIFY_WITH_TIMEOUT(h->snapshots().size() >= 3, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(h->fit().has_value(), 30000);
        QVERIFY2(h->sourceText().contains(QLatin1String("recorded in bloomscope_history")),
                 qPrintable(h->sourceText()));
        // An hour a second, 500 names a second: 12,000 names a simulated day.
        QVERIFY2(std::abs(h->fit()->perDay(h->fit()->slope) - 12'000) < 2'000, qPrintable(h->forecastText()));
    }

    void cleanupTestCase() { mWindow.reset(); }
};

QTEST_MAIN(TestGuiHistory)
#include "tst_gui_history.moc"
