#include "redis/rediswindow.h"
#include "heatmap/heatmapwidget.h"
#include "style/files.h"
#include "style/shortcuts.h"
#include "style/statuslabel.h"
#include "style/theme.h"

#include "session/sessiontypes.h"

#include <QApplication>
#include <QChartView>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QScatterSeries>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace bloom {

/** One cell per block of 8,192 bits, coloured by its set bits (the scale tops at the fullest). */
class RedisHeatmap : public QWidget {
public:
    explicit RedisHeatmap(QWidget *parent)
        : QWidget(parent)
    {
        setMouseTracking(true);
        setMinimumSize(400, 300);
    }
    void setFill(const RedisFill &f)
    {
        mFill = f;
        mMax = 1;
        for (quint32 v : f.setBits)
            mMax = qMax(mMax, v);
        update();
    }
    quint32 maxSetBits() const { return mMax; }
    /** Columns for the widget's shape, so the cells fill its whole width and height. */
    int columns() const
    {
        const double n = double(qMax<size_t>(1, mFill.setBits.size()));
        const double aspect = double(qMax(1, width() - 8)) / double(qMax(1, height() - 8));
        return qBound(1, int(std::ceil(std::sqrt(n * aspect))), int(n));
    }
    QRect cell(size_t b) const
    {
        const int cols = columns();
        const int rows = int((mFill.setBits.size() + size_t(cols) - 1) / size_t(cols));
        const double cw = double(width() - 8) / cols, ch = double(height() - 8) / qMax(1, rows);
        const int c = int(b % size_t(cols)), r = int(b / size_t(cols));
        return QRect(QPoint(4 + int(c * cw), 4 + int(r * ch)),
                     QPoint(4 + int((c + 1) * cw) - 1, 4 + int((r + 1) * ch) - 1));
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.fillRect(rect(), palette().window());
        for (size_t b = 0; b < mFill.setBits.size(); ++b)
            p.fillRect(cell(b), QColor::fromRgb(fillColour(mFill.setBits[b], mMax)));
    }
    bool event(QEvent *e) override
    {
        if (e->type() == QEvent::ToolTip) {
            const QPoint pos = static_cast<QHelpEvent *>(e)->pos();
            for (size_t b = 0; b < mFill.setBits.size(); ++b)
                if (cell(b).contains(pos)) {
                    const quint64 first = b * mFill.blockBits;
                    QToolTip::showText(
                        static_cast<QHelpEvent *>(e)->globalPos(),
                        RedisWindow::tr("block %1: bits %2-%3, %4 set (%5%)")
                            .arg(QString::number(b), QString::number(first),
                                 QString::number(qMin(first + mFill.blockBits, mFill.bits) - 1),
                                 QString::number(mFill.setBits[b]),
                                 QString::number(100.0 * mFill.setBits[b] / double(mFill.blockBits), 'f', 2)),
                        this);
                    return true;
                }
            QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }

private:
    RedisFill mFill;
    quint32 mMax = 1;
};

namespace {

QString pct(double v)
{
    return QStringLiteral("%1%").arg(v * 100, 0, 'g', 3);
}

} // namespace

RedisWindow::RedisWindow(QWidget *parent)
    : QMainWindow(parent)
{
    qRegisterMetaType<RedisRefresh>();
    qRegisterMetaType<RedisStep>();
    qRegisterMetaType<Error>();
    setWindowTitle(tr("Bloomscope - Redis bitmap filter"));
    mThread.setObjectName(QStringLiteral("bloomscope-redis"));
    mWorker = new RedisWorker;
    mWorker->moveToThread(&mThread);
    connect(&mThread, &QThread::finished, mWorker, &QObject::deleteLater);
    mThread.start();

    mHeatmap = new RedisHeatmap(this);
    mSummary = new QLabel(tr("Connecting..."), this);
    mSummary->setObjectName(QStringLiteral("redisSummary"));
    mSummary->setWordWrap(true);
    mSummary->setTextFormat(Qt::RichText);
    mLegend = new HeatmapLegend(this);
    auto *heatTab = new QWidget(this);
    auto *heatLayout = new QVBoxLayout(heatTab);
    heatLayout->addWidget(mSummary);
    heatLayout->addWidget(mHeatmap, 1);
    heatLayout->addWidget(mLegend);

    auto *chart = new QChart;
    chart->setTitle(tr("False-positive rate against names"));
    mModelLine = new QLineSeries(chart);
    mModelLine->setName(tr("model: the positions JavaScript computes"));
    mModelLine->setPen(QPen(QColor(0xd9, 0x53, 0x4f), 2));
    mTextbookLine = new QLineSeries(chart);
    mTextbookLine->setName(tr("textbook (1 - e^(-kn/m))^k, k = 2"));
    mTextbookLine->setPen(QPen(QColor(0x5e, 0xa1, 0xff), 2, Qt::DashLine));
    mNow = new QScatterSeries(chart);
    mNow->setName(tr("now, from the fill"));
    mNow->setColor(QColor(0xf0, 0x9a, 0x1c));
    mNow->setMarkerSize(12);
    mMeasured = new QScatterSeries(chart);
    mMeasured->setName(tr("measured on never-added names"));
    mMeasured->setColor(QColor(0x2e, 0x9e, 0x4f));
    mMeasured->setMarkerSize(10);
    for (QAbstractSeries *s : std::initializer_list<QAbstractSeries *>{mModelLine, mTextbookLine, mNow, mMeasured})
        chart->addSeries(s);
    mNamesAxis = new QValueAxis(chart);
    mNamesAxis->setTitleText(tr("names"));
    mNamesAxis->setLabelFormat(QStringLiteral("%.0f"));
    mFprAxis = new QLogValueAxis(chart);
    mFprAxis->setBase(10);
    mFprAxis->setRange(1e-7, 1);
    mFprAxis->setLabelFormat(QStringLiteral("%g"));
    mFprAxis->setTitleText(tr("false-positive rate"));
    chart->addAxis(mNamesAxis, Qt::AlignBottom);
    chart->addAxis(mFprAxis, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(mNamesAxis);
        s->attachAxis(mFprAxis);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto *chartView = new QChartView(chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    mFprText = new QLabel(this);
    mFprText->setWordWrap(true);
    auto *sample = new QPushButton(tr("Measure on 20,000 never-added names"), this);
    connect(sample, &QPushButton::clicked, this, [this] {
        QMetaObject::invokeMethod(
            mWorker, [w = mWorker] { w->sample(20000); }, Qt::QueuedConnection);
    });
    auto *fprTab = new QWidget(this);
    auto *fprLayout = new QVBoxLayout(fprTab);
    fprLayout->addWidget(chartView, 1);
    fprLayout->addWidget(mFprText);
    fprLayout->addWidget(sample, 0, Qt::AlignLeft);

    mName = new QLineEdit(QStringLiteral("ada"), this);
    mName->setObjectName(QStringLiteral("redisName"));
    mName->setAccessibleName(tr("Name to step through"));
    mStep = new QLabel(this);
    mStep->setObjectName(QStringLiteral("redisStep"));
    mStep->setTextFormat(Qt::RichText);
    mStep->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    mStep->setWordWrap(true);
    mStep->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *stepTab = new QWidget(this);
    auto *stepLayout = new QVBoxLayout(stepTab);
    stepLayout->addWidget(mName);
    stepLayout->addWidget(mStep, 1);
    connect(mName, &QLineEdit::textChanged, this, [this](const QString &t) {
        mStepped = false;
        const int token = ++mStepToken;
        const QByteArray name = t.toUtf8();
        QMetaObject::invokeMethod(
            mWorker, [w = mWorker, token, name] { w->step(token, name); }, Qt::QueuedConnection);
    });

    mTabs = new QTabWidget(this);
    mTabs->addTab(heatTab, tr("Heatmap"));
    mTabs->addTab(fprTab, tr("FPR"));
    mTabs->addTab(stepTab, tr("Step-through"));
    setCentralWidget(mTabs);
    mStatus = new StatusLabel(QString(), this);
    statusBar()->addWidget(mStatus, 1);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menuFile"));
    file->addAction(tr("Export the heatmap as &PNG..."), this,
                    [this] {
                        const QString path =
                            chooseSaveFile(this, tr("Export the heatmap"), QStringLiteral("redis-heatmap.png"),
                                           tr("PNG images (*.png)"), QStringLiteral("png"));
                        if (!path.isEmpty() && !mHeatmap->grab().save(path, "PNG"))
                            QMessageBox::warning(this, tr("Export"), tr("cannot write %1").arg(path));
                    })
        ->setObjectName(QStringLiteral("actionExportHeatmap"));
    file->addSeparator();
    shortcuts::setStandard(file->addAction(tr("&Close"), this, &QWidget::close), QKeySequence::Close,
                           QKeySequence(Qt::CTRL | Qt::Key_W))
        ->setObjectName(QStringLiteral("actionClose"));
    shortcuts::setStandard(file->addAction(tr("&Quit"), qApp, &QApplication::quit), QKeySequence::Quit,
                           QKeySequence(Qt::CTRL | Qt::Key_Q))
        ->setObjectName(QStringLiteral("actionQuit"));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("menuView"));
    shortcuts::setStandard(view->addAction(tr("&Refresh now"), this,
                                           [this] {
                                               QMetaObject::invokeMethod(
                                                   mWorker, [w = mWorker] { w->refresh(); }, Qt::QueuedConnection);
                                           }),
                           QKeySequence::Refresh, QKeySequence(Qt::Key_F5))
        ->setObjectName(QStringLiteral("actionRefreshNow"));
    view->addSeparator();
    const QStringList names{tr("&Heatmap"), tr("&FPR"), tr("&Step-through")};
    const char *const objects[] = {"actionViewHeatmap", "actionViewFpr", "actionViewStep"};
    for (int i = 0; i < names.size(); ++i)
        view->addAction(names[i], QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)), this,
                        [this, i] { mTabs->setCurrentIndex(i); })
            ->setObjectName(QLatin1String(objects[i]));

