#include "mainwindow.h"
#include "postgres/pgconn.h"
#include "style/files.h"
#include "style/statuslabel.h"
#include "style/theme.h"

#include "admin/adminactions.h"
#include "connect/connectdialog.h"
#include "connect/demorunner.h"
#include "fpr/fprview.h"
#include "fpr/historycontroller.h"
#include "heatmap/chunkgridwidget.h"
#include "heatmap/chunknumberbox.h"
#include "heatmap/heatmapexport.h"
#include "heatmap/heatmapwidget.h"
#include "heatmap/skewchart.h"
#include "model/fprmodel.h"
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
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
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
    mBanner = new QLabel(this);
    mBanner->setObjectName(QStringLiteral("environmentBanner"));
    mBanner->setAlignment(Qt::AlignCenter);
    mBanner->hide();
    mRebuildBanner = new QLabel(this);
    mRebuildBanner->setObjectName(QStringLiteral("rebuildBanner"));
    mRebuildBanner->setWordWrap(true);
    mRebuildBanner->setAlignment(Qt::AlignCenter);
    mRebuildBanner->hide();
    mStatus = new StatusLabel(tr("Not connected."), this);
    statusBar()->addWidget(mStatus, 1);

    mFpr = new FprView(this);
    mStep = new StepThroughView(this);
    mStep->setSession(mSession);
    QWidget *heatTab = buildHeatmapTab();
    QWidget *chunkTab = buildChunkTab();

    mTabs = new QTabWidget(this);
    mTabs->addTab(heatTab, tr("Heatmap"));
    // The FPR charts need their height to label their axes: on a small screen the tab scrolls.
    auto *fprScroll = new QScrollArea(this);
    fprScroll->setWidget(mFpr);
    fprScroll->setWidgetResizable(true);
    fprScroll->setFrameShape(QFrame::NoFrame);
    mTabs->addTab(fprScroll, tr("FPR"));
    mTabs->addTab(mStep, tr("Step-through"));
    mTabs->addTab(chunkTab, tr("Chunk"));
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
    connect(mSession, &FilterSession::chunkReady, this, [this](quint32 c, const QByteArray &bits) {
        mChunk->setChunk(c, bits);
        mChunkLabel->setStyleSheet(QString());
        mChunkLabel->setText(tr("Chunk %1: %2 of %3 bits set").arg(c).arg(bits.count('1')).arg(bits.size()));
    });
    connect(mHeatmap, &HeatmapWidget::hovered, this, [this](qint64 c) {
        if (c >= 0)
            mHover->setText(mHeatmap->describeChunk(quint32(c)));
    });
    connect(mHeatmap, &HeatmapWidget::chunkClicked, this, [this](quint32 c) {
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

QWidget *MainWindow::buildHeatmapTab()
{
    // The picture, its legend, a summary line, and the fill histogram beside the model.
    auto *heatTab = new QWidget(this);
    mHeatmap = new HeatmapWidget(heatTab);
    mLegend = new HeatmapLegend(heatTab);
    mSummary = new QLabel(heatTab);
    mSummary->setObjectName(QStringLiteral("heatmapSummary"));
    mSummary->setWordWrap(true);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mHover = new QLabel(tr("Hover over a chunk; click it to see its bits. Wheel zooms, drag pans, double click fits."),
                        heatTab);
    mHover->setWordWrap(true);
    mSkew = new SkewChart(heatTab);
    mHistory = new HistoryController(mSession, mFpr, mHeatmap, mStatus, this);
    auto *heatSplit = new QSplitter(Qt::Horizontal, heatTab);
    auto *left = new QWidget(heatSplit);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(mHeatmap, 1);
    auto *scaleRow = new QHBoxLayout;
    auto *scaleLabel = new QLabel(tr("Colour &scale:"), left);
    mScaleMode = new QComboBox(left);
    mScaleMode->setObjectName(QStringLiteral("heatScale"));
    mScaleMode->addItem(tr("Automatic (relative when the fill is even)"), int(HeatScale::Auto));
    mScaleMode->addItem(tr("Absolute: 0 to the fullest chunk"), int(HeatScale::Absolute));
    mScaleMode->addItem(tr("Relative: the emptiest to the fullest chunk"), int(HeatScale::Relative));
    scaleLabel->setBuddy(mScaleMode);
    connect(mScaleMode, &QComboBox::currentIndexChanged, this, [this] {
        mSession->setHeatScale(HeatScale(mScaleMode->currentData().toInt()));
        if (mSession->isOpen())
            mSession->refresh();
    });
    scaleRow->addWidget(scaleLabel);
    scaleRow->addWidget(mScaleMode);
    auto *markChanges = new QCheckBox(tr("&Mark changed chunks"), left);
    markChanges->setObjectName(QStringLiteral("markChanges"));
    markChanges->setToolTip(tr("Rings the chunks that the last refresh which found a write read as changed"));
    connect(markChanges, &QCheckBox::toggled, mHeatmap, &HeatmapWidget::setMarkChanges);
    markChanges->setChecked(true);
    scaleRow->addStretch(1);
    auto *changesRow = new QHBoxLayout;
    changesRow->addWidget(markChanges);
    changesRow->addWidget(mHistory->makeSinceChooser(left));
    changesRow->addStretch(1);
    leftLayout->addWidget(mLegend);
    leftLayout->addLayout(scaleRow);
    leftLayout->addLayout(changesRow);
    leftLayout->addWidget(mHover);
    heatSplit->addWidget(left);
    heatSplit->addWidget(mSkew);
    heatSplit->setStretchFactor(0, 3);
    heatSplit->setStretchFactor(1, 2);
    mSkew->setMinimumWidth(240);
    heatSplit->setSizes({820, 420});
    auto *heatLayout = new QVBoxLayout(heatTab);
    heatLayout->addWidget(mSummary);
    heatLayout->addWidget(heatSplit, 1);
    return heatTab;
}

QWidget *MainWindow::buildChunkTab()
{
    auto *chunkTab = new QWidget(this);
    mChunk = new ChunkGridWidget(chunkTab);
    mChunkLabel = new QLabel(tr("Click a chunk in the heatmap, or type its number."), chunkTab);
    mChunkLabel->setObjectName(QStringLiteral("chunkLabel"));
    mChunkLabel->setWordWrap(true);
    mChunkNumber = new ChunkNumberBox(chunkTab);
    mChunkNumber->setObjectName(QStringLiteral("chunkNumber"));
    mChunkNumber->setRange(0, 131071);
    mChunkNumber->setAccelerated(true);
    auto *chunkNumberLabel = new QLabel(tr("C&hunk:"), chunkTab);
    chunkNumberLabel->setBuddy(mChunkNumber);
    auto *showChunkButton = new QPushButton(tr("Show"), chunkTab);
    showChunkButton->setObjectName(QStringLiteral("showChunk"));
    connect(showChunkButton, &QPushButton::clicked, this, [this] {
        if (const qint64 typed = mChunkNumber->typedBeyond(); typed >= 0)
            emit mChunkNumber->outOfRange(typed);
        else
            showChunk(quint32(mChunkNumber->value()));
    });
    connect(mChunkNumber, &QSpinBox::editingFinished, this, [this] {
        if (mChunkNumber->hasFocus())
            showChunk(quint32(mChunkNumber->value()));
    });
    connect(mChunkNumber, &ChunkNumberBox::outOfRange, this, [this](qint64 typed) {
        // Said, and nothing opened: the chunk shown before stays, its label replaced by why.
        mChunkLabel->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mChunkLabel->setText(tr("There is no chunk %L1: this filter has %L2 chunks, 0 to %L3.")
                                 .arg(typed)
                                 .arg(qint64(mChunkNumber->maximum()) + 1)
                                 .arg(mChunkNumber->maximum()));
    });
    auto *chunkRow = new QHBoxLayout;
    chunkRow->addWidget(chunkNumberLabel);
    chunkRow->addWidget(mChunkNumber);
    chunkRow->addWidget(showChunkButton);
    chunkRow->addWidget(mChunkLabel, 1);
    auto *chunkLayout = new QVBoxLayout(chunkTab);
    chunkLayout->addLayout(chunkRow);
    chunkLayout->addWidget(mChunk, 1);
    return chunkTab;
}

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
    named(file->addAction(tr("&Connect..."), QKeySequence(Qt::CTRL | Qt::Key_O), this, &MainWindow::showConnectDialog),
          "actionConnect");
    named(file->addAction(tr("&Demo database"), this, [this] { startDemo(2'000'000); }), "actionDemo");
    named(file->addAction(tr("Demo with 16 &shards"), this, [this] { startDemo(200'000, 16); }), "actionDemoShards");
    named(file->addAction(tr("Open shard &map..."), this, &MainWindow::chooseShardMap), "actionOpenShardMap");
    named(file->addAction(tr("Open a &Redis bitmap filter..."), this,
                          [this] {
                              bool ok = false;
                              const QString url = QInputDialog::getText(
                                  this, tr("Redis bitmap filter"),
                                  tr("Redis URL (the password, if any, in REDISCLI_AUTH):"), QLineEdit::Normal,
                                  QStringLiteral("redis://127.0.0.1:6379/0"), &ok);
                              if (!ok)
                                  return;
                              auto target = RedisTarget::parse(url);
                              if (!target) {
                                  QMessageBox::warning(this, tr("Redis bitmap filter"), target.error().toString());
                                  return;
                              }
                              auto *w = new RedisWindow;
                              w->setAttribute(Qt::WA_DeleteOnClose);
                              w->open(*target, redisbloom::ReferenceKey, redisbloom::ReferenceBits);
                              w->show();
                          }),
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
    mExportActions << named(exportMenu->addAction(tr("Heatmap as &PNG..."), this,
                                                  [this] {
                                                      const QString path = chooseSaveFile(
                                                          this, tr("Export the heatmap"), QStringLiteral("heatmap.png"),
                                                          tr("PNG images (*.png)"), QStringLiteral("png"));
                                                      reportExport(path, exportHeatmapPng(path));
                                                  }),
                            "actionExportHeatmap");
    mExportActions << named(exportMenu->addAction(tr("Chunk fill as &CSV..."), this,
                                                  [this] {
                                                      const QString path = chooseSaveFile(
                                                          this, tr("Export the fill of every chunk"),
                                                          QStringLiteral("fill.csv"), tr("CSV files (*.csv)"),
                                                          QStringLiteral("csv"));
                                                      reportExport(path, exportFillCsv(path));
                                                  }),
                            "actionExportFill");
    mExportActions << named(exportMenu->addAction(tr("&FPR chart as PNG..."), this,
                                                  [this] {
                                                      const QString path = chooseSaveFile(
                                                          this, tr("Export the FPR chart"), QStringLiteral("fpr.png"),
                                                          tr("PNG images (*.png)"), QStringLiteral("png"));
                                                      reportExport(path, exportFprPng(path));
                                                  }),
                            "actionExportFpr");
    mExportActions << named(
        exportMenu->addAction(tr("FPR &history as CSV..."), this,
                              [this] {
                                  const QString path = chooseSaveFile(
                                      this, tr("Export the FPR history (the snapshots, or the refreshes)"),
                                      QStringLiteral("fpr.csv"), tr("CSV files (*.csv)"), QStringLiteral("csv"));
                                  reportExport(path, exportFprCsv(path));
                              }),
        "actionExportHistory");
    for (QAction *a : mExportActions)
        a->setEnabled(false);
    file->addSeparator();
    // This window asks first (when something would be stopped or left behind), before any other
    // window, a progress dialog included, is closed; then every window; the application ends with the last.
    named(file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), this,
                          [this] {
                              if (close())
                                  QApplication::closeAllWindows();
                          }),
          "actionQuit");

    mAdminActions->populate(menuBar()->addMenu(tr("&Admin")), mHistory->recordAction());

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *refresh =
        named(view->addAction(tr("&Refresh now"), QKeySequence(Qt::Key_F5), mSession, [this] { mSession->refresh(); }),
              "actionRefreshNow");
    refresh->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    view->addSeparator();
    const QStringList names{tr("&Heatmap"), tr("&FPR"), tr("&Step-through"), tr("&Chunk"), tr("S&hards")};
    const char *const objects[] = {"actionViewHeatmap", "actionViewFpr", "actionViewStep", "actionViewChunk",
                                   "actionViewShards"};
    for (int i = 0; i < names.size(); ++i)
        named(view->addAction(names[i], QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)), this,
                              [this, i] { mTabs->setCurrentIndex(i); }),
              objects[i]);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
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
        mLegend->setNotConnected(); // it said "loading..." under a filter that never came
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
    auto *progress = new QProgressDialog(
        shards > 0 ? (shards == 1 ? tr("Starting a private PostgreSQL with 1 shard database and loading %L1 generated "
                                       "names...")
                                        .arg(names)
                                  : tr("Starting a private PostgreSQL with %1 shard databases and loading %L2 "
                                       "generated names...")
                                        .arg(shards)
                                        .arg(names))
                   : tr("Starting a private PostgreSQL and loading %L1 generated names...").arg(names),
        tr("Cancel"), 0, 1000, this);
    progress->setObjectName(QStringLiteral("demoProgress"));
    progress->setWindowTitle(tr("Demo database"));
    progress->setMinimumDuration(0);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(progress, &QProgressDialog::canceled, mDemo, &DemoRunner::cancel);
    connect(mDemo, &DemoRunner::progress, progress, [progress](qint64 done, qint64 total) {
        progress->setValue(int(1000.0 * double(done) / double(qMax<qint64>(1, total))));
    });
    // Closed because the demo answered: a close must not "cancel" what has ended (QProgressDialog's
    // close emits canceled()).
    const auto done = [progress] {
        progress->blockSignals(true);
        progress->close();
    };
    connect(mDemo, &DemoRunner::ready, progress, done);
    connect(mDemo, &DemoRunner::failed, progress, done);
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
    {
        const QSignalBlocker block(mChunkNumber);
        mChunkNumber->setValue(int(chunk));
    }
    mChunkLabel->setStyleSheet(QString());
    mChunkLabel->setText(tr("Chunk %1: fetching...").arg(chunk));
    mSession->chunk(chunk);
}

QString MainWindow::statusText() const
{
    return mStatus->text();
}

QString MainWindow::chunkText() const
{
    return mChunkLabel->text();
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
    const FillResult &r = mHeatmap->result();
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
    return writeFillCsv(mHeatmap->result().fill, path);
}

Status MainWindow::exportFprPng(const QString &path) const
{
    if (!mFpr->grab().save(path, "PNG"))
        return makeError(ErrorKind::Io, tr("cannot write %1").arg(path));
    return success();
}

Status MainWindow::exportFprCsv(const QString &path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return makeError(ErrorKind::Io, tr("cannot write %1: %2").arg(path, file.errorString()));
    const QByteArray out = mFpr->samplesCsv().toUtf8();
    if (file.write(out) != out.size() || !file.flush())
        return makeError(ErrorKind::Io, tr("cannot write %1: %2").arg(path, file.errorString()));
    return success();
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

void MainWindow::opened(const FilterSummary &s)
{
    if (!s.followed) {
        if (!mPendingProfiles.isEmpty())
            mProfile = mPendingProfiles.takeFirst();
    }
    mFpr->setGeometry(s.geometry);
    mHistory->opened();
    mChunkNumber->setMaximum(int(s.geometry.chunks() - 1));
    mHeatmap->setLoading(s.geometry);
    mLegend->setLoading();
    mSummary->setText(tr("Loading the fill of %1 (%L2 chunks)...").arg(s.ref.table).arg(s.geometry.chunks()));
    mChunk->clear();
    mChunkLabel->setStyleSheet(QString());
    mChunkLabel->setText(tr("Click a chunk in the heatmap, or type its number."));
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
                                   : tr("Connecting to the %1 shards of %2...").arg(n).arg(mShardMapPath));
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
    mHeatmap->setResult(r);
    mLegend->setScale(r.scaleMin, r.scaleMax, r.fill.geometry.chunkBits(), r.fill.geometry.k(), r.scale);
    mSkew->setReport(r.skew);
    const double names = r.fill.estimatedNames();
    mAdminActions->setLastRefresh(names, r.rebuild);
    mFpr->addMeasurement(r.checkedAt.isValid() ? r.checkedAt : r.fill.takenAt, r.fill.estimatedFpr(), names);

    std::vector<quint32> order(r.fill.setBits.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = quint32(i);
    const size_t top = qMin<size_t>(5, order.size());
    std::partial_sort(order.begin(), order.begin() + qsizetype(top), order.end(),
                      [&r](quint32 a, quint32 b) { return r.fill.setBits[a] > r.fill.setBits[b]; });
    QStringList fullest;
    for (size_t i = 0; i < top; ++i)
        fullest << tr("%1 (%2)").arg(order[i]).arg(r.fill.setBits[order[i]]);
    const double fpr = r.fill.estimatedFpr();
    mSummary->setText(
        tr("<b>%L1</b> chunks &middot; mean fill <b>%2%</b> (min %3, max %4 of %5 bits) &middot; estimated "
           "FPR <b>%6</b> (%7) &middot; about <b>%L8</b> names &middot; fullest chunks: %9 &middot; "
           "%10 outlier(s)")
            .arg(r.fill.setBits.size())
            .arg(r.fill.meanFill() * 100, 0, 'f', 3)
            .arg(r.fill.minSetBits())
            .arg(r.fill.maxSetBits())
            .arg(r.fill.geometry.chunkBits())
            .arg(fpr, 0, 'g', 3)
            .arg(fpr::oneIn(fpr))
            .arg(qRound64(names))
            .arg(fullest.join(QStringLiteral(", ")))
            .arg(r.skew.outlierCount));
    showRebuildState(r.rebuild);
    mStatus->setStyleSheet(QString());
    const QString when = QLocale().toString(r.checkedAt.toLocalTime().time(), QLocale::LongFormat);
    const QString taken = QLocale().toString(r.fill.takenAt.toLocalTime().time(), QLocale::LongFormat);
    const QString cost =
        r.unchanged ? tr("checked %1: no write since %2, no row read").arg(when, taken)
        : r.throttled
            ? tr("checked %1: the table changed; the picture of %2 stands until %3 (the last read took "
                 "%4 ms: at most one every %5 s)")
                  .arg(when, taken, QLocale().toString(r.nextFullRead.toLocalTime().time(), QLocale::LongFormat))
                  .arg(r.fill.elapsedMs)
                  .arg(double(r.fill.elapsedMs) * 10 / 1000.0, 0, 'f', 1)
        : r.incremental
            ? tr("refreshed %1: %L2 changed chunk(s), read in %3 ms without reading the other rows")
                  .arg(when)
                  .arg(r.fill.rowsRead)
                  .arg(r.fill.elapsedMs)
            : tr("refreshed %1: read all %L2 rows in %3 ms").arg(when).arg(r.fill.rowsRead).arg(r.fill.elapsedMs);
    // Idle: wait longer before the next look; any change brings the set interval back.
    mPacer->refreshed(r.unchanged);
    mStatus->setText(tr("%1 on %2 \u2014 %3 (%4)")
                         .arg(mSession->summary().ref.table, mSession->summary().where, cost, mPacer->cadenceText()));
    mHistory->refreshed(r);
    emit refreshed();
}

void MainWindow::showRebuildState(const RebuildState &rebuild)
{
    if (!rebuild.exists) {
        mRebuildBanner->hide();
    } else if (!rebuild.running && rebuild.stage == QLatin1String("ready")) {
        mRebuildBanner->setStyleSheet(theme::bannerStyle(theme::warningBanner()));
        mRebuildBanner->setText(
            tr("%1 is rebuilt and waits to be swapped in (Admin > Swap); until then the live function "
               "records every name (%L2 pending).")
                .arg(rebuild.newTable)
                .arg(rebuild.pending));
        mRebuildBanner->show();
    } else if (!rebuild.running) {
        // Loud: the live function records every name until someone finishes or aborts it.
        mRebuildBanner->setStyleSheet(theme::bannerStyle(theme::productionBanner()));
        mRebuildBanner->setText(tr("REBUILD INTERRUPTED into %1 (stage %2, started %3): no session is running it, yet "
                                   "the live function still records every name (%L4 pending). Finish it with Admin > "
                                   "Swap, or undo it with bloomctl rebuild --abort.")
                                    .arg(rebuild.newTable, rebuild.stage,
                                         QLocale().toString(rebuild.startedAt.toLocalTime(), QLocale::ShortFormat))
                                    .arg(rebuild.pending));
        mRebuildBanner->show();
    } else {
        mRebuildBanner->setStyleSheet(QStringLiteral("padding:4px"));
        mRebuildBanner->setText(tr("A rebuild into %1 is running (stage %2); the live filter keeps serving.")
                                    .arg(rebuild.newTable, rebuild.stage));
        mRebuildBanner->show();
    }
}

void MainWindow::onFailed(Operation op, const Error &e, bool lost)
{
    // The writes and the sample are answered where they were asked (AdminActions, HistoryController),
    // by their tokens; the step-through says its own. Here: what the window itself asked.
    const QString operation = operationName(op);
    if (lost) {
        mStatus->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mStatus->setText(tr("Connection lost during %1: %2 \u2014 retrying every %3 s")
                             .arg(operation, e.message)
                             .arg(mPacer->interval()));
        return;
    }
    if (op == Operation::Refresh) {
        mStatus->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mStatus->setText(tr("The refresh failed: %1").arg(e.toString()));
    } else if (op == Operation::Chunk) {
        mChunkLabel->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mChunkLabel->setText(tr("The chunk cannot be read: %1").arg(e.toString()));
    }
}

void MainWindow::updateTitle()
{
    if (!mSession->isOpen()) {
        setWindowTitle(tr("Bloomscope"));
        mBanner->hide();
        return;
    }
    const FilterSummary &s = mSession->summary();
    const QString mode = s.readOnly ? tr("read-only") : tr("ADMIN: writes allowed");
    const QString env = mProfile.environment.isEmpty() ? QString() : mProfile.environment.toUpper();
    setWindowTitle(env.isEmpty()
                       ? tr("Bloomscope \u2014 %1 on %2 (%3)").arg(s.ref.table, s.where, mode)
                       : tr("Bloomscope \u2014 %1 \u2014 %2 on %3 (%4)").arg(env, s.ref.table, s.where, mode));
    // The banner always says where the window is and whether it writes; the environment colours it.
    const QColor colour = mProfile.colour();
    QString style;
    if (colour.isValid())
        style = theme::bannerStyle(colour);
    else if (!s.readOnly)
        style = theme::bannerStyle(theme::adminBanner());
    else
        style = QStringLiteral("padding:3px");
    mBanner->setStyleSheet(style);
    QStringList parts;
    if (!env.isEmpty())
        parts << env;
    if (!mProfile.name.isEmpty())
        parts << mProfile.name;
    parts << tr("%1 on %2").arg(s.ref.table, s.where);
    parts << (s.readOnly ? tr("read-only") : tr("ADMIN MODE: writes allowed"));
    mBanner->setText(parts.join(QStringLiteral(" \u2014 ")));
    mBanner->setAccessibleName(tr("Session"));
    mBanner->show();
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
