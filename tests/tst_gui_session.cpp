// The window's session under a DBA's hands: failed connects, other environments, saved passwords, the
// connect dialog's words and buttons, and a swap by another session under an open window.
#include "connect/connectdialog.h"
#include "fpr/fprview.h"
#include "guitest.h"
#include "heatmap/heatmapwidget.h"
#include "mainwindow.h"
#include "model/placement.h"
#include "postgres/filtersql.h"
#include "postgres/filterstore.h"
#include "postgres/pgconn.h"
#include "session/filtersession.h"
#include "step/stepthroughview.h"
#include "testcluster.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>
#include <optional>

using namespace bloom;

class TestGuiSession : public QObject {
    Q_OBJECT
private:
    QTemporaryDir mConfig; ///< QSettings live here, not in the user's ~/.config
    LocalCluster mCluster;
    std::unique_ptr<MainWindow> mWindow;

    static constexpr auto Password = "s3cret-dba";

    Profile socketProfile(const QString &database) const
    {
        Profile p;
        p.host = mCluster.socketDir();
        p.port = mCluster.port();
        p.database = database;
        p.user = mCluster.superuser();
        p.sslmode = QStringLiteral("disable");
        return p;
    }
    Profile tcpProfile(const QString &database) const
    {
        Profile p = socketProfile(database);
        p.host = QStringLiteral("127.0.0.1");
        p.user = QStringLiteral("dba");
        return p;
    }
    void waitForRefreshes(int count) { QTRY_VERIFY_WITH_TIMEOUT(mWindow->refreshCount() >= count, 30000); }
    /** A refresh's answer as the window showed it. */
    struct Seen {
        FillResult result;
        QString status;
        int timerMs = 0;
    };
    /**
     * Refreshes until a picture satisfies `pred` and returns that answer as the window showed it: the
     * one that answered, not what a refresh asked for meanwhile (and run right after it, finding
     * nothing new) has put in its place by the time a poll looks.
     */
    template<typename P> std::optional<Seen> refreshUntil(P pred, int timeoutMs = 20000)
    {
        std::optional<Seen> hit;
        QObject scope;
        connect(mWindow.get(), &MainWindow::refreshed, &scope, [&] {
            if (!hit && pred(mWindow->heatmap()->result()))
                hit = Seen{mWindow->heatmap()->result(), mWindow->statusText(), mWindow->refreshTimer()->interval()};
        });
        QElapsedTimer t;
        t.start();
        while (!hit && t.elapsed() < timeoutMs) {
            mWindow->session()->refresh();
            QTest::qWait(50);
        }
        return hit;
    }
    /** Fills a dialog's fields with p and the password. */
    static void fill(ConnectDialog &dialog, const Profile &p, const QString &password = {})
    {
        dialog.setProfile(p);
        dialog.findChild<QLineEdit *>(QStringLiteral("password"))->setText(password);
    }
    /** Runs `act` on the next modal dialog of type T once it is up. */
    template<typename T, typename F> static void onNextDialog(F act)
    {
        QTimer::singleShot(10, qApp, [act] {
            auto *d = qobject_cast<T *>(QApplication::activeModalWidget());
            if (!d) {
                onNextDialog<T>(act);
                return;
            }
            act(d);
        });
    }

private slots:
    void initTestCase()
    {
        QVERIFY(mConfig.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(mConfig.path()));
        QCoreApplication::setOrganizationName(QStringLiteral("BloomscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_session"));
        QVERIFY(test::startCluster(mCluster));
        for (const QString &db : {QStringLiteral("app"), QStringLiteral("prod")}) {
            QVERIFY(mCluster.createDatabase(db).ok());
            QVERIFY(mCluster.exec(db, test::sqlResource(QStringLiteral("reference.sql"))).ok());
        }
        QVERIFY(mCluster.createDatabase(QStringLiteral("nofilter")).ok());
        QVERIFY(mCluster
                    .exec(QStringLiteral("postgres"), QStringLiteral("create role dba login password '%1'; grant "
                                                                     "pg_read_all_data, pg_write_all_data to dba")
                                                          .arg(QLatin1String(Password)))
                    .ok());
        mWindow = std::make_unique<MainWindow>();
        mWindow->setRefreshInterval(1);
        mWindow->show();
        Profile demo = socketProfile(QStringLiteral("app"));
        demo.name = QStringLiteral("dev box");
        demo.environment = QStringLiteral("development");
        mWindow->connectTo(demo.spec(), demo.ref(), demo);
        waitForRefreshes(1);
        QVERIFY(mWindow->bannerText().contains(QLatin1String("DEVELOPMENT")));
    }