    mTimer = new QTimer(this);
    mTimer->setInterval(10000);
    connect(mTimer, &QTimer::timeout, this, [this] {
        QMetaObject::invokeMethod(
            mWorker, [w = mWorker] { w->refresh(); }, Qt::QueuedConnection);
    });

    connect(mWorker, &RedisWorker::opened, this, [this](const QString &where, const QByteArray &key, quint64) {
        mWhere = where;
        mKey = key;
        setWindowTitle(tr("Bloomscope - %1 on %2 (read only)").arg(QString::fromUtf8(key), where));
        mTimer->start();
        const int token = ++mStepToken;
        const QByteArray name = mName->text().toUtf8();
        QMetaObject::invokeMethod(
            mWorker, [w = mWorker, token, name] { w->step(token, name); }, Qt::QueuedConnection);
    });
    connect(mWorker, &RedisWorker::refreshed, this, &RedisWindow::onRefreshed);
    connect(mWorker, &RedisWorker::stepped, this, &RedisWindow::onStepped);
    connect(mWorker, &RedisWorker::sampled, this, [this](qint64 probes, double measured) {
        mMeasured->clear();
        mMeasured->append(mFill.estimatedNames, qMax(1e-7, measured));
        mFprText->setText(mFprText->text() +
                          tr(" Measured: %1 (%2 probes).").arg(pct(measured), QString::number(probes)));
    });
    connect(mWorker, &RedisWorker::failed, this, [this](const QString &what, const Error &e) {
        mStatus->setText(tr("%1: %2").arg(what, e.toString()));
        if (!hasFill()) {
            mSummary->setText(tr("The %1 failed: %2").arg(what, e.toString().toHtmlEscaped()));
            emit failedToStart(e.toString());
        }
    });
    theme::fitToScreen(this, QSize(1280, 800));
}

