#include "admin/rebuilddialog.h"
#include "style/theme.h"

#include "admin/offthread.h"
#include "model/fprmodel.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <bit>
#include <optional>

namespace bloom {

namespace {

/**
 * A power of two typed as it is said: "2^18", "18" (the exponent, as the 2^ prefix shows) or the count
 * itself, "262144"; all three mean 262,144 chunks.
 */
class Log2SpinBox : public QSpinBox {
public:
    using QSpinBox::QSpinBox;

protected:
    static std::optional<int> parse(QString text, int max)
    {
        text = text.trimmed().remove(QLatin1Char(',')).remove(QLatin1Char(' '));
        while (text.startsWith(QLatin1String("2^"))) // typed over the "2^" prefix, or with it
            text = text.mid(2);
        bool ok = false;
        const qint64 v = text.toLongLong(&ok);
        if (!ok || v < 0)
            return std::nullopt;
        if (v <= max)
            return int(v); // an exponent
        if (std::has_single_bit(quint64(v)) && std::countr_zero(quint64(v)) <= max)
            return std::countr_zero(quint64(v)); // a count of chunks
        return std::nullopt;
    }
    int valueFromText(const QString &text) const override { return parse(text, maximum()).value_or(value()); }
    QValidator::State validate(QString &text, int &) const override
    {
        const QString t = text.trimmed();
        if (t.isEmpty() || t == QLatin1String("2") || t == QLatin1String("2^"))
            return QValidator::Intermediate;
        const auto v = parse(t, maximum());
        if (!v)
            return t.startsWith(QLatin1String("2^")) || t.front().isDigit() ? QValidator::Intermediate
                                                                            : QValidator::Invalid;
        return *v >= minimum() && *v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
    }
};

QString oneIn(double p)
{
    return QStringLiteral("%1 (%2)").arg(QString::number(p, 'g', 3), fpr::oneIn(p));
}

} // namespace

RebuildDialog::RebuildDialog(const ConnectionSpec &filterSpec, const FilterSummary &live, double estimatedNames,
                             QWidget *parent)
    : QDialog(parent)
    , mSpec(filterSpec)
    , mLive(live)
    , mNames(estimatedNames)
{
    setWindowTitle(tr("Rebuild %1 with more chunks").arg(live.ref.table));
    mSources = new QPlainTextEdit(this);
    mSources->setObjectName(QStringLiteral("sources"));
    mSources->setPlaceholderText(tr("one shard per line: service=shard1, or host=... dbname=... user=..."));
    mSources->setMaximumHeight(90);
    mSources->setAccessibleName(tr("Shards"));
    mQuery = new QLineEdit(RebuildOptions().query, this); // core's default, as bloomctl's --query
    mQuery->setAccessibleName(tr("Query"));
    mFile = new QLineEdit(this);
    mFile->setObjectName(QStringLiteral("file"));
    mFile->setAccessibleName(tr("File of names"));
    mFile->setPlaceholderText(tr("optional: a file of names, one per line"));
    auto *browse = new QPushButton(tr("&Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Names"));
        if (!f.isEmpty())
            mFile->setText(f);
    });
    mInto = new QLineEdit(live.ref.table + QStringLiteral("_v2"), this);
    mInto->setObjectName(QStringLiteral("into"));
    mInto->setAccessibleName(tr("New table"));
    mExpected = new QDoubleSpinBox(this);
    mExpected->setObjectName(QStringLiteral("expectedNames"));
    mExpected->setAccessibleName(tr("Expected names"));
    mExpected->setRange(1, 1e11);
    mExpected->setDecimals(0);
    mExpected->setGroupSeparatorShown(true);
    mExpected->setValue(qMax(1000.0, estimatedNames * 2));
    mTarget = new QDoubleSpinBox(this);
    mTarget->setObjectName(QStringLiteral("targetFpr"));
    mTarget->setAccessibleName(tr("Target FPR"));
    mTarget->setSuffix(QStringLiteral(" %"));
    mTarget->setDecimals(3);
    mTarget->setRange(0.001, 50);
    mTarget->setValue(1.0);
    auto *recommendButton = new QPushButton(tr("&Recommend"), this);
    mChunksLog2 = new Log2SpinBox(this);
    mChunksLog2->setObjectName(QStringLiteral("chunksLog2"));
    mChunksLog2->setAccessibleName(tr("Chunks (a power of two)"));
    mChunksLog2->setRange(0, Geometry::MaxChunkLog2);
    mChunksLog2->setPrefix(QStringLiteral("2^"));
    mBitsLog2 = new QSpinBox(this);
    mBitsLog2->setObjectName(QStringLiteral("bitsLog2"));
    mBitsLog2->setAccessibleName(tr("Bits per chunk (a power of two)"));
    mBitsLog2->setRange(Geometry::MinBitsLog2, Geometry::MaxBitsLog2);
    mBitsLog2->setPrefix(QStringLiteral("2^"));
    mK = new QSpinBox(this);
    mK->setObjectName(QStringLiteral("k"));
    mK->setAccessibleName(tr("Bits a name sets (k)"));
    mK->setRange(1, Geometry::MaxK);
    mChunksLog2->setValue(live.geometry.chunkLog2() + 1);
    mBitsLog2->setValue(live.geometry.bitsLog2());
    mK->setValue(live.geometry.k());
    mAllowSmaller = new QCheckBox(this);
    mAllowSmaller->setObjectName(QStringLiteral("allowSmaller"));
    mAllowSmaller->setAccessibleName(tr("Build a smaller filter than the live one"));
    mAllowSmaller->setVisible(false);
    mPublicationOk = new QCheckBox(tr("The subscribers ran the SQL above: rebuild on this publisher"), this);
    mPublicationOk->setObjectName(QStringLiteral("publicationOk"));
    mPublicationOk->setVisible(false);
    mPreview = new QLabel(this);
    mPreview->setObjectName(QStringLiteral("preview"));
    mPreview->setWordWrap(true);
    mStage = new QLabel(this);
    mStage->setObjectName(QStringLiteral("stage"));
    mStage->setWordWrap(true);
    mSubscriberSql = new QPlainTextEdit(this);
    mSubscriberSql->setObjectName(QStringLiteral("subscriberSql"));
    mSubscriberSql->setAccessibleName(tr("What the logical-replication subscribers run"));
    mSubscriberSql->setReadOnly(true);
    mSubscriberSql->setVisible(false);
    mProgress = new QProgressBar(this);
    mProgress->setAccessibleName(tr("Rebuild progress"));
    mProgress->setRange(0, 0);
    mProgress->hide();
    mJob = new OffThread(this);

    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(mFile, 1);
    fileRow->addWidget(browse);
    const auto buddy = [this](const QString &text, QWidget *w) {
        auto *l = new QLabel(text, this);
        l->setBuddy(w);
        return l;
    };
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(buddy(tr("e&xpected names"), mExpected));
    sizeRow->addWidget(mExpected, 1);
    sizeRow->addWidget(buddy(tr("&target FPR"), mTarget));
    sizeRow->addWidget(mTarget);
    sizeRow->addWidget(recommendButton);
    auto *geomRow = new QHBoxLayout;
    geomRow->addWidget(buddy(tr("c&hunks"), mChunksLog2));
    geomRow->addWidget(mChunksLog2);
    geomRow->addWidget(buddy(tr("bits &per chunk"), mBitsLog2));
    geomRow->addWidget(mBitsLog2);
    geomRow->addWidget(buddy(tr("&k"), mK));
    geomRow->addWidget(mK);
    auto *form = new QFormLayout;
    form->addRow(tr("&Shards:"), mSources);
    form->addRow(tr("&Query:"), mQuery);
    form->addRow(buddy(tr("&File:"), mFile), fileRow);
    form->addRow(tr("Sizing:"), sizeRow);
    form->addRow(tr("Geometry:"), geomRow);
    form->addRow(tr("&New table:"), mInto);
    auto *buttons = new QDialogButtonBox(this);
    mStart = buttons->addButton(tr("Start rebuild"), QDialogButtonBox::AcceptRole);
    mCancel = buttons->addButton(QDialogButtonBox::Cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(mPreview);
    layout->addWidget(mAllowSmaller);
    layout->addWidget(mStage);
    layout->addWidget(mSubscriberSql, 1);
    layout->addWidget(mPublicationOk);
    layout->addWidget(mProgress);
    layout->addWidget(buttons);

    connect(recommendButton, &QPushButton::clicked, this, &RebuildDialog::recommend);
    for (QSpinBox *b : {mChunksLog2, mBitsLog2, mK})
        connect(b, &QSpinBox::valueChanged, this, &RebuildDialog::updatePreview);
    connect(mExpected, &QDoubleSpinBox::valueChanged, this, &RebuildDialog::updatePreview);
    connect(mAllowSmaller, &QCheckBox::toggled, this, &RebuildDialog::updatePreview);
    // A message about the input never outlives the input it was about.
    const auto inputChanged = [this] {
        if (!mRunning && mRebuilt.isEmpty())
            mStage->clear();
    };
    connect(mSources, &QPlainTextEdit::textChanged, this, inputChanged);
    connect(mFile, &QLineEdit::textChanged, this, inputChanged);
    connect(mQuery, &QLineEdit::textChanged, this, inputChanged);
    connect(mInto, &QLineEdit::textChanged, this, inputChanged);
    connect(mStart, &QPushButton::clicked, this, [this] {
        if (mRebuilt.isEmpty())
            start();
        else {
            emit swapRequested(mRebuilt);
            accept();
        }
    });
    connect(mCancel, &QPushButton::clicked, this, [this] {
        if (!mRebuilt.isEmpty()) {
            accept();
        } else if (mRunning) {
            mJob->cancel();
            mStage->setText(tr("Cancelling... the live function is being restored and the partial rebuild removed."));
        } else {
            reject();
        }
    });
    // The wizard starts from the live filter (the reference's growth step: twice its chunks, the
    // same chunk size and k); Recommend sizes from the expected names and the target FPR.
    updatePreview();
    theme::fitToScreen(this, QSize(720, 520));
}

