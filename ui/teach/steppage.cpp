#include "teach/steppage.h"
#include "style/shortcuts.h"
#include "style/theme.h"

#include "model/name.h"
#include "teach/bitgridwidget.h"
#include "teach/steptext.h"
#include "teach/timelineplayer.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace bloom {

namespace {

const QColor FalsePositiveColour(0xff, 0xe0, 0xb2);
const QColor FalseNegativeColour(0xd9, 0x34, 0x34);

/** A log line of a false positive: the highlight, and text readable on it in either palette (7:1,
 *  as the light palette's black has: the dark palette's text darkened only to 4.5:1 looked faded
 *  beside the other lines). */
void markFalsePositive(QListWidgetItem *item, const QPalette &palette)
{
    item->setBackground(FalsePositiveColour);
    item->setForeground(theme::readable(palette.color(QPalette::Text), FalsePositiveColour, 7.0));
}

/** "1 name", "2 names": English plurals without a translator. */
QString count(qsizetype n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(QString::number(n), n == 1 ? one : many);
}

enum class Glyph { Start, Back, Play, Pause, Forward, End };

/** A transport icon drawn in the palette's button text (the style's media icons are black: unreadable
 *  on the dark palette's buttons). */
QIcon glyphIcon(Glyph g, const QPalette &palette)
{
    QIcon icon;
    for (const QIcon::Mode mode : {QIcon::Normal, QIcon::Disabled}) {
        QPixmap pm(QSize(32, 32));
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(palette.color(mode == QIcon::Normal ? QPalette::Active : QPalette::Disabled, QPalette::ButtonText));
        const auto left = [&p](int x) {
            p.drawPolygon(QPolygon({QPoint(x + 12, 6), QPoint(x + 12, 26), QPoint(x, 16)}));
        };
        const auto right = [&p](int x) { p.drawPolygon(QPolygon({QPoint(x, 6), QPoint(x, 26), QPoint(x + 12, 16)})); };
        switch (g) {
        case Glyph::Start:
            p.drawRect(4, 6, 4, 20);
            left(9);
            left(19);
            break;
        case Glyph::Back:
            left(4);
            left(16);
            break;
        case Glyph::Play:
            p.drawPolygon(QPolygon({QPoint(9, 5), QPoint(9, 27), QPoint(27, 16)}));
            break;
        case Glyph::Pause:
            p.drawRect(8, 6, 6, 20);
            p.drawRect(18, 6, 6, 20);
            break;
        case Glyph::Forward:
            right(4);
            right(16);
            break;
        case Glyph::End:
            right(1);
            right(11);
            p.drawRect(24, 6, 4, 20);
            break;
        }
        p.end();
        icon.addPixmap(pm, mode);
    }
    return icon;
}

QToolButton *transportButton(QWidget *parent, Glyph glyph, const QString &text, const QString &tip,
                             const QString &objectName)
{
    auto *b = new QToolButton(parent);
    b->setIcon(glyphIcon(glyph, parent->palette()));
    b->setText(text);
    b->setToolTip(tip);
    b->setAccessibleName(text);
    b->setObjectName(objectName);
    return b;
}

} // namespace

