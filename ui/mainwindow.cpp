#include "mainwindow.h"
#include "postgres/pgconn.h"
#include "style/files.h"
#include "style/statuslabel.h"
#include "style/theme.h"

#include "admin/rebuilddialog.h"
#include "connect/connectdialog.h"
#include "connect/demorunner.h"
#include "fpr/fprview.h"
#include "heatmap/chunkgridwidget.h"
#include "heatmap/heatmapwidget.h"
#include "heatmap/skewchart.h"
#include "model/fprmodel.h"
#include "redis/rediswindow.h"
#include "session/filtersession.h"
#include "shards/shardsession.h"
#include "shards/typingview.h"
#include "step/stepthroughview.h"
#include "teach/teachwindow.h"

#include <QApplication>
#include <QCheckBox>
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
#include <QScrollArea>
#include <QSpinBox>
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

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    mSession = new FilterSession(this);
    mBanner = new QLabel(this);
    mBanner->setObjectName(QStringLiteral("environmentBanner"));
    mBanner->setAlignment(Qt::AlignCenter);
    mBanner->hide();
    mRebuildBanner = new QLabel(this);
    mRebuildBanner->setObjectName(QStringLiteral("rebuildBanner"));
    mRebuildBanner->setWordWrap(true);
    mRebuildBanner->setAlignment(Qt::AlignCenter);
    mRebuildBanner->hide();
    mDamageBanner = new QLabel(this);
    mDamageBanner->setObjectName(QStringLiteral("damageBanner"));
    mDamageBanner->setAccessibleName(tr("Damaged filter"));
    mDamageBanner->setWordWrap(true);
    mDamageBanner->setTextFormat(Qt::PlainText);
    mDamageBanner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mDamageBanner->setStyleSheet(theme::bannerStyle(theme::productionBanner()));
    mDamageBanner->hide();

    // Heatmap tab: the picture, its legend, a summary line, and the fill histogram beside the model.
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
    changesRow->addWidget(makeSinceChooser(left));
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

    mFpr = new FprView(this);
    mStep = new StepThroughView(this);
    mStep->setSession(mSession);

    auto *chunkTab = new QWidget(this);
    mChunk = new ChunkGridWidget(chunkTab);
    mChunkLabel = new QLabel(tr("Click a chunk in the heatmap, or type its number."), chunkTab);
    mChunkLabel->setObjectName(QStringLiteral("chunkLabel"));
    mChunkNumber = new QSpinBox(chunkTab);
    mChunkNumber->setObjectName(QStringLiteral("chunkNumber"));
    mChunkNumber->setRange(0, 131071);
    mChunkNumber->setAccelerated(true);
    auto *chunkNumberLabel = new QLabel(tr("C&hunk:"), chunkTab);
    chunkNumberLabel->setBuddy(mChunkNumber);
    auto *showChunkButton = new QPushButton(tr("Show"), chunkTab);
    showChunkButton->setObjectName(QStringLiteral("showChunk"));
    connect(showChunkButton, &QPushButton::clicked, this, [this] { showChunk(quint32(mChunkNumber->value())); });
    connect(mChunkNumber, &QSpinBox::editingFinished, this, [this] {
        if (mChunkNumber->hasFocus())
            showChunk(quint32(mChunkNumber->value()));
    });
    auto *chunkRow = new QHBoxLayout;
    chunkRow->addWidget(chunkNumberLabel);
    chunkRow->addWidget(mChunkNumber);
    chunkRow->addWidget(showChunkButton);
    chunkRow->addWidget(mChunkLabel, 1);
    auto *chunkLayout = new QVBoxLayout(chunkTab);
    chunkLayout->addLayout(chunkRow);
    chunkLayout->addWidget(mChunk, 1);

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
    layout->addWidget(mDamageBanner);
    layout->addWidget(mRebuildBanner);
    layout->addWidget(mTabs, 1);
    setCentralWidget(central);

    mTimer = new QTimer(this);
    mInterval = new QSpinBox(this);
    mInterval->setObjectName(QStringLiteral("refreshInterval"));
    mInterval->setRange(1, 3600);
    mInterval->setSuffix(tr(" s"));
    mPause = new QCheckBox(tr("Pause"), this);
    mAdapt = new QCheckBox(tr("Slow down &when idle"), this);
    mAdapt->setObjectName(QStringLiteral("adaptInterval"));
    mAdapt->setChecked(true);
    mAdapt->setToolTip(tr("After each refresh that finds nothing written, wait twice as long (up to 12 times the "
                          "interval, at most 5 minutes unless the interval is longer); back to the interval on the "
                          "first change."));
    auto *bar = addToolBar(tr("Refresh"));
    bar->setMovable(false);
    auto *intervalLabel = new QLabel(tr(" Refresh &every "), this);
    intervalLabel->setBuddy(mInterval);
    bar->addWidget(intervalLabel);
    bar->addWidget(mInterval);
    bar->addWidget(mPause);
    bar->addWidget(mAdapt);
    QAction *now = bar->addAction(tr("Refresh now"));
    connect(now, &QAction::triggered, mSession, [this] { mSession->refresh(); });
    connect(mInterval, &QSpinBox::valueChanged, this, [this] {
        mIdleRefreshes = 0;
        mTimer->setInterval(effectiveIntervalSeconds() * 1000);
    });
    connect(mAdapt, &QCheckBox::toggled, this, [this] { mTimer->setInterval(effectiveIntervalSeconds() * 1000); });
    connect(mPause, &QCheckBox::toggled, this, [this](bool paused) { paused ? mTimer->stop() : mTimer->start(); });
    connect(mTimer, &QTimer::timeout, this, [this] {
        if (mSession->isOpen()) // stays open across a lost connection: the worker reconnects
            mSession->refresh(FilterSession::IfBusy::Skip);
    });
    setRefreshInterval(5);

    mStatus = new StatusLabel(tr("Not connected."), this);
    statusBar()->addWidget(mStatus, 1);

    connect(mSession, &FilterSession::opened, this, &MainWindow::opened);
    connect(mSession, &FilterSession::refreshed, this, &MainWindow::onRefreshed);
    connect(mSession, &FilterSession::failed, this, &MainWindow::onFailed);
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
    buildMenus();
    updateTitle();
    theme::fitToScreen(this, QSize(1280, 800));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Connect..."), QKeySequence(Qt::CTRL | Qt::Key_O), this, &MainWindow::showConnectDialog);
    file->addAction(tr("&Demo database"), this, [this] { startDemo(2'000'000); });
    file->addAction(tr("Demo with 16 &shards"), this, [this] { startDemo(200'000, 16); });
    file->addAction(tr("Open shard &map..."), this, &MainWindow::chooseShardMap);
    file->addAction(tr("Open a &Redis bitmap filter..."), this, [this] {
        bool ok = false;
        const QString url = QInputDialog::getText(this, tr("Redis bitmap filter"),
                                                  tr("Redis URL (the password, if any, in REDISCLI_AUTH):"),
                                                  QLineEdit::Normal, QStringLiteral("redis://127.0.0.1:6379/0"), &ok);
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
    });
    file->addAction(tr("&Teaching mode (no database)"), this, [] {
        auto *w = new TeachWindow;
        w->setAttribute(Qt::WA_DeleteOnClose);
        w->playReferenceExample();
        w->show();
    });
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export"));
    mExportActions << exportMenu->addAction(tr("Heatmap as &PNG..."), this, [this] {
        const QString path = chooseSaveFile(this, tr("Export the heatmap"), QStringLiteral("heatmap.png"),
                                            tr("PNG images (*.png)"), QStringLiteral("png"));
        reportExport(path, exportHeatmapPng(path));
    });
    mExportActions << exportMenu->addAction(tr("Chunk fill as &CSV..."), this, [this] {
        const QString path = chooseSaveFile(this, tr("Export the fill of every chunk"), QStringLiteral("fill.csv"),
                                            tr("CSV files (*.csv)"), QStringLiteral("csv"));
        reportExport(path, exportFillCsv(path));
    });
    mExportActions << exportMenu->addAction(tr("&FPR chart as PNG..."), this, [this] {
        const QString path = chooseSaveFile(this, tr("Export the FPR chart"), QStringLiteral("fpr.png"),
                                            tr("PNG images (*.png)"), QStringLiteral("png"));
        reportExport(path, exportFprPng(path));
    });
    mExportActions << exportMenu->addAction(tr("FPR &history as CSV..."), this, [this] {
        const QString path = chooseSaveFile(this, tr("Export the FPR history (the snapshots, or the refreshes)"),
                                            QStringLiteral("fpr.csv"), tr("CSV files (*.csv)"), QStringLiteral("csv"));
        reportExport(path, exportFprCsv(path));
    });
    for (QAction *a : mExportActions)
        a->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), qApp, &QApplication::quit);

    QMenu *admin = menuBar()->addMenu(tr("&Admin"));
    mAdminAction = admin->addAction(tr("Admin &mode (allow writes)"));
    mAdminAction->setCheckable(true);
    connect(mAdminAction, &QAction::toggled, this, &MainWindow::setAdminMode);
    admin->addSeparator();
    mWriteActions << admin->addAction(tr("&Add a name..."), this, &MainWindow::addName);
    mWriteActions << admin->addAction(tr("&Load names from a file..."), this, &MainWindow::loadFile);
    admin->addAction(tr("&Sample the measured FPR..."), this, &MainWindow::sampleFpr);
    admin->addSeparator();
    mWriteActions << admin->addAction(tr("Record a sna&pshot now"), this, &MainWindow::recordSnapshot);
    admin->addSeparator();
    mWriteActions << admin->addAction(tr("&Rebuild with more chunks..."), this, &MainWindow::openRebuild);
    mWriteActions << admin->addAction(tr("S&wap in the rebuilt filter..."), this, &MainWindow::openSwap);
    for (QAction *a : mWriteActions)
        a->setEnabled(false);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *refresh =
        view->addAction(tr("&Refresh now"), QKeySequence(Qt::Key_F5), mSession, [this] { mSession->refresh(); });
    refresh->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    view->addSeparator();
    const QStringList names{tr("&Heatmap"), tr("&FPR"), tr("&Step-through"), tr("&Chunk"), tr("S&hards")};
    for (int i = 0; i < names.size(); ++i)
        view->addAction(names[i], QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)), this,
                        [this, i] { mTabs->setCurrentIndex(i); });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Bloomscope"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::connectTo(const ConnectionSpec &spec, const FilterRef &ref, const Profile &profile)
{
    // The window keeps describing the session it has until the new one is open (opened()).
    mPendingProfiles.append(profile);
    mStatus->setText(tr("Connecting to %1...").arg(spec.describe()));
    mSession->open(spec, ref, !mAdmin);
}

