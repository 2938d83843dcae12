#include "teach/teachwindow.h"
#include "style/files.h"
#include "style/statuslabel.h"
#include "style/theme.h"

#include "model/name.h"
#include "teach/bitgridwidget.h"
#include "teach/compareview.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace bloom {

namespace {

const QColor FalsePositiveColour(0xff, 0xe0, 0xb2);

/** A log line of a false positive: the highlight, and text readable on it in either palette (7:1,
 *  as the light palette's black has: the dark palette's text darkened only to 4.5:1 looked faded
 *  beside the other lines). */
void markFalsePositive(QListWidgetItem *item, const QPalette &palette)
{
    item->setBackground(FalsePositiveColour);
    item->setForeground(theme::readable(palette.color(QPalette::Text), FalsePositiveColour, 7.0));
}
const QColor FreeColour(0x1e, 0x9e, 0x4a);
const QColor MaybeColour(0xc0, 0x7a, 0x00);

QString mono(const QString &s)
{
    return QStringLiteral("<span style='font-family:monospace'>%1</span>").arg(s.toHtmlEscaped());
}

} // namespace

TeachWindow::TeachWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Bloomscope - teaching mode (no database)"));
    mTimer = new QTimer(this);
    connect(mTimer, &QTimer::timeout, this, &TeachWindow::advance);

    // The filter and its controls.
    mScheme = new QComboBox(this);
    mScheme->setAccessibleName(tr("Filter scheme"));
    mScheme->setObjectName(QStringLiteral("teachScheme"));
    mScheme->addItem(tr("Classic: md5(\"i:\" + name) mod m"));
    mScheme->addItem(tr("Blocked: one chunk a name, as username_bits"));
    mBits = new QSpinBox(this);
    mBits->setAccessibleName(tr("Bits (m)"));
    mBits->setRange(2, 4096);
    mBits->setValue(16);
    mBits->setPrefix(tr("m = "));
    mBits->setSuffix(tr(" bits"));
    mChunks = new QSpinBox(this);
    mChunks->setAccessibleName(tr("Chunks"));
    mChunks->setRange(1, 64);
    mChunks->setValue(8);
    mChunks->setSuffix(tr(" chunks"));
    mChunkBits = new QComboBox(this);
    mChunkBits->setAccessibleName(tr("Bits a chunk"));
    for (int b : {8, 16, 32, 64, 128})
        mChunkBits->addItem(tr("x %1 bits").arg(b), b);
    mChunkBits->setCurrentIndex(3);
    mK = new QSpinBox(this);
    mK->setAccessibleName(tr("Positions a name (k)"));
    mK->setRange(1, 12);
    mK->setValue(3);
    mK->setPrefix(tr("k = "));
    auto *fresh = new QPushButton(tr("&New empty filter"), this);
    fresh->setObjectName(QStringLiteral("teachNew"));
    auto *example = new QPushButton(tr("Play the reference's example"), this);
    example->setObjectName(QStringLiteral("teachExample"));
    connect(mScheme, &QComboBox::currentIndexChanged, this, &TeachWindow::configureControls);
    connect(fresh, &QPushButton::clicked, this, [this] {
        if (mFilter && !mFilter->names().isEmpty()) {
            QMessageBox box(QMessageBox::Question, tr("New empty filter"),
                            tr("Discard the filter and its %n name(s)?", nullptr, int(mFilter->names().size())),
                            QMessageBox::Cancel, this);
            box.setInformativeText(tr("File > Save session keeps them."));
            QPushButton *discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
            box.setDefaultButton(QMessageBox::Cancel);
            box.exec();
            if (box.clickedButton() != discard)
                return;
        }
        newFilter();
    });
    connect(example, &QPushButton::clicked, this, &TeachWindow::playReferenceExample);
    auto *filterRow = new QHBoxLayout;
    for (QWidget *w : std::initializer_list<QWidget *>{mScheme, mBits, mChunks, mChunkBits, mK, fresh})
        filterRow->addWidget(w);
    filterRow->addStretch(1);
    filterRow->addWidget(example);

    mName = new QLineEdit(this);
    mName->setObjectName(QStringLiteral("teachName"));
    mName->setPlaceholderText(tr("a name, e.g. ada"));
    mName->setAccessibleName(tr("Name"));
    mName->setToolTip(tr("Enter adds the name; Ctrl+Enter checks it"));
    mAdd = new QPushButton(tr("&Add"), this);
    mAdd->setObjectName(QStringLiteral("teachAdd"));
    mAdd->setDefault(true);
    mCheck = new QPushButton(tr("&Check"), this);
    mCheck->setObjectName(QStringLiteral("teachCheck"));

    mSpeed = new QSlider(Qt::Horizontal, this);
    mSpeed->setAccessibleName(tr("Animation step (ms)"));
    mSpeed->setRange(0, 1500);
    mSpeed->setValue(mStepMs);
    mSpeed->setMaximumWidth(160);
    mSpeed->setToolTip(tr("Milliseconds a step of the animation lasts (left: none)"));
    connect(mSpeed, &QSlider::valueChanged, this, [this](int v) { mStepMs = v; });
    // The primary action is Add: Enter adds, and the field is empty and focused for the next name.
    const auto submit = [this](Action a) {
        const QString name = mName->text();
        if (enqueue(a, name)) {
            mName->clear();
        }
        mName->setFocus();
    };
    connect(mAdd, &QPushButton::clicked, this, [submit] { submit(Action::Add); });
    connect(mCheck, &QPushButton::clicked, this, [submit] { submit(Action::Check); });
    mName->installEventFilter(this); // Enter adds, Ctrl+Enter checks
    auto *nameRow = new QHBoxLayout;
    nameRow->addWidget(mName, 1);
    nameRow->addWidget(mAdd);
    nameRow->addWidget(mCheck);
    nameRow->addSpacing(16);
    nameRow->addWidget(new QLabel(tr("Animation"), this));
    nameRow->addWidget(mSpeed);

    mHash = new QLabel(this);
    mHash->setObjectName(QStringLiteral("teachHash"));
    mHash->setTextFormat(Qt::RichText);
    mHash->setMinimumHeight(90);
    mHash->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    mVerdict = new QLabel(this);
    mVerdict->setObjectName(QStringLiteral("teachVerdict"));
    mVerdict->setTextFormat(Qt::RichText);
    mVerdict->setWordWrap(true);
    QFont big = mVerdict->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    mVerdict->setFont(big);
    mGrid = new BitGridWidget(this);
    mLog = new QListWidget(this);
    mLog->setObjectName(QStringLiteral("teachLog"));
    mLog->setAccessibleName(tr("What happened"));
    mLog->setWordWrap(true);

    auto *filterTab = new QWidget(this);
    auto *left = new QVBoxLayout;
    left->addWidget(mHash);
    left->addWidget(mGrid, 1);
    left->addWidget(mVerdict);
    auto *leftWidget = new QWidget(filterTab);
    leftWidget->setLayout(left);
    auto *split = new QSplitter(filterTab);
    split->addWidget(leftWidget);
    auto *logBox = new QWidget(filterTab);
    auto *logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    logLayout->addWidget(new QLabel(tr("What happened (false positives highlighted)"), logBox));
    logLayout->addWidget(mLog, 1);
    split->addWidget(logBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *tabLayout = new QVBoxLayout(filterTab);
    tabLayout->addLayout(filterRow);
    tabLayout->addLayout(nameRow);
    tabLayout->addWidget(split, 1);

    mCompare = new CompareView(this);
    mTabs = new QTabWidget(this);
    mTabs->addTab(filterTab, tr("One filter, step by step"));
    mTabs->addTab(mCompare, tr("Classic vs blocked"));
    setCentralWidget(mTabs);
    connect(mTabs, &QTabWidget::currentChanged, this, &TeachWindow::updateStatus);
    mStatus = new StatusLabel(QString(), this);
    statusBar()->addWidget(mStatus, 1);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menuFile"));
    file->addAction(tr("&Open session..."), QKeySequence(Qt::CTRL | Qt::Key_O), this, &TeachWindow::chooseOpen)
        ->setObjectName(QStringLiteral("actionOpenSession"));
    file->addAction(tr("&Save session..."), QKeySequence(Qt::CTRL | Qt::Key_S), this, &TeachWindow::chooseSave)
        ->setObjectName(QStringLiteral("actionSaveSession"));
    file->addAction(tr("&Export picture (PNG)..."), this, &TeachWindow::chooseExport)
        ->setObjectName(QStringLiteral("actionExportPicture"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), qApp, &QApplication::quit)
        ->setObjectName(QStringLiteral("actionQuit"));

    configureControls();
    newFilter();
    theme::fitToScreen(this, QSize(1280, 800));
}

