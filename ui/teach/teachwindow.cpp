#include "teach/teachwindow.h"
#include "help/manualwindow.h"
#include "style/files.h"
#include "style/shortcuts.h"
#include "style/statuslabel.h"
#include "style/theme.h"

#include "teach/bitgridwidget.h"
#include "teach/classjoinpanel.h"
#include "teach/classjoinqueue.h"
#include "teach/classjoinserver.h"
#include "teach/compareview.h"
#include "teach/lessonsview.h"
#include "teach/steppage.h"
#include "teach/teachexport.h"
#include "teach/timelineplayer.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFormLayout>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QNetworkInterface>
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace bloom {

namespace {

/** Presentation mode's type, against the desktop's. */
constexpr double PresentationScale = 1.3;

/** Gives the keyboard back to the widget that had it (the name field) when a file dialog closes. */
struct FocusKeeper {
    QPointer<QWidget> had = QApplication::focusWidget();
    ~FocusKeeper()
    {
        if (had)
            had->setFocus();
    }
};

} // namespace

TeachWindow::TeachWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Bloomscope - teaching mode (no database)"));
    mBaseFont = font();
    mStep = new StepPage(this);
    mCompare = new CompareView(this);
    mLessons = new LessonsView(this);
    mTabs = new QTabWidget(this);
    mTabs->addTab(mStep, tr("One filter, step by step"));
    mTabs->addTab(mCompare, tr("Classic vs blocked"));
    mTabs->addTab(mLessons, tr("Lessons on the class's filter"));
    setCentralWidget(mTabs);
    mStatus = new StatusLabel(QString(), this);
    statusBar()->addWidget(mStatus, 1);

    connect(mStep, &StepPage::idleNow, this, &TeachWindow::idleNow);
    connect(mStep, &StepPage::statusChanged, this, &TeachWindow::updateStatus);
    connect(mCompare, &CompareView::changed, this, &TeachWindow::updateStatus);
    connect(mTabs, &QTabWidget::currentChanged, this, [this] {
        if (mTabs->currentWidget() == mLessons)
            mLessons->setFilter(mStep->filter());
        updateStatus();
    });
    connect(mLessons, &LessonsView::checkInTimeline, this, [this](const QString &name) {
        switchTab(0);
        mStep->enqueue(Timeline::Action::Check, name);
    });
    connect(mLessons, &LessonsView::addInTimeline, this, [this](const QString &name) {
        switchTab(0);
        mStep->enqueue(Timeline::Action::Add, name);
    });

    // Every action is on a key, and on the window itself too: presentation mode hides the menus.
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menuFile"));
    const auto add = [this](QMenu *menu, const char *name, const QString &text, const QKeySequence &keys, auto slot) {
        QAction *a = menu->addAction(text, this, slot);
        a->setObjectName(QLatin1String(name));
        if (!keys.isEmpty())
            a->setShortcut(keys);
        addAction(a);
        return a;
    };
    using shortcuts::setStandard;
    setStandard(add(file, "actionOpenSession", tr("&Open session..."), {}, [this] { chooseOpen(); }),
                QKeySequence::Open);
    setStandard(add(file, "actionSaveSession", tr("&Save session..."), {}, [this] { chooseSave(); }),
                QKeySequence::Save);
    file->addSeparator();
    add(file, "actionExportSlide", tr("Export a &slide (SVG, PDF)..."), QKeySequence(Qt::CTRL | Qt::Key_E),
        [this] { chooseSlide(); });
    add(file, "actionExportLog", tr("Export the &log as a table (CSV)..."),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), [this] { chooseLog(); });
    add(file, "actionExportPicture", tr("Export the &window (PNG)..."), QKeySequence(), [this] { chooseExport(); });
    file->addSeparator();
    setStandard(add(file, "actionQuit", tr("&Quit"), {}, [] { QApplication::quit(); }), QKeySequence::Quit,
                QKeySequence(Qt::CTRL | Qt::Key_Q));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("menuView"));
    mPresentAction = setStandard(
        add(view, "actionPresentation", tr("&Presentation mode"), {}, [this] { setPresentation(!mPresentation); }),
        QKeySequence::FullScreen, QKeySequence(Qt::Key_F11));
    mPresentAction->setCheckable(true);
    auto *leave = new QAction(tr("Leave presentation mode"), this);
    leave->setObjectName(QStringLiteral("actionLeavePresentation"));
    leave->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(leave, &QAction::triggered, this, [this] {
        if (mPresentation)
            setPresentation(false);
    });
    addAction(leave);
    view->addSeparator();
    for (int i = 0; i < mTabs->count(); ++i)
        add(view, "", mTabs->tabText(i), QKeySequence(Qt::CTRL | (Qt::Key_1 + i)), [this, i] {
            switchTab(i);
        })->setObjectName(QStringLiteral("actionTab%1").arg(i + 1));
    // Ctrl+Tab cycles both ways from any tab (QTabWidget's own only while a child of it has the focus).
    setStandard(add(view, "actionNextTab", tr("Next tab"), {},
                    [this] { switchTab((mTabs->currentIndex() + 1) % mTabs->count()); }),
                QKeySequence::NextChild, QKeySequence(Qt::CTRL | Qt::Key_Tab));
    setStandard(add(view, "actionPreviousTab", tr("Previous tab"), {},
                    [this] { switchTab((mTabs->currentIndex() + mTabs->count() - 1) % mTabs->count()); }),
                QKeySequence::PreviousChild, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab));
    QMenu *teaching = menuBar()->addMenu(tr("&Teaching"));
    teaching->setObjectName(QStringLiteral("menuTeaching"));
    add(teaching, "actionClassJoin", tr("Let the class &join..."), QKeySequence(Qt::CTRL | Qt::Key_J),
        [this] { chooseClassJoin(); });
    add(teaching, "actionClassJoinStop", tr("&Close the class's page"), QKeySequence(), [this] { stopClassJoin(); });
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menuHelp"));
    setStandard(add(help, "actionHelpContents", tr("&Contents"), {}, [this] { showManual(); }),
                QKeySequence::HelpContents, QKeySequence(Qt::Key_F1));

    theme::fitToScreen(this, QSize(1280, 800));
}