    void failedConnectLeavesTheSessionAlone()
    {
        const QString where = mWindow->session()->summary().where;
        const QString banner = mWindow->bannerText();
        const QString title = mWindow->windowTitle();
        // The refreshes that show the window still reads its session come every second: idle, they
        // would slow down to one in 12 s, and this test took 39 s waiting for them.
        QCheckBox *slowDown = nullptr;
        for (QCheckBox *c : mWindow->findChildren<QCheckBox *>())
            if (c->text() == QLatin1String("Slow down &when idle"))
                slowDown = c;
        QVERIFY(slowDown && slowDown->isChecked());
        slowDown->setChecked(false);
        const auto restore = qScopeGuard([slowDown] { slowDown->setChecked(true); });
        mWindow->setRefreshInterval(1);
        struct Bad {
            const char *what;
            Profile profile;
            QString password;
            const char *says;
        };
        Profile wrongPort = socketProfile(QStringLiteral("app"));
        wrongPort.host = QStringLiteral("127.0.0.1");
        wrongPort.port = 1;
        const QList<Bad> bad{
            {"wrong password", tcpProfile(QStringLiteral("app")), QStringLiteral("not-it"), "password"},
            {"wrong port", wrongPort, {}, "cannot reach the server"},
            {"no filter there", socketProfile(QStringLiteral("nofilter")), {}, "there is no table"},
        };
        for (const Bad &b : bad) {
            std::unique_ptr<ConnectDialog> dialog(mWindow->makeConnectDialog());
            dialog->show();
            fill(*dialog, b.profile, b.password);
            QSignalSpy failed(mWindow->session(), &FilterSession::openFailed);
            dialog->connectNow();
            QVERIFY2(failed.wait(20000), b.what);
            // The error is in the dialog, which stays open; the window still shows, and refreshes, its session.
            QVERIFY2(dialog->errorText().contains(QLatin1String(b.says), Qt::CaseInsensitive),
                     qPrintable(dialog->errorText()));
            QVERIFY(!dialog->errorText().contains(QLatin1Char('\t')));
            QVERIFY(dialog->isVisible());
            QVERIFY(mWindow->session()->isOpen());
            QCOMPARE(mWindow->session()->summary().where, where);
            QCOMPARE(mWindow->bannerText(), banner);
            QCOMPARE(mWindow->windowTitle(), title);
            QVERIFY2(mWindow->statusText().contains(QLatin1String("still attached")),
                     qPrintable(mWindow->statusText()));
            const int before = mWindow->refreshCount();
            waitForRefreshes(before + 2); // and it does not retry the bad server: it refreshes the good one
            QVERIFY(!mWindow->statusText().contains(QLatin1String("lost")));
        }
    }

