#include "admin/swapdialog.h"
#include "style/theme.h"

#include "admin/offthread.h"
#include "model/fprmodel.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace bloom {

namespace {

QString count(double n)
{
    return QLocale().toString(qint64(std::llround(n)));
}

QString bullets(const QStringList &items)
{
    QString out;
    for (const QString &i : items)
        out += QStringLiteral("<li>%1</li>").arg(i.toHtmlEscaped());
    return QStringLiteral("<ul style=\"margin:0\">%1</ul>").arg(out);
}

/** The guard's fix in the dialog's own words (the core's names bloomctl's options). */
QString guiFix(const SwapCheck &c)
{
    if (!c.auditMisses.isEmpty())
        return SwapDialog::tr(
            "Fix: abort this rebuild (Admin > Rebuild) and rebuild from every source that holds users.");
    if (c.fewerNames)
        return SwapDialog::tr("Fix: add the other shards to the rebuild, or tick \"The names are really gone\" below "
                              "if the accounts were deleted.");
    if (c.refusalConsent == QLatin1String("publication-ok"))
        return SwapDialog::tr("Fix: %1\nthen tick \"Every subscriber is ready\" below.").arg(c.refusalFix);
    return SwapDialog::tr("Fix: re-create these on the new table after the swap and tick \"I will re-create\" below, "
                          "or remove them from the live table first.");
}

} // namespace