TeachWindow::~TeachWindow() = default;

void TeachWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!mShownOnce) {
        mShownOnce = true;
        mStep->nameField()->setFocus(); // the first thing typed is a name
    }
}

void TeachWindow::showManual()
{
    if (!mManual)
        mManual = new ManualWindow(findChildren<QAction *>(), this);
    mManual->show();
    mManual->raise();
    mManual->activateWindow();
}

void TeachWindow::switchTab(int index)
{
    mTabs->setCurrentIndex(index);
    if (QWidget *page = mTabs->currentWidget()) {
        // The focus goes into the tab (it stayed on a hidden widget of the old one, and Ctrl+Tab died there).
        if (page == mStep)
            mStep->nameField()->setFocus();
        else
            page->nextInFocusChain()->setFocus();
    }
}

bool TeachWindow::newFilter()
{
    return mStep->newFilter(false);
}

void TeachWindow::playReferenceExample()
{
    switchTab(0);
    mStep->playReferenceExample(false);
}

bool TeachWindow::enqueue(Action action, const QString &name)
{
    return mStep->enqueue(action, name);
}

void TeachWindow::setStepMs(int ms)
{
    mStep->setStepMs(ms);
}

bool TeachWindow::idle() const
{
    return mStep->idle();
}

void TeachWindow::showCompare()
{
    switchTab(1);
}

void TeachWindow::showLessons()
{
    switchTab(2);
}

const SandboxFilter &TeachWindow::filter() const
{
    return mStep->filter();
}

qsizetype TeachWindow::timelineSize() const
{
    return mStep->player()->timeline().size();
}

QStringList TeachWindow::logLines() const
{
    return mStep->logLines();
}

QList<int> TeachWindow::falsePositiveRows() const
{
    return mStep->falsePositiveRows();
}

QString TeachWindow::hashText() const
{
    return mStep->hashText();
}

BitGridWidget *TeachWindow::grid() const
{
    return mStep->grid();
}

void TeachWindow::setPresentation(bool on)
{
    if (on == mPresentation)
        return;
    mPresentation = on;
    mPresentAction->setChecked(on);
    menuBar()->setVisible(!on);
    statusBar()->setVisible(!on);
    QFont f = mBaseFont;
    if (on)
        f.setPointSizeF(mBaseFont.pointSizeF() * PresentationScale);
    mTabs->setFont(f);
    mStep->setPresentation(on);
    mCompare->setPresentation(on);
    mLessons->setPresentation(on);
    // Long tab titles (German) shrink with an ellipsis rather than scroll on a projector.
    mTabs->setUsesScrollButtons(!on);
    mTabs->setElideMode(on ? Qt::ElideRight : Qt::ElideNone);
    if (on) {
        mNormalGeometry = geometry();
        showFullScreen();
        // Without a window manager nothing acts on the full-screen request (the window stayed at
        // 1152 x 648 on a 1280 x 720 projector): the window takes its screen's whole area itself.
        if (const QScreen *s = screen())
            setGeometry(s->geometry());
    } else {
        showNormal();
        if (mNormalGeometry.isValid())
            setGeometry(mNormalGeometry);
    }
    updateStatus();
}