StepPage::StepPage(QWidget *parent)
    : QWidget(parent)
{
    mPlayer = new TimelinePlayer(*SandboxFilter::classic(16, 3), this);

    // The filter: whatever these say is the filter on screen (a change rebuilds it from the timeline).
    mFilterBar = new QWidget(this);
    mScheme = new QComboBox(mFilterBar);
    mScheme->setAccessibleName(tr("Filter scheme"));
    mScheme->setObjectName(QStringLiteral("teachScheme"));
    mScheme->addItem(tr("Classic: md5(\"i:\" + name) mod m"));
    mScheme->addItem(tr("Blocked: one chunk a name, as username_bits"));
    mBits = new QSpinBox(mFilterBar);
    mBits->setAccessibleName(tr("Bits (m)"));
    mBits->setObjectName(QStringLiteral("teachBits"));
    mBits->setRange(2, 4096);
    mBits->setValue(16);
    mBits->setPrefix(tr("m = "));
    mBits->setSuffix(tr(" bits"));
    mChunks = new QComboBox(mFilterBar);
    mChunks->setAccessibleName(tr("Chunks"));
    mChunks->setObjectName(QStringLiteral("teachChunks"));
    for (int c = 1; c <= 64; c *= 2) // the chunk is cut from the hash's bits: a power of two
        mChunks->addItem(c == 1 ? tr("1 chunk") : tr("%1 chunks").arg(c), c);
    mChunks->setCurrentIndex(3);
    mChunkBits = new QComboBox(mFilterBar);
    mChunkBits->setAccessibleName(tr("Bits a chunk"));
    mChunkBits->setObjectName(QStringLiteral("teachChunkBits"));
    for (int b : {8, 16, 32, 64, 128})
        mChunkBits->addItem(tr("x %1 bits").arg(b), b);
    mChunkBits->setCurrentIndex(3);
    mK = new QSpinBox(mFilterBar);
    mK->setAccessibleName(tr("Positions a name (k)"));
    mK->setObjectName(QStringLiteral("teachK"));
    mK->setRange(1, 12);
    mK->setValue(3);
    mK->setPrefix(tr("k = "));
    auto *fresh = new QPushButton(tr("&New empty filter"), mFilterBar);
    fresh->setObjectName(QStringLiteral("teachNew"));
    auto *example = new QPushButton(tr("Play the reference's e&xample"), mFilterBar);
    example->setObjectName(QStringLiteral("teachExample"));
    connect(mScheme, &QComboBox::currentIndexChanged, this, [this] {
        configureControls();
        applyControls();
    });
    connect(mBits, &QSpinBox::valueChanged, this, &StepPage::applyControls);
    connect(mK, &QSpinBox::valueChanged, this, &StepPage::applyControls);
    connect(mChunks, &QComboBox::currentIndexChanged, this, &StepPage::applyControls);
    connect(mChunkBits, &QComboBox::currentIndexChanged, this, &StepPage::applyControls);
    connect(fresh, &QPushButton::clicked, this, [this] { newFilter(true); });
    connect(example, &QPushButton::clicked, this, [this] { playReferenceExample(true); });
    auto *filterRow = new QHBoxLayout(mFilterBar);
    filterRow->setContentsMargins(0, 0, 0, 0);
    for (QWidget *w : std::initializer_list<QWidget *>{mScheme, mBits, mChunks, mChunkBits, mK, fresh})
        filterRow->addWidget(w);
    filterRow->addStretch(1);
    filterRow->addWidget(example);

    // Names, and the transport through the timeline.
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
    const auto submit = [this](Timeline::Action a) {
        if (enqueue(a, mName->text()))
            mName->clear();
        mName->setFocus();
    };
    connect(mAdd, &QPushButton::clicked, this, [submit] { submit(Timeline::Action::Add); });
    connect(mCheck, &QPushButton::clicked, this, [submit] { submit(Timeline::Action::Check); });
    mName->installEventFilter(this); // Enter adds, Ctrl+Enter checks

    mStart =
        transportButton(this, Glyph::Start, tr("Start"), tr("To the empty filter, before the first entry (Alt+Home)"),
                        QStringLiteral("teachStart"));
    mBack =
        transportButton(this, Glyph::Back, tr("Back"), tr("One entry back: the filter as it was before it (Page Up)"),
                        QStringLiteral("teachBack"));
    mPlay = transportButton(this, Glyph::Pause, tr("Pause"), tr("Pause or play the timeline (Ctrl+P)"),
                            QStringLiteral("teachPlay"));
    mForward = transportButton(this, Glyph::Forward, tr("Forward"), tr("One entry forward, shown whole (Page Down)"),
                               QStringLiteral("teachForward"));
    mEnd = transportButton(this, Glyph::End, tr("End"), tr("To the last entry (Alt+End)"), QStringLiteral("teachEnd"));
    const auto shortcut = [this](QToolButton *b, const QKeySequence &keys, auto slot) {
        auto *a = new QAction(b->text(), this);
        a->setShortcut(keys);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
        connect(a, &QAction::triggered, this, slot);
        connect(b, &QToolButton::clicked, this, slot);
    };
    // The two buttons of the filter's row keep a key in presentation mode, where the row is hidden.
    for (auto [button, keys] :
         {std::pair{fresh, shortcuts::standard(QKeySequence::New, QKeySequence(Qt::CTRL | Qt::Key_N))},
          std::pair{example, QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_R)}}}) {
        auto *a = new QAction(button->text(), this);
        a->setShortcuts(keys);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
        connect(a, &QAction::triggered, button, &QPushButton::click);
        button->setToolTip(tr("%1 (%2)").arg(button->text().remove(QLatin1Char('&')),
                                             keys.value(0).toString(QKeySequence::NativeText)));
    }
    // A mistyped entry goes again: Ctrl+Z removes the last one (Delete on a log line removes that one).
    auto *undo = new QAction(tr("Remove the last entry"), this);
    undo->setObjectName(QStringLiteral("actionRemoveLastEntry"));
    undo->setShortcuts(shortcuts::standard(QKeySequence::Undo, QKeySequence(Qt::CTRL | Qt::Key_Z)));
    undo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(undo);
    connect(undo, &QAction::triggered, this, [this] { removeEntry(mPlayer->timeline().size() - 1); });
    shortcut(mStart, QKeySequence(Qt::ALT | Qt::Key_Home), [this] { mPlayer->jumpTo(0); });
    shortcut(mBack, QKeySequence(Qt::Key_PageUp), [this] { mPlayer->stepBack(); });
    shortcut(mPlay, QKeySequence(Qt::CTRL | Qt::Key_P), [this] { mPlayer->setPaused(!mPlayer->paused()); });
    shortcut(mForward, QKeySequence(Qt::Key_PageDown), [this] { mPlayer->stepForward(); });
    shortcut(mEnd, QKeySequence(Qt::ALT | Qt::Key_End), [this] { mPlayer->jumpTo(mPlayer->timeline().size()); });
    mWhere = new QLabel(this);
    mWhere->setObjectName(QStringLiteral("teachWhere"));

    mSpeedBox = new QWidget(this);
    mSpeed = new QSlider(Qt::Horizontal, mSpeedBox);
    mSpeed->setAccessibleName(tr("Animation step (ms)"));
    mSpeed->setRange(0, 1500);
    mSpeed->setValue(mPlayer->stepMs());
    mSpeed->setMaximumWidth(160);
    mSpeed->setToolTip(tr("Milliseconds a step of the animation lasts (left: none)"));
    connect(mSpeed, &QSlider::valueChanged, mPlayer, &TimelinePlayer::setStepMs);
    auto *speedRow = new QHBoxLayout(mSpeedBox);
    speedRow->setContentsMargins(0, 0, 0, 0);
    speedRow->addWidget(new QLabel(tr("Animation"), mSpeedBox));
    speedRow->addWidget(mSpeed);

    auto *nameRow = new QHBoxLayout;
    nameRow->addWidget(mName, 1);
    nameRow->addWidget(mAdd);
    nameRow->addWidget(mCheck);
    nameRow->addSpacing(12);
    for (QWidget *w : std::initializer_list<QWidget *>{mStart, mBack, mPlay, mForward, mEnd, mWhere})
        nameRow->addWidget(w);
    nameRow->addSpacing(12);
    nameRow->addWidget(mSpeedBox);

    mHash = new QLabel(this);
    mHash->setObjectName(QStringLiteral("teachHash"));
    mHash->setTextFormat(Qt::RichText);
    mHash->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    mHash->setWordWrap(true); // a line too long for the screen wraps rather than losing its "mod 16 = N"
    mNoteLabel = new QLabel(this);
    mNoteLabel->setObjectName(QStringLiteral("teachNote"));
    mNoteLabel->setWordWrap(true);
    mNoteLabel->setVisible(false);
    mVerdict = new QLabel(this);
    mVerdict->setObjectName(QStringLiteral("teachVerdict"));
    mVerdict->setTextFormat(Qt::RichText);
    mVerdict->setWordWrap(true);
    mGrid = new BitGridWidget(this);
    mLog = new QListWidget(this);
    mLog->setObjectName(QStringLiteral("teachLog"));
    mLog->setAccessibleName(tr("What happened"));
    mLog->setWordWrap(true);
    // The entry on screen is in bold: a selection's colour would hide a false positive's.
    mLog->setSelectionMode(QAbstractItemView::NoSelection);
    mLog->setToolTip(
        tr("Click a line, or Enter on it, to see the filter as it was after that entry; Delete removes it"));
    mLog->installEventFilter(this); // Delete removes the entry
    connect(mLog, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { mPlayer->jumpTo(mLog->row(item) + 1); });
    connect(mLog, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { mPlayer->jumpTo(mLog->row(item) + 1); });

    mSlide = new QWidget(this);
    auto *left = new QVBoxLayout(mSlide);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(mNoteLabel);
    left->addWidget(mHash);
    left->addWidget(mGrid, 1);
    left->addWidget(mVerdict);
    auto *logBox = new QWidget(this);
    auto *logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    mLogTitle =
        new QLabel(tr("The timeline: what happened (false positives highlighted), then what is to come"), logBox);
    mLogTitle->setWordWrap(true);
    logLayout->addWidget(mLogTitle);
    logLayout->addWidget(mLog, 1);
    mSplit = new QSplitter(this);
    mSplit->addWidget(mSlide);
    mSplit->addWidget(logBox);
    mSplit->setStretchFactor(0, 3);
    mSplit->setStretchFactor(1, 2);
    mSplit->setChildrenCollapsible(false);
    mSplit->setSizes({600, 400}); // the log gets two fifths (the grid's size hint would take nearly all)
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mFilterBar);
    layout->addLayout(nameRow);
    layout->addWidget(mSplit, 1);
    setTabOrder(mName, mAdd);
    setFocusProxy(mName);

    connect(mPlayer, &TimelinePlayer::changed, this, &StepPage::render);
    connect(mPlayer, &TimelinePlayer::idleNow, this, &StepPage::idleNow);
    configureControls();
    applyControls();
}