RebuildDialog::~RebuildDialog()
{
    // The window went (the application quits): a running rebuild is cancelled and joined here, so its
    // thread never reports to a freed dialog and the live function is put back before we go.
    mJob->cancelAndWait();
}

void RebuildDialog::cancelAndWait()
{
    if (!mRunning)
        return;
    mStage->setText(tr("Cancelling... the live function is being restored and the partial rebuild removed."));
    mJob->cancelAndWait();
}

void RebuildDialog::done(int result)
{
    if (!mRunning) {
        QDialog::done(result);
        return;
    }
    if (mCloseWhenDone)
        return; // cancelling already: it closes once the rebuild has ended
    QMessageBox box(QMessageBox::Question, tr("A rebuild is running"),
                    tr("The rebuild into %1 is still running. Closing the wizard cancels it: the live function "
                       "is restored and the partial rebuild removed (this takes a moment).")
                        .arg(mBuilding),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("closeWhileRebuilding"));
    QPushButton *stop = box.addButton(tr("&Cancel the rebuild and close"), QMessageBox::DestructiveRole);
    QPushButton *keep = box.addButton(tr("&Keep it running"), QMessageBox::RejectRole);
    box.setDefaultButton(keep);
    box.setEscapeButton(keep);
    box.exec();
    if (box.clickedButton() != stop || !mRunning) {
        if (!mRunning) // it ended while the question was up
            QDialog::done(result);
        return;
    }
    mCloseWhenDone = true;
    mCloseResult = result;
    mJob->cancel();
    mStage->setText(tr("Cancelling... the live function is being restored and the partial rebuild removed; the "
                       "wizard closes when that is done."));
    mCancel->setEnabled(false);
}