TeachWindow::~TeachWindow() = default;

bool TeachWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == mName && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            (key->modifiers() & Qt::ControlModifier ? mCheck : mAdd)->click();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void TeachWindow::configureControls()
{
    const bool classic = mScheme->currentIndex() == 0;
    mBits->setVisible(classic);
    mChunks->setVisible(!classic);
    mChunkBits->setVisible(!classic);
}

bool TeachWindow::newFilter()
{
    Result<SandboxFilter> f = mScheme->currentIndex() == 0
                                  ? SandboxFilter::classic(quint64(mBits->value()), mK->value())
                                  : [this]() -> Result<SandboxFilter> {
        auto g = Geometry::fromCounts(mChunks->value(), mChunkBits->currentData().toInt(), mK->value());
        if (!g)
            return g.error();
        return SandboxFilter::blocked(*g);
    }();
    if (!f) {
        mVerdict->setText(f.error().toString().toHtmlEscaped());
        return false;
    }
    mTimer->stop();
    mQueue.clear();
    mCurrent.reset();
    mFilter = std::move(f).value();
    mGrid->setFilter(&*mFilter);
    mLog->clear();
    mHash->setText(tr("An empty filter: %1. Add or check a name.").arg(mFilter->describe()));
    mVerdict->clear();
    updateStatus();
    return true;
}

