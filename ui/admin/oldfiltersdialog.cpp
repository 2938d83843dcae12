#include "admin/oldfiltersdialog.h"

#include "admin/offthread.h"
#include "style/theme.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bloom {

namespace {

QString age(const QDateTime &when)
{
    const qint64 s = qMax<qint64>(0, when.secsTo(QDateTime::currentDateTimeUtc()));
    if (s < 120)
        return OldFiltersDialog::tr("just now");
    if (s < 2 * 3600)
        return OldFiltersDialog::tr("%L1 minutes ago").arg(s / 60);
    if (s < 2 * 86400)
        return OldFiltersDialog::tr("%L1 hours ago").arg(s / 3600);
    return OldFiltersDialog::tr("%L1 days ago").arg(s / 86400);
}

} // namespace

OldFiltersDialog::OldFiltersDialog(const ConnectionSpec &spec, const FilterRef &live, QWidget *parent)
    : QDialog(parent)
    , mSpec(spec)
    , mLive(live)
{
    setObjectName(QStringLiteral("oldFiltersDialog"));
    setWindowTitle(tr("Old filters of %1").arg(live.table));
    mSummary = new QLabel(tr("Reading the old pairs the swaps kept..."), this);
    mSummary->setObjectName(QStringLiteral("oldFiltersSummary"));
    mSummary->setWordWrap(true);
    mList = new QTreeWidget(this);
    mList->setObjectName(QStringLiteral("oldFilters"));
    mList->setAccessibleName(tr("Old pairs"));
    mList->setRootIsDecorated(false);
    mList->setHeaderLabels({tr("Old table"), tr("Size"), tr("Swapped out"), tr("Old function")});
    mList->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *sqlLabel = new QLabel(tr("What dropping runs (&one transaction, as bloomctl drop-old):"), this);
    mSql = new QPlainTextEdit(this);
    mSql->setObjectName(QStringLiteral("dropOldSql"));
    mSql->setReadOnly(true);
    mSql->setMaximumHeight(120);
    sqlLabel->setBuddy(mSql);
    mResult = new QLabel(this);
    mResult->setObjectName(QStringLiteral("dropOldResult"));
    mResult->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(this);
    mDrop = buttons->addButton(tr("&Drop..."), QDialogButtonBox::ActionRole);
    mDrop->setObjectName(QStringLiteral("dropOldButton"));
    mDrop->setEnabled(false);
    mDrop->setAutoDefault(false);
    mReload = buttons->addButton(tr("&Look again"), QDialogButtonBox::ActionRole);
    mReload->setAutoDefault(false);
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    close->setDefault(true); // Enter never drops
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mReload, &QPushButton::clicked, this, &OldFiltersDialog::reload);
    connect(mDrop, &QPushButton::clicked, this, [this] {
        QMessageBox *box = confirmation();
        if (box->exec() == QMessageBox::Yes)
            dropNow();
        box->deleteLater();
    });
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mSummary);
    layout->addWidget(mList, 1);
    layout->addWidget(sqlLabel);
    layout->addWidget(mSql);
    layout->addWidget(mResult);
    layout->addWidget(buttons);
    mJob = new OffThread(this);
    theme::fitToScreen(this, QSize(900, 460));
    reload();
}

OldFiltersDialog::~OldFiltersDialog()
{
    mJob->cancelAndWait();
}

void OldFiltersDialog::done(int result)
{
    if (mDropping) {
        QMessageBox::information(this, tr("Dropping"),
                                 tr("The drop's transaction is running; the dialog closes once it has ended."));
        return;
    }
    mJob->cancelAndWait(); // a read: cancelled and joined
    QDialog::done(result);
}

void OldFiltersDialog::reload()
{
    mDrop->setEnabled(false);
    mReload->setEnabled(false);
    const ConnectionSpec spec = mSpec;
    const FilterRef live = mLive;
    OffThread *job = mJob;
    mJob->run<Result<OldPairs>>(
        [spec, live, job]() -> Result<OldPairs> {
            auto db = Database::open(spec);
            if (!db)
                return db.error();
            job->setConnection((*db)->cancelHandle());
            return Rebuilder::oldPairs(**db, live);
        },
        [this](Result<OldPairs> r) { present(r); });
}

