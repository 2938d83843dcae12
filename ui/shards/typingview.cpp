#include "shards/typingview.h"
#include "style/theme.h"

#include "shards/replaypanel.h"
#include "shards/shardsession.h"
#include "shards/shardstyle.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace bloom {

using shardstyle::ms;
using shardstyle::WithColour;
using shardstyle::WithoutColour;

namespace {

constexpr int MaxLogRows = 300;

} // namespace

TypingView::TypingView(ShardSession *session, QWidget *parent)
    : QWidget(parent)
    , mSession(session)
{
    mState = new QLabel(tr("No shard map is open. Open one with File > Open shard map, start bloomscope with "
                           "--shards MAP, or run the demo with --demo --shards 16."),
                        this);
    mState->setObjectName(QStringLiteral("shardState"));
    mState->setWordWrap(true);
    mState->setTextFormat(Qt::PlainText); // a shard's error is the server's text

    // Live typing.
    auto *live = new QGroupBox(tr("Type a username: every keystroke is a check"), this);
    mInput = new QLineEdit(live);
    mInput->setObjectName(QStringLiteral("typingInput"));
    mInput->setAccessibleName(tr("Username to type"));
    mInput->setPlaceholderText(tr("e.g. grace_hopper"));
    mDebounce = new QSpinBox(live);
    mDebounce->setObjectName(QStringLiteral("typingDebounce"));
    mDebounce->setAccessibleName(tr("Debounce"));
    mDebounce->setRange(0, 2000);
    mDebounce->setSingleStep(50);
    mDebounce->setSuffix(tr(" ms"));
    mDebounce->setSpecialValueText(tr("off (every key)"));
    mDebounce->setToolTip(tr("A check fires only after this long without a key."));
    mDebounceTimer = new QTimer(this);
    mDebounceTimer->setSingleShot(true);
    connect(mDebounceTimer, &QTimer::timeout, this, &TypingView::fire);
    auto *inputRow = new QHBoxLayout;
    inputRow->addWidget(mInput, 1);
    inputRow->addWidget(new QLabel(tr("Debounce"), live));
    inputRow->addWidget(mDebounce);

    mLog = new QTableWidget(0, 7, live);
    mLog->setObjectName(QStringLiteral("typingLog"));
    mLog->setAccessibleName(tr("Keystrokes and their checks"));
    mLog->setHorizontalHeaderLabels({tr("Typed"), tr("Filter"), tr("Exact answer"), tr("Queries\nfilter"),
                                     tr("Queries\nno filter"), tr("ms\nfilter"), tr("ms\nshards")});
    mLog->setToolTip(tr("Queries: shard queries sent with the filter in front and without it. ms: the filter's "
                        "path (with the scatter-gather on maybe) and the shards alone."));
    mLog->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mLog->horizontalHeader()->setStretchLastSection(true);
    mLog->verticalHeader()->hide();
    mLog->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mLog->setSelectionMode(QAbstractItemView::NoSelection);
    mNameLine = new QLabel(live);
    mNameLine->setObjectName(QStringLiteral("typingName"));
    mNameLine->setWordWrap(true);
    mSessionLine = new QLabel(live);
    mSessionLine->setObjectName(QStringLiteral("typingSession"));
    mSessionLine->setWordWrap(true);
    auto *liveLayout = new QVBoxLayout(live);
    liveLayout->addLayout(inputRow);
    liveLayout->addWidget(mLog, 1);
    liveLayout->addWidget(mNameLine);
    liveLayout->addWidget(mSessionLine);
    connect(mInput, &QLineEdit::textEdited, this, &TypingView::keystroke);

    // The last audit.
    auto *auditBox = new QGroupBox(tr("Audit: no added name may check free"), this);
    mAuditLine = new QLabel(tr("No audit on record for this filter."), auditBox);
    mAuditLine->setObjectName(QStringLiteral("auditLine"));
    mAuditLine->setWordWrap(true);
    mAuditLine->setTextFormat(Qt::RichText);
    mAuditButton = new QPushButton(tr("Run audit (1,000 users a shard)"), auditBox);
    mAuditButton->setObjectName(QStringLiteral("auditButton"));
    connect(mAuditButton, &QPushButton::clicked, this, &TypingView::runAudit);
    auto *auditLayout = new QVBoxLayout(auditBox);
    auditLayout->addWidget(mAuditLine);
    auditLayout->addWidget(mAuditButton, 0, Qt::AlignLeft);

    auto *left = new QVBoxLayout;
    left->addWidget(live, 1);
    left->addWidget(auditBox);

    mReplay = new ReplayPanel(mSession, this);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 5);
    columns->addWidget(mReplay, 6);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mState);
    layout->addLayout(columns, 1);

    connect(mSession, &ShardSession::opened, this, [this](int shards) {
        mState->setText(shards == 1 ? tr("1 shard. Without a filter a username check asks it at every keystroke; "
                                         "with it, only when the filter says \"maybe\".")
                                    : tr("%1 shards. Without a filter a username check asks all %1 at every "
                                         "keystroke; with it, only when the filter says \"maybe\".")
                                          .arg(shards));
        setEnabledAll(true);
    });
    connect(mSession, &ShardSession::openFailed, this,
            [this](const Error &e) { setUnavailable(tr("The shards could not be opened: %1").arg(e.toString())); });
    connect(mSession, &ShardSession::checked, this, &TypingView::onChecked);
    connect(mSession, &ShardSession::auditRead, this, &TypingView::onAudit);
    connect(mSession, &ShardSession::failed, this, &TypingView::onFailed);
    setEnabledAll(false);
    updateTotals();
}