void TeachWindow::playReferenceExample()
{
    mScheme->setCurrentIndex(0);
    mBits->setValue(16);
    mK->setValue(3);
    mTabs->setCurrentIndex(0);
    newFilter();
    enqueue(Action::Add, QStringLiteral("ada"));
    enqueue(Action::Add, QStringLiteral("grace"));
    enqueue(Action::Check, QStringLiteral("ada"));
    enqueue(Action::Check, QStringLiteral("alan"));
    enqueue(Action::Check, QStringLiteral("bjarne"));
}

bool TeachWindow::enqueue(Action action, const QString &name)
{
    const QByteArray utf8 = name.trimmed().toUtf8();
    if (auto v = validateName(utf8); !v) {
        mVerdict->setText(tr("<span style='color:%1'>%2</span>")
                              .arg(theme::errorText(palette()).name(), v.error().toString().toHtmlEscaped()));
        return false;
    }
    mQueue.append(Op{action, utf8, {}, 0});
    if (!mCurrent)
        startNext();
    return true;
}

void TeachWindow::setStepMs(int ms)
{
    mSpeed->setValue(ms);
    mStepMs = ms;
}

bool TeachWindow::idle() const
{
    return !mCurrent && mQueue.isEmpty();
}

void TeachWindow::showCompare()
{
    mTabs->setCurrentWidget(mCompare);
}

void TeachWindow::startNext()
{
    if (mQueue.isEmpty()) {
        mCurrent.reset();
        emit idleNow();
        return;
    }
    mCurrent = mQueue.takeFirst();
    auto t = mFilter->trace(mCurrent->name);
    if (!t) { // validated on the way in; kept for safety
        mCurrent.reset();
        startNext();
        return;
    }
    mCurrent->trace = *t;
    mCurrent->phase = 0;
    if (mStepMs <= 0) {
        // No animation: every step at once.
        while (mCurrent && mCurrent->phase <= mCurrent->trace.positions.size() + 1)
            advance();
        return;
    }
    render();
    mTimer->start(mStepMs);
}

void TeachWindow::advance()
{
    if (!mCurrent)
        return;
    ++mCurrent->phase;
    // Phases: 0 hash; 1..k one position each; k+1 the bits (set or tested); k+2 the verdict.
    const int k = int(mCurrent->trace.positions.size());
    if (mCurrent->phase == k + 1 && mCurrent->action == Action::Add)
        mCurrent->trace = *mFilter->add(mCurrent->name); // positions unchanged; wasSet from before
    if (mCurrent->phase > k + 1) {
        finishOp();
        return;
    }
    render();
}