RedisWindow::~RedisWindow()
{
    mThread.quit();
    mThread.wait();
}

void RedisWindow::openAsked(QWidget *parent)
{
    bool ok = false;
    const QString url = QInputDialog::getText(parent, tr("Redis bitmap filter"),
                                              tr("Redis URL (the password, if any, in REDISCLI_AUTH):"),
                                              QLineEdit::Normal, QStringLiteral("redis://127.0.0.1:6379/0"), &ok);
    if (!ok)
        return;
    auto target = RedisTarget::parse(url);
    if (!target) {
        QMessageBox::warning(parent, tr("Redis bitmap filter"), target.error().toString());
        return;
    }
    auto *w = new RedisWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->open(*target, redisbloom::ReferenceKey, redisbloom::ReferenceBits);
    w->show();
}

void RedisWindow::open(const RedisTarget &target, const QByteArray &key, quint64 bits)
{
    QMetaObject::invokeMethod(
        mWorker, [w = mWorker, target, key, bits] { w->open(target, key, bits); }, Qt::QueuedConnection);
}

void RedisWindow::startDemo(qint64 names)
{
    mSummary->setText(tr("Starting a private redis-server and adding %L1 demo names...").arg(names));
    QMetaObject::invokeMethod(
        mWorker, [w = mWorker, names] { w->startDemo(names); }, Qt::QueuedConnection);
}

bool RedisWindow::showView(const QString &view)
{
    const qsizetype i =
        QStringList{QStringLiteral("heatmap"), QStringLiteral("fpr"), QStringLiteral("step")}.indexOf(view);
    if (i < 0)
        return false;
    mTabs->setCurrentIndex(int(i));
    return true;
}

void RedisWindow::setStepName(const QString &name)
{
    mName->setText(name);
}

QString RedisWindow::summaryText() const
{
    return mSummary->text();
}

QString RedisWindow::stepText() const
{
    return mStep->text();
}