void TypingView::setUnavailable(const QString &why)
{
    mState->setText(why);
    setEnabledAll(false);
}

void TypingView::setEnabledAll(bool on)
{
    for (QWidget *w : std::initializer_list<QWidget *>{mInput, mDebounce, mAuditButton})
        w->setEnabled(on);
    mReplay->setControlsEnabled(on);
}

void TypingView::runAudit()
{
    if (!mSession->isOpen())
        return;
    mAuditButton->setEnabled(false);
    mAuditLine->setText(tr("Auditing: sampling users of every shard and probing never-added names..."));
    mSession->audit(1000);
}

void TypingView::typeText(const QString &text)
{
    for (qsizetype i = 1; i <= text.size(); ++i) {
        mInput->setText(text.left(i));
        keystroke(text.left(i));
    }
}

void TypingView::keystroke(const QString &text)
{
    // Clearing the field starts a new name.
    if (text.isEmpty() || (!mCurrent.isEmpty() && !text.startsWith(mCurrent.left(1)))) {
        mName = Totals{};
        mLog->setRowCount(0);
    }
    mCurrent = text;
    ++mTotals.keystrokes;
    if (text.isEmpty()) {
        mDebounceTimer->stop();
        updateTotals();
        return;
    }
    ++mName.keystrokes;
    if (mDebounce->value() > 0)
        mDebounceTimer->start(mDebounce->value());
    else
        fire();
    updateTotals();
}

void TypingView::fire()
{
    if (mCurrent.isEmpty() || !mSession->isOpen())
        return;
    mSession->check(mCurrent.toUtf8());
}

void TypingView::onChecked(int, const KeystrokeCheck &k)
{
    ++mTotals.checks;
    ++mName.checks;
    for (Totals *t : {&mTotals, &mName}) {
        t->queriesWith += k.queriesWithFilter;
        t->queriesWithout += k.queriesWithout;
        if (k.deleted) {
            ++t->deletedScatterGathers;
            t->deletedQueries += k.queriesWithFilter;
        }
    }
    const int row = mLog->rowCount();
    mLog->insertRow(row);
    const QString answer = !k.maybe    ? tr("not asked")
                           : k.taken   ? tr("taken")
                           : k.deleted ? tr("free: deleted account")
                                       : tr("free: false positive");
    const QStringList cells{QString::fromUtf8(k.text),
                            k.maybe ? tr("maybe") : tr("definitely free"),
                            answer,
                            QString::number(k.queriesWithFilter),
                            QString::number(k.queriesWithout),
                            ms(k.filterPathMs),
                            ms(k.shardsOnlyMs)};
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        if (c >= 3)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (c == 1)
            item->setForeground(k.maybe ? QColor(0xc0, 0x7a, 0x00) : WithColour);
        if (c == 3)
            item->setForeground(k.queriesWithFilter ? WithoutColour : WithColour);
        mLog->setItem(row, c, item);
    }
    while (mLog->rowCount() > MaxLogRows)
        mLog->removeRow(0);
    mLog->scrollToBottom();
    updateTotals();
}

