#include "mainwindow.h"
#include "help/manualwindow.h"
#include "postgres/pgconn.h"
#include "style/files.h"
#include "style/shortcuts.h"
#include "style/statuslabel.h"
#include "style/theme.h"

#include "admin/adminactions.h"
#include "admin/damagebanner.h"
#include "admin/rebuildbanner.h"
#include "connect/connectdialog.h"
#include "connect/demorunner.h"
#include "connect/sessionbanner.h"
#include "fpr/fprview.h"
#include "fpr/historycontroller.h"
#include "heatmap/chunktab.h"
#include "heatmap/heatmapexport.h"
#include "heatmap/heatmaptab.h"
#include "heatmap/heatmapwidget.h"
#include "redis/rediswindow.h"
#include "session/filtersession.h"
#include "session/refreshpacer.h"
#include "shards/shardsession.h"
#include "shards/typingview.h"
#include "step/stepthroughview.h"
#include "teach/teachwindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <memory>

namespace bloom {

namespace {

const char *const GeometryKey = "window/geometry";

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(theme::appIcon());
    mSession = new FilterSession(this);
    mPacer = new RefreshPacer(this);
    mBanner = new SessionBanner(this);
    mDamageBanner = new DamageBanner(this);
    mRebuildBanner = new RebuildBanner(this);
    mStatus = new StatusLabel(tr("Not connected."), this);
    statusBar()->addWidget(mStatus, 1);

    mFpr = new FprView(this);
    mStep = new StepThroughView(this);
    mStep->setSession(mSession);
    mHeatTab = new HeatmapTab(mSession, this);
    mHistory = new HistoryController(mSession, mFpr, mHeatTab->heatmap(), mStatus, this);
    mHeatTab->addSinceChooser(mHistory->makeSinceChooser(mHeatTab));
    mChunkTab = new ChunkTab(mSession, this);

    mTabs = new QTabWidget(this);
    mTabs->addTab(mHeatTab, tr("Heatmap"));
    // The FPR charts need their height to label their axes: on a small screen the tab scrolls.
    auto *fprScroll = new QScrollArea(this);
    fprScroll->setWidget(mFpr);
    fprScroll->setWidgetResizable(true);
    fprScroll->setFrameShape(QFrame::NoFrame);
    mTabs->addTab(fprScroll, tr("FPR"));
    mTabs->addTab(mStep, tr("Step-through"));
    mTabs->addTab(mChunkTab, tr("Chunk"));
    mShards = new ShardSession(this);
    mTyping = new TypingView(mShards, this);
    // The Shards view is dense; on a small screen it scrolls rather than forcing the window's size.
    auto *shardScroll = new QScrollArea(this);
    shardScroll->setWidget(mTyping);
    shardScroll->setWidgetResizable(true);
    shardScroll->setFrameShape(QFrame::NoFrame);
    mTabs->addTab(shardScroll, tr("Shards"));

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(mBanner);
    layout->addWidget(mDamageBanner);
    layout->addWidget(mRebuildBanner);
    layout->addWidget(mTabs, 1);
    setCentralWidget(central);

    buildToolbar();
    setRefreshInterval(5);