void RedisWindow::onRefreshed(const RedisRefresh &r)
{
    const RedisFill &f = r.fill;
    mFill = f;
    mHeatmap->setFill(f);
    mLegend->setScale(0, mHeatmap->maxSetBits(), quint32(f.blockBits), 2, HeatScale::Absolute);
    const double m = double(f.bits);
    mSummary->setText(
        tr("<b>%1</b> on %2: m = %L3 bits, k = 2, key %L4 bytes. Set: %L5 bits (%6) in %7 blocks of %8 bits, read "
           "with BITCOUNT ranges in %9 ms. About %L10 names.<br><span style='color:@warn@'>sha256 reaches only %L11 "
           "positions</span> (multiples of %12: JavaScript's parseInt makes the hash a double), %13 of them set; "
           "the FPR from the fill is <b>%14</b>, where the textbook formula says %15.")
            .arg(QString::fromUtf8(mKey).toHtmlEscaped(), mWhere.toHtmlEscaped(), QLocale().toString(qint64(f.bits)),
                 QLocale().toString(f.keyBytes), QLocale().toString(qint64(f.totalSet)), pct(double(f.totalSet) / m),
                 QString::number(f.setBits.size()), QString::number(f.blockBits), QString::number(f.elapsedMs),
                 QLocale().toString(qRound64(f.estimatedNames)), QLocale().toString(qint64(f.latticeSize)),
                 QString::number(r.latticeStep), pct(double(f.latticeSet) / double(qMax<quint64>(1, f.latticeSize))),
                 pct(f.estimatedFpr), pct(r.textbookFpr))
            .replace(QLatin1String("@warn@"), theme::textOn(QColor(0xd9, 0x53, 0x4f), palette())));
    mStatus->setText(tr("refreshed %1 UTC (every 10 s)").arg(f.takenAt.toUTC().toString(QStringLiteral("HH:mm:ss"))));
    // The curves come from the worker; the log axis starts at 1e-7.
    const auto floored = [](QList<QPointF> points) {
        for (QPointF &p : points)
            p.setY(qMax(1e-7, p.y()));
        return points;
    };
    mNamesAxis->setRange(0, r.modelCurve.isEmpty() ? 1 : r.modelCurve.last().x());
    mModelLine->replace(floored(r.modelCurve));
    mTextbookLine->replace(floored(r.textbookCurve));
    mNow->clear();
    mNow->append(f.estimatedNames, qMax(1e-7, f.estimatedFpr));
    mFprText->setText(tr("At about %L1 names: from the fill %2, model %3, textbook %4 (%5x lower).")
                          .arg(QLocale().toString(qRound64(f.estimatedNames)), pct(f.estimatedFpr), pct(r.modelFpr),
                               pct(r.textbookFpr),
                               QString::number(r.textbookFpr > 0 ? r.modelFpr / r.textbookFpr : 0, 'f', 0)));
    emit refreshed();
}

void RedisWindow::onStepped(int token, const RedisStep &s)
{
    if (token != mStepToken)
        return;
    const auto &p = s.positions;
    QString fnv;
    const QList<redisbloom::FnvStep> steps = redisbloom::fnvSteps(QString::fromUtf8(s.name));
    for (qsizetype i = 0; i < steps.size() && i < 12; ++i)
        fnv += tr("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                   .arg(QString::number(steps[i].unit), QString::number(steps[i].xored),
                        QString::number(steps[i].product, 'f', 0),
                        steps[i].rounded ? tr("rounded: low bits lost") : tr("exact"));
    const bool maybe = s.shaBit && s.fnvBit;
    mStep->setText(
        tr("<h3>%1</h3><b>1. sha256</b> (UTF-8): <tt>%2</tt><br>parseInt(hex, 16) = <tt>%3</tt> (a double: 53 "
           "significant bits)<br>%3 % %L4 = <b>bit %L5</b> &rarr; GETBIT = %6<br><br><b>2. FNV-1a</b> over %7 "
           "UTF-16 code units, in doubles:<table cellspacing=6><tr><th>charCodeAt</th><th>ToInt32(hash) ^ c</th>"
           "<th>&times; 16777619</th><th></th></tr>%8</table>hash &gt;&gt;&gt; 0 = %L9; % %L4 = <b>bit %L10</b> "
           "&rarr; GETBIT = %11<br><br><b>Verdict: %12</b>")
            .arg(QString::fromUtf8(s.name).toHtmlEscaped(), QString::fromLatin1(p.sha256Hex),
                 QString::number(p.sha256Number, 'g', 17),
                 QLocale().toString(qint64(mFill.bits ? mFill.bits : redisbloom::ReferenceBits)),
                 QLocale().toString(qint64(p.sha256)), QString::number(s.shaBit ? 1 : 0),
                 QString::number(QString::fromUtf8(s.name).size()), fnv, QLocale().toString(qint64(p.fnvUnsigned)),
                 QLocale().toString(qint64(p.fnv)), QString::number(s.fnvBit ? 1 : 0),
                 maybe ? tr("maybe (both bits set)") : tr("definitely free (a bit is 0)")));
    mStepped = true;
    emit stepReady();
}

} // namespace bloom
