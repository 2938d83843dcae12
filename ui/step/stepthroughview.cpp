#include "step/stepthroughview.h"

#include "heatmap/chunkgridwidget.h"
#include "session/filtersession.h"
#include "style/theme.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace bloom {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

/** A name as the steps show it: whole up to 96 characters, else its ends and its length. Laying out one
 *  unbreakable line costs Qt time quadratic in its length, so a long name must never reach the browser. */
QString shown(const QString &name)
{
    constexpr qsizetype Whole = 96, Head = 48, Tail = 24;
    if (name.size() <= Whole)
        return esc(name);
    return StepThroughView::tr("%1&hellip;%2 <i>(%L3 characters)</i>")
        .arg(esc(name.left(Head)), esc(name.right(Tail)), QLocale().toString(name.size()));
}

} // namespace

StepThroughView::StepThroughView(QWidget *parent)
    : QWidget(parent)
{
    mName = new QLineEdit(this);
    mName->setObjectName(QStringLiteral("stepName"));
    mName->setPlaceholderText(tr("type a username: every keystroke is a check"));
    // QLineEdit lays its whole text out again on every keystroke (linear, ~0.1 us a character): past
    // 64 Ki characters a keystroke would cost more than a frame, so nameEdited() cuts a longer paste
    // there and says so. The field itself takes any paste (Qt's own limit, 32,767, cut silently).
    mName->setMaxLength(16 * 1024 * 1024);
    mName->setAccessibleName(tr("Name"));
    mBack = new QPushButton(tr("< Back"), this);
    mBack->setObjectName(QStringLiteral("stepBack"));
    mNext = new QPushButton(tr("Next >"), this);
    mNext->setObjectName(QStringLiteral("stepNext"));
    mTitle = new QLabel(this);
    mTitle->setObjectName(QStringLiteral("stepTitle"));
    QFont bold = mTitle->font();
    bold.setBold(true);
    mTitle->setFont(bold);
    mText = new QTextBrowser(this);
    mText->setObjectName(QStringLiteral("stepText"));
    mText->setAccessibleName(tr("Steps"));
    mGrid = new ChunkGridWidget(this);
    mVerdict = new QLabel(this);
    mVerdict->setObjectName(QStringLiteral("verdict"));
    QFont big = mVerdict->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    mVerdict->setFont(big);
    mDebounce = new QTimer(this);
    mDebounce->setSingleShot(true);
    mDebounce->setInterval(120);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Name:"), this));
    top->addWidget(mName, 1);
    top->addWidget(mBack);
    top->addWidget(mNext);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(mText);
    splitter->addWidget(mGrid);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({460, 240});
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(mTitle);
    layout->addWidget(splitter, 1);
    layout->addWidget(mVerdict);

    connect(mName, &QLineEdit::textChanged, this, &StepThroughView::nameEdited);
    connect(mDebounce, &QTimer::timeout, this, [this] {
        if (mCutFrom == 0 && mSession && mSession->isOpen() && validateName(mName->text().toUtf8()).ok())
            mSession->step(mName->text());
    });
    connect(mBack, &QPushButton::clicked, this, [this] { setStep(mStep - 1); });
    connect(mNext, &QPushButton::clicked, this, [this] { setStep(mStep + 1); });
    render();
}

void StepThroughView::setSession(FilterSession *session)
{
    mSession = session;
    connect(session, &FilterSession::stepReady, this, [this](const StepResult &r) {
        if (mCutFrom > 0 || r.explanation.name != mName->text())
            return; // typed on since, or cut: a verdict only ever for the name in the field, as given
        mResult = r;
        mHaveResult = true;
        mError.clear();
        mRowError.clear();
        mDbFailed = false;
        render();
        emit resultReady();
    });
    connect(session, &FilterSession::failed, this, [this](Operation op, int, const Error &e, bool) {
        if (op == Operation::Step && mCutFrom == 0) {
            mHaveResult = false;
            mDbFailed = true;
            // A NULL or missing chunk row: the hash and the placement stand, the row and a verdict do not.
            if (e.kind == ErrorKind::DamagedFilter)
                mRowError = e.toString();
            else
                mError = e.toString();
            render();
            emit failedToAnswer();
        }
    });
    connect(session, &FilterSession::opened, this, [this] { nameEdited(); });
}

void StepThroughView::setName(const QString &name)
{
    mName->setText(name);
}

QString StepThroughView::name() const
{
    return mName->text();
}

QString StepThroughView::stepTitle(int step)
{
    switch (step) {
    case Lowercase:
        return tr("1. lower(name)");
    case Md5:
        return tr("2. md5(lower(name))");
    case HashBits:
        return tr("3. the 128 bits: chunk and positions");
    case ChunkRow:
        return tr("4. the chunk's row from the database");
    case ChunkBits:
        return tr("5. the name's bits inside the chunk");
    case AndMask:
        return tr("6. row & mask = mask");
    case Verdict:
        return tr("7. verdict");
    }
    return {};
}