const SandboxFilter &StepPage::filter() const
{
    return mPlayer->filter();
}

bool StepPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == mName && event->type() == QEvent::ShortcutOverride) {
        // The field took keys of the window's actions for its own editing (Ctrl+E: end of line), so
        // Ctrl+E exported nothing and the path then typed became names. An action's key goes to the
        // action from here too; Ctrl+Z stays the field's while it has typing to undo.
        const QKeySequence pressed(static_cast<QKeyEvent *>(event)->keyCombination());
        if (!(mName->isUndoAvailable() && QKeySequence::keyBindings(QKeySequence::Undo).contains(pressed)))
            for (const QList<QAction *> &list : {window()->actions(), actions()})
                for (QAction *a : list)
                    if (a->isEnabled() && a->shortcuts().contains(pressed)) {
                        event->ignore();
                        return true;
                    }
    }
    if (watched == mLog && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->key() == Qt::Key_Delete && mLog->currentRow() >= 0) {
        removeEntry(mLog->currentRow());
        return true;
    }
    if (watched == mName && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            (key->modifiers() & Qt::ControlModifier ? mCheck : mAdd)->click();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void StepPage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    mResizing = true; // the status line has nothing new to say
    render();         // the digests are shortened to the width there is
    mResizing = false;
}

