#include "teach/lessonsview.h"
#include "style/theme.h"

#include "model/fprmodel.h"
#include "teach/bitgridwidget.h"

#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextDocumentFragment>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>
#include <numbers>

namespace bloom {

namespace {

const QColor FalseNegativeColour(0xd9, 0x34, 0x34);
const QColor ModelColour(0x1e, 0x88, 0xc8);
const QColor ClassColour(0xf0, 0x9a, 0x1c);
constexpr double FprFloor = 1e-4;
/** The k the best-k curve chooses from: the filter controls' range. */
constexpr int MaxTheoryK = 12;

QString names(const QList<QByteArray> &list)
{
    QStringList s;
    for (const QByteArray &n : list)
        s << QString::fromUtf8(n).toHtmlEscaped();
    if (s.size() <= 1)
        return s.join(QString());
    const QString last = s.takeLast();
    // "ada and grace", "ada und grace": the joining word is the language's.
    return QCoreApplication::translate("bloom::LessonsView", "%1 and %2").arg(s.join(QStringLiteral(", ")), last);
}

QString percent(double v)
{
    return QStringLiteral("%1%").arg(100.0 * v, 0, 'f', v < 0.01 ? 2 : 1);
}

} // namespace

LessonsView::LessonsView(QWidget *parent)
    : QWidget(parent)
{
    mPicker = new QComboBox(this);
    mPicker->setObjectName(QStringLiteral("lessonPicker"));
    mPicker->setAccessibleName(tr("Lesson"));
    mPicker->addItem(tr("Find a false positive in the class's filter"));
    mPicker->addItem(tr("Delete a name: a plain filter, then a counting one"));
    mPicker->addItem(tr("The theory beside the practice: FPR, the best k, half the bits"));

    // Find a false positive.
    auto *findPage = new QWidget(this);
    mSearch = new QPushButton(tr("&Search candidate names"), findPage);
    mSearch->setObjectName(QStringLiteral("lessonSearch"));
    mCheckIt = new QPushButton(tr("Check it in the &timeline"), findPage);
    mCheckIt->setObjectName(QStringLiteral("lessonCheckIt"));
    mCheckIt->setEnabled(false);
    auto *findRow = new QHBoxLayout(findPage);
    findRow->setContentsMargins(0, 0, 0, 0);
    findRow->addWidget(mSearch);
    findRow->addWidget(mCheckIt);
    findRow->addStretch(1);
    connect(mSearch, &QPushButton::clicked, this, &LessonsView::findFalsePositive);
    connect(mCheckIt, &QPushButton::clicked, this, [this] {
        if (mFound && mFound->found)
            emit checkInTimeline(QString::fromUtf8(mFound->name));
    });

    // Delete a name.
    auto *deletePage = new QWidget(this);
    mVictim = new QComboBox(deletePage);
    mVictim->setObjectName(QStringLiteral("lessonVictim"));
    mVictim->setAccessibleName(tr("The name to delete"));
    mPlain = new QPushButton(tr("&Delete it: zero its bits"), deletePage);
    mPlain->setObjectName(QStringLiteral("lessonDeletePlain"));
    mCounting = new QPushButton(tr("The same in a c&ounting filter"), deletePage);
    mCounting->setObjectName(QStringLiteral("lessonDeleteCounting"));
    auto *deleteRows = new QVBoxLayout(deletePage);
    deleteRows->setContentsMargins(0, 0, 0, 0);
    auto *deleteRow = new QHBoxLayout;
    deleteRows->addLayout(deleteRow);
    deleteRow->addWidget(mVictim);
    deleteRow->addWidget(mPlain);

    // When no two names share a bit (the article's ada and grace) no deletion harms anyone: the lesson
    // offers a name that shares one.
    mShare = new QPushButton(deletePage);
    mShare->setObjectName(QStringLiteral("lessonAddSharing"));
    mShare->setAccessibleName(tr("Add a name that shares a bit"));
    mShare->setVisible(false);
    deleteRow->addStretch(1);
    // A second row: the counting filter and the offered name (one row was wider than a projector in German).
    auto *shareRow = new QHBoxLayout;
    shareRow->addWidget(mCounting);
    shareRow->addWidget(mShare);
    shareRow->addStretch(1);
    deleteRows->addLayout(shareRow);
    connect(mShare, &QPushButton::clicked, this, [this] {
        if (!mSharing.isEmpty())
            emit addInTimeline(QString::fromUtf8(mSharing));
    });
    connect(mPlain, &QPushButton::clicked, this, [this] { deleteName(mVictim->currentText().toUtf8(), false); });
    connect(mCounting, &QPushButton::clicked, this, [this] { deleteName(mVictim->currentText().toUtf8(), true); });

    // The theory.
    auto *theoryPage = new QWidget(this);
    new QVBoxLayout(theoryPage);

    mPages = new QStackedWidget(this);
    mPages->addWidget(findPage);
    mPages->addWidget(deletePage);
    mPages->addWidget(theoryPage);
    mPages->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    connect(mPicker, &QComboBox::currentIndexChanged, this, [this](int i) {
        mPages->setCurrentIndex(i);
        refresh();
    });

    mText = new QLabel(this);
    mText->setObjectName(QStringLiteral("lessonText"));
    mText->setWordWrap(true);
    mText->setTextFormat(Qt::RichText);
    mText->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    mText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mGrid = new BitGridWidget(this);
    mChecks = new QListWidget(this);
    mChecks->setObjectName(QStringLiteral("lessonChecks"));
    mChecks->setAccessibleName(tr("Every other name, checked"));
    mChecks->setWordWrap(true);

    auto *chart = new QChart;
    mModel = new QLineSeries(chart);
    mBest = new QLineSeries(chart);
    mHalf = new QLineSeries(chart);
    mClass = new QScatterSeries(chart);
    const QColor model = theme::seriesColour(ModelColour, palette());
    mModel->setPen(QPen(model, 2));
    mBest->setPen(QPen(model, 1.5, Qt::DashLine));
    mHalf->setPen(QPen(theme::seriesColour(QColor(0x7b, 0x3f, 0xbf), palette()), 1.5, Qt::DotLine));
    mClass->setColor(theme::seriesColour(ClassColour, palette()));
    mClass->setBorderColor(mClass->color());
    mClass->setMarkerSize(12);
    for (QAbstractSeries *s : std::initializer_list<QAbstractSeries *>{mModel, mBest, mHalf, mClass})
        chart->addSeries(s);
    mNAxis = new QValueAxis(chart);
    mNAxis->setTitleText(tr("names added (n)"));
    mNAxis->setLabelFormat(QStringLiteral("%.0f"));
    mFprAxis = new QLogValueAxis(chart);
    mFprAxis->setBase(10);
    mFprAxis->setLabelFormat(QStringLiteral("%g"));
    mFprAxis->setRange(FprFloor, 1);
    mFprAxis->setTitleText(tr("false-positive rate"));
    chart->addAxis(mNAxis, Qt::AlignBottom);
    chart->addAxis(mFprAxis, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(mNAxis);
        s->attachAxis(mFprAxis);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    mChartView = new QChartView(chart, this);
    mChartView->setRenderHint(QPainter::Antialiasing);
    mChartView->setAccessibleName(tr("FPR against names, with the class's filter"));
    mChartView->setMinimumSize(240, 160);
    theme::styleChart(chart, palette());

    auto *body = new QSplitter(this);
    body->addWidget(mGrid);
    body->addWidget(mChecks);
    body->addWidget(mChartView);
    body->setChildrenCollapsible(false);
    body->setStretchFactor(0, 3);
    body->setStretchFactor(1, 2);
    body->setStretchFactor(2, 3);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mPicker);
    layout->addWidget(mPages);
    layout->addWidget(mText);
    layout->addWidget(body, 1);
    refresh();
}

void LessonsView::setFilter(const SandboxFilter &f)
{
    const bool same = mFilter && mFilter->describe() == f.describe() && mFilter->names() == f.names();
    mFilter = f;
    if (!same) {
        mFound.reset();
        mDeletion.reset();
        const QSignalBlocker block(mVictim);
        mVictim->clear();
        const QByteArray worst = lessons::mostHarmfulDeletion(f);
        qsizetype harmed = -1;
        if (!worst.isEmpty())
            if (const auto d = lessons::deleteName(f, worst))
                harmed = d->falseNegatives().size();
        mSharing = harmed == 0 ? lessons::nameSharingABit(f, &mSharingWith, &mSharingBit) : QByteArray();
        mShare->setText(tr("&Add %1 for the class").arg(QString::fromUtf8(mSharing)));
        mShare->setVisible(!mSharing.isEmpty());
        for (const QByteArray &n : f.names())
            mVictim->addItem(QString::fromUtf8(n));
        mVictim->setCurrentText(QString::fromUtf8(worst));
    }
    refresh();
}

void LessonsView::showLesson(Lesson lesson)
{
    mPicker->setCurrentIndex(int(lesson));
}

void LessonsView::setPresentation(bool on)
{
    // The theory's chart needs the width; the grid and the checks share the rest.
    mChartView->chart()->legend()->setVisible(!on || mPicker->currentIndex() == Theory);
}

void LessonsView::findFalsePositive()
{
    if (!mFilter)
        return;
    mFound = lessons::findFalsePositive(*mFilter);
    refresh();
}

void LessonsView::deleteName(const QByteArray &name, bool counting)
{
    if (!mFilter)
        return;
    const QByteArray victim = name.isEmpty() ? lessons::mostHarmfulDeletion(*mFilter) : name;
    auto d = lessons::deleteName(*mFilter, victim);
    if (!d) {
        mText->setText(d.error().toString().toHtmlEscaped());
        return;
    }
    mDeletion = std::move(d).value();
    showDeletion(counting);
}

QString LessonsView::text() const
{
    return QTextDocumentFragment::fromHtml(mText->text()).toPlainText();
}

void LessonsView::refresh()
{
    const int lesson = mPicker->currentIndex();
    mGrid->setVisible(lesson != Theory);
    mChecks->setVisible(lesson == DeleteName);
    mChartView->setVisible(lesson == Theory);
    mGrid->setShowCounts(false);
    if (!mFilter || mFilter->names().isEmpty()) {
        mText->setText(tr("The class's filter is empty: add a few names on the first tab (or play the reference's "
                          "example), then come back."));
        mShown.reset();
        mGrid->setFilter(nullptr);
        mSearch->setEnabled(false);
        mPlain->setEnabled(false);
        mCounting->setEnabled(false);
        mCheckIt->setEnabled(false);
        if (lesson == Theory && mFilter)
            drawTheory();
        return;
    }
    mSearch->setEnabled(true);
    mPlain->setEnabled(true);
    mCounting->setEnabled(true);
    if (lesson == FindFalsePositive) {
        mShown = *mFilter;
        mGrid->setFilter(&*mShown);
        mCheckIt->setEnabled(mFound && mFound->found);
        if (!mFound) {
            mText->setText(tr("%1 names are in the filter. Which name that nobody added does it call \"maybe\"? "
                              "Search tries candidate names (ada, alan, barbara, ... then ada2, ...) and keeps the "
                              "false positive that needs the fewest of the class's names.")
                               .arg(mFilter->names().size()));
            return;
        }
        if (!mFound->found) {
            mText->setText(tr("None of %1 candidate names is a false positive: the filter is still too empty "
                              "(%2 of %3 bits set).")
                               .arg(QString::number(mFound->tried), QString::number(mFilter->setBits()),
                                    QString::number(mFilter->size())));
            return;
        }
        const auto &t = mFound->trace;
        QList<QByteArray> labels;
        for (quint64 pos : t.positions) {
            QByteArray who;
            for (const QByteArray &c : mFound->cover)
                if (who.isEmpty() && mFilter->owners(pos).contains(int(mFilter->names().indexOf(c))))
                    who = c;
            labels << who;
        }
        mGrid->setHighlight(t.positions, t.wasSet, true, labels);
        // One sentence for one name and for several (German: "grace setzt", "ada und grace setzen").
        QString text =
            mFound->cover.size() == 1
                ? tr("<b>%1</b> was never added, yet the filter says <b>maybe</b>: its %2 are all set. It needs only 1 "
                     "of the class's names: <b>%3</b> alone set them all. No false positive needs fewer names, so "
                     "the search stopped there.")
                      .arg(QString::fromUtf8(mFound->name).toHtmlEscaped(), t.where().toHtmlEscaped(),
                           names(mFound->cover))
                : tr("<b>%1</b> was never added, yet the filter says <b>maybe</b>: its %2 are all set. It needs "
                     "only %3 of the class's names together: <b>%4</b>. (%5 of %6 candidates tried are false "
                     "positives: %7.)")
                      .arg(QString::fromUtf8(mFound->name).toHtmlEscaped(), t.where().toHtmlEscaped(),
                           QString::number(mFound->cover.size()), names(mFound->cover),
                           QString::number(mFound->falsePositives), QString::number(mFound->tried),
                           percent(double(mFound->falsePositives) / double(qMax<qsizetype>(1, mFound->tried))));
        if (mFound->cover.size() == 1 && !mFound->together.isEmpty())
            text += tr(" <b>%1</b> is one that names make together: <b>%2</b> (the button checks %3; type %1 on the "
                       "first tab and press Ctrl+Enter to check it).")
                        .arg(QString::fromUtf8(mFound->together).toHtmlEscaped(), names(mFound->togetherCover),
                             QString::fromUtf8(mFound->name).toHtmlEscaped());
        mText->setText(text);
        return;
    }
    if (lesson == DeleteName) {
        if (!mDeletion) {
            mShown = *mFilter;
            mGrid->setFilter(&*mShown);
            mChecks->clear();
            mText->setText(tr("A Bloom filter cannot forget a name: its bits may be another name's too. Pick a name "
                              "(the one whose deletion does the most harm is chosen) and delete it by zeroing its "
                              "bits, then the same in a counting filter, where each bit is a counter.") +
                           sharingHint());
        }
        return;
    }
    drawTheory();
}

QString LessonsView::sharingHint() const
{
    if (mSharing.isEmpty())
        return {};
    return tr(" <b>Here no two names share a bit</b>, so deleting any one of them forgets nobody. Add <b>%1</b>: "
              "it shares bit %2 with %3, and deleting either then makes the other a false negative.")
        .arg(QString::fromUtf8(mSharing).toHtmlEscaped(), QString::number(mSharingBit),
             QString::fromUtf8(mSharingWith).toHtmlEscaped());
}

void LessonsView::showDeletion(bool counting)
{
    const lessons::Deletion &d = *mDeletion;
    mShown = counting ? *d.counting : *d.plain;
    mGrid->setFilter(&*mShown);
    mGrid->setShowCounts(counting);
    QList<bool> was;
    for (qsizetype i = 0; i < d.trace.positions.size(); ++i)
        was << counting;
    mGrid->setHighlight(d.trace.positions, was, true);
    mChecks->clear();
    const QColor red = theme::readable(FalseNegativeColour, mChecks->palette().color(QPalette::Base));
    for (const lessons::Deletion::Other &o : d.others) {
        const bool maybe = counting ? o.countingMaybe : o.plainMaybe;
        QStringList zeroed;
        for (quint64 b : o.zeroed)
            zeroed << QString::number(b);
        auto *item = new QListWidgetItem(
            maybe ? tr("check %1: maybe - still in the filter").arg(QString::fromUtf8(o.name))
                  : tr("check %1: definitely not - a FALSE NEGATIVE: %1 was added, but bit %2 was zeroed with %3's")
                        .arg(QString::fromUtf8(o.name), zeroed.join(QStringLiteral(", ")), QString::fromUtf8(d.name)));
        if (!maybe) {
            item->setForeground(red);
            QFont bold = item->font();
            bold.setBold(true);
            item->setFont(bold);
        }
        mChecks->addItem(item);
    }
    const QList<QByteArray> lost = d.falseNegatives();
    if (counting)
        mText->setText(tr("A counting filter keeps a count in each cell: adding counts up, deleting %1 counts its "
                          "cells down. Every other name still checks <b>maybe</b>; the cost is a counter (4 bits or "
                          "more) where a plain filter has one bit.")
                           .arg(QString::fromUtf8(d.name).toHtmlEscaped()));
    else if (lost.isEmpty())
        mText->setText(tr("%1's bits are zeroed. No other name shared one of them, so this time nobody was "
                          "forgotten - but the filter cannot know that. Try another name, or add more.")
                           .arg(QString::fromUtf8(d.name).toHtmlEscaped()) +
                       sharingHint());
    else
        // A plural form (the verb agrees with the names); without a translator %5 makes "checks" of one name.
        mText->setText(tr("%1's bits (%2) are zeroed. <span style='color:%3'><b>%4 now check%5 \"definitely "
                          "not\"</b></span> though added: a <b>false negative</b>, the one answer a Bloom filter "
                          "must never give.",
                          nullptr, int(lost.size()))
                           .arg(QString::fromUtf8(d.name).toHtmlEscaped(), d.trace.where().toHtmlEscaped(), red.name(),
                                names(lost), lost.size() == 1 ? QStringLiteral("s") : QString()));
}

void LessonsView::drawTheory()
{
    const SandboxFilter &f = *mFilter;
    const double m = double(f.size());
    const int k = f.k();
    const qsizetype n = f.names().size();
    const bool blocked = f.scheme() == SandboxFilter::Scheme::Blocked;
    const double half = m * std::numbers::ln2 / k; // where this k is the best: half the bits set
    const double maxN = std::max({4.0, 2.0 * half, 1.5 * double(n)});
    const theme::NiceAxis x = theme::niceAxis(0, maxN, 4);
    // n is a count of names: the curves join their values at whole numbers.
    QList<QPointF> modelPts, bestPts;
    const qint64 step = qMax<qint64>(1, qint64(x.max) / 120);
    for (qint64 names = step; names <= qint64(x.max); names += step) {
        // One model, the filter's own (the status line's and the Compare tab's too).
        if (const double v = f.modelFpr(names); v >= FprFloor)
            modelPts << QPointF(double(names), v);
        // The best whole k at each n, by the same model: never above any fixed k's curve (rounding
        // (m/n) ln 2 gave k = 4 at m = 16, n = 3, worse than k = 3).
        if (const double v = f.modelFpr(names, f.bestK(names, MaxTheoryK)); v >= FprFloor && !blocked)
            bestPts << QPointF(double(names), v);
    }
    mModel->replace(modelPts);
    mBest->replace(bestPts);
    mHalf->replace(QList<QPointF>{{half, FprFloor}, {half, 1.0}});
    const double measured = f.measuredFpr(20000, 36);
    QList<QPointF> classPts;
    if (n > 0 && measured > 0)
        classPts << QPointF(double(n), qMax(FprFloor, measured));
    mClass->replace(classPts);
    mNAxis->setRange(0, x.max);
    mNAxis->setTickCount(x.tickCount());
    mModel->setName(tr("model, k = %1").arg(k));
    mBest->setName(tr("the best k for each n"));
    mHalf->setName(tr("k = %1 is best here: half the bits set").arg(k));
    mClass->setName(n > 0 ? tr("the class's filter: n = %1, measured %2").arg(QString::number(n), percent(measured))
                          : tr("the class's filter: empty"));
    mBest->setVisible(!blocked);
    const double fill = double(f.setBits()) / m;
    const double expectedFill = 1.0 - std::pow(1.0 - 1.0 / m, double(k) * double(n)); // the exact expectation
    QString s = tr("m = %1 bits, n = %2 names, k = %3.")
                    .arg(QString::number(qint64(m)), QString::number(n), QString::number(k));
    if (n > 0) {
        const double best = fpr::optimalK(m, double(n));
        s += tr(" The best k for these numbers is (m/n)&middot;ln 2 = (%1/%2)&middot;0.693 = <b>%3</b>; the best whole "
                "k, by the model, is <b>%4</b>. ")
                 .arg(QString::number(qint64(m)), QString::number(n), QString::number(best, 'f', 1),
                      QString::number(f.bestK(n, MaxTheoryK)));
    }
    s += tr("With k = %1 the model expects %2 of the bits set (1 - (1 - 1/m)<sup>kn</sup>); this filter has %3 of %4 "
            "(%5). At the best k about half the bits are set: for k = %1 that is at n = m&middot;ln 2 / k = %6 names "
            "(the dotted line).")
             .arg(QString::number(k), percent(expectedFill), QString::number(f.setBits()), QString::number(qint64(m)),
                  percent(fill), QString::number(half, 'f', 1));
    s += n > 0 && measured == 0
             ? tr(" Not one of 20,000 never-added names checked maybe here: the rate is below the chart.")
             : QString();
    mText->setText(s);
}

} // namespace bloom