SwapDialog::SwapDialog(const ConnectionSpec &filterSpec, const FilterRef &live, QWidget *parent)
    : QDialog(parent)
    , mSpec(filterSpec)
    , mLive(live)
{
    setWindowTitle(tr("Swap in the rebuilt filter"));
    mComparison = new QLabel(tr("Checking the rebuilt filter against the live one..."), this);
    mComparison->setObjectName(QStringLiteral("comparison"));
    mComparison->setTextFormat(Qt::RichText);
    mComparison->setWordWrap(true);
    mCarried = new QLabel(this);
    mCarried->setObjectName(QStringLiteral("carried"));
    mCarried->setTextFormat(Qt::RichText);
    mCarried->setWordWrap(true);
    mVerdict = new QLabel(this);
    mVerdict->setObjectName(QStringLiteral("verdict"));
    mVerdict->setTextFormat(Qt::RichText);
    mVerdict->setWordWrap(true);
    mAllowFewer = new QCheckBox(tr("The names are really gone (deleted accounts): allow fewer names"), this);
    mAllowFewer->setObjectName(QStringLiteral("allowFewerNames"));
    mAllowFewer->setVisible(false);
    mAcceptUncarried = new QCheckBox(tr("I will re-create what cannot be carried over myself"), this);
    mAcceptUncarried->setObjectName(QStringLiteral("acceptUncarried"));
    mAcceptUncarried->setVisible(false);
    mPublicationOk =
        new QCheckBox(tr("Every subscriber is ready to follow the swap (the check above returns true there)"), this);
    mPublicationOk->setObjectName(QStringLiteral("publicationOk"));
    mPublicationOk->setVisible(false);
    mTypedLabel = new QLabel(this);
    mTypedName = new QLineEdit(this);
    mTypedName->setObjectName(QStringLiteral("typedTableName"));
    mTypedLabel->setBuddy(mTypedName);
    mTypedLabel->setVisible(false);
    mTypedName->setVisible(false);
    connect(mTypedName, &QLineEdit::textChanged, this, &SwapDialog::updateVerdict);
    auto *sqlLabel = new QLabel(tr("The swap's &SQL (one transaction):"), this);
    mSql = new QPlainTextEdit(this);
    mSql->setObjectName(QStringLiteral("swapSql"));
    mSql->setReadOnly(true);
    mSql->setMaximumHeight(140);
    sqlLabel->setBuddy(mSql);
    mResult = new QLabel(this);
    mResult->setObjectName(QStringLiteral("swapResult"));
    mResult->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(this);
    mSwap = buttons->addButton(tr("&Swap..."), QDialogButtonBox::AcceptRole);
    mSwap->setObjectName(QStringLiteral("swapButton"));
    mSwap->setEnabled(false);
    mSwap->setAutoDefault(false);
    // While the swap waits for its lock (it says who blocks), Cancel gives up: nothing is swapped.
    mCancelSwap = buttons->addButton(tr("&Cancel the swap"), QDialogButtonBox::ActionRole);
    mCancelSwap->setObjectName(QStringLiteral("cancelSwapButton"));
    mCancelSwap->setAccessibleName(tr("Cancel the swap"));
    mCancelSwap->setAutoDefault(false);
    mCancelSwap->hide();
    connect(mCancelSwap, &QPushButton::clicked, this, [this] {
        mCancelSwap->setEnabled(false);
        mResult->setText(tr("Cancelling the swap..."));
        mJob->cancel();
    });
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    close->setDefault(true); // Enter never swaps
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mComparison);
    layout->addWidget(mCarried);
    layout->addWidget(mVerdict);
    layout->addWidget(mAllowFewer);
    layout->addWidget(mAcceptUncarried);
    layout->addWidget(mPublicationOk);
    layout->addWidget(mTypedLabel);
    layout->addWidget(mTypedName);
    layout->addWidget(sqlLabel);
    layout->addWidget(mSql);
    layout->addWidget(mResult);
    layout->addWidget(buttons);
    connect(mAllowFewer, &QCheckBox::toggled, this, &SwapDialog::updateVerdict);
    connect(mAcceptUncarried, &QCheckBox::toggled, this, &SwapDialog::updateVerdict);
    connect(mPublicationOk, &QCheckBox::toggled, this, &SwapDialog::updateVerdict);

    const ConnectionSpec spec = mSpec;
    const SwapOptions checkOptions = options();
    mJob = new OffThread(this);
    OffThread *job = mJob;
    mJob->run<Result<std::pair<SwapCheck, RebuildState>>>(
        [spec, checkOptions, job]() -> Result<std::pair<SwapCheck, RebuildState>> {
            auto db = Database::open(spec);
            if (!db)
                return db.error();
            job->setConnection((*db)->cancelHandle());
            auto st = Rebuilder::state(**db, checkOptions.live);
            if (!st)
                return st.error();
            if (!st->exists || st->stage != QLatin1String("ready"))
                return makeError(ErrorKind::Usage, tr("There is no finished rebuild to swap in."));
            auto c = Rebuilder::checkSwap(**db, st->newTable, checkOptions);
            if (!c)
                return c.error();
            return std::pair{*c, *st};
        },
        [this](Result<std::pair<SwapCheck, RebuildState>> r) {
            if (!r) {
                mComparison->setText(r.error().toString().toHtmlEscaped());
                emit checked();
                return;
            }
            mCheck = r->first;
            const SwapCheck &c = *mCheck;
            const auto row = [](const QString &what, const QString &a, const QString &b) {
                return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                    .arg(what.toHtmlEscaped(), a.toHtmlEscaped(), b.toHtmlEscaped());
            };
            QString sources;
            for (const SourceCount &s : c.perSource)
                sources += QStringLiteral("<li>%1: %2</li>").arg(s.source.toHtmlEscaped(), count(double(s.names)));
            mComparison->setText(
                QStringLiteral("<table cellspacing=6><tr><td></td><td><b>%1</b></td><td><b>%2</b></td></tr>"
                               "%3%4%5%6</table><p>%7<ul style=\"margin:0\">%8</ul>%9</p>")
                    .arg(tr("live (old)"), tr("rebuilt (new)"), row(tr("table"), c.liveTable, c.newTable),
                         row(tr("geometry"), c.liveGeometry.describe(), c.newGeometry.describe()),
                         row(tr("estimated names"), count(c.liveNames), count(c.newNames)),
                         row(tr("estimated FPR"), fpr::oneIn(fpr::blocked(c.liveNames, c.liveGeometry)),
                             fpr::oneIn(fpr::blocked(c.newNames, c.newGeometry))),
                         tr("The rebuild read:").toHtmlEscaped(), sources,
                         tr("Pending names to drain in the swap: %1. Live names the new filter would miss: %2%.")
                             .arg(count(double(c.pending)), QString::number(c.missingShare * 100, 'f', 1))
                             .toHtmlEscaped()));
            QString carried = QStringLiteral("<b>%1</b>%2")
                                  .arg(tr("Carried over to the new pair:"),
                                       c.carried.isEmpty() ? tr(" nothing to carry") : bullets(c.carried));
            if (!c.notCarried.isEmpty())
                carried += QStringLiteral("<b>%1</b>%2").arg(tr("Cannot be carried over:"), bullets(c.notCarried));
            carried +=
                QStringLiteral("<p>%1</p>")
                    .arg(c.audited ? tr("Audit: %1 sampled users, %2 check free in the new table.")
                                         .arg(QString::number(c.auditSampled), QString::number(c.auditMisses.size()))
                                         .toHtmlEscaped()
                                   : c.auditNote.toHtmlEscaped());
            mCarried->setText(carried);
            mSql->setPlainText(c.sql);
            mAllowFewer->setVisible(c.fewerNames);
            mAcceptUncarried->setVisible(!c.notCarried.isEmpty());
            mPublicationOk->setVisible(!c.publications.isEmpty());
            setProduction(mProduction); // the label names the resolved table
            updateVerdict();
            emit checked();
        });

    connect(mSwap, &QPushButton::clicked, this, [this] {
        QMessageBox *box = confirmation();
        if (box->exec() == QMessageBox::Yes)
            swapNow();
        box->deleteLater();
    });
    theme::fitToScreen(this, QSize(720, 640));
}