void TeachWindow::render()
{
    const Op &op = *mCurrent;
    const SandboxFilter::Trace &t = op.trace;
    const int k = int(t.positions.size());
    const int shown = qMin(op.phase, k);
    QStringList lines;
    lines << tr("<b>%1 %2</b> in a %3 filter")
                 .arg(op.action == Action::Add ? tr("add") : tr("check"), QString::fromUtf8(op.name).toHtmlEscaped(),
                      mFilter->describe());
    if (mFilter->scheme() == SandboxFilter::Scheme::Classic) {
        for (int i = 0; i < k; ++i) {
            QString line = mono(QStringLiteral("md5(\"%1\") = %2")
                                    .arg(QString::fromUtf8(t.inputs[i]), QString::fromLatin1(t.digests[i])));
            if (i < shown)
                line += mono(QStringLiteral("  mod %1 = ").arg(mFilter->size())) +
                        QStringLiteral("<b>%1</b>").arg(t.positions[i]);
            lines << line;
        }
    } else {
        const quint64 cb = mFilter->chunkBits();
        lines << mono(QStringLiteral("md5(lower(\"%1\")) = %2")
                          .arg(QString::fromUtf8(op.name), QString::fromLatin1(t.digests.value(0))));
        QStringList bits;
        for (int i = 0; i < shown; ++i)
            bits << QString::number(t.positions[i] % cb);
        lines << tr("the first %1 bits pick <b>chunk %2</b>; then %3-bit slices pick bits %4")
                     .arg(mFilter->geometry().chunkLog2())
                     .arg(t.chunk)
                     .arg(mFilter->geometry().bitsLog2())
                     .arg(bits.isEmpty() ? QStringLiteral("...") : bits.join(QStringLiteral(", ")));
    }
    mHash->setText(lines.join(QStringLiteral("<br>")));

    const bool bitsPhase = op.phase >= k + 1;
    QList<QByteArray> labels;
    if (bitsPhase && op.action == Action::Check && t.maybe && !t.added)
        for (quint64 pos : t.positions)
            labels << (mFilter->owners(pos).isEmpty() ? QByteArray()
                                                      : mFilter->names().at(mFilter->owners(pos).first()));
    mGrid->setHighlight(t.positions.mid(0, shown), t.wasSet.mid(0, shown), bitsPhase && op.action == Action::Check,
                        labels);
    if (bitsPhase) {
        if (op.action == Action::Add)
            mVerdict->setText(tr("%1's %2 bits are now 1.").arg(QString::fromUtf8(op.name).toHtmlEscaped()).arg(k));
        else if (!t.maybe)
            mVerdict->setText(tr("<span style='color:%1'><b>definitely not added</b></span> - %2")
                                  .arg(theme::textOn(FreeColour, palette()), t.explain().toHtmlEscaped()));
        else if (t.added)
            mVerdict->setText(tr("<span style='color:%1'><b>maybe</b></span> - %2")
                                  .arg(theme::textOn(MaybeColour, palette()), t.explain().toHtmlEscaped()));
        else
            mVerdict->setText(tr("<span style='color:%1'><b>maybe - a FALSE POSITIVE</b></span> - %2")
                                  .arg(theme::textOn(MaybeColour, palette()), t.explain().toHtmlEscaped()));
    } else {
        mVerdict->setText(tr("hashing..."));
    }
    updateStatus();
}

void TeachWindow::finishOp()
{
    mTimer->stop();
    const Op op = *mCurrent;
    const SandboxFilter::Trace &t = op.trace;
    QStringList pos;
    QList<quint64> sorted = t.positions;
    std::sort(sorted.begin(), sorted.end());
    for (quint64 p : sorted)
        pos << QString::number(p);
    auto *item = new QListWidgetItem(
        op.action == Action::Add ? tr("add %1: bits %2").arg(QString::fromUtf8(op.name), pos.join(QStringLiteral(", ")))
                                 : tr("check %1").arg(t.explain()));
    if (op.action == Action::Check && t.maybe && !t.added)
        markFalsePositive(item, mLog->palette());
    mLog->addItem(item);
    mLog->scrollToBottom();
    mCurrent.reset();
    if (mStepMs > 0 && !mQueue.isEmpty())
        QTimer::singleShot(mStepMs, this, &TeachWindow::startNext); // a breath between operations
    else
        startNext();
}