void StepPage::configureControls()
{
    const bool classic = mScheme->currentIndex() == 0;
    mBits->setVisible(classic);
    mChunks->setVisible(!classic);
    mChunkBits->setVisible(!classic);
}

Result<SandboxFilter> StepPage::filterFromControls() const
{
    if (mScheme->currentIndex() == 0)
        return SandboxFilter::classic(quint64(mBits->value()), mK->value());
    auto g = Geometry::fromCounts(mChunks->currentData().toInt(), mChunkBits->currentData().toInt(), mK->value());
    if (!g)
        return g.error();
    return SandboxFilter::blocked(*g);
}

void StepPage::applyControls()
{
    if (mSyncing)
        return;
    auto f = filterFromControls();
    if (!f) {
        // Refused: the controls go back to the filter they describe.
        mNote = f.error().toString().toHtmlEscaped();
        syncControls();
        render();
        return;
    }
    if (f->describe() == filter().describe() && f->scheme() == filter().scheme())
        return;
    mPlayer->setFilter(*f);
    mNote = mPlayer->timeline().size() == 0
                ? QString()
                : tr("Rebuilt from the timeline: the same %1 in a %2 filter.")
                      .arg(count(mPlayer->timeline().size(), tr("entry"), tr("entries")), f->describe())
                      .toHtmlEscaped();
    render();
}