    void theBannerFollowsTheSessionInTheSameEvent()
    {
        std::unique_ptr<ConnectDialog> dialog(mWindow->makeConnectDialog());
        Profile prod = tcpProfile(QStringLiteral("prod"));
        prod.name = QStringLiteral("eu-prod");
        prod.environment = QStringLiteral("production");
        fill(*dialog, prod, QString::fromLatin1(Password));
        dialog->show();
        QString bannerAtOpen, titleAtOpen, statusAtOpen;
        // Connected after the window's own slot: sees what the window shows in the event the session changed.
        connect(
            mWindow->session(), &FilterSession::opened, this,
            [&] {
                bannerAtOpen = mWindow->bannerText();
                titleAtOpen = mWindow->windowTitle();
                statusAtOpen = mWindow->statusText();
            },
            Qt::SingleShotConnection);
        dialog->connectNow();
        QTRY_VERIFY_WITH_TIMEOUT(!bannerAtOpen.isEmpty(), 20000);
        QCOMPARE(dialog->result(), int(QDialog::Accepted));
        QVERIFY2(bannerAtOpen.startsWith(QLatin1String("PRODUCTION")), qPrintable(bannerAtOpen));
        QVERIFY(bannerAtOpen.contains(QLatin1String("eu-prod")));
        QVERIFY(bannerAtOpen.contains(QLatin1String("/prod")));
        QVERIFY(bannerAtOpen.contains(QLatin1String("read-only")));
        QVERIFY(titleAtOpen.contains(QLatin1String("PRODUCTION")));
        QVERIFY(titleAtOpen.contains(QLatin1String("/prod")));
        QVERIFY2(statusAtOpen.contains(QLatin1String("/prod")), qPrintable(statusAtOpen));
        QVERIFY(mWindow->session()->summary().where.contains(QLatin1String("dba@127.0.0.1")));

        // Admin mode is part of what the banner says; it reconnects (with the password still in memory).
        QAction *admin = mWindow->findChild<QAction *>(QStringLiteral("actionAdminMode"));
        QVERIFY(admin);
        QSignalSpy opened(mWindow->session(), &FilterSession::opened);
        test::answerNextBox(QMessageBox::Yes);
        admin->trigger();
        QVERIFY(opened.wait(20000));
        QVERIFY2(mWindow->bannerText().contains(QLatin1String("ADMIN MODE")), qPrintable(mWindow->bannerText()));
        QVERIFY(mWindow->windowTitle().contains(QLatin1String("ADMIN")));
        admin->trigger(); // back to read-only: no question
        QVERIFY(opened.wait(20000));
        QVERIFY(mWindow->bannerText().contains(QLatin1String("read-only")));
    }

