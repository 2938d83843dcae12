#include "admin/rebuilddialog.h"

#include "model/fprmodel.h"

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

namespace bloom {

namespace {

/** Runs `work` on a new thread (which opens its own connection) and `done` back on ctx's thread. */
template<class T> void runOffThread(QObject *ctx, std::function<T()> work, std::function<void(T)> done)
{
    QThread *t = QThread::create([ctx, work = std::move(work), done = std::move(done)]() mutable {
        T result = work();
        QMetaObject::invokeMethod(
            ctx, [done, result] { done(result); }, Qt::QueuedConnection);
    });
    QObject::connect(t, &QThread::finished, t, &QObject::deleteLater);
    t->start();
}

QString oneIn(double p)
{
    return QStringLiteral("%1 (%2)").arg(p, 0, 'g', 3).arg(fpr::oneIn(p));
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
    mQuery = new QLineEdit(QStringLiteral("select username from users"), this);
    mFile = new QLineEdit(this);
    mFile->setPlaceholderText(tr("optional: a file of names, one per line"));
    auto *browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Names"));
        if (!f.isEmpty())
            mFile->setText(f);
    });
    mInto = new QLineEdit(live.ref.table + QStringLiteral("_v2"), this);
    mInto->setObjectName(QStringLiteral("into"));
    mExpected = new QDoubleSpinBox(this);
    mExpected->setRange(1, 1e11);
    mExpected->setDecimals(0);
    mExpected->setGroupSeparatorShown(true);
    mExpected->setValue(qMax(1000.0, estimatedNames * 2));
    mTarget = new QDoubleSpinBox(this);
    mTarget->setSuffix(QStringLiteral(" %"));
    mTarget->setDecimals(3);
    mTarget->setRange(0.001, 50);
    mTarget->setValue(1.0);
    auto *recommendButton = new QPushButton(tr("Recommend"), this);
    mChunksLog2 = new QSpinBox(this);
    mChunksLog2->setRange(0, Geometry::MaxChunkLog2);
    mChunksLog2->setPrefix(QStringLiteral("2^"));
    mBitsLog2 = new QSpinBox(this);
    mBitsLog2->setRange(Geometry::MinBitsLog2, Geometry::MaxBitsLog2);
    mBitsLog2->setPrefix(QStringLiteral("2^"));
    mK = new QSpinBox(this);
    mK->setRange(1, Geometry::MaxK);
    mChunksLog2->setValue(live.geometry.chunkLog2() + 1);
    mBitsLog2->setValue(live.geometry.bitsLog2());
    mK->setValue(live.geometry.k());
    mPreview = new QLabel(this);
    mPreview->setObjectName(QStringLiteral("preview"));
    mPreview->setWordWrap(true);
    mStage = new QLabel(this);
    mStage->setObjectName(QStringLiteral("stage"));
    mProgress = new QProgressBar(this);
    mProgress->setRange(0, 0);
    mProgress->hide();

    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(mFile, 1);
    fileRow->addWidget(browse);
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(new QLabel(tr("expected names"), this));
    sizeRow->addWidget(mExpected, 1);
    sizeRow->addWidget(new QLabel(tr("target FPR"), this));
    sizeRow->addWidget(mTarget);
    sizeRow->addWidget(recommendButton);
    auto *geomRow = new QHBoxLayout;
    geomRow->addWidget(new QLabel(tr("chunks"), this));
    geomRow->addWidget(mChunksLog2);
    geomRow->addWidget(new QLabel(tr("bits per chunk"), this));
    geomRow->addWidget(mBitsLog2);
    geomRow->addWidget(new QLabel(tr("k"), this));
    geomRow->addWidget(mK);
    auto *form = new QFormLayout;
    form->addRow(tr("Shards:"), mSources);
    form->addRow(tr("Query:"), mQuery);
    form->addRow(tr("File:"), fileRow);
    form->addRow(tr("Sizing:"), sizeRow);
    form->addRow(tr("Geometry:"), geomRow);
    form->addRow(tr("New table:"), mInto);
    auto *buttons = new QDialogButtonBox(this);
    mStart = buttons->addButton(tr("Start rebuild"), QDialogButtonBox::AcceptRole);
    mCancel = buttons->addButton(QDialogButtonBox::Cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(mPreview);
    layout->addWidget(mStage);
    layout->addWidget(mProgress);
    layout->addWidget(buttons);

    connect(recommendButton, &QPushButton::clicked, this, &RebuildDialog::recommend);
    for (QSpinBox *b : {mChunksLog2, mBitsLog2, mK})
        connect(b, &QSpinBox::valueChanged, this, &RebuildDialog::updatePreview);
    connect(mExpected, &QDoubleSpinBox::valueChanged, this, &RebuildDialog::updatePreview);
    connect(mStart, &QPushButton::clicked, this, &RebuildDialog::start);
    connect(mCancel, &QPushButton::clicked, this, [this] {
        if (mRunning) {
            mCancelFlag->store(true);
            mStage->setText(tr("Cancelling... the live filter is not touched."));
        } else {
            reject();
        }
    });
    recommend();
    resize(720, 520);
}

RebuildDialog::~RebuildDialog()
{
    mCancelFlag->store(true);
}

void RebuildDialog::recommend()
{
    if (auto s = fpr::sizing(mExpected->value(), mTarget->value() / 100.0, mLive.geometry.bitsLog2())) {
        mChunksLog2->setValue(s->geometry.chunkLog2());
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
    mStart->setEnabled(!mRunning);
    const double expected = mExpected->value();
    mPreview->setText(tr("<b>Now</b>: %1 at %L2 names; at %L3 names it would be %4.<br>"
                         "<b>After</b>: %5 (%6 on disk): %7 at %L2 names, %8 at %L3 names.")
                          .arg(oneIn(fpr::blocked(mNames, mLive.geometry)))
                          .arg(qRound64(mNames))
                          .arg(qRound64(expected))
                          .arg(oneIn(fpr::blocked(expected, mLive.geometry)), g->describe(),
                               formatBytes(g->tableSizeEstimate()), oneIn(fpr::blocked(mNames, *g)),
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
    mRunning = true;
    mStart->setEnabled(false);
    mProgress->show();
    mCancelFlag->store(false);
    const ConnectionSpec spec = mSpec;
    auto cancel = mCancelFlag;
    QPointer<RebuildDialog> self(this);
    runOffThread<Result<RebuildReport>>(
        this,
        [spec, o, cancel, self]() -> Result<RebuildReport> {
            auto db = Database::open(spec); // this thread's own connection, read-write
            if (!db)
                return db.error();
            Rebuilder r(**db, o);
            r.setCancelFlag(cancel.get());
            r.setProgress([self](const RebuildProgress &p) {
                QMetaObject::invokeMethod(
                    self,
                    [self, p] {
                        if (!self)
                            return;
                        self->mStage->setText(tr("Stage %1: %L2%3 (%4 s)")
                                                  .arg(p.stage)
                                                  .arg(p.done)
                                                  .arg(p.total ? tr(" of %L1").arg(p.total) : QString())
                                                  .arg(p.seconds, 0, 'f', 1));
                        self->mProgress->setRange(0, p.total > 0 ? 1000 : 0);
                        if (p.total > 0)
                            self->mProgress->setValue(int(1000.0 * double(p.done) / double(p.total)));
                    },
                    Qt::QueuedConnection);
            });
            return r.run();
        },
        [this](Result<RebuildReport> r) {
            mRunning = false;
            mProgress->hide();
            if (!r) {
                mStage->setText(r.error().toString());
                mStart->setEnabled(true);
                return;
            }
            mRebuilt = r->newTable;
            mStage->setText(tr("Rebuilt %1: %L2 names in %3 s. The live filter records sign-ups until the swap.")
                                .arg(r->newTable)
                                .arg(r->exported)
                                .arg(r->totalSeconds, 0, 'f', 1));
            emit finished(r->newTable);
        });
}

SwapDialog::SwapDialog(const ConnectionSpec &filterSpec, QWidget *parent)
    : QDialog(parent)
    , mSpec(filterSpec)
{
    setWindowTitle(tr("Swap in the rebuilt filter"));
    mComparison = new QLabel(tr("Reading both filters..."), this);
    mComparison->setObjectName(QStringLiteral("comparison"));
    mComparison->setTextFormat(Qt::RichText);
    mResult = new QLabel(this);
    mResult->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(this);
    mSwap = buttons->addButton(tr("Swap in one transaction"), QDialogButtonBox::AcceptRole);
    mSwap->setEnabled(false);
    buttons->addButton(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mComparison);
    layout->addWidget(mResult);
    layout->addWidget(buttons);

    struct Side {
        QString table;
        QString geometry, size;
        double fpr = 0, names = 0;
    };
    struct Compared {
        Error error;
        bool ok = false;
        Side live, next;
    };
    const ConnectionSpec spec = mSpec;
    runOffThread<Compared>(
        this,
        [spec]() {
            Compared c;
            auto db = Database::open(spec);
            if (!db) {
                c.error = db.error();
                return c;
            }
            auto st = Rebuilder::state(**db);
            if (!st || !st->exists || st->stage != QLatin1String("ready")) {
                c.error = st ? makeError(ErrorKind::Usage, tr("There is no finished rebuild to swap in.")) : st.error();
                return c;
            }
            for (auto [ref, side] : {std::pair{FilterRef{st->liveTable, st->liveFunction}, &c.live},
                                     std::pair{FilterRef{st->newTable, st->newFunction}, &c.next}}) {
                FilterStore store(**db, ref);
                if (auto s = store.attach(); !s) {
                    c.error = s.error();
                    return c;
                }
                auto fill = store.fill();
                auto health = store.health();
                if (!fill || !health) {
                    c.error = !fill ? fill.error() : health.error();
                    return c;
                }
                side->table = ref.table;
                side->geometry = store.geometry().describe();
                side->size = formatBytes(quint64(health->totalBytes));
                side->fpr = fill->estimatedFpr();
                side->names = fill->estimatedNames();
            }
            c.ok = true;
            return c;
        },
        [this](Compared c) {
            if (!c.ok) {
                mComparison->setText(c.error.toString().toHtmlEscaped());
                return;
            }
            mNewTable = c.next.table;
            const auto row = [](const QString &what, const QString &a, const QString &b) {
                return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>").arg(what, a, b);
            };
            mComparison->setText(
                QStringLiteral("<table cellspacing=8><tr><td></td><td><b>live (old)</b></td><td><b>rebuilt (new)</b>"
                               "</td></tr>%1%2%3%4%5</table>")
                    .arg(row(tr("table"), c.live.table, c.next.table),
                         row(tr("geometry"), c.live.geometry, c.next.geometry),
                         row(tr("size"), c.live.size, c.next.size),
                         row(tr("estimated FPR"), oneIn(c.live.fpr), oneIn(c.next.fpr)),
                         row(tr("estimated names"), QString::number(qRound64(c.live.names)),
                             QString::number(qRound64(c.next.names)))));
            mSwap->setEnabled(true);
        });

    connect(mSwap, &QPushButton::clicked, this, [this] {
        if (QMessageBox::question(
                this, tr("Swap"),
                tr("Make %1 the live filter now? The old pair is kept under a dated name.").arg(mNewTable)) ==
            QMessageBox::Yes)
            swapNow();
    });
    resize(640, 300);
}

QString SwapDialog::resultText() const
{
    return mResult->text();
}

bool SwapDialog::readyToSwap() const
{
    return mSwap->isEnabled();
}

void SwapDialog::swapNow()
{
    mSwap->setEnabled(false);
    mResult->setText(tr("Swapping..."));
    const ConnectionSpec spec = mSpec;
    const QString table = mNewTable;
    runOffThread<Result<SwapReport>>(
        this,
        [spec, table]() -> Result<SwapReport> {
            auto db = Database::open(spec);
            if (!db)
                return db.error();
            return Rebuilder::swap(**db, table);
        },
        [this](Result<SwapReport> r) {
            if (!r) {
                mResult->setText(r.error().toString());
                return;
            }
            mResult->setText(tr("Swapped. Checks waited %1 ms, adds %2 ms. The old pair is %3.")
                                 .arg(r->exclusiveMs, 0, 'f', 1)
                                 .arg(r->lockMs, 0, 'f', 1)
                                 .arg(r->oldTable));
            emit swapped(*r);
        });
}

QString SwapDialog::comparisonText() const
{
    return mComparison->text();
}

} // namespace bloom