void StepThroughView::setStep(int step)
{
    mStep = qBound(0, step, StepCount - 1);
    render();
}

void StepThroughView::keyPressEvent(QKeyEvent *e)
{
    if (e->key() == Qt::Key_PageDown || (e->key() == Qt::Key_Right && e->modifiers() & Qt::AltModifier))
        setStep(mStep + 1);
    else if (e->key() == Qt::Key_PageUp || (e->key() == Qt::Key_Left && e->modifiers() & Qt::AltModifier))
        setStep(mStep - 1);
    else
        QWidget::keyPressEvent(e);
}

void StepThroughView::nameEdited()
{
    if (mName->text().size() > MaxFieldCharacters) {
        // Cut once, here (and said); the field then holds what a keystroke can afford to lay out.
        mCutFrom = mName->text().size();
        const QSignalBlocker block(mName);
        mName->setText(mName->text().left(MaxFieldCharacters));
        mCutText = mName->text();
    } else if (mCutFrom > 0 && mName->text() != mCutText) {
        mCutFrom = 0; // edited since: the field's name is the user's own again
        mCutText.clear();
    }
    const QString name = mName->text();
    mHaveResult = false;
    mError.clear();
    mRowError.clear();
    mDbFailed = false;
    if (mCutFrom > 0)
        mError = tr("The name pasted has %L1 characters; the field takes %L2 and the rest was cut. No verdict is "
                    "shown: it would be the cut name's, not the one pasted. bloomctl explain takes names up to "
                    "1 MiB (bloomctl explain \"$(cat name.txt)\").")
                     .arg(QLocale().toString(mCutFrom), QLocale().toString(MaxFieldCharacters));
    else if (auto s = validateName(name.toUtf8()); !s)
        mError = s.error().message;
    else
        mOffline =
            Explanation::offline(mSession && mSession->isOpen() ? mSession->summary().geometry : Geometry(), name);
    render();
    mDebounce->start();
}

QString StepThroughView::verdictText() const
{
    if (!mHaveResult)
        return {};
    return mResult.maybe ? tr("maybe taken") : tr("definitely free");
}

QString StepThroughView::text() const
{
    return mText->toPlainText() + QLatin1Char('\n') + mVerdict->text();
}

QString StepThroughView::stepHtml(int step) const
{
    const Explanation &e = mHaveResult ? mResult.explanation : mOffline;
    const QString mono = QStringLiteral("<span style='font-family:monospace'>%1</span>");
    switch (step) {
    case Lowercase: {
        QString how = loweringLabel(e.lowering);
        if (e.lowering == Lowering::Server && mSession && mSession->isOpen())
            how += tr(" &mdash; SQL: <code>%1</code>").arg(esc(mSession->summary().lowerSql));
        return tr("<b>%1</b> &rarr; <b>%2</b> <i>(%3)</i>").arg(shown(e.name), shown(e.normalized), how);
    }
    case Md5:
        return mono.arg(e.md5Hex()) + tr(" &mdash; read as 128 bits: <code>('x' || md5(lower(name)))::bit(128)</code>");
    case HashBits: {
        // Readable on the base and on the current step's tint alike.
        const QPalette pal = palette();
        const auto slice = [&pal](int i) {
            return theme::readable(theme::sliceColour(i, theme::stepHighlight(pal)), pal.color(QPalette::Base)).name();
        };
        const QString muted = theme::readable(theme::mutedText(pal), theme::stepHighlight(pal)).name();
        QString bits;
        const QString all = e.hash.bitString();
        int at = 0;
        for (int i = 0; i < e.slices.size(); ++i) {
            const HashSlice &s = e.slices[i];
            bits += QStringLiteral("<span style='color:%1'>%2</span> ").arg(slice(i), s.bits);
            at = s.lastBit;
        }
        bits += QStringLiteral("<span style='color:%1'>%2</span>").arg(muted, all.mid(at));
        QString rows;
        for (int i = 0; i < e.slices.size(); ++i) {
            const HashSlice &s = e.slices[i];
            rows += QStringLiteral("<tr><td style='color:%1'>bits %2-%3</td><td>%4</td><td>%5 %6</td></tr>")
                        .arg(slice(i), QString::number(s.firstBit), QString::number(s.lastBit), mono.arg(s.bits),
                             s.isChunk ? tr("chunk") : tr("bit"), QString::number(s.value));
        }
        return QStringLiteral("<p style='font-family:monospace'>%1</p><table cellspacing=6>%2</table>").arg(bits, rows);
    }
    case ChunkRow:
        if (!mHaveResult)
            return mSession && mSession->isOpen()
                       ? tr("fetching chunk %1...").arg(e.placement.chunk)
                       : tr("not connected: open a filter to fetch chunk %1").arg(e.placement.chunk);
        return tr("chunk <b>%1</b>: %2 of %3 bits set &mdash; SQL: <code>%4</code>")
            .arg(QString::number(e.placement.chunk), QString::number(mResult.chunkBits.count('1')),
                 QString::number(mResult.chunkBits.size()), esc(mSession->summary().chunkSql));
    case ChunkBits: {
        QStringList bits;
        for (int b : e.setBits())
            bits << QString::number(b);
        return tr("the name's bits in chunk %1: <b>{%2}</b> (highlighted below: green = set, red = clear)")
            .arg(QString::number(e.placement.chunk), bits.join(QLatin1Char(',')));
    }
    case AndMask: {
        if (!mHaveResult)
            return tr("waiting for the row...");
        QStringList set, clear;
        for (int b : e.setBits())
            (mResult.chunkBits.at(b) == '1' ? set : clear) << QString::number(b);
        return tr("row &amp; mask keeps {%1}; missing {%2} &rarr; row &amp; mask = mask is <b>%3</b> (on the "
                  "row above, here) &mdash; the reference's check does the same on the server: <code>%4</code>")
            .arg(set.join(QLatin1Char(',')), clear.join(QLatin1Char(',')),
                 mResult.maybe ? QStringLiteral("true") : QStringLiteral("false"),
                 esc(mSession->summary().referenceCheckSql));
    }
    case Verdict:
        if (!mHaveResult)
            return {};
        return mResult.maybe ? tr("all %1 bits are set: the name <b>may be taken</b> &mdash; ask the shards for the "
                                  "exact answer")
                                   .arg(e.setBits().size())
                             : tr("a bit is clear: the name is <b>definitely free</b> &mdash; no shard is asked");
    }
    return {};
}

