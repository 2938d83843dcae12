// The window on a logical-replication publisher (a FOR ALL TABLES publication): Record a snapshot, the
// rebuild wizard and the swap dialog refuse as bloomctl does, with the same text (the subscribers'
// SQL), and go ahead only when the DBA says the subscribers are ready. (tst_replication follows that
// SQL on a real subscriber.)
#include "admin/rebuilddialog.h"
#include "admin/swapdialog.h"
#include "fpr/fprview.h"
#include "fpr/historychart.h"
#include "guitest.h"
#include "mainwindow.h"
#include "postgres/pgconn.h"
#include "session/filtersession.h"
#include "testcluster.h"

#include <QAction>
#include <QCheckBox>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <memory>

using namespace bloom;

class TestGuiPublication : public QObject {
    Q_OBJECT
private:
    QTemporaryDir mConfig;
    QTemporaryFile mNames;
    LocalCluster mCluster;
    std::unique_ptr<MainWindow> mWindow;

    QString db() const { return mCluster.connectionString(QStringLiteral("app")); }
    test::CtlRun bloomctl(const QStringList &args)
    {
        return test::runBloomctl(QStringList{QStringLiteral("--db"), db()} + args);
    }
    /** A menu action, by its objectName (not by text a translation changes). */
    QAction *action(const char *objectName) const { return mWindow->findChild<QAction *>(QLatin1String(objectName)); }

private slots:
    void initTestCase()
    {
        QVERIFY(mConfig.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(mConfig.path()));
        LocalCluster::Options o;
        o.settings = {QStringLiteral("wal_level=logical")};
        auto s = mCluster.start(o);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().toString()));
        QVERIFY(mCluster.createDatabase(QStringLiteral("app")).ok());
        auto r = bloomctl({QStringLiteral("init"), QStringLiteral("--chunks"), QStringLiteral("1024")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(
            mCluster.exec(QStringLiteral("app"), QStringLiteral("create publication everything for all tables")).ok());
        QList<QByteArray> names;
        for (int i = 0; i < 5000; ++i)
            names << "gui-user-" + QByteArray::number(i);
        QVERIFY(mNames.open());
        mNames.write(names.join('\n'));
        mNames.close();
        r = bloomctl({QStringLiteral("load"), mNames.fileName()});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void recordingIsRefusedWithBloomctlsText()
    {
        const auto cli = bloomctl({QStringLiteral("record")});
        QCOMPARE(cli.code, 8);
        mWindow = std::make_unique<MainWindow>();
        mWindow->setRefreshInterval(1);
        mWindow->show();
        QSignalSpy opened(mWindow->session(), &FilterSession::opened);
        mWindow->connectTo(*ConnectionSpec::parse(db()), FilterRef{});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        test::answerNextBox(QMessageBox::Yes);
        action("actionAdminMode")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!mWindow->session()->summary().readOnly, 20000);
        // The box says what bloomctl says: the refusal, then the fix with the subscribers' SQL.
        QString text, fix;
        bool clicked = false;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String("publicationRefusal"))
                return;
            text = box->text();
            fix = box->informativeText();
            for (QAbstractButton *b : box->buttons())
                if (box->buttonRole(b) == QMessageBox::AcceptRole)
                    b->click(); // "The subscribers ran it: record anyway"
            clicked = true;
        });
        poll.start(50);
        action("actionRecordSnapshot")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(clicked, 20000);
        poll.stop();
        const QString said = QString::fromUtf8(cli.err);
        const QString message = text.mid(text.indexOf(QLatin1String("\n\n")) + 2);
        QVERIFY2(message.startsWith(QLatin1String("refusing to create public.bloomscope_history")), qPrintable(text));
        QVERIFY2(said.contains(message + QLatin1Char('\n') + fix), qPrintable(said + QStringLiteral("\n--\n") + fix));
        QVERIFY(fix.contains(QLatin1String("create table if not exists \"public\".bloomscope_history")));
        // Going ahead records (nothing subscribes here).
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->statusText().contains(QLatin1String("Recorded a snapshot")), 20000);
        PgConn c(db());
        QCOMPARE(c.column(QStringLiteral("select count(*) from bloomscope_history"))->value(0), QByteArray("1"));
    }

    void rebuildAndSwapAreRefusedUntilTheSubscribersAreReady()
    {
        const QStringList args{QStringLiteral("rebuild"),  QStringLiteral("--yes"),
                               QStringLiteral("--into"),   QStringLiteral("username_filter_v2"),
                               QStringLiteral("--chunks"), QStringLiteral("2048"),
                               QStringLiteral("--file"),   mNames.fileName()};
        const auto cli = bloomctl(args);
        QCOMPARE(cli.code, 8);
        const ConnectionSpec spec = *ConnectionSpec::parse(db());
        RebuildDialog wizard(spec, mWindow->session()->summary(), 5000);
        wizard.show();
        wizard.findChild<QSpinBox *>(QStringLiteral("chunksLog2"))->setValue(11);
        wizard.setSources({}, mNames.fileName());
        QVERIFY(!wizard.publicationOk()->isVisibleTo(&wizard));
        wizard.start();
        QTRY_VERIFY_WITH_TIMEOUT(wizard.publicationOk()->isVisibleTo(&wizard), 60000);
        // The same refusal and the same SQL as bloomctl's.
        QVERIFY2(QString::fromUtf8(cli.err).contains(wizard.stageText() + QLatin1Char('\n') + wizard.subscriberText()),
                 qPrintable(wizard.stageText() + QLatin1Char('\n') + wizard.subscriberText()));
        QVERIFY(wizard.subscriberText().contains(QLatin1String("bloomscope_follow_swap")));
        PgConn c(db());
        QCOMPARE(c.column(QStringLiteral("select to_regclass('bloomscope_rebuild') is null"))->value(0),
                 QByteArray("t"));
        wizard.publicationOk()->setChecked(true);
        wizard.start();
        QTRY_VERIFY_WITH_TIMEOUT(!wizard.rebuiltTable().isEmpty(), 60000);
        QVERIFY2(wizard.subscriberText().contains(QLatin1String("REFRESH PUBLICATION")),
                 qPrintable(wizard.subscriberText()));

        // The swap dialog: refused, with the check each subscriber must pass, until the DBA ticks it.
        SwapDialog swap(spec, FilterRef{});
        QSignalSpy checked(&swap, &SwapDialog::checked);
        swap.show();
        QVERIFY(checked.wait(30000));
        QVERIFY2(swap.verdictText().contains(QLatin1String("published to subscribers")),
                 qPrintable(swap.verdictText()));
        QVERIFY(swap.verdictText().contains(QLatin1String("ready_for_the_swap")));
        QVERIFY(swap.publicationOk()->isVisibleTo(&swap));
        QVERIFY(!swap.readyToSwap());
        swap.publicationOk()->setChecked(true);
        QVERIFY2(swap.readyToSwap(), qPrintable(swap.verdictText()));
        swap.swapNow();
        QTRY_VERIFY_WITH_TIMEOUT(swap.resultText().startsWith(QLatin1String("Swapped")), 60000);
        QVERIFY2(swap.resultText().contains(QLatin1String("REFRESH PUBLICATION")), qPrintable(swap.resultText()));
        QCOMPARE(c.column(QStringLiteral("select count(*) from username_filter"))->value(0), QByteArray("2048"));
    }

    void cleanupTestCase() { mWindow.reset(); }
};

QTEST_MAIN(TestGuiPublication)
#include "tst_gui_publication.moc"