void MainWindow::onOpenFailed(const Error &e)
{
    if (!mPendingProfiles.isEmpty())
        mPendingProfiles.removeFirst();
    if (mSession->isOpen()) {
        mStatus->setText(tr("Could not connect: %1 — still attached to %2 on %3")
                             .arg(e.toString(), mSession->summary().ref.table, mSession->summary().where));
        // Admin mode asked for a read-write session it did not get: the menu says what the session is.
        const QSignalBlocker block(mAdminAction);
        mAdminAction->setChecked(!mSession->summary().readOnly);
        mAdmin = !mSession->summary().readOnly;
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
        shards > 0 ? tr("Starting a private PostgreSQL with %1 shard databases and loading %L2 generated names...")
                         .arg(shards)
                         .arg(names)
                   : tr("Starting a private PostgreSQL and loading %L1 generated names...").arg(names),
        tr("Cancel"), 0, 1000, this);
    progress->setWindowTitle(tr("Demo database"));
    progress->setMinimumDuration(0);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(progress, &QProgressDialog::canceled, mDemo, &DemoRunner::cancel);
    connect(mDemo, &DemoRunner::progress, progress, [progress](qint64 done, qint64 total) {
        progress->setValue(int(1000.0 * double(done) / double(qMax<qint64>(1, total))));
    });
    connect(mDemo, &DemoRunner::ready, progress, &QWidget::close);
    connect(mDemo, &DemoRunner::failed, progress, &QWidget::close);
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
    mIdleRefreshes = 0;
    mInterval->setValue(seconds);
    mTimer->setInterval(effectiveIntervalSeconds() * 1000);
}