void TypingView::updateTotals()
{
    if (mCurrent.isEmpty())
        mNameLine->setText(tr("Type to see each keystroke's check."));
    else
        mNameLine->setText(tr("<b>%1</b>: keystrokes %2, checks %3. Shard queries: <span style='color:%4'>%5 with "
                              "the filter</span>, <span style='color:%6'>%7 without</span>.")
                               .arg(mCurrent.toHtmlEscaped(), QString::number(mName.keystrokes),
                                    QString::number(mName.checks), theme::textOn(WithColour, palette()),
                                    QString::number(mName.queriesWith), theme::textOn(WithoutColour, palette()),
                                    QString::number(mName.queriesWithout)));
    mSessionLine->setText(tr("This session: checks %1; shard queries %2 with the filter, %3 without. "
                             "Scatter-gathers for deleted accounts' names (the filter keeps their bits): %4, "
                             "costing %5 shard queries.")
                              .arg(QString::number(mTotals.checks), QString::number(mTotals.queriesWith),
                                   QString::number(mTotals.queriesWithout),
                                   QString::number(mTotals.deletedScatterGathers),
                                   QString::number(mTotals.deletedQueries)));
}

int TypingView::loggedChecks() const
{
    return mLog->rowCount();
}

QString TypingView::logCell(int row, int column) const
{
    const QTableWidgetItem *item = mLog->item(row, column);
    return item ? item->text() : QString();
}

void TypingView::onAudit(const AuditState &s)
{
    mAuditButton->setEnabled(mSession->isOpen());
    if (!s.known) {
        if (!mAudit.known)
            mAuditLine->setText(tr("No audit on record for this filter: run one here or with "
                                   "<tt>bloomctl audit --shards MAP</tt>."));
        emit auditShown();
        return;
    }
    mAudit = s;
    const AuditReport &r = s.report;
    QString verdict;
    if (r.falseNegatives.isEmpty())
        verdict = tr("<span style='color:%1'><b>no false negative</b></span>: all %2 sampled users check maybe")
                      .arg(theme::textOn(WithColour, palette()), QString::number(r.sampled));
    else {
        QStringList names;
        for (const QByteArray &n : r.falseNegatives.mid(0, 10))
            names << QString::fromUtf8(n).toHtmlEscaped();
        verdict = tr("<span style='color:%1'><b>%2 FALSE NEGATIVES</b></span> of %3 sampled users: %4%5 - "
                     "their sign-ups bypassed the filter or it lost bits")
                      .arg(theme::textOn(WithoutColour, palette()), QString::number(r.falseNegatives.size()),
                           QString::number(r.sampled), names.join(QStringLiteral(", ")),
                           r.falseNegatives.size() > 10 ? QStringLiteral(", ...") : QString());
    }
    mAuditLine->setText(
        tr("Last audit %1 UTC over %2: %3.<br>Measured FPR %4 (%5 of %6 never-added "
           "probes; 95% interval %7 .. %8), estimated %9.%10")
            .arg(r.at.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")), shardstyle::shardCount(r.shards), verdict,
                 QString::number(r.measured, 'g', 3), QString::number(r.falsePositives), QString::number(r.probes),
                 QString::number(r.low95 < 1e-12 ? 0.0 : r.low95, 'g', 3), QString::number(r.high95, 'g', 3),
                 QString::number(r.estimated, 'g', 3),
                 s.recordError.isEmpty() ? QString() : QStringLiteral("<br><i>%1</i>").arg(s.recordError)));
    emit auditShown();
}

QString TypingView::auditText() const
{
    return mAuditLine->text();
}

void TypingView::onFailed(ShardTask task, const Error &e)
{
    mAuditButton->setEnabled(mSession->isOpen());
    const QString what = shardTaskName(task);
    const QString text = e.kind == ErrorKind::Cancelled ? tr("The %1 was cancelled.").arg(what)
                                                        : tr("The %1 failed: %2").arg(what, e.toString());
    switch (task) { // each failure where its work is shown
    case ShardTask::Audit:
    case ShardTask::LastAudit:
        mAuditLine->setText(text.toHtmlEscaped());
        break;
    case ShardTask::Check:
        mNameLine->setText(text.toHtmlEscaped());
        break;
    case ShardTask::Replay: // shown by the replay panel
        break;
    }
}

} // namespace bloom