void OldFiltersDialog::present(const Result<OldPairs> &r)
{
    mReload->setEnabled(true);
    mList->clear();
    if (!r) {
        mFound.reset();
        mSummary->setText(r.error().toString());
        mSql->clear();
        emit loaded();
        return;
    }
    mFound = *r;
    for (const OldPair &p : r->pairs) {
        auto *item = new QTreeWidgetItem(mList);
        item->setText(0, p.tableKept ? p.table : tr("%1 (gone)").arg(p.table));
        item->setText(3, p.functionKept ? p.function : tr("%1 (gone)").arg(p.function));
        item->setText(2, tr("%1 (%2)").arg(age(p.swappedAt),
                                           QLocale().toString(p.swappedAt.toLocalTime(), QLocale::ShortFormat)));
        item->setText(1, p.tableKept ? QLocale().formattedDataSize(p.bytes) : QString());
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    }
    mSql->setPlainText(r->sql);
    if (r->pairs.isEmpty())
        mSummary->setText(tr("No old pair of %1 is recorded by a swap: nothing to drop.").arg(mLive.table));
    else
        mSummary->setText((r->pairs.size() == 1
                               ? tr("1 old pair kept by the swaps of %1, %2.")
                               : tr("%L1 old pairs kept by the swaps of %2, %3 in all.").arg(r->pairs.size()))
                              .arg(mLive.table, QLocale().formattedDataSize(r->bytes())) +
                          QLatin1Char(' ') +
                          tr("Dropping frees that space; the records stay in bloomscope_swapped, marked dropped "
                             "(metrics' last swap timestamp reads them)."));
    if (!r->rebuilding.isEmpty())
        mSummary->setText(
            mSummary->text() + QLatin1Char(' ') +
            tr("A rebuild into %1 is in progress: swap it in or abort it before dropping.").arg(r->rebuilding));
    mDrop->setEnabled(!mDropping && !r->sql.isEmpty() && r->rebuilding.isEmpty());
    emit loaded();
}

QString OldFiltersDialog::summaryText() const
{
    return mSummary->text();
}

QString OldFiltersDialog::sqlText() const
{
    return mSql->toPlainText();
}

QMessageBox *OldFiltersDialog::confirmation()
{
    auto *box = new QMessageBox(
        QMessageBox::Warning, tr("Drop the old filters"),
        mFound ? tr("Drop %1 in one transaction? This cannot be undone.").arg(mFound->drops.join(QStringLiteral(", ")))
               : QString(),
        QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmDropOld"));
    if (mFound)
        box->setInformativeText(tr("%1 freed. The SQL (under \"Show Details\") is what runs.")
                                    .arg(QLocale().formattedDataSize(mFound->bytes())));
    box->setDetailedText(mSql->toPlainText());
    box->setDefaultButton(QMessageBox::Cancel);
    box->setEscapeButton(QMessageBox::Cancel);
    return box;
}

void OldFiltersDialog::dropNow()
{
    if (!mFound || mFound->sql.isEmpty())
        return;
    mDropping = true;
    mDrop->setEnabled(false);
    mReload->setEnabled(false);
    mResult->setText(tr("Dropping..."));
    const ConnectionSpec spec = mSpec;
    const FilterRef live = mLive;
    const QString shown = mFound->sql;
    OffThread *job = mJob;
    mJob->run<Result<QStringList>>(
        [spec, live, shown, job]() -> Result<QStringList> {
            auto db = Database::open(spec);
            if (!db)
                return db.error();
            job->setConnection((*db)->cancelHandle());
            // What runs is what was shown: another swap or drop since the list was read changes it.
            auto now = Rebuilder::oldPairs(**db, live);
            if (!now)
                return now.error();
            if (now->sql != shown)
                return makeError(ErrorKind::Refused,
                                 tr("the old pairs changed since they were listed; nothing "
                                    "was dropped"),
                                 tr("look again, and drop what is listed then"));
            return Rebuilder::dropOld(**db, live);
        },
        [this](Result<QStringList> r) {
            mDropping = false;
            if (!r) {
                mResult->setText(r.error().toString());
                mResult->setStyleSheet(theme::textStyle(theme::errorText(palette())));
            } else {
                mResult->setText(tr("Dropped %1.").arg(r->join(QStringLiteral(", "))));
                mResult->setStyleSheet(QString());
                emit dropped(*r);
            }
            reload();
        });
}

} // namespace bloom