void StepPage::syncControls()
{
    mSyncing = true;
    const SandboxFilter &f = mPlayer->timeline().emptyFilter();
    mScheme->setCurrentIndex(f.scheme() == SandboxFilter::Scheme::Classic ? 0 : 1);
    configureControls();
    mK->setValue(f.k());
    if (f.scheme() == SandboxFilter::Scheme::Classic)
        mBits->setValue(int(f.size()));
    else {
        mChunks->setCurrentIndex(mChunks->findData(int(f.geometry().chunks())));
        mChunkBits->setCurrentIndex(mChunkBits->findData(int(f.chunkBits())));
    }
    mSyncing = false;
}

int StepPage::classEntries() const
{
    int n = 0;
    for (const Timeline::Entry &e : mPlayer->timeline().entries())
        n += e.origin == Timeline::Origin::Class ? 1 : 0;
    return n;
}

bool StepPage::confirmDiscard(const QString &title, const QString &question)
{
    QMessageBox box(QMessageBox::Question, title, question, QMessageBox::Cancel, this);
    box.setInformativeText(tr("File > Save session keeps them."));
    QPushButton *discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == discard;
}

bool StepPage::newFilter(bool ask)
{
    auto f = filterFromControls();
    if (!f) {
        mVerdict->setText(f.error().toString().toHtmlEscaped());
        return false;
    }
    const qsizetype names = filter().names().size();
    if (ask && mPlayer->timeline().size() > 0 &&
        !confirmDiscard(tr("New empty filter"),
                        tr("Discard the filter, its %1 and its timeline?").arg(count(names, tr("name"), tr("names")))))
        return false;
    mNote.clear();
    mPlayer->reset(Timeline(*f), 0);
    mGrid->setFilter(&mPlayer->filter());
    render();
    return true;
}

bool StepPage::playReferenceExample(bool ask)
{
    const int mine = classEntries();
    if (ask && mine > 0 &&
        !confirmDiscard(tr("Play the reference's example"),
                        tr("The example plays in a new 16-bit filter. Discard the class's %1?")
                            .arg(count(mine, tr("entry"), tr("entries")))))
        return false;
    Timeline t(*SandboxFilter::classic(16, 3));
    for (const char *n : {"ada", "grace"})
        (void)t.append(Timeline::Action::Add, n, Timeline::Origin::Example);
    for (const char *n : {"ada", "alan", "bjarne"})
        (void)t.append(Timeline::Action::Check, n, Timeline::Origin::Example);
    mNote.clear();
    mPlayer->reset(t, 0);
    syncControls();
    mGrid->setFilter(&mPlayer->filter());
    mPlayer->setPaused(false);
    return true;
}

void StepPage::setTimeline(const Timeline &timeline, qsizetype position)
{
    mNote.clear();
    mPlayer->setPaused(true); // a session opens where it was left, still
    mPlayer->reset(timeline, position);
    syncControls();
    mGrid->setFilter(&mPlayer->filter());
    render();
}

const Timeline &StepPage::timeline() const
{
    return mPlayer->timeline();
}

bool StepPage::enqueue(Timeline::Action action, const QString &name, Timeline::Origin origin)
{
    const QByteArray utf8 = name.trimmed().toUtf8();
    auto i = mPlayer->append(action, utf8, origin);
    if (!i) {
        mVerdict->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                              .arg(theme::errorText(palette()).name(), i.error().toString().toHtmlEscaped()));
        return false;
    }
    return true;
}

bool StepPage::removeEntry(qsizetype index)
{
    if (index < 0 || index >= mPlayer->timeline().size())
        return false;
    const Timeline::Entry e = mPlayer->timeline().entries().at(index);
    mPlayer->removeEntry(index);
    mNote = tr("Removed entry %1: %2 %3 (every later verdict asked again).")
                .arg(QString::number(index + 1), e.action == Timeline::Action::Add ? tr("add") : tr("check"),
                     QString::fromUtf8(e.name))
                .toHtmlEscaped();
    render();
    return true;
}