void RebuildDialog::recommend()
{
    if (auto s = fpr::sizing(mExpected->value(), mTarget->value() / 100.0, mLive.geometry.bitsLog2())) {
        // Never below the live filter's chunks: a smaller filter is a choice made explicitly.
        mChunksLog2->setValue(qMax(s->geometry.chunkLog2(), mLive.geometry.chunkLog2()));
        mBitsLog2->setValue(s->geometry.bitsLog2());
        mK->setValue(s->geometry.k());
    }
    updatePreview();
}

void RebuildDialog::setSources(const QStringList &conninfos, const QString &file)
{
    mSources->setPlainText(conninfos.join(QLatin1Char('\n')));
    mFile->setText(file);
}

QString RebuildDialog::stageText() const
{
    return mStage->text();
}

QString RebuildDialog::subscriberText() const
{
    return mSubscriberSql->toPlainText();
}

QString RebuildDialog::previewText() const
{
    return mPreview->text();
}

void RebuildDialog::updatePreview()
{
    auto g = Geometry::create(mChunksLog2->value(), mBitsLog2->value(), mK->value());
    if (!g) {
        mPreview->setText(g.error().toString());
        mStart->setEnabled(false);
        return;
    }
    const bool smaller = g->totalBits() < mLive.geometry.totalBits();
    mAllowSmaller->setVisible(smaller);
    if (smaller)
        mAllowSmaller->setText(tr("Build a smaller filter than the live one: at today's %L1 names its FPR would be %2 "
                                  "(now %3)")
                                   .arg(QLocale().toString(qRound64(mNames)), oneIn(fpr::blocked(mNames, *g)),
                                        oneIn(fpr::blocked(mNames, mLive.geometry))));
    mStart->setEnabled(!mRunning && mRebuilt.isEmpty() && (!smaller || mAllowSmaller->isChecked()));
    const double expected = mExpected->value();
    mPreview->setText(tr("<b>Now</b>: %1 at %L2 names; at %L3 names it would be %4.<br>"
                         "<b>After</b>: %5 (%6 on disk): %7 at %L2 names, %8 at %L3 names.")
                          .arg(oneIn(fpr::blocked(mNames, mLive.geometry)), QLocale().toString(qRound64(mNames)),
                               QLocale().toString(qRound64(expected)), oneIn(fpr::blocked(expected, mLive.geometry)),
                               g->describe(), formatBytes(g->tableSizeEstimate()), oneIn(fpr::blocked(mNames, *g)),
                               oneIn(fpr::blocked(expected, *g))));
}