    void savingAProfileKeepsThePassword()
    {
        FilterSession session;
        ConnectDialog dialog(&session);
        Profile p = tcpProfile(QStringLiteral("app"));
        p.name = QStringLiteral("with-password");
        fill(dialog, p, QString::fromLatin1(Password));
        dialog.show();
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("saveButton")), Qt::LeftButton);
        QCOMPARE(dialog.findChild<QLineEdit *>(QStringLiteral("password"))->text(), QString::fromLatin1(Password));
        dialog.connectNow();
        QTRY_VERIFY_WITH_TIMEOUT(session.isOpen(), 20000);
        // The settings file has the profile, never the password.
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("with-password"));
        QVERIFY(!text.contains(Password));
    }

    void theDialogSpeaksTheGuisWords()
    {
        FilterSession session;
        ConnectDialog dialog(&session);
        dialog.show();
        // Test connection: version, filter, geometry, round trip; the session is not touched.
        fill(dialog, socketProfile(QStringLiteral("app")));
        dialog.testNow();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.testText().contains(QLatin1String("round trip")), 20000);
        QVERIFY2(dialog.testText().contains(QLatin1String("PostgreSQL 15")), qPrintable(dialog.testText()));
        QVERIFY(dialog.testText().contains(QLatin1String("131072 chunks")));
        if (const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR"); !dir.isEmpty())
            dialog.grab().save(dir + QStringLiteral("/connect.png"));
        QVERIFY(!session.isOpen());
        QVERIFY(dialog.isVisible());
        // A database without the filter: the fix names the dialog's fields, not bloomctl's options.
        fill(dialog, socketProfile(QStringLiteral("nofilter")));
        dialog.testNow();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.testText().contains(QLatin1String("no table")), 20000);
        QVERIFY2(dialog.testText().contains(QLatin1String("Filter table")), qPrintable(dialog.testText()));
        QVERIFY(!dialog.testText().contains(QLatin1String("--")));
        // After an error, Enter connects (the default button), it never saves a profile.
        auto *name = dialog.findChild<QLineEdit *>(QStringLiteral("profileName"));
        name->clear();
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("saveButton")), Qt::LeftButton);
        QVERIFY(dialog.errorText().contains(QLatin1String("name first")));
        fill(dialog, socketProfile(QStringLiteral("app")));
        const int profiles = int(ProfileStore::load().size());
        QTest::keyClick(dialog.findChild<QLineEdit *>(QStringLiteral("database")), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(session.isOpen(), 20000);
        QCOMPARE(int(ProfileStore::load().size()), profiles);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        // The next dialog opens on the connection last used, and lists it under Recent.
        ConnectDialog again(&session);
        auto *combo = again.findChild<QComboBox *>(QStringLiteral("profiles"));
        QVERIFY2(combo->currentText().startsWith(QLatin1String("Recent:")), qPrintable(combo->currentText()));
        QVERIFY(combo->currentText().contains(QLatin1String("/app")));
        QCOMPARE(again.findChild<QLineEdit *>(QStringLiteral("database"))->text(), QStringLiteral("app"));
    }

    void everyViewFollowsASwapByAnotherSession()
    {
        // The window on "app", read-only and paused: only the views' own requests reach the server.
        Profile app = socketProfile(QStringLiteral("app"));
        QSignalSpy opened(mWindow->session(), &FilterSession::opened);
        mWindow->connectTo(app.spec(), app.ref(), app);
        QVERIFY(opened.wait(20000));
        const int before = mWindow->refreshCount();
        waitForRefreshes(before + 1);
        QCOMPARE(mWindow->session()->summary().geometry.chunks(), 131072u);
        mWindow->setRefreshInterval(3600);

        // Another session swaps in a filter twice the size holding one name, as a rebuild's swap does.
        const Geometry big = *Geometry::fromCounts(262144, 8192, 7);
        const Placement ada = placeAscii(big, "ada");
        PgConn dba(mCluster.connectionString(QStringLiteral("app")));
        QVERIFY(
            dba.exec(QStringLiteral("begin; alter table username_filter rename to username_filter_old; "
                                    "alter function username_bits(text) rename to username_bits_old; %1; "
                                    "update username_filter f set bits = f.bits | b.mask from "
                                    "username_bits('ada') b where f.chunk = b.chunk; commit")
                         .arg(renderFilterSql(big, QStringLiteral("username_filter"), QStringLiteral("username_bits"))))
                .ok());

        // The step-through, asked before any refresh, answers from the new table with the new geometry.
        mWindow->stepView()->setName(QStringLiteral("ada"));
        mWindow->stepView()->setStep(StepThroughView::Verdict);
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->stepView()->hasResult(), 20000);
        QCOMPARE(mWindow->stepView()->result().explanation.placement.chunk, ada.chunk);
        QCOMPARE(mWindow->stepView()->verdictText(), QStringLiteral("maybe taken"));
        QCOMPARE(mWindow->session()->summary().geometry.chunks(), 262144u);
        QVERIFY2(mWindow->statusText().contains(QLatin1String("swapped")), qPrintable(mWindow->statusText()));
        // The FPR chart, the heatmap (and its hover), and the Chunk tab follow too.
        QCOMPARE(mWindow->fprView()->filterGeometry().chunks(), 262144u);
        const int now = mWindow->refreshCount();
        mWindow->session()->refresh();
        waitForRefreshes(now + 1);
        QCOMPARE(mWindow->heatmap()->result().fill.setBits.size(), size_t(262144));
        QVERIFY(mWindow->heatmap()->describeChunk(ada.chunk).contains(QLatin1String("7 of 8192")));
        auto *number = mWindow->findChild<QSpinBox *>(QStringLiteral("chunkNumber"));
        QCOMPARE(number->maximum(), 262143);
        auto *label = mWindow->findChild<QLabel *>(QStringLiteral("chunkLabel"));
        mWindow->showChunk(ada.chunk);
        QTRY_VERIFY_WITH_TIMEOUT(label->text().contains(QStringLiteral("Chunk %1: 7 of 8192").arg(ada.chunk)), 20000);
        mWindow->setRefreshInterval(1);
    }

    void heatmapScaleShowsDifferencesAndLoadingSaysSo()
    {
        // As at 20M names: every chunk holds 700..1299 bits, a narrow spread far from 0.
        PgConn dba(mCluster.connectionString(QStringLiteral("prod")));
        QVERIFY(dba.exec(QStringLiteral("update username_filter set bits = (repeat('1', 700 + chunk % 600) || "
                                        "repeat('0', 8192 - 700 - chunk % 600))::bit(8192)"))
                    .ok());
        Profile prod = socketProfile(QStringLiteral("prod"));
        QString legendAtOpen, summaryAtOpen;
        connect(
            mWindow->session(), &FilterSession::opened, this,
            [&] {
                legendAtOpen = mWindow->findChild<HeatmapLegend *>()->caption();
                summaryAtOpen = mWindow->findChild<QLabel *>(QStringLiteral("heatmapSummary"))->text();
            },
            Qt::SingleShotConnection);
        const int before = mWindow->refreshCount();
        mWindow->connectTo(prod.spec(), prod.ref(), prod);
        waitForRefreshes(before + 1);
        // Until the fill is read the window says it is loading (not "1 bits, FPR 4e-28").
        QCOMPARE(legendAtOpen, QStringLiteral("loading..."));
        QVERIFY2(summaryAtOpen.startsWith(QLatin1String("Loading")), qPrintable(summaryAtOpen));
        // Automatic picks the relative scale: the emptiest chunk is the bottom colour, the fullest the top.
        const FillResult &r = mWindow->heatmap()->result();
        QCOMPARE(int(r.scale), int(HeatScale::Relative));
        QCOMPARE(r.scaleMin, 700u);
        QCOMPARE(r.scaleMax, 1299u);
        const auto pixel = [&r](quint32 chunk) {
            return r.heatmap.pixel(int(chunk % quint32(r.imageColumns)), int(chunk / quint32(r.imageColumns)));
        };
        QCOMPARE(pixel(0), fillColour(0, 1));   // 700 bits: the ramp's first colour
        QCOMPARE(pixel(599), fillColour(1, 1)); // 1299 bits: its last
        QVERIFY(
            mWindow->findChild<HeatmapLegend *>()->caption().startsWith(QLatin1String("Relative scale: 700..1299")));
        // The absolute scale, when chosen, maps 0..fullest.
        auto *scale = mWindow->findChild<QComboBox *>(QStringLiteral("heatScale"));
        const int now = mWindow->refreshCount();
        scale->setCurrentIndex(scale->findData(int(HeatScale::Absolute)));
        waitForRefreshes(now + 1);
        // A refresh already on its way answers in the old scale; the one the change asked for follows it.
        QTRY_COMPARE_WITH_TIMEOUT(int(mWindow->heatmap()->result().scale), int(HeatScale::Absolute), 20000);
        QVERIFY(mWindow->findChild<HeatmapLegend *>()->caption().startsWith(QLatin1String("Absolute scale: 0..1299")));
        scale->setCurrentIndex(scale->findData(int(HeatScale::Auto)));
    }

    void exportsAboutAndAdminFeedback()
    {
        Profile app = socketProfile(QStringLiteral("app"));
        QSignalSpy opened(mWindow->session(), &FilterSession::opened);
        mWindow->connectTo(app.spec(), app.ref(), app);
        QVERIFY(opened.wait(20000));
        int before = mWindow->refreshCount();
        waitForRefreshes(before + 1);
        // Help > About names the server the window is attached to.
        QVERIFY2(mWindow->aboutText().contains(QLatin1String("PostgreSQL 15")), qPrintable(mWindow->aboutText()));
        // F5 refreshes now.
        mWindow->setRefreshInterval(3600);
        mWindow->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(mWindow.get()));
        before = mWindow->refreshCount();
        QTest::keyClick(mWindow.get(), Qt::Key_F5);
        waitForRefreshes(before + 1);
        if (QTest::currentTestFailed())
            return;
        // Exports: the heatmap as PNG (a cell a chunk), every chunk's fill as CSV, the FPR chart.
        QTemporaryDir dir;
        QVERIFY(mWindow->exportHeatmapPng(dir.filePath(QStringLiteral("h.png"))).ok());
        QImage png(dir.filePath(QStringLiteral("h.png")));
        QVERIFY(!png.isNull());
        QCOMPARE(png.width() % mWindow->heatmap()->result().imageColumns, 0);
        QVERIFY(mWindow->exportFillCsv(dir.filePath(QStringLiteral("f.csv"))).ok());
        QFile csv(dir.filePath(QStringLiteral("f.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QCOMPARE(lines.first(), QByteArray("chunk,set_bits,chunk_bits,fill,chunk_fpr"));
        QCOMPARE(lines.size(), qsizetype(mWindow->session()->summary().geometry.chunks()) + 2); // + header, final \n
        QVERIFY(mWindow->exportFprPng(dir.filePath(QStringLiteral("fpr.png"))).ok());
        QVERIFY(mWindow->exportFprCsv(dir.filePath(QStringLiteral("fpr.csv"))).ok());
        QVERIFY(!mWindow->exportFillCsv(QStringLiteral("/nonexistent/dir/f.csv")).ok());

        // The Chunk tab takes a number.
        auto *number = mWindow->findChild<QSpinBox *>(QStringLiteral("chunkNumber"));
        auto *label = mWindow->findChild<QLabel *>(QStringLiteral("chunkLabel"));
        number->setValue(1234);
        QTest::mouseClick(mWindow->findChild<QPushButton *>(QStringLiteral("showChunk")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(label->text().startsWith(QLatin1String("Chunk 1234:")), 20000);

        // Admin mode, then Add a name: the status bar says what was written.
        const auto action = [this](const char *name) { return mWindow->findChild<QAction *>(QLatin1String(name)); };
        QAction *admin = action("actionAdminMode"), *add = action("actionAddName"), *sample = action("actionSampleFpr"),
                *load = action("actionLoadNames");
        QVERIFY(admin && add && sample && load);
        test::answerNextBox(QMessageBox::Yes);
        admin->trigger();
        QVERIFY(opened.wait(20000));
        QTRY_VERIFY(add->isEnabled());
        QSignalSpy added(mWindow.get(), &MainWindow::nameAdded);
        const Placement feedback = placeAscii(mWindow->session()->summary().geometry, "feedback-name");
        onNextDialog<QInputDialog>([](QInputDialog *d) {
            d->setTextValue(QStringLiteral("feedback-name"));
            onNextDialog<QMessageBox>([](QMessageBox *box) {
                for (QAbstractButton *b : box->buttons())
                    if (b->text() == QLatin1String("Write"))
                        b->click();
            });
            d->accept();
        });
        // The first refresh after the add, whenever it lands (the window asks for it when the add ends).
        bool sawAdd = false;
        std::optional<FillResult> firstAfter;
        QObject scope; // the connections below end with this test, as their captures do
        connect(mWindow.get(), &MainWindow::nameAdded, &scope, [&] { sawAdd = true; });
        connect(mWindow.get(), &MainWindow::refreshed, &scope, [&] {
            if (sawAdd && !firstAfter)
                firstAfter = mWindow->heatmap()->result();
        });
        add->trigger();
        QVERIFY(added.wait(20000));
        QVERIFY2(mWindow->statusBar()->currentMessage().contains(QLatin1String("Added \"feedback-name\" to chunk")),
                 qPrintable(mWindow->statusBar()->currentMessage()));
        // The refresh after our own add reads the table (the stats would show the write only later).
        QTRY_VERIFY_WITH_TIMEOUT(firstAfter.has_value(), 20000);
        QVERIFY(!firstAfter->unchanged);
        PgConn server(mCluster.connectionString(QStringLiteral("app")));
        auto bits = server.column(
            QStringLiteral("select bit_count(bits) from username_filter where chunk = %1").arg(feedback.chunk));
        QVERIFY(bits.ok());
        QCOMPARE(firstAfter->fill.setBits[feedback.chunk], bits->value(0).toUInt());
        // Loading a file: chosen in the file dialog, confirmed, and the box at the end says how the
        // table was written (steps, connections) and which lines were skipped; no name is lost.
        // A quarter as many names as chunks touches a fifth of them: more than a step's share, so the
        // load writes in steps (the table is whatever the tests before left: 2^17 or 2^18 chunks).
        const int loadCount = int(mWindow->session()->summary().geometry.chunks() / 4);
        QByteArrayList loadNames;
        for (int i = 0; i < loadCount; ++i)
            loadNames << "gui-load-" + QByteArray::number(i);
        const QString namesPath = dir.filePath(QStringLiteral("names.txt"));
        {
            QFile f(namesPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(loadNames.join('\n') + "\n\xff\xfe<b>bad</b>\n");
        }
        QString loadText;
        onNextDialog<QFileDialog>([&](QFileDialog *d) {
            onNextDialog<QMessageBox>([&](QMessageBox *box) {
                for (QAbstractButton *b : box->buttons())
                    if (b->text() == QLatin1String("Write")) {
                        onNextDialog<QMessageBox>([&](QMessageBox *done) {
                            loadText = done->text();
                            QCOMPARE(done->textFormat(), Qt::PlainText);
                            done->accept();
                        });
                        b->click();
                    }
            });
            d->selectFile(namesPath);
            static_cast<QDialog *>(d)->accept(); // Open (QFileDialog::accept is protected)
        });
        QSignalSpy loaded(mWindow->session(), &FilterSession::loaded);
        load->trigger();
        QVERIFY(loaded.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!loadText.isEmpty(), 20000);
        QVERIFY2(
            loadText.startsWith(QStringLiteral("Added %L1 names from %L2 lines in ").arg(loadCount).arg(loadCount + 1)),
            qPrintable(loadText));
        QVERIFY2(loadText.contains(
                     QStringLiteral("in %1 committed step(s) on 2 connection(s)).").arg(FilterStore::LoadSteps)),
                 qPrintable(loadText));
        QVERIFY2(loadText.contains(QStringLiteral("1 bad line(s) skipped:\nline %1: ").arg(loadCount + 1)),
                 qPrintable(loadText));
        auto free = server.column(QStringLiteral("select count(*) from unnest(string_to_array($1, E'\\n')) n "
                                                 "where not (select bits & mask = mask from username_filter "
                                                 "join username_bits(n) using (chunk))"),
                                  {loadNames.join('\n')});
        QVERIFY(free.ok());
        QCOMPARE(free->value(0), QByteArray("0"));
        // Sampling the FPR shows progress and can be cancelled.
        int sawProgress = 0;
        connect(mWindow->session(), &FilterSession::sampleProgress, &scope,
                [&](int, const SampleProgress &) { ++sawProgress; });
        QSignalSpy sampled(mWindow->session(), &FilterSession::sampled);
        QString result;
        onNextDialog<QInputDialog>([&result](QInputDialog *d) {
            d->setIntValue(50000);
            onNextDialog<QMessageBox>([&result](QMessageBox *box) { // the result, once measured
                result = box->text();
                box->accept();
            });
            d->accept();
        });
        sample->trigger();
        QVERIFY(sampled.wait(60000));
        QCOMPARE(sawProgress, 5);
        QVERIFY2(result.startsWith(QLatin1String("Measured:")), qPrintable(result));
        admin->trigger(); // back to read-only
        QVERIFY(opened.wait(20000));
        mWindow->setRefreshInterval(1);
    }

    void aRefreshReadsNoRowWhenNothingChanged()
    {
        Profile app = socketProfile(QStringLiteral("app"));
        QSignalSpy opened(mWindow->session(), &FilterSession::opened);
        // The first refresh that answers after the open is the new session's first read (the window asks
        // for it on opened()). It is caught as it arrives: a refresh asked for meanwhile runs right after
        // it and, nothing having changed, answers "unchanged" within the same poll.
        bool isOpen = false;
        std::optional<FillResult> first;
        QObject scope;
        connect(mWindow->session(), &FilterSession::opened, &scope, [&] { isOpen = true; });
        connect(mWindow.get(), &MainWindow::refreshed, &scope, [&] {
            if (isOpen && !first)
                first = mWindow->heatmap()->result();
        });
        mWindow->connectTo(app.spec(), app.ref(), app);
        QVERIFY(opened.wait(20000));
        mWindow->setRefreshInterval(3600);
        QTRY_VERIFY_WITH_TIMEOUT(first.has_value(), 30000);
        QVERIFY(!first->unchanged); // the first read of a session reads every row
        QVERIFY(!first->incremental);
        // Nothing written: the next refreshes read no row, and the status bar says what they cost.
        QTRY_VERIFY_WITH_TIMEOUT((mWindow->session()->refresh(), mWindow->heatmap()->result().unchanged), 20000);
        QVERIFY2(mWindow->statusText().contains(QLatin1String("no row read")), qPrintable(mWindow->statusText()));
        // A write by another session: a later refresh reads again and shows it (within the stats' flush).
        const Placement p = placeAscii(mWindow->session()->summary().geometry, "written-elsewhere");
        const quint32 was = mWindow->heatmap()->result().fill.setBits[p.chunk];
        PgConn writer(mCluster.connectionString(QStringLiteral("app")));
        QVERIFY(
            writer.exec(QStringLiteral("update username_filter set bits = ~0::bit(8192) where chunk = %1").arg(p.chunk))
                .ok());
        QVERIFY(was != 8192u);
        const auto seen = refreshUntil([&](const FillResult &r) { return r.fill.setBits[p.chunk] == 8192u; });
        QVERIFY(seen);
        // ... and it read only the rows written since the last read, the chunk among them.
        const FillResult &r = seen->result;
        const QString &statusThen = seen->status;
        QVERIFY(r.incremental);
        QVERIFY2(r.fill.rowsRead >= 1 && r.fill.rowsRead < 100, qPrintable(QString::number(r.fill.rowsRead)));
        QVERIFY(std::binary_search(r.changedChunks.begin(), r.changedChunks.end(), p.chunk));
        QVERIFY2(statusThen.contains(QLatin1String("changed chunk")), qPrintable(statusThen));
        // The heatmap rings it, and keeps the ring through refreshes that find nothing new.
        QVERIFY(mWindow->heatmap()->marksChanges());
        const auto &marked = mWindow->heatmap()->markedChunks();
        QVERIFY(std::binary_search(marked.begin(), marked.end(), p.chunk));
        QTRY_VERIFY_WITH_TIMEOUT((mWindow->session()->refresh(), mWindow->heatmap()->result().unchanged), 20000);
        QVERIFY(std::binary_search(mWindow->heatmap()->markedChunks().begin(), mWindow->heatmap()->markedChunks().end(),
                                   p.chunk));
        mWindow->findChild<QCheckBox *>(QStringLiteral("markChanges"))->setChecked(false);
        QVERIFY(mWindow->heatmap()->markedChunks().empty());
        mWindow->findChild<QCheckBox *>(QStringLiteral("markChanges"))->setChecked(true);
        // The picture is the server's, row for row.
        auto sum = writer.column(QStringLiteral("select sum(bit_count(bits)) from username_filter"));
        QVERIFY(sum.ok());
        QCOMPARE(QByteArray::number(r.fill.totalSetBits()), sum->value(0));

        // Idle, the window looks less often (twice as long after each refresh that found nothing, at
        // most 12 times); the first change brings the set interval back.
        mWindow->setRefreshInterval(1);
        QTRY_VERIFY_WITH_TIMEOUT((mWindow->session()->refresh(), mWindow->refreshTimer()->interval() >= 8000), 30000);
        QVERIFY2(mWindow->statusText().contains(QLatin1String("idle: next in")), qPrintable(mWindow->statusText()));
        QVERIFY(mWindow->refreshTimer()->interval() <= 12000);
        QVERIFY(writer.exec(QStringLiteral("update username_filter set bits = bits where chunk = 1")).ok());
        const auto woke = refreshUntil([](const FillResult &r) { return !r.unchanged; });
        QVERIFY(woke);
        QCOMPARE(woke->timerMs, 1000);
        QVERIFY2(woke->status.contains(QLatin1String("every 1 s")), qPrintable(woke->status));
    }

    void screenshotOfAFailedConnectionEndsAtOnce()
    {
        // `bloomscope --db ... --screenshot FILE` on a server that is not there waited five minutes for
        // data that could not come. Now it writes the picture of the window saying why, and exits 1.
        const int port = 1; // tcpmux: nothing listens there on a test machine
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("failed.png"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("HOME"), dir.path()); // no saved profiles or settings of the machine
        p.setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        p.start(QStringLiteral(BLOOMSCOPE_PATH),
                {QStringLiteral("--db"),
                 QStringLiteral("host=127.0.0.1 port=%1 dbname=nowhere connect_timeout=5").arg(port),
                 QStringLiteral("--screenshot"), png});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(t.elapsed() < 30000, qPrintable(QString::number(t.elapsed())));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("127.0.0.1") || err.contains(QByteArray::number(port)), err.constData());
        QVERIFY2(!QImage(png).isNull(), qPrintable(png));

        // In the window: a first connection that fails leaves no "loading..." under an empty heatmap.
        MainWindow fresh;
        QSignalSpy failed(&fresh, &MainWindow::openFailed);
        fresh.connectTo(
            *ConnectionSpec::parse(QStringLiteral("host=127.0.0.1 port=1 dbname=nowhere connect_timeout=5")),
            FilterRef{});
        QVERIFY(failed.wait(30000));
        QCOMPARE(fresh.findChild<HeatmapLegend *>()->caption(), QStringLiteral("no filter open"));
        QVERIFY2(fresh.statusText().contains(QLatin1String("Could not open the filter")),
                 qPrintable(fresh.statusText()));
    }

    void cleanupTestCase()
    {
        mWindow.reset();
        QVERIFY(mCluster.stop().ok());
    }
};

QTEST_MAIN(TestGuiSession)
#include "tst_gui_session.moc"