void StepPage::setStepMs(int ms)
{
    mSpeed->setValue(ms);
    mPlayer->setStepMs(ms);
}

bool StepPage::idle() const
{
    return mPlayer->atEnd();
}

void StepPage::setPresentation(bool on)
{
    mPresentation = on;
    mFilterBar->setVisible(!on);
    mSpeedBox->setVisible(!on);
    // The projector's row holds the field and the transport: Add and Check keep their keys (Enter,
    // Ctrl+Enter), which the field's text says (German's longer labels pushed the row off the screen).
    mAdd->setVisible(!on);
    mCheck->setVisible(!on);
    mName->setPlaceholderText(on ? tr("a name: Enter adds, Ctrl+Enter checks") : tr("a name, e.g. ada"));
    mLogTitle->setVisible(!on);
    // The log under the grid, so the grid and the hash lines have the projector's whole width.
    mSplit->setOrientation(on ? Qt::Vertical : Qt::Horizontal);
    mSplit->setStretchFactor(0, on ? 4 : 3);
    mSplit->setStretchFactor(1, on ? 1 : 2);
    mLog->setMinimumHeight(on ? 2 * fontMetrics().height() : 0);
    const int along = on ? mSplit->height() : mSplit->width();
    mSplit->setSizes(on ? QList<int>{along * 4 / 5, along / 5} : QList<int>{along * 3 / 5, along * 2 / 5});
    render();
}

void StepPage::render()
{
    const TimelinePlayer &p = *mPlayer;
    mGrid->setFilter(&p.filter());
    const qsizetype shown = p.shownEntry();
    // Presentation mode shortens digests to keep each line whole; elsewhere a long line wraps.
    const int width = mPresentation && mSlide->width() > 50 ? mSlide->width() - 8 : 0;
    const QString head;
    mNoteLabel->setText(QStringLiteral("<i>%1</i>").arg(mNote));
    mNoteLabel->setVisible(!mNote.isEmpty() && !mPresentation);
    if (shown < 0) {
        mHash->setText(head + (p.timeline().size() == 0
                                   ? tr("An empty filter: %1. Add or check a name.").arg(p.filter().describe())
                                   : tr("Before the first entry: an empty %1 filter.").arg(p.filter().describe())));
        mGrid->clearHighlight();
        mVerdict->setText(p.timeline().size() == 0 ? QString()
                                                   : tr("Nothing added yet: every check says definitely not."));
    } else {
        const Timeline::Entry &e = p.timeline().entries().at(shown);
        const SandboxFilter::Trace &t = p.shownTrace();
        const int phase = p.phase() >= 0 ? p.phase() : p.lastPhase();
        const int k = int(t.positions.size());
        const int upto = qMin(phase, k);
        mHash->setText(head + steptext::hashHtml(e.action, t, p.filter(), phase, mHash->font(), width));
        const bool bitsPhase = phase >= k + 1;
        QList<QByteArray> labels;
        if (bitsPhase && e.action == Timeline::Action::Check && t.maybe && !t.added)
            for (quint64 pos : t.positions)
                labels << (p.filter().owners(pos).isEmpty() ? QByteArray()
                                                            : p.filter().names().at(p.filter().owners(pos).first()));
        mGrid->setHighlight(t.positions.mid(0, upto), t.wasSet.mid(0, upto),
                            bitsPhase && e.action == Timeline::Action::Check, labels);
        mVerdict->setText(bitsPhase ? steptext::verdictHtml(e.action, t, palette(), mPresentation) : tr("hashing..."));
    }
    mPlay->setIcon(glyphIcon(p.paused() ? Glyph::Play : Glyph::Pause, palette()));
    mPlay->setText(p.paused() ? tr("Play") : tr("Pause"));
    mPlay->setAccessibleName(mPlay->text());
    mStart->setEnabled(p.position() > 0 || p.phase() >= 0);
    mBack->setEnabled(p.position() > 0 || p.phase() >= 0);
    mForward->setEnabled(!p.atEnd());
    mEnd->setEnabled(!p.atEnd());
    mWhere->setText(tr("%1 / %2").arg(QString::number(p.position()), QString::number(p.timeline().size())));
    mWhere->setToolTip(tr("Entries done / entries in the timeline"));
    mWhere->setAccessibleName(
        tr("%1 of %2 entries done").arg(QString::number(p.position()), QString::number(p.timeline().size())));
    // Word-wrapped labels ask for the height their width needs (a splitter would squeeze them).
    for (QLabel *l : {mNoteLabel, mHash, mVerdict})
        if (l->isVisible() && l->width() > 0)
            l->setMinimumHeight(qMax(0, l->heightForWidth(l->width())));
    renderLog();
    if (!mResizing)
        emit statusChanged();
}