void TeachWindow::updateStatus()
{
    if (mTabs->currentWidget() == mCompare) {
        // The status line speaks of the tab on screen: the comparison has its own filters.
        mStatus->setText(tr("Classic vs blocked: %1 in each filter; the summary above compares them.")
                             .arg(mCompare->names() == 1 ? tr("1 name") : tr("%1 names").arg(mCompare->names())));
        return;
    }
    if (mTabs->currentWidget() == mLessons) {
        mStatus->setText(tr("Lessons on the class's filter as the timeline has it now (%1).").arg(filter().describe()));
        return;
    }
    QString text = mStep->statusText();
    if (const QScreen *s = screen();
        s && !mPresentation && (s->availableSize().width() < 700 || s->availableSize().height() < 500))
        text = tr("A small screen: F11 for presentation mode | ") + text;
    mStatus->setText(text);
}

bool TeachWindow::saveSession(const QString &path, QString *error)
{
    QJsonObject o = mStep->player()->timeline().toJson(mStep->player()->position());
    QJsonArray log;
    for (const QString &line : logLines())
        log.append(line);
    o.insert(QStringLiteral("log"), log); // for a reader; the timeline is what opens
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson()) < 0 || !f.commit()) {
        *error = tr("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

bool TeachWindow::openSession(const QString &path, QString *error)
{
    // Core reads only a regular file of bounded size: a FIFO or /dev/zero never hangs the window.
    qsizetype position = 0;
    auto timeline = Timeline::readFile(path, &position);
    if (!timeline) {
        *error = timeline.error().toString();
        return false;
    }
    mStep->setTimeline(*timeline, position);
    return true;
}

bool TeachWindow::exportPicture(const QString &path)
{
    return grab().save(path, "PNG");
}

bool TeachWindow::exportSlide(const QString &path, QString *error)
{
    return teachexport::slide(mStep->slide(), path, error);
}

bool TeachWindow::exportLog(const QString &path, QString *error)
{
    return teachexport::csv(mStep->logTable(), path, error);
}

void TeachWindow::chooseSave()
{
    const FocusKeeper focus;
    const QString path = chooseSaveFile(this, tr("Save the session"), QStringLiteral("bloom-session.json"),
                                        tr("Bloomscope sessions (*.json)"), QStringLiteral("json"));
    QString error;
    if (!path.isEmpty() && !saveSession(path, &error))
        QMessageBox::warning(this, tr("Save session"), error);
}

void TeachWindow::chooseOpen()
{
    const FocusKeeper focus;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a session"), QString(),
                                                      tr("Bloomscope sessions (*.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openSession(path, &error))
        QMessageBox::warning(this, tr("Open session"), error);
}

void TeachWindow::chooseExport()
{
    const FocusKeeper focus;
    const QString path = chooseSaveFile(this, tr("Export the window"), QStringLiteral("bloom.png"),
                                        tr("PNG images (*.png)"), QStringLiteral("png"));
    if (!path.isEmpty() && !exportPicture(path))
        QMessageBox::warning(this, tr("Export picture"), tr("cannot write %1").arg(path));
}

void TeachWindow::chooseSlide()
{
    const FocusKeeper focus;
    QString chosen;
    QString path = QFileDialog::getSaveFileName(this, tr("Export a slide"), QStringLiteral("bloom-slide.svg"),
                                                tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"), &chosen);
    if (path.isEmpty())
        return;
    const QString lower = path.toLower();
    if (!lower.endsWith(QLatin1String(".svg")) && !lower.endsWith(QLatin1String(".pdf")) &&
        !lower.endsWith(QLatin1String(".png")))
        path = withSuffix(path, chosen.startsWith(QLatin1String("PDF"))   ? QStringLiteral("pdf")
                                : chosen.startsWith(QLatin1String("PNG")) ? QStringLiteral("png")
                                                                          : QStringLiteral("svg"));
    QString error;
    if (!exportSlide(path, &error))
        QMessageBox::warning(this, tr("Export a slide"), error);
}

void TeachWindow::chooseLog()
{
    const FocusKeeper focus;
    const QString path = chooseSaveFile(this, tr("Export the log"), QStringLiteral("bloom-log.csv"),
                                        tr("CSV tables (*.csv)"), QStringLiteral("csv"));
    QString error;
    if (!path.isEmpty() && !exportLog(path, &error))
        QMessageBox::warning(this, tr("Export the log"), error);
}

Result<QUrl> TeachWindow::startClassJoin(const QHostAddress &address, quint16 port, bool approval)
{
    if (!mJoin) {
        mJoin = new ClassJoinServer(this);
        // A phone's name goes where a typed one goes: the timeline, animated on the projector; the
        // phone gets the verdict and the bits of that very entry.
        mJoin->setSubmit([this](Timeline::Action action, const QByteArray &name) -> Result<ClassJoinServer::Answer> {
            if (!mStep->enqueue(action, QString::fromUtf8(name), Timeline::Origin::Class))
                return makeError(ErrorKind::BadInput, tr("the teaching filter does not take this name"));
            const Timeline &timeline = mStep->timeline();
            const SandboxFilter::Trace t = timeline.traceOf(timeline.size() - 1);
            ClassJoinServer::Answer a;
            a.bits = t.where();
            a.line = Timeline::line(action, t);
            a.verdict = action == Timeline::Action::Add ? tr("added")
                        : t.maybe                       ? tr("maybe: every one of its bits is set")
                                                        : tr("definitely not: one of its bits is 0");
            return a;
        });
    }
    mJoin->setApproval(approval);
    auto url = mJoin->start(address, port);
    if (!url)
        return url;
    if (!mJoinPanel) {
        mJoinPanel = new ClassJoinPanel(mJoin, this);
        connect(mJoinPanel, &ClassJoinPanel::closeRequested, this, &TeachWindow::stopClassJoin);
        mJoinDock = new QDockWidget(tr("The class's page"), this);
        mJoinDock->setObjectName(QStringLiteral("classJoinDock"));
        mJoinDock->setFeatures(QDockWidget::DockWidgetMovable);
        mJoinDock->setWidget(mJoinPanel);
        addDockWidget(Qt::RightDockWidgetArea, mJoinDock);
    }
    mJoinPanel->refresh();
    mJoinDock->show();
    return url;
}

void TeachWindow::stopClassJoin()
{
    if (mJoin)
        mJoin->stop();
    if (mJoinDock)
        mJoinDock->hide();
    if (mJoinPanel)
        mJoinPanel->queue()->hide();
}

void TeachWindow::chooseClassJoin()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Let the class join"));
    auto *intro = new QLabel(tr("Students open a page on their phones and add or check names in this filter. "
                                "The page is served from this computer on the network you pick; nothing of "
                                "it reaches a database. Close it from the Teaching menu or its panel."),
                             &dialog);
    intro->setWordWrap(true);
    auto *address = new QComboBox(&dialog);
    address->setObjectName(QStringLiteral("classJoinAddress"));
    for (const QNetworkInterface &i : QNetworkInterface::allInterfaces()) {
        if (!(i.flags() & QNetworkInterface::IsUp))
            continue;
        for (const QNetworkAddressEntry &e : i.addressEntries())
            if (e.ip().protocol() == QAbstractSocket::IPv4Protocol && !e.ip().isLoopback())
                address->addItem(tr("%1 (%2)").arg(e.ip().toString(), i.humanReadableName()), e.ip().toString());
    }
    address->addItem(tr("127.0.0.1 (this computer only)"), QStringLiteral("127.0.0.1"));
    auto *port = new QSpinBox(&dialog);
    port->setObjectName(QStringLiteral("classJoinPort"));
    port->setRange(1024, 65535);
    port->setValue(8765);
    auto *approval = new QCheckBox(tr("Take each name &myself before it reaches the filter"), &dialog);
    approval->setChecked(true);
    auto *form = new QFormLayout;
    form->addRow(tr("&Network:"), address);
    form->addRow(tr("&Port:"), port);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Open the page"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(approval);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    auto url =
        startClassJoin(QHostAddress(address->currentData().toString()), quint16(port->value()), approval->isChecked());
    if (!url)
        QMessageBox::warning(this, tr("Let the class join"), url.error().toString());
}

} // namespace bloom