RebuildOptions RebuildDialog::options() const
{
    RebuildOptions o;
    o.live = mLive.ref;
    o.intoTable = mInto->text().trimmed();
    o.geometry = *Geometry::create(mChunksLog2->value(), mBitsLog2->value(), mK->value());
    for (const QString &line : mSources->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (auto s = ConnectionSpec::parse(line.trimmed()))
            o.sources.append(*s);
    o.query = mQuery->text().trimmed();
    o.allowSmaller = mAllowSmaller->isChecked();
    o.publicationOk = mPublicationOk->isChecked();
    if (!mFile->text().trimmed().isEmpty())
        o.files = {mFile->text().trimmed()};
    return o;
}

void RebuildDialog::start()
{
    const RebuildOptions o = options();
    if (o.sources.isEmpty() && o.files.isEmpty()) {
        mStage->setText(tr("Give at least one shard or a file of names."));
        return;
    }
    if (auto n = QualifiedName::parse(o.intoTable, tr("New table")); !n) {
        mStage->setText(n.error().message);
        return;
    }
    mRunning = true;
    mBuilding = o.intoTable;
    mStart->setEnabled(false);
    mProgress->show();
    const ConnectionSpec spec = mSpec;
    OffThread *job = mJob;
    mJob->run<Result<RebuildReport>>(
        [spec, o, job]() -> Result<RebuildReport> {
            auto db = Database::open(spec); // this thread's own connection, read-write
            if (!db)
                return db.error();
            job->setConnection((*db)->cancelHandle());
            RebuildOptions locked = o;
            locked.lock.cancel = job->cancelFlag(); // Cancel stops the wait for the lock too
            locked.lock.onWait = [job](const maintenance::LockWait &w) {
                job->post([job, text = w.describe()] {
                    auto *self = static_cast<RebuildDialog *>(job->parent());
                    if (!self->mCloseWhenDone)
                        self->mStage->setText(tr("Waiting for the lock, sign-ups go on: %1").arg(text));
                });
            };
            Rebuilder r(**db, locked);
            r.setCancelFlag(job->cancelFlag());
            r.setProgress([job](const RebuildProgress &p) {
                // Queued to the job, which lives as long as the dialog does and joins this thread first.
                job->post([job, p] {
                    auto *self = static_cast<RebuildDialog *>(job->parent());
                    if (self->mCloseWhenDone)
                        return; // "Cancelling..." stays
                    self->mStage->setText(tr("Stage %1: %L2%3 (%4 s)")
                                              .arg(p.stage, QLocale().toString(p.done),
                                                   p.total ? tr(" of %L1").arg(p.total) : QString(),
                                                   QString::number(p.seconds, 'f', 1)));
                    self->mProgress->setRange(0, p.total > 0 ? 1000 : 0);
                    if (p.total > 0)
                        self->mProgress->setValue(int(1000.0 * double(p.done) / double(p.total)));
                });
            });
            return r.run();
        },
        [this](Result<RebuildReport> r) {
            mRunning = false;
            mProgress->hide();
            mCancel->setEnabled(true);
            if (mCloseWhenDone) {
                mCloseWhenDone = false;
                if (r) // the cancel came too late: the rebuilt pair waits for its swap, and the window says so
                    emit finished(r->newTable);
                QDialog::done(mCloseResult);
                return;
            }
            if (!r) {
                // The same refusal as bloomctl's (the SQL in a box to copy); its --publication-ok is the tick box.
                const bool publication = r.error().consent == QLatin1String("publication-ok");
                mStage->setText(publication ? r.error().message : r.error().toString());
                mSubscriberSql->setPlainText(QStringLiteral("Fix: ") + r.error().fix);
                mSubscriberSql->setVisible(publication);
                mPublicationOk->setVisible(publication || mPublicationOk->isChecked());
                mStart->setEnabled(true);
                return;
            }
            mRebuilt = r->newTable;
            // What comes next: the swap, or closing the wizard (the rebuilt pair waits).
            mStart->setText(tr("Swap now..."));
            mStart->setEnabled(true);
            mCancel->setText(tr("Close"));
            mStage->setText(
                tr("Rebuilt %1: %L2 names in %3 s. The live filter records sign-ups until the swap.")
                    .arg(r->newTable, QLocale().toString(r->exported), QString::number(r->totalSeconds, 'f', 1)));
            mSubscriberSql->setPlainText(r->subscriberSteps);
            mSubscriberSql->setVisible(!r->subscriberSteps.isEmpty());
            emit finished(r->newTable);
        });
}

} // namespace bloom