void StepPage::renderLog()
{
    const TimelinePlayer &p = *mPlayer;
    const auto &entries = p.timeline().entries();
    const auto &traces = p.traces();
    while (mLog->count() > entries.size())
        delete mLog->takeItem(mLog->count() - 1);
    QFont normal = mLog->font(), later = normal, now = normal, shownFont = normal;
    later.setItalic(true);
    now.setBold(true);
    shownFont.setBold(true);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const Timeline::Entry &e = entries[i];
        QString text;
        QFont font = normal;
        bool fp = false, muted = false;
        if (i < p.position()) {
            text = Timeline::line(e.action, traces[i]);
            if (i == p.shownEntry())
                font = shownFont;
            fp = e.action == Timeline::Action::Check && traces[i].maybe && !traces[i].added;
        } else if (i == p.position() && p.phase() >= 0) {
            text = tr("now: %1 %2")
                       .arg(e.action == Timeline::Action::Add ? tr("add") : tr("check"), QString::fromUtf8(e.name));
            font = now;
        } else {
            // To come. A check says what it would answer at this point of the timeline.
            muted = true;
            font = later;
            if (e.action == Timeline::Action::Add)
                text = tr("to come: add %1").arg(QString::fromUtf8(e.name));
            else {
                const auto here = p.filter().check(e.name);
                text = tr("to come: check %1 - at this point: %2")
                           .arg(QString::fromUtf8(e.name),
                                here->maybe ? (here->added ? tr("maybe (added)") : tr("maybe (a false positive)"))
                                            : here->explain().section(QStringLiteral(": "), 1));
            }
        }
        if (i >= mLog->count())
            mLog->addItem(new QListWidgetItem);
        QListWidgetItem *item = mLog->item(int(i));
        if (item->text() != text)
            item->setText(text);
        item->setFont(font);
        item->setData(Qt::UserRole, fp);
        if (fp)
            markFalsePositive(item, mLog->palette());
        else {
            item->setBackground(QBrush());
            item->setForeground(muted ? QBrush(theme::mutedText(mLog->palette())) : QBrush());
        }
    }
    const qsizetype current = p.shownEntry();
    const QSignalBlocker block(mLog);
    if (current >= 0 && current < mLog->count()) {
        if (!mLog->hasFocus()) // the keyboard's own place in the list stays its own
            mLog->setCurrentRow(int(current), QItemSelectionModel::NoUpdate);
        mLog->scrollToItem(mLog->item(int(current)));
    }
}

QStringList StepPage::logLines() const
{
    QStringList out;
    for (int i = 0; i < mLog->count() && i < mPlayer->position(); ++i)
        out << mLog->item(i)->text();
    return out;
}

QList<int> StepPage::falsePositiveRows() const
{
    QList<int> rows;
    for (int i = 0; i < mLog->count() && i < mPlayer->position(); ++i)
        if (mLog->item(i)->data(Qt::UserRole).toBool())
            rows << i;
    return rows;
}

QString StepPage::hashText() const
{
    return QTextDocumentFragment::fromHtml(mHash->text()).toPlainText();
}