SwapDialog::~SwapDialog()
{
    // The window went (the application quits): a check is cancelled, a swap's transaction too (it
    // rolls back: nothing changes), and the thread is joined before the dialog's members go.
    mJob->cancelAndWait();
}

void SwapDialog::done(int result)
{
    if (mSwapping) {
        QMessageBox::information(this, tr("The swap is running"),
                                 tr("The swap's transaction is running; the dialog closes once it has committed or "
                                    "rolled back (it says which)."));
        return;
    }
    mJob->cancelAndWait(); // a check still running: it only reads
    QDialog::done(result);
}

SwapOptions SwapDialog::options() const
{
    SwapOptions o;
    o.live = mLive;
    o.allowFewerNames = mAllowFewer->isChecked();
    o.allowUncarried = mAcceptUncarried->isChecked();
    o.publicationOk = mPublicationOk->isChecked();
    return o;
}

void SwapDialog::updateVerdict()
{
    if (!mCheck)
        return;
    judgeSwap(*mCheck, options());
    if (mCheck->refusal.isEmpty())
        mVerdict->setText(tr("The guard lets this swap go ahead.").toHtmlEscaped());
    else
        mVerdict->setText(QStringLiteral("<b>%1</b> %2<br>%3")
                              .arg(tr("Refused:").toHtmlEscaped(), mCheck->refusal.toHtmlEscaped(),
                                   guiFix(*mCheck).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
    const bool typed = !mProduction || mTypedName->text().trimmed() == mCheck->liveTable ||
                       QStringLiteral("public.") + mTypedName->text().trimmed() == mCheck->liveTable;
    mSwap->setEnabled(!mSwapping && mCheck->refusal.isEmpty() && typed);
}

void SwapDialog::setProduction(bool production)
{
    mProduction = production;
    mTypedLabel->setText(tr("This is a &production filter: type its table name (%1) to swap.")
                             .arg(mCheck ? mCheck->liveTable : mLive.table));
    mTypedLabel->setVisible(production);
    mTypedName->setVisible(production);
    updateVerdict();
}

QMessageBox *SwapDialog::confirmation()
{
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Swap"),
                                tr("Make %1 the live filter now?").arg(mCheck ? mCheck->newTable : QString()),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    if (mCheck)
        box->setInformativeText(tr("Estimated names: live %1, new %2. %3 The old pair is kept under a dated name "
                                   "until you drop it (Admin > Old filters).")
                                    .arg(count(mCheck->liveNames), count(mCheck->newNames),
                                         tr("%Ln item(s) carried over.", nullptr, int(mCheck->carried.size()))));
    box->setDetailedText(mSql->toPlainText());
    box->setDefaultButton(QMessageBox::Cancel);
    box->setEscapeButton(QMessageBox::Cancel);
    return box;
}

QString SwapDialog::resultText() const
{
    return mResult->text();
}

QString SwapDialog::verdictText() const
{
    return mVerdict->text();
}

bool SwapDialog::readyToSwap() const
{
    return mSwap->isEnabled();
}

void SwapDialog::swapNow()
{
    if (!mCheck)
        return;
    mSwapping = true;
    mSwap->setEnabled(false);
    mResult->setText(tr("Swapping..."));
    mCancelSwap->setEnabled(true);
    mCancelSwap->show();
    const ConnectionSpec spec = mSpec;
    const QString table = mCheck->newTable;
    SwapOptions o = options();
    OffThread *job = mJob;
    o.lock.cancel = job->cancelFlag();
    o.lock.onWait = [job](const maintenance::LockWait &w) {
        job->post([job, text = w.describe()] {
            auto *self = static_cast<SwapDialog *>(job->parent());
            self->mResult->setText(tr("Waiting for the lock, sign-ups go on: %1").arg(text));
        });
    };
    mJob->run<Result<SwapReport>>(
        [spec, table, o, job]() -> Result<SwapReport> {
            auto db = Database::open(spec);
            if (!db)
                return db.error();
            job->setConnection((*db)->cancelHandle());
            return Rebuilder::swap(**db, table, o);
        },
        [this](Result<SwapReport> r) {
            mSwapping = false;
            mCancelSwap->hide();
            if (!r) {
                mResult->setText(r.error().toString());
                updateVerdict();
                return;
            }
            mResult->setText(
                tr("Swapped. Checks waited %1 ms, adds %2 ms. The old pair is %3: drop it with Admin > Old filters "
                   "once you no longer want it.")
                    .arg(QString::number(r->exclusiveMs, 'f', 1), QString::number(r->lockMs, 'f', 1), r->oldTable) +
                (r->check.publications.isEmpty()
                     ? QString()
                     : QStringLiteral("\n") +
                           QString(r->check.subscriberAfter).replace(QStringLiteral("<OLD_TABLE>"), r->oldTable)));
            emit swapped(*r);
        });
}

QString SwapDialog::comparisonText() const
{
    return mComparison->text();
}

} // namespace bloom