int MainWindow::effectiveIntervalSeconds() const
{
    const int base = mInterval->value();
    if (!mAdapt->isChecked() || mIdleRefreshes == 0)
        return base;
    const int factor = qMin(12, 1 << qMin(mIdleRefreshes, 4));
    return qMin(base * factor, qMax(base, 300));
}

void MainWindow::showChunk(quint32 chunk)
{
    {
        const QSignalBlocker block(mChunkNumber);
        mChunkNumber->setValue(int(chunk));
    }
    mChunkLabel->setText(tr("Chunk %1: fetching...").arg(chunk));
    mSession->chunk(chunk);
}

QString MainWindow::statusText() const
{
    return mStatus->text();
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
    const QImage &img = mHeatmap->result().heatmap;
    if (img.isNull())
        return makeError(ErrorKind::Usage, tr("nothing to export yet: the fill has not been read"));
    // One pixel a chunk is too small to look at: scale up without smoothing, so a cell stays a chunk.
    const int scale = qMax(1, 1024 / qMax(1, img.width()));
    if (!img.scaled(img.size() * scale, Qt::IgnoreAspectRatio, Qt::FastTransformation).save(path, "PNG"))
        return makeError(ErrorKind::Io, tr("cannot write %1").arg(path));
    return success();
}

Status MainWindow::exportFillCsv(const QString &path) const
{
    const FillSnapshot &f = mHeatmap->result().fill;
    if (f.setBits.empty())
        return makeError(ErrorKind::Usage, tr("nothing to export yet: the fill has not been read"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return makeError(ErrorKind::Io, tr("cannot write %1: %2").arg(path, file.errorString()));
    QByteArray out = "chunk,set_bits,chunk_bits,fill,chunk_fpr\n";
    const double b = f.geometry.chunkBits();
    for (size_t c = 0; c < f.setBits.size(); ++c) {
        const double fill = f.setBits[c] / b;
        out += QByteArray::number(qulonglong(c)) + ',' + QByteArray::number(f.setBits[c]) + ',' +
               QByteArray::number(f.geometry.chunkBits()) + ',' + QByteArray::number(fill, 'g', 6) + ',' +
               QByteArray::number(std::pow(fill, f.geometry.k()), 'g', 6) + '\n';
    }
    if (file.write(out) != out.size() || !file.flush())
        return makeError(ErrorKind::Io, tr("cannot write %1: %2").arg(path, file.errorString()));
    return success();
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
    historyOpened();
    mChunkNumber->setMaximum(int(s.geometry.chunks() - 1));
    mHeatmap->setLoading(s.geometry);
    mLegend->setLoading();
    mSummary->setText(tr("Loading the fill of %1 (%L2 chunks)...").arg(s.ref.table).arg(s.geometry.chunks()));
    mChunk->clear();
    mChunkLabel->setText(tr("Click a chunk in the heatmap, or type its number."));
    mDamageBanner->hide(); // another filter, or the same after a swap: its first read says
    if (!s.followed)
        mRole.reset(); // another server: its first refresh says how far its replay is
    mStatus->setStyleSheet(QString());
    mStatus->setText(s.followed ? tr("%1 was swapped by another session: now attached to the new %1 (%2)")
                                      .arg(s.ref.table, s.geometry.describe())
                                : tr("Attached to %1 on %2 (PostgreSQL %3): %4")
                                      .arg(s.ref.table, s.where, s.serverVersion, s.geometry.describe()));
    {
        const QSignalBlocker block(mAdminAction);
        mAdminAction->setChecked(!s.readOnly);
    }
    mAdmin = !s.readOnly;
    for (QAction *a : mWriteActions)
        a->setEnabled(!s.readOnly);
    for (QAction *a : mExportActions)
        a->setEnabled(true);
    updateTitle();
    if (!mPause->isChecked())
        mTimer->start();
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
    mTyping->setUnavailable(tr("Connecting to the %1 shards of %2...").arg(mShardMap.shards.size()).arg(mShardMapPath));
    mShards->open(mSession->spec(), mSession->summary().ref, mShardMap, !mAdmin);
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
    mLastNames = names;
    const ChunkDamage &damage = r.fill.damage;
    if (damage.empty()) // a damaged chunk counts as empty: the figures would dip, not the filter
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
        (damage.empty() ? QString()
                        : tr("<b style='color:%1'>%L2 damaged chunk(s), counted below as empty</b> &middot; ")
                              .arg(theme::textOn(theme::errorText(palette()), palette()))
                              .arg(damage.count())) +
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
    if (!r.rebuild.exists) {
        mRebuildBanner->hide();
    } else if (!r.rebuild.running && r.rebuild.stage == QLatin1String("ready")) {
        mRebuildBanner->setStyleSheet(theme::bannerStyle(theme::warningBanner()));
        mRebuildBanner->setText(
            tr("%1 is rebuilt and waits to be swapped in (Admin > Swap); until then the live function "
               "records every name (%L2 pending).")
                .arg(r.rebuild.newTable)
                .arg(r.rebuild.pending));
        mRebuildBanner->show();
    } else if (!r.rebuild.running) {
        // Loud: the live function records every name until someone finishes or aborts it.
        mRebuildBanner->setStyleSheet(theme::bannerStyle(theme::productionBanner()));
        mRebuildBanner->setText(tr("REBUILD INTERRUPTED into %1 (stage %2, started %3): no session is running it, yet "
                                   "the live function still records every name (%L4 pending). Finish it with Admin > "
                                   "Swap, or undo it with bloomctl rebuild --abort.")
                                    .arg(r.rebuild.newTable, r.rebuild.stage,
                                         QLocale().toString(r.rebuild.startedAt.toLocalTime(), QLocale::ShortFormat))
                                    .arg(r.rebuild.pending));
        mRebuildBanner->show();
    } else {
        mRebuildBanner->setStyleSheet(QStringLiteral("padding:4px"));
        mRebuildBanner->setText(tr("A rebuild into %1 is running (stage %2); the live filter keeps serving.")
                                    .arg(r.rebuild.newTable, r.rebuild.stage));
        mRebuildBanner->show();
    }
    // A NULL or missing chunk row: red, with what it means and what restores it, on every refresh
    // that still finds it (the same words as bloomctl's).
    if (damage.empty()) {
        mDamageBanner->hide();
    } else {
        mDamageBanner->setText(tr("DAMAGED FILTER \u2014 %1.\nFix: %2.").arg(r.damageError.message, r.damageError.fix));
        mDamageBanner->show();
    }
    mStatus->setStyleSheet(damage.empty() ? QString() : theme::textStyle(theme::errorText(palette())));
    const QString when = QLocale().toString(r.checkedAt.toLocalTime().time(), QLocale::LongFormat);
    const QString taken = QLocale().toString(r.fill.takenAt.toLocalTime().time(), QLocale::LongFormat);
    const bool standby = r.role.inRecovery;
    if (!mRole || mRole->inRecovery != standby || standby) { // a standby's banner says how far its replay is
        mRole = r.role;
        updateTitle();
    }
    const QString cost =
        r.unchanged ? (standby ? tr("checked %1: nothing replayed since %2, no row read")
                               : tr("checked %1: no write since %2, no row read"))
                          .arg(when, taken)
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
    mIdleRefreshes = r.unchanged ? mIdleRefreshes + 1 : 0;
    const int next = effectiveIntervalSeconds();
    if (mTimer->interval() != next * 1000)
        mTimer->setInterval(next * 1000);
    const QString cadence = mPause->isChecked() ? tr("every %1 s, paused").arg(mInterval->value())
                            : next != mInterval->value()
                                ? tr("idle: next in %1 s, every %2 s once it changes").arg(next).arg(mInterval->value())
                                : tr("every %1 s").arg(next);
    const QString where =
        standby ? tr("%1, a %2").arg(mSession->summary().where, r.role.describe()) : mSession->summary().where;
    mStatus->setText(damage.empty()
                         ? tr("%1 on %2 \u2014 %3 (%4)").arg(mSession->summary().ref.table, where, cost, cadence)
                         : tr("%1 on %2 is DAMAGED (%3) \u2014 %4 (%5)")
                               .arg(mSession->summary().ref.table, where, damage.describe(), cost, cadence));
    historyRefreshed(r);
    emit refreshed();
}

void MainWindow::onFailed(Operation op, const Error &e, bool lost)
{
    const QString operation = operationName(op);
    if (lost) {
        mStatus->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mStatus->setText(tr("Connection lost during %1: %2 \u2014 retrying every %3 s")
                             .arg(operation, e.message)
                             .arg(mInterval->value()));
        return;
    }
    if (op == Operation::Step)
        return; // shown in the step-through view
    if (op == Operation::Chunk && e.kind == ErrorKind::DamagedFilter) {
        // A NULL or missing row: the Chunk tab says so (the banner has the fix), no box pops up.
        mChunk->clear();
        mChunkLabel->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mChunkLabel->setText(e.message);
        return;
    }
    if (op == Operation::History) { // the FPR tab says it; the window's own refreshes are plotted
        mFpr->setHistoryNote(tr("The history cannot be read (%1)").arg(e.message));
        return;
    }
    mStatus->setText(tr("%1 failed: %2").arg(operation, e.toString()));
    if (op == Operation::Record && e.consent == QLatin1String("publication-ok")) {
        // A publication would send the new history table to subscribers: the same refusal and SQL as
        // bloomctl's, and its --publication-ok as a button.
        QMessageBox box(QMessageBox::Warning, tr("Bloomscope"), tr("%1 refused:\n\n%2").arg(operation, e.message),
                        QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("publicationRefusal"));
        box.setInformativeText(tr("Fix: %1").arg(e.fix));
        box.setTextInteractionFlags(Qt::TextSelectableByMouse);
        QPushButton *ahead = box.addButton(tr("The subscribers ran it: &record anyway"), QMessageBox::AcceptRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        if (box.clickedButton() == ahead)
            mSession->record(true);
        return;
    }
    if (op != Operation::Refresh)
        QMessageBox::warning(this, tr("Bloomscope"), tr("%1 failed:\n\n%2").arg(operation, e.toString()));
}

void MainWindow::updateTitle()
{
    if (!mSession->isOpen()) {
        setWindowTitle(tr("Bloomscope"));
        mBanner->hide();
        return;
    }
    const FilterSummary &s = mSession->summary();
    // A standby takes no write whatever the mode: the banner says where writes go instead.
    const bool standby = mRole ? mRole->inRecovery : s.standby;
    const QString mode = standby      ? tr("STANDBY, read-only replica")
                         : s.readOnly ? tr("read-only")
                                      : tr("ADMIN: writes allowed");
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
    if (standby)
        parts << (mRole ? tr("STANDBY: %1; writes go to the primary").arg(mRole->describe())
                        : tr("STANDBY (read-only replica); writes go to the primary"));
    else
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
    dialog->setAdmin(mAdmin);
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
