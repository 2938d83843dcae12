#include "heatmap/heatmapwidget.h"
#include "local/localcluster.h"
#include "mainwindow.h"
#include "postgres/pgconn.h"
#include "session/filtersession.h"
#include "step/stepthroughview.h"
#include "style/theme.h"
#include "testcluster.h"

#include <QLabel>
#include <QLineEdit>
#include <QTest>

using namespace bloom;

/**
 * Issue 32 in the window: a NULL `bits` row or a missing chunk row, written by another session while
 * the window is open or already there when it opens. The window turns red on its next refresh with
 * the message and the fix, and the step-through of a name of that chunk says why it has no verdict;
 * nothing crashes (the step-through of ada crashed at start-up when chunk 71962 was NULL).
 */
class TestGuiDamage : public QObject {
    Q_OBJECT
private:
    LocalCluster mCluster;
    std::unique_ptr<PgConn> mRaw; // another session: the application, a DBA, a bad restore

    QString conninfo() const { return mCluster.connectionString(QStringLiteral("app")); }
    /** Writes `sql` as another session and flushes its statistics, as a busy backend would within a second. */
    void elsewhere(const QString &sql)
    {
        QVERIFY2(mRaw->exec(sql + QStringLiteral("; select pg_stat_force_next_flush()")).ok(), qPrintable(sql));
    }
    /** One refresh, asked for once no other runs and the last read is older than the window's own
     *  limit of one read every ten times its cost: what a timer's next tick would do. */
    static void oneRefresh(MainWindow &w)
    {
        QTRY_VERIFY_WITH_TIMEOUT(!w.session()->refreshing(), 30000);
        const FillSnapshot &last = w.heatmap()->result().fill;
        const qint64 wait = QDateTime::currentDateTimeUtc().msecsTo(last.takenAt.addMSecs(10 * last.elapsedMs + 100));
        if (wait > 0)
            QTest::qWait(int(wait));
        const int before = w.refreshCount();
        QVERIFY(w.session()->refresh());
        QTRY_COMPARE_WITH_TIMEOUT(w.refreshCount(), before + 1, 30000);
    }
    static void expectRed(MainWindow &w, const QString &said)
    {
        const QString text = w.damageText();
        QVERIFY2(text.contains(said), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("rebuild")) && text.contains(QLatin1String("swap")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("~0::bit(8192)")) && !text.contains(QLatin1String(" 0::bit")),
                 qPrintable(text));
        auto *banner = w.findChild<QLabel *>(QStringLiteral("damageBanner"));
        QVERIFY(banner && banner->isVisible());
        QVERIFY(!banner->accessibleName().isEmpty());
        QVERIFY(banner->styleSheet().contains(theme::productionBanner().name(), Qt::CaseInsensitive));
        QVERIFY2(w.statusText().contains(QLatin1String("DAMAGED")), qPrintable(w.statusText()));
    }
    /** With BLOOMSCOPE_SHOT_DIR set, the window as it is now, to look at. */
    static void shot(MainWindow &w, const QString &name)
    {
        if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(200);
            w.grab().save(QStringLiteral("%1/%2-scale%3.png").arg(dir, name).arg(w.devicePixelRatioF()));
        }
    }
    /** The step-through of ada (chunk 71962) says why it has no answer, and gives no verdict. */
    static void expectAdaUnanswered(MainWindow &w, const QString &said)
    {
        StepThroughView *step = w.stepView();
        step->setName(QString());
        QTest::keyClicks(step->findChild<QLineEdit *>(QStringLiteral("stepName")), QStringLiteral("ada"));
        QTRY_VERIFY_WITH_TIMEOUT(step->answered(), 10000);
        QVERIFY(!step->hasResult());
        QVERIFY(step->verdictText().isEmpty());
        QVERIFY2(step->rowError().contains(QLatin1String("chunk 71962")) && step->rowError().contains(said),
                 qPrintable(step->rowError()));
        QVERIFY2(!step->text().contains(QLatin1String("definitely free")), qPrintable(step->text()));
        QVERIFY2(step->text().contains(QLatin1String("no answer")), qPrintable(step->text()));
        QVERIFY(step->text().contains(QLatin1String("8c8d357b5e872bbacd45197626bd5759"))); // the hash still shown
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("app")).ok());
        QVERIFY(mCluster.exec(QStringLiteral("app"), test::sqlResource(QStringLiteral("reference.sql"))).ok());
        mRaw = std::make_unique<PgConn>(conninfo());
        QVERIFY(mRaw->ok());
        // ada added by the application's own statement; a site whose column lost NOT NULL.
        QVERIFY(mRaw->exec(QStringLiteral("update username_filter f set bits = f.bits | b.mask from "
                                          "username_bits('ada') b where f.chunk = b.chunk; create table saved as "
                                          "select * from username_filter where chunk in (5, 71962); alter table "
                                          "username_filter alter column bits drop not null"))
                    .ok());
    }

    /** The report's start-up crash: the window opens on the step-through of ada, whose row is NULL. */
    void opensOnANullChunkWithoutCrashing()
    {
        elsewhere(QStringLiteral("update username_filter set bits = null where chunk = 71962"));
        MainWindow w;
        w.setRefreshInterval(3600);
        w.stepView()->setName(QStringLiteral("ada")); // what bloomscope does at start-up
        w.showView(QStringLiteral("step"));
        w.show();
        w.connectTo(*ConnectionSpec::parse(conninfo()), FilterRef{});
        QTRY_VERIFY_WITH_TIMEOUT(w.refreshCount() >= 1, 30000);
        expectRed(w, QStringLiteral("chunk 71962 is NULL"));
        if (QTest::currentTestFailed())
            return;
        QTRY_VERIFY_WITH_TIMEOUT(w.stepView()->answered(), 10000);
        QVERIFY(w.stepView()->verdictText().isEmpty());
        expectAdaUnanswered(w, QStringLiteral("NULL"));
        if (QTest::currentTestFailed())
            return;
        // The heatmap: a red cell that says why, not an empty chunk.
        const FillResult &r = w.heatmap()->result();
        QCOMPARE(r.heatmap.pixel(int(71962 % quint32(r.imageColumns)), int(71962 / quint32(r.imageColumns))),
                 DamagedColour);
        QVERIFY2(w.heatmap()->describeChunk(71962).contains(QLatin1String("NULL")),
                 qPrintable(w.heatmap()->describeChunk(71962)));
        // The Chunk tab says so in place of the bits (no box pops up over the window).
        w.showChunk(71962);
        auto *label = w.findChild<QLabel *>(QStringLiteral("chunkLabel"));
        QTRY_VERIFY_WITH_TIMEOUT(label->text().contains(QLatin1String("chunk 71962 of public.username_filter is NULL")),
                                 10000);
        w.showView(QStringLiteral("chunk"));
        shot(w, QStringLiteral("damage-chunk"));
        w.showView(QStringLiteral("heatmap"));
        shot(w, QStringLiteral("damage-heatmap"));
        elsewhere(QStringLiteral("update username_filter u set bits = s.bits from saved s where u.chunk = s.chunk"));
    }

    /** Open on a whole filter; another session nulls a row, then deletes one: each time the very next
     *  refresh is red (a delete is read whole: a read of the changes cannot see a row that is gone). */
    void turnsRedWithinOneRefresh()
    {
        MainWindow w;
        w.setRefreshInterval(3600);
        w.show();
        w.connectTo(*ConnectionSpec::parse(conninfo()), FilterRef{});
        QTRY_VERIFY_WITH_TIMEOUT(w.refreshCount() >= 1, 30000);
        QVERIFY(w.damageText().isEmpty());
        oneRefresh(w);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(w.heatmap()->result().unchanged); // nothing written: no row read

        elsewhere(QStringLiteral("update username_filter set bits = null where chunk = 71962"));
        oneRefresh(w);
        if (QTest::currentTestFailed())
            return;
        expectRed(w, QStringLiteral("chunk 71962 is NULL"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(w.heatmap()->result().incremental); // seen by the cheap read of the changes
        expectAdaUnanswered(w, QStringLiteral("NULL"));
        if (QTest::currentTestFailed())
            return;
        oneRefresh(w); // it stays red while it is so, read or not
        expectRed(w, QStringLiteral("chunk 71962 is NULL"));
        if (QTest::currentTestFailed())
            return;

        elsewhere(QStringLiteral("update username_filter u set bits = s.bits from saved s where u.chunk = 71962 "
                                 "and s.chunk = 71962"));
        oneRefresh(w);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(w.damageText().isEmpty(), qPrintable(w.damageText()));
        QVERIFY(!w.statusText().contains(QLatin1String("DAMAGED")));

        elsewhere(QStringLiteral("delete from username_filter where chunk = 5"));
        oneRefresh(w);
        if (QTest::currentTestFailed())
            return;
        expectRed(w, QStringLiteral("chunk 5 has no row"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!w.heatmap()->result().incremental);
        QCOMPARE(w.heatmap()->result().fill.rowsRead, qint64(131071));

        elsewhere(QStringLiteral("insert into username_filter select * from saved where chunk = 5"));
        oneRefresh(w);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(w.damageText().isEmpty(), qPrintable(w.damageText()));
        StepThroughView *step = w.stepView();
        step->setName(QStringLiteral("Ada"));
        QTRY_COMPARE_WITH_TIMEOUT(step->verdictText(), QStringLiteral("maybe taken"), 10000);
        QVERIFY(step->rowError().isEmpty());
    }

    /** With track_counts off there is no delete counter: every refresh reads the changes, and counts
     *  the rows with them, so a deleted row still turns the window red at the next refresh. */
    void aDeleteIsSeenWithoutTheStatistics()
    {
        QVERIFY(mRaw->exec(QStringLiteral("alter database app set track_counts = off")).ok());
        MainWindow w;
        w.setRefreshInterval(3600);
        w.show();
        w.connectTo(*ConnectionSpec::parse(conninfo()), FilterRef{});
        QTRY_VERIFY_WITH_TIMEOUT(w.refreshCount() >= 1, 30000);
        QVERIFY(w.damageText().isEmpty());
        oneRefresh(w);
        QVERIFY(w.heatmap()->result().incremental); // no counter: the changes are read, none found
        QCOMPARE(w.heatmap()->result().fill.rowsRead, qint64(0));
        QVERIFY(mRaw->exec(QStringLiteral("delete from username_filter where chunk = 5")).ok());
        oneRefresh(w);
        if (QTest::currentTestFailed())
            return;
        expectRed(w, QStringLiteral("chunk 5 has no row"));
        QVERIFY(!w.heatmap()->result().incremental); // the count said so, and the fill was read whole
        QVERIFY(mRaw->exec(QStringLiteral("insert into username_filter select * from saved where chunk = 5; alter "
                                          "database app reset track_counts"))
                    .ok());
        oneRefresh(w);
        QVERIFY2(w.damageText().isEmpty(), qPrintable(w.damageText()));
    }

    void cleanupTestCase()
    {
        mRaw.reset();
        QVERIFY(mCluster.stop().ok());
    }
};

QTEST_MAIN(TestGuiDamage)
#include "tst_gui_damage.moc"