    connect(mSession, &FilterSession::opened, this, &MainWindow::opened);
    connect(mSession, &FilterSession::refreshed, this, &MainWindow::onRefreshed);
    connect(mSession, &FilterSession::failed, this,
            [this](Operation op, int, const Error &e, bool lost) { onFailed(op, e, lost); });
    connect(mSession, &FilterSession::openFailed, this, &MainWindow::onOpenFailed);
    connect(mHeatTab, &HeatmapTab::chunkClicked, this, [this](quint32 c) {
        showChunk(c);
        mTabs->setCurrentIndex(3);
    });
    mAdminActions = new AdminActions(mSession, this, mStatus);
    connect(mAdminActions, &AdminActions::nameAdded, this, &MainWindow::nameAdded);
    buildMenus();
    updateTitle();
    theme::fitToScreen(this, QSize(1280, 800));
    restoreWindowGeometry();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildToolbar()
{
    mInterval = new QSpinBox(this);
    mInterval->setObjectName(QStringLiteral("refreshInterval"));
    mInterval->setRange(1, 3600);
    mInterval->setSuffix(tr(" s"));
    mPause = new QCheckBox(tr("&Pause"), this);
    mPause->setObjectName(QStringLiteral("pauseRefresh"));
    mAdapt = new QCheckBox(tr("Slow down &when idle"), this);
    mAdapt->setObjectName(QStringLiteral("adaptInterval"));
    mAdapt->setChecked(true);
    mAdapt->setToolTip(tr("After each refresh that finds nothing written, wait twice as long (up to 12 times the "
                          "interval, at most 5 minutes unless the interval is longer); back to the interval on the "
                          "first change."));
    auto *bar = addToolBar(tr("Refresh"));
    bar->setObjectName(QStringLiteral("refreshToolBar"));
    bar->setMovable(false);
    auto *intervalLabel = new QLabel(tr(" Refresh &every "), this);
    intervalLabel->setBuddy(mInterval);
    bar->addWidget(intervalLabel);
    bar->addWidget(mInterval);
    bar->addWidget(mPause);
    bar->addWidget(mAdapt);
    QAction *now = bar->addAction(tr("Refresh now"));
    now->setObjectName(QStringLiteral("actionRefreshNowToolbar"));
    connect(now, &QAction::triggered, mSession, [this] { mSession->refresh(); });
    connect(mInterval, &QSpinBox::valueChanged, mPacer, &RefreshPacer::setInterval);
    connect(mAdapt, &QCheckBox::toggled, mPacer, &RefreshPacer::setAdaptive);
    connect(mPause, &QCheckBox::toggled, mPacer, &RefreshPacer::setPaused);
    connect(mPacer, &RefreshPacer::due, this, [this] {
        if (mSession->isOpen()) // stays open across a lost connection: the worker reconnects
            mSession->refresh(FilterSession::IfBusy::Skip);
    });
}

void MainWindow::buildMenus()
{
    const auto named = [](QAction *a, const char *name) {
        a->setObjectName(QLatin1String(name));
        return a;
    };
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menuFile"));
    shortcuts::setStandard(
        named(file->addAction(tr("&Connect..."), this, &MainWindow::showConnectDialog), "actionConnect"),
        QKeySequence::Open);
    named(file->addAction(tr("&Demo database"), this, [this] { startDemo(2'000'000); }), "actionDemo");
    named(file->addAction(tr("Demo with 16 &shards"), this, [this] { startDemo(200'000, 16); }), "actionDemoShards");
    named(file->addAction(tr("Open shard &map..."), this, &MainWindow::chooseShardMap), "actionOpenShardMap");
    named(file->addAction(tr("Open a &Redis bitmap filter..."), this, [this] { RedisWindow::openAsked(this); }),
          "actionOpenRedis");
    named(file->addAction(tr("&Teaching mode (no database)"), this,
                          [] {
                              auto *w = new TeachWindow;
                              w->setAttribute(Qt::WA_DeleteOnClose);
                              w->playReferenceExample();
                              w->show();
                          }),
          "actionTeach");
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export"));
    exportMenu->setObjectName(QStringLiteral("menuExport"));
    // Each export asks for a file (its suffix added when left out) and says what it wrote.
    using Exporter = Status (MainWindow::*)(const QString &) const;
    const auto exporter = [&](const QString &text, const char *name, const QString &title, const char *file,
                              const QString &filter, Exporter write) {
        QAction *a = named(exportMenu->addAction(text, this,
                                                 [this, title, file, filter, write] {
                                                     const QString f = QLatin1String(file);
                                                     const QString path = chooseSaveFile(
                                                         this, title, f, filter, f.section(QLatin1Char('.'), -1));
                                                     reportExport(path, (this->*write)(path));
                                                 }),
                           name);
        mExportActions << a;
    };
    const QString png = tr("PNG images (*.png)"), csv = tr("CSV files (*.csv)");
    exporter(tr("Heatmap as &PNG..."), "actionExportHeatmap", tr("Export the heatmap"), "heatmap.png", png,
             &MainWindow::exportHeatmapPng);
    exporter(tr("Chunk fill as &CSV..."), "actionExportFill", tr("Export the fill of every chunk"), "fill.csv", csv,
             &MainWindow::exportFillCsv);
    exporter(tr("&FPR chart as PNG..."), "actionExportFpr", tr("Export the FPR chart"), "fpr.png", png,
             &MainWindow::exportFprPng);
    exporter(tr("FPR &history as CSV..."), "actionExportHistory",
             tr("Export the FPR history (the snapshots, or the refreshes)"), "fpr.csv", csv, &MainWindow::exportFprCsv);
    for (QAction *a : mExportActions)
        a->setEnabled(false);
    file->addSeparator();
    // This window asks first (when something would be stopped or left behind), before any other
    // window, a progress dialog included, is closed; then every window; the application ends with the last.
    shortcuts::setStandard(named(file->addAction(tr("&Quit"), this,
                                                 [this] {
                                                     if (close())
                                                         QApplication::closeAllWindows();
                                                 }),
                                 "actionQuit"),
                           QKeySequence::Quit, QKeySequence(Qt::CTRL | Qt::Key_Q));

    QMenu *admin = menuBar()->addMenu(tr("&Admin"));
    admin->setObjectName(QStringLiteral("menuAdmin"));
    mAdminActions->populate(admin, mHistory->recordAction());

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("menuView"));
    shortcuts::setStandard(
        named(view->addAction(tr("&Refresh now"), mSession, [this] { mSession->refresh(); }), "actionRefreshNow"),
        QKeySequence::Refresh, QKeySequence(Qt::Key_F5));
    view->addSeparator();
    const QStringList names{tr("&Heatmap"), tr("&FPR"), tr("&Step-through"), tr("&Chunk"), tr("S&hards")};
    const char *const objects[] = {"actionViewHeatmap", "actionViewFpr", "actionViewStep", "actionViewChunk",
                                   "actionViewShards"};
    for (int i = 0; i < names.size(); ++i)
        named(view->addAction(names[i], QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)), this,
                              [this, i] { mTabs->setCurrentIndex(i); }),
              objects[i]);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menuHelp"));
    shortcuts::setStandard(named(help->addAction(tr("&Contents"), this, &MainWindow::showManual), "actionHelpContents"),
                           QKeySequence::HelpContents, QKeySequence(Qt::Key_F1));
    help->addSeparator();
    named(help->addAction(tr("&About Bloomscope"), this, &MainWindow::showAbout), "actionAbout");
    named(help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt), "actionAboutQt");
}

void MainWindow::closeEvent(QCloseEvent *e)
{
    if (!mAdminActions->confirmQuit()) {
        e->ignore();
        return;
    }
    if (mRememberGeometry)
        QSettings().setValue(QLatin1String(GeometryKey), saveGeometry());
    e->accept();
}

void MainWindow::restoreWindowGeometry()
{
    const QByteArray saved = QSettings().value(QLatin1String(GeometryKey)).toByteArray();
    if (saved.isEmpty() || !restoreGeometry(saved))
        return;
    // A size saved on a bigger screen (or another scale) is fitted to this one.
    if (const QScreen *s = screen() ? screen() : QGuiApplication::primaryScreen()) {
        const QRect avail = s->availableGeometry();
        if (width() > avail.width() || height() > avail.height())
            resize(size().boundedTo(avail.size()));
    }
}

void MainWindow::connectTo(const ConnectionSpec &spec, const FilterRef &ref, const Profile &profile)
{
    // The window keeps describing the session it has until the new one is open (opened()).
    mPendingProfiles.append(profile);
    mStatus->setText(tr("Connecting to %1...").arg(spec.describe()));
    mSession->open(spec, ref, !mAdminActions->adminMode());
}

void MainWindow::onOpenFailed(const Error &e)
{
    if (!mPendingProfiles.isEmpty())
        mPendingProfiles.removeFirst();
    if (mSession->isOpen()) {
        mStatus->setText(tr("Could not connect: %1 — still attached to %2 on %3")
                             .arg(e.toString(), mSession->summary().ref.table, mSession->summary().where));
        mAdminActions->sessionKept(mSession->summary().readOnly);
    } else {
        mStatus->setText(tr("Could not open the filter: %1").arg(e.toString()));
        mHeatTab->notConnected();
        emit openFailed(e.toString());
    }
}

void MainWindow::startDemo(qint64 names, int shards, double trafficRate, double clockFactor)
{
    if (!mDemo) {
        mDemo = new DemoRunner(this);
        connect(mDemo, &DemoRunner::failed, this, [this](const Error &e) {
            mStatus->setText(tr("The demo database did not start: %1").arg(e.toString()));
            emit failedToStart(e.toString());
        });
    }
    mDemo->showProgress(this, names, shards);
    connect(
        mDemo, &DemoRunner::ready, this,
        [this](const QString &conninfo, const QString &shardMap) {
            if (!shardMap.isEmpty())
                setShardMap(shardMap);
            Profile demo;
            demo.name = tr("demo");
            demo.environment = QStringLiteral("development");
            connectTo(*ConnectionSpec::parse(conninfo), FilterRef{}, demo);
        },
        Qt::SingleShotConnection);
    mStatus->setText(tr("Starting the demo database..."));
    mDemo->start(names, shards, trafficRate, clockFactor);
}

void MainWindow::showManual()
{
    if (!mManual)
        mManual = new ManualWindow(findChildren<QAction *>(), this);
    mManual->show();
    mManual->raise();
    mManual->activateWindow();
}

bool MainWindow::showView(const QString &view)
{
    static const QStringList views{QStringLiteral("heatmap"), QStringLiteral("fpr"), QStringLiteral("step"),
                                   QStringLiteral("chunk"), QStringLiteral("shards")};
    const qsizetype i = views.indexOf(view);
    if (i < 0)
        return false;
    mTabs->setCurrentIndex(int(i));
    return true;
}

void MainWindow::setRefreshInterval(int seconds)
{
    {
        const QSignalBlocker block(mInterval);
        mInterval->setValue(seconds);
    }
    mPacer->setInterval(seconds);
}

int MainWindow::effectiveIntervalSeconds() const
{
    return mPacer->effectiveSeconds();
}

QTimer *MainWindow::refreshTimer() const
{
    return mPacer->timer();
}

QComboBox *MainWindow::sinceChooser() const
{
    return mHistory->sinceChooser();
}

void MainWindow::reloadHistory()
{
    mHistory->reload();
}

void MainWindow::showChunk(quint32 chunk)
{
    mChunkTab->showChunk(chunk);
}

QString MainWindow::statusText() const
{
    return mStatus->text();
}

QString MainWindow::chunkText() const
{
    return mChunkTab->text();
}

HeatmapWidget *MainWindow::heatmap() const
{
    return mHeatTab->heatmap();
}

HeatmapLegend *MainWindow::legend() const
{
    return mHeatTab->legend();
}

ChunkGridWidget *MainWindow::chunkView() const
{
    return mChunkTab->grid();
}

QString MainWindow::aboutText() const
{
    const QString server =
        mSession->isOpen() ? tr("PostgreSQL %1 (%2)").arg(mSession->summary().serverVersion, mSession->summary().where)
                           : tr("not connected");
    return tr("<h3>Bloomscope %1</h3><p>A visualiser and admin tool for blocked Bloom filters stored in "
              "PostgreSQL.</p><table><tr><td>Qt</td><td>%2 (built with %3)</td></tr><tr><td>libpq</td><td>%4</td>"
              "</tr><tr><td>Server</td><td>%5</td></tr></table><p>Licensed under the MIT (Expat) licence.</p>")
        .arg(QStringLiteral(BLOOMSCOPE_VERSION), QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
             libpqVersion(), server.toHtmlEscaped());
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Bloomscope"), aboutText());
}

Status MainWindow::exportHeatmapPng(const QString &path) const
{
    const FillResult &r = heatmap()->result();
    if (r.heatmap.isNull())
        return makeError(ErrorKind::Usage, tr("nothing to export yet: the fill has not been read"));
    const FilterSummary &s = mSession->summary();
    const QString title = tr("%1 on %2 \u2014 %3 \u2014 read %4")
                              .arg(s.ref.table, s.where, r.fill.geometry.describe(),
                                   QLocale().toString(r.fill.takenAt.toLocalTime(), QLocale::ShortFormat));
    if (!heatmapPicture(r, title, palette()).save(path, "PNG"))
        return makeError(ErrorKind::Io, tr("cannot write %1").arg(path));
    return success();
}

Status MainWindow::exportFillCsv(const QString &path) const
{
    return writeFillCsv(heatmap()->result().fill, path);
}

Status MainWindow::exportFprPng(const QString &path) const
{
    return mFpr->writePng(path);
}

Status MainWindow::exportFprCsv(const QString &path) const
{
    return mFpr->writeCsv(path);
}

void MainWindow::reportExport(const QString &path, const Status &s)
{
    if (path.isEmpty())
        return;
    if (!s)
        QMessageBox::warning(this, tr("Export"), s.error().toString());
    else
        mStatus->setText(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
}

QString MainWindow::bannerText() const
{
    return mBanner->isVisibleTo(this) ? mBanner->text() : QString();
}

QString MainWindow::damageText() const
{
    return mDamageBanner->isVisibleTo(this) ? mDamageBanner->text() : QString();
}

void MainWindow::opened(const FilterSummary &s)
{
    if (!s.followed) {
        if (!mPendingProfiles.isEmpty())
            mProfile = mPendingProfiles.takeFirst();
    }
    mFpr->setGeometry(s.geometry);
    mHistory->opened();
    mHeatTab->opened(s);
    mChunkTab->opened(s);
    mDamageBanner->hide(); // another filter, or the same after a swap: its first read says
    if (!s.followed)
        mRole.reset(); // another server: its first refresh says how far its replay is
    mStatus->setStyleSheet(QString());
    mStatus->setText(s.followed ? tr("%1 was swapped by another session: now attached to the new %1 (%2)")
                                      .arg(s.ref.table, s.geometry.describe())
                                : tr("Attached to %1 on %2 (PostgreSQL %3): %4")
                                      .arg(s.ref.table, s.where, s.serverVersion, s.geometry.describe()));
    mAdminActions->sessionOpened(s);
    mAdminActions->setProduction(mProfile.environment == QLatin1String("production"));
    for (QAction *a : mExportActions)
        a->setEnabled(true);
    updateTitle();
    mPacer->start();
    mSession->refresh();
    mFilterOpen = true;
    openShards();
}

bool MainWindow::setShardMap(const QString &path)
{
    // A small local file: reading it here is fine; every connection is made on the shard worker.
    auto map = ShardMap::load(path);
    if (!map) {
        mTyping->setUnavailable(tr("The shard map %1 cannot be used: %2").arg(path, map.error().toString()));
        mStatus->setText(map.error().toString());
        return false;
    }
    mShardMapPath = path;
    mShardMap = *map;
    openShards();
    return true;
}

void MainWindow::openShards()
{
    if (mShardMapPath.isEmpty())
        return;
    if (!mFilterOpen) {
        mTyping->setUnavailable(tr("Shard map %1: waiting for the filter's connection.").arg(mShardMapPath));
        return;
    }
    const qsizetype n = mShardMap.shards.size();
    mTyping->setUnavailable(n == 1 ? tr("Connecting to the 1 shard of %1...").arg(mShardMapPath)
                                   : tr("Connecting to the %1 shards of %2...").arg(QString::number(n), mShardMapPath));
    mShards->open(mSession->spec(), mSession->summary().ref, mShardMap, !mAdminActions->adminMode());
}

void MainWindow::chooseShardMap()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open a shard map"), QString(), tr("Shard maps (*.map);;All files (*)"));
    if (!path.isEmpty() && setShardMap(path))
        mTabs->setCurrentIndex(4);
}

void MainWindow::onRefreshed(const FillResult &r)
{
    ++mRefreshes;
    mHeatTab->refreshed(r);
    const double names = r.fill.estimatedNames();
    mAdminActions->setLastRefresh(names, r.rebuild);
    const ChunkDamage &damage = r.fill.damage;
    if (damage.empty()) // a damaged chunk counts as empty: the figures would dip, not the filter
        mFpr->addMeasurement(r.checkedAt.isValid() ? r.checkedAt : r.fill.takenAt, r.fill.estimatedFpr(), names);
    mRebuildBanner->setState(r.rebuild);
    mDamageBanner->setState(r); // red on every refresh that still finds a NULL or missing row
    mStatus->setStyleSheet(damage.empty() ? QString() : theme::textStyle(theme::errorText(palette())));
    mPacer->refreshed(r.unchanged); // idle: wait longer before the next look; a change brings the interval back
    const bool standby = r.role.inRecovery;
    if (!mRole || mRole->inRecovery != standby || standby) { // a standby's banner says how far its replay is
        mRole = r.role;
        updateTitle();
    }
    const FilterSummary &s = mSession->summary();
    const QString where = standby ? tr("%1, a %2").arg(s.where, r.role.describe()) : s.where;
    mStatus->setText(
        damage.empty()
            ? tr("%1 on %2 \u2014 %3 (%4)").arg(s.ref.table, where, RefreshPacer::describe(r), mPacer->cadenceText())
            : tr("%1 on %2 is DAMAGED (%3) \u2014 %4 (%5)")
                  .arg(s.ref.table, where, damage.describe(), RefreshPacer::describe(r), mPacer->cadenceText()));
    mHistory->refreshed(r);
    emit refreshed();
}

void MainWindow::onFailed(Operation op, const Error &e, bool lost)
{
    // The writes and the sample are answered where they were asked (AdminActions, HistoryController),
    // by their tokens; the step-through says its own. Here: what the window itself asked.
    const QString operation = operationName(op);
    if (lost) {
        mStatus->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mStatus->setText(tr("Connection lost during %1: %2 \u2014 retrying every %3 s")
                             .arg(operation, e.message, QString::number(mPacer->interval())));
        return;
    }
    if (op == Operation::Refresh) {
        mStatus->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mStatus->setText(tr("The refresh failed: %1").arg(e.toString()));
    } else if (op == Operation::Chunk) {
        mChunkTab->failed(e); // a damaged row said there, no box (the banner has the fix)
    }
}

void MainWindow::updateTitle()
{
    setWindowTitle(mBanner->describe(mSession->isOpen() ? &mSession->summary() : nullptr, mProfile, mRole));
}

ConnectDialog *MainWindow::makeConnectDialog()
{
    auto *dialog = new ConnectDialog(mSession, this);
    // The profile goes with the connect it belongs to; the window changes when that connect succeeds.
    connect(dialog, &ConnectDialog::connecting, this, [this](const Profile &p) { mPendingProfiles.append(p); });
    dialog->setAdmin(mAdminActions->adminMode());
    return dialog;
}

void MainWindow::showConnectDialog()
{
    std::unique_ptr<ConnectDialog> dialog(makeConnectDialog());
    if (dialog->exec() != QDialog::Accepted)
        return;
    if (dialog->demoRequested())
        startDemo(2'000'000);
}

} // namespace bloom