void StepThroughView::render()
{
    mBack->setEnabled(mStep > 0);
    mNext->setEnabled(mStep < StepCount - 1);
    mTitle->setText(
        tr("Step %1 of %2: %3")
            .arg(QString::number(mStep + 1), QString::number(int(StepCount)),
                 stepTitle(mStep).section(QLatin1Char(' '), 1)) +
        (!mRowError.isEmpty() && mStep > ChunkRow ? tr(" (no answer: the steps stop at the chunk's row)") : QString()));
    if (!mError.isEmpty()) {
        mText->setHtml(
            QStringLiteral("<p style='color:%1'>%2</p>").arg(theme::errorText(palette()).name(), esc(mError)));
        mVerdict->clear();
        mGrid->clear();
        return;
    }
    if (mName->text().isEmpty()) {
        mText->setHtml(tr("<p>Type a name to see where its bits go.</p>"));
        mVerdict->clear();
        mGrid->clear();
        return;
    }
    QString html;
    // Without the chunk's row the steps stop at it, and it says why.
    const int last = mRowError.isEmpty() ? mStep : qMin(mStep, int(ChunkRow));
    for (int s = 0; s <= last; ++s) {
        const QString body =
            s == ChunkRow && !mRowError.isEmpty()
                ? QStringLiteral("<span style='color:%1'>%2</span>")
                      .arg(theme::readable(theme::errorText(palette()), theme::stepHighlight(palette())).name(),
                           esc(mRowError))
                      .replace(QLatin1Char('\n'), QLatin1String("<br>"))
                : stepHtml(s);
        const QString style =
            s == last ? QStringLiteral("background:%1; padding:4px").arg(theme::stepHighlight(palette()).name())
                      : QString();
        const QString anchor = s == last ? QStringLiteral("<a name='current'></a>") : QString();
        html += QStringLiteral("<div style='%1'>%4<p><b>%2</b><br>%3</p></div>")
                    .arg(style, esc(stepTitle(s)), body, anchor);
    }
    mText->setHtml(html);
    mText->scrollToAnchor(QStringLiteral("current")); // the current step in view, however many came before
    const Explanation &e = mHaveResult ? mResult.explanation : mOffline;
    if (mHaveResult && mStep >= ChunkRow) {
        mGrid->setChunk(e.placement.chunk, mResult.chunkBits);
        mGrid->setHighlight(mStep >= ChunkBits ? e.setBits() : QList<int>{});
    } else {
        mGrid->clear();
    }
    if (!mRowError.isEmpty() && mStep >= ChunkRow) {
        mVerdict->setText(tr("no answer: the chunk's row is damaged"));
        mVerdict->setStyleSheet(theme::textStyle(theme::errorText(palette())));
    } else if (mHaveResult && mStep >= Verdict) {
        mVerdict->setText(mResult.maybe ? tr("maybe taken") : tr("definitely free"));
        mVerdict->setStyleSheet(
            theme::textStyle(mResult.maybe ? theme::warnText(palette()) : theme::okText(palette())));
    } else {
        mVerdict->clear();
    }
}

} // namespace bloom