void TeachWindow::updateStatus()
{
    if (mTabs && mTabs->currentWidget() == mCompare) {
        // The status line speaks of the tab on screen: the comparison has its own filters.
        mStatus->setText(
            tr("Classic vs blocked: %1 names in each filter; the summary above compares them.").arg(mCompare->names()));
        return;
    }
    // For a classic filter (set/m)^k is the rate of this very fill; the model averages over fills.
    const QString fill =
        mFilter->scheme() == SandboxFilter::Scheme::Classic
            ? tr(", from this fill (%1/%2)^%3 = %4")
                  .arg(mFilter->setBits())
                  .arg(mFilter->size())
                  .arg(mFilter->k())
                  .arg(std::pow(double(mFilter->setBits()) / double(mFilter->size()), mFilter->k()), 0, 'g', 3)
            : QString();
    mStatus->setText(tr("%1 | %2 names, %3 of %4 bits set | FPR: model %5%6, measured %7 (5,000 never-added names)")
                         .arg(mFilter->describe())
                         .arg(mFilter->names().size())
                         .arg(mFilter->setBits())
                         .arg(mFilter->size())
                         .arg(mFilter->modelFpr(), 0, 'g', 3)
                         .arg(fill)
                         .arg(mFilter->measuredFpr(5000), 0, 'g', 3));
}

QStringList TeachWindow::logLines() const
{
    QStringList out;
    for (int i = 0; i < mLog->count(); ++i)
        out << mLog->item(i)->text();
    return out;
}

QList<int> TeachWindow::falsePositiveRows() const
{
    QList<int> rows;
    for (int i = 0; i < mLog->count(); ++i)
        if (mLog->item(i)->background().color() == FalsePositiveColour)
            rows << i;
    return rows;
}

QString TeachWindow::hashText() const
{
    return QTextDocumentFragment::fromHtml(mHash->text()).toPlainText();
}

bool TeachWindow::saveSession(const QString &path, QString *error)
{
    QJsonObject o = mFilter->toJson();
    QJsonArray log;
    for (const QString &line : logLines())
        log.append(line);
    o.insert(QStringLiteral("log"), log);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson()) < 0 || !f.commit()) {
        *error = tr("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

bool TeachWindow::openSession(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parse);
    if (!doc.isObject()) {
        *error = tr("%1 is not a session file: %2").arg(path, parse.errorString());
        return false;
    }
    auto filter = SandboxFilter::fromJson(doc.object());
    if (!filter) {
        *error = tr("%1: %2").arg(path, filter.error().toString());
        return false;
    }
    mTimer->stop();
    mQueue.clear();
    mCurrent.reset();
    mFilter = std::move(filter).value();
    const QSignalBlocker block(mScheme);
    mScheme->setCurrentIndex(mFilter->scheme() == SandboxFilter::Scheme::Classic ? 0 : 1);
    configureControls();
    mK->setValue(mFilter->k());
    if (mFilter->scheme() == SandboxFilter::Scheme::Classic)
        mBits->setValue(int(mFilter->size()));
    else {
        mChunks->setValue(int(mFilter->geometry().chunks()));
        mChunkBits->setCurrentIndex(mChunkBits->findData(int(mFilter->chunkBits())));
    }
    mGrid->setFilter(&*mFilter);
    mLog->clear();
    for (const QJsonValue &v : doc.object().value(QLatin1String("log")).toArray()) {
        auto *item = new QListWidgetItem(v.toString());
        if (v.toString().contains(QLatin1String("false positive")))
            markFalsePositive(item, mLog->palette());
        mLog->addItem(item);
    }
    mHash->setText(tr("Session %1: %2 with %3 names.")
                       .arg(path.toHtmlEscaped(), mFilter->describe())
                       .arg(mFilter->names().size()));
    mVerdict->clear();
    updateStatus();
    return true;
}

bool TeachWindow::exportPicture(const QString &path)
{
    return grab().save(path, "PNG");
}

void TeachWindow::chooseSave()
{
    const QString path = chooseSaveFile(this, tr("Save the session"), QStringLiteral("bloom-session.json"),
                                        tr("Bloomscope sessions (*.json)"), QStringLiteral("json"));
    QString error;
    if (!path.isEmpty() && !saveSession(path, &error))
        QMessageBox::warning(this, tr("Save session"), error);
}

void TeachWindow::chooseOpen()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a session"), QString(),
                                                      tr("Bloomscope sessions (*.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openSession(path, &error))
        QMessageBox::warning(this, tr("Open session"), error);
}

void TeachWindow::chooseExport()
{
    const QString path = chooseSaveFile(this, tr("Export the picture"), QStringLiteral("bloom.png"),
                                        tr("PNG images (*.png)"), QStringLiteral("png"));
    if (!path.isEmpty() && !exportPicture(path))
        QMessageBox::warning(this, tr("Export picture"), tr("cannot write %1").arg(path));
}

} // namespace bloom