teachexport::Slide StepPage::slide() const
{
    const TimelinePlayer &p = *mPlayer;
    const SandboxFilter &f = p.filter();
    teachexport::Slide s;
    s.position = tr("step %1 / %2").arg(QString::number(p.position()), QString::number(p.timeline().size()));
    // The slide is one line per hash line; the window's non-breaking spaces are spaces there.
    s.hashLines = hashText().replace(QChar(0xa0), QLatin1Char(' ')).split(QLatin1Char('\n'));
    QTextDocument verdict;
    verdict.setHtml(mVerdict->text());
    s.verdict = verdict.toPlainText().replace(QChar(0xa0), QLatin1Char(' '));
    // The headline the window shows bold (and coloured): the first bold fragment, when the line starts with it.
    for (auto it = verdict.begin().begin(); !it.atEnd(); ++it) {
        const QTextFragment frag = it.fragment();
        if (frag.isValid() && frag.charFormat().fontWeight() >= QFont::Bold && frag.position() == 0) {
            s.verdictHead = frag.text().replace(QChar(0xa0), QLatin1Char(' '));
            if (frag.charFormat().hasProperty(QTextFormat::ForegroundBrush))
                s.verdictColour = frag.charFormat().foreground().color();
        }
        break;
    }
    s.bits.reserve(qsizetype(f.size()));
    for (quint64 b = 0; b < f.size(); ++b)
        s.bits << f.bit(b);
    s.chunkBits = f.scheme() == SandboxFilter::Scheme::Blocked ? f.chunkBits() : 0;
    s.columns = mGrid->columns();
    s.positions = mGrid->highlighted();
    s.wasSet = mGrid->highlightedWasSet();
    s.tested = mGrid->tested();
    s.background = palette().color(QPalette::Base);
    s.text = palette().color(QPalette::Text);
    return s;
}

QList<QStringList> StepPage::logTable() const
{
    QList<QStringList> rows;
    rows << QStringList{tr("step"),  tr("action"), tr("name"),    tr("origin"), tr("hashed"),
                        tr("chunk"), tr("bits"),   tr("verdict"), tr("line")};
    const auto &entries = mPlayer->timeline().entries();
    const auto &traces = mPlayer->traces();
    const bool blocked = mPlayer->timeline().emptyFilter().scheme() == SandboxFilter::Scheme::Blocked;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const Timeline::Entry &e = entries[i];
        const SandboxFilter::Trace &t = traces[i];
        QStringList bits;
        for (quint64 b : t.shownSorted())
            bits << QString::number(b);
        QString verdict = tr("added");
        if (e.action == Timeline::Action::Check)
            verdict = !t.maybe ? tr("definitely not") : t.added ? tr("maybe") : tr("false positive");
        rows << QStringList{
            QString::number(i + 1),      e.action == Timeline::Action::Add ? tr("add") : tr("check"),
            QString::fromUtf8(e.name),   e.origin == Timeline::Origin::Example ? tr("example") : tr("class"),
            QString::fromUtf8(t.hashed), blocked ? QString::number(t.chunk) : QString(),
            bits.join(QLatin1Char(' ')), verdict,
            Timeline::line(e.action, t)};
    }
    return rows;
}

QString StepPage::statusText() const
{
    const SandboxFilter &f = filter();
    // The measurement costs thousands of hashes: once for each state of the filter.
    const QString key =
        QStringLiteral("%1|%2|%3").arg(f.describe(), QString::number(f.names().size()), QString::number(f.setBits()));
    if (key == mStatusKey)
        return mStatusCache;
    // For a classic filter (set/m)^k is the rate of this very fill; the model averages over fills.
    const QString fill =
        f.scheme() == SandboxFilter::Scheme::Classic
            ? tr(", from this fill (%1/%2)^%3 = %4")
                  .arg(QString::number(f.setBits()), QString::number(f.size()), QString::number(f.k()),
                       QString::number(std::pow(double(f.setBits()) / double(f.size()), f.k()), 'g', 3))
            : QString();
    mStatusKey = key;
    mStatusCache = tr("%1 | %2, ").arg(f.describe(), count(f.names().size(), tr("name"), tr("names"))) +
                   tr("%1 of %2 bits set | FPR: model %3%4, measured %5 (5,000 never-added names)")
                       .arg(QString::number(f.setBits()), QString::number(f.size()),
                            QString::number(f.modelFpr(), 'g', 3), fill, QString::number(f.measuredFpr(5000), 'g', 3));
    return mStatusCache;
}

} // namespace bloom
