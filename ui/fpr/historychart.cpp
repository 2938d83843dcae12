#include "fpr/historychart.h"

#include "model/fprmodel.h"
#include "style/theme.h"

#include <QAreaSeries>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QDateTimeAxis>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSet>
#include <QSpinBox>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace bloom {

namespace {

QString count(double n)
{
    const double a = std::abs(n);
    if (a >= 1e6)
        return QStringLiteral("%1 M").arg(n / 1e6, 0, 'f', a >= 1e8 ? 1 : 2);
    if (a >= 1e4)
        return QStringLiteral("%1 k").arg(n / 1e3, 0, 'f', 1);
    return QLocale().toString(qRound64(n));
}

QString day(const std::optional<QDateTime> &t)
{
    return t ? QLocale().toString(t->toLocalTime().date(), QLocale::ShortFormat) : HistoryChart::tr("no date");
}

/** "%.Nf" with the decimals a tick step needs (0.025: 3), so that no label is rounded. */
QString labelFormat(double step)
{
    int decimals = 0;
    for (double scaled = step; decimals < 6 && std::abs(scaled - std::round(scaled)) > 1e-6 * scaled; scaled *= 10)
        ++decimals;
    return QStringLiteral("%.%1f").arg(decimals);
}

void applyAxis(QValueAxis *axis, const theme::NiceAxis &nice)
{
    axis->setRange(nice.min, nice.max);
    axis->setTickCount(nice.tickCount());
    axis->setLabelFormat(labelFormat(nice.step));
}

QString duration(qint64 seconds)
{
    const auto say = [](qint64 n, const QString &one, const QString &many) {
        return n == 1 ? one : many.arg(QLocale().toString(n));
    };
    if (seconds < 120)
        return say(seconds, HistoryChart::tr("1 second"), HistoryChart::tr("%1 seconds"));
    if (seconds < 2 * 3600)
        return say(seconds / 60, HistoryChart::tr("1 minute"), HistoryChart::tr("%1 minutes"));
    if (seconds < 2 * 86400)
        return say(seconds / 3600, HistoryChart::tr("1 hour"), HistoryChart::tr("%1 hours"));
    return say(seconds / 86400, HistoryChart::tr("1 day"), HistoryChart::tr("%1 days"));
}

QString methodName(forecast::Method m)
{
    return m == forecast::Method::Exponential ? HistoryChart::tr("robust exponential")
                                              : HistoryChart::tr("robust linear");
}

} // namespace

HistoryChart::HistoryChart(QWidget *parent)
    : QWidget(parent)
{
    const QPalette pal = palette();
    mChart = new QChart;
    mNames = new QLineSeries(mChart);
    mNames->setName(tr("estimated names"));
    mNames->setPen(QPen(theme::seriesColour(QColor(0x3d, 0x85, 0xe0), pal), 2));
    mNamePoints = new QScatterSeries(mChart);
    mNamePoints->setName(tr("snapshot"));
    mNamePoints->setMarkerSize(6);
    mNamePoints->setColor(mNames->pen().color());
    mNamePoints->setBorderColor(mNames->pen().color());
    mForecast = new QLineSeries(mChart);
    mForecast->setName(tr("forecast"));
    mForecast->setPen(QPen(theme::seriesColour(QColor(0x3d, 0x85, 0xe0), pal), 2, Qt::DashLine));
    mBandLow = new QLineSeries(mChart);
    mBandHigh = new QLineSeries(mChart);
    mBand = new QAreaSeries(mBandHigh, mBandLow);
    mBand->setName(tr("95% interval"));
    QColor band = theme::seriesColour(QColor(0x3d, 0x85, 0xe0), pal);
    band.setAlpha(60);
    mBand->setBrush(band);
    mBand->setPen(Qt::NoPen);
    mCapacity = new QLineSeries(mChart);
    mCapacity->setName(tr("capacity at the target"));
    mCapacity->setPen(QPen(theme::seriesColour(QColor(0x9b, 0x59, 0xb6), pal), 1.5, Qt::DotLine));
    mFprLine = new QLineSeries(mChart);
    mFprLine->setName(tr("estimated FPR (right)"));
    mFprLine->setPen(QPen(theme::seriesColour(QColor(0x2e, 0xb0, 0x4f), pal), 1.5));
    for (QAbstractSeries *s :
         std::initializer_list<QAbstractSeries *>{mBand, mNames, mNamePoints, mForecast, mCapacity, mFprLine})
        mChart->addSeries(s);
    mTime = new QDateTimeAxis(mChart);
    mTime->setTitleText(tr("time"));
    mTime->setTickCount(5);
    mNamesAxis = new QValueAxis(mChart);
    mNamesAxis->setTitleText(tr("names (millions)"));
    // A value axis counting in a power of ten its title names: over days the FPR moves within one
    // decade, where a log axis has two labels at most.
    mFprAxis = new QValueAxis(mChart);
    mFprAxis->setTitleText(tr("FPR"));
    mChart->addAxis(mTime, Qt::AlignBottom);
    mChart->addAxis(mNamesAxis, Qt::AlignLeft);
    mChart->addAxis(mFprAxis, Qt::AlignRight);
    for (QAbstractSeries *s : mChart->series()) {
        s->attachAxis(mTime);
        s->attachAxis(s == mFprLine ? static_cast<QAbstractAxis *>(mFprAxis) : mNamesAxis);
    }
    mChart->legend()->setAlignment(Qt::AlignBottom);
    // Each entry drawn as its series is (a solid line, the dashed forecast, the band's area): as
    // squares, the names and their forecast were the same blue square.
    mChart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    // The band's two edge series are parts of the area, not entries of their own; the points belong
    // to the names' line; the capacity line has an entry only while it is drawn.
    for (QLegendMarker *m : mChart->legend()->markers())
        if (m->series() == mBandLow || m->series() == mBandHigh || m->series() == mNamePoints ||
            m->series() == mCapacity)
            m->setVisible(false);
    connect(mNamePoints, &QXYSeries::hovered, this, [this](const QPointF &p, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(),
                           tr("%1: about %2 names")
                               .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(qint64(p.x())).toLocalTime(),
                                                       QLocale::ShortFormat),
                                    count(p.y() * mUnit)),
                           mView);
    });
    mView = new QChartView(mChart, this);
    mView->setObjectName(QStringLiteral("historyChart"));
    mView->setAccessibleName(tr("Estimated names and FPR over time, with the forecast"));
    mView->setRenderHint(QPainter::Antialiasing);
    mView->setMinimumHeight(230);
    theme::styleChart(mChart, pal);

    mMethodBox = new QComboBox(this);
    mMethodBox->setObjectName(QStringLiteral("fitMethod"));
    mMethodBox->addItem(tr("robust linear (Theil-Sen)"), int(forecast::Method::Linear));
    mMethodBox->addItem(tr("robust exponential (Theil-Sen on ln names)"), int(forecast::Method::Exponential));
    mMethodBox->setToolTip(tr("The median of the growth between every pair of snapshots: an import or a bad "
                              "snapshot moves it little. The interval is Sen's 95% interval of that median."));
    connect(mMethodBox, &QComboBox::currentIndexChanged, this,
            [this] { setMethod(forecast::Method(mMethodBox->currentData().toInt())); });
    mWindowBox = new QComboBox(this);
    mWindowBox->setObjectName(QStringLiteral("fitWindow"));
    for (const auto &[days, text] : std::initializer_list<std::pair<int, QString>>{{1, tr("the last day")},
                                                                                   {7, tr("the last 7 days")},
                                                                                   {30, tr("the last 30 days")},
                                                                                   {90, tr("the last 90 days")},
                                                                                   {365, tr("the last year")},
                                                                                   {0, tr("all of it")}})
        mWindowBox->addItem(text, days);
    mWindowBox->setCurrentIndex(2);
    connect(mWindowBox, &QComboBox::currentIndexChanged, this,
            [this] { setWindowDays(mWindowBox->currentData().toInt()); });
    mHorizonBox = new QSpinBox(this);
    mHorizonBox->setObjectName(QStringLiteral("horizonMonths"));
    mHorizonBox->setRange(1, 120);
    mHorizonBox->setValue(mHorizonMonths);
    mHorizonBox->setSuffix(tr(" months"));
    connect(mHorizonBox, &QSpinBox::valueChanged, this, &HistoryChart::setHorizonMonths);

    auto *methodLabel = new QLabel(tr("F&it:"), this);
    methodLabel->setBuddy(mMethodBox);
    auto *windowLabel = new QLabel(tr("&over:"), this);
    windowLabel->setBuddy(mWindowBox);
    auto *horizonLabel = new QLabel(tr("Size for the &next:"), this);
    horizonLabel->setBuddy(mHorizonBox);
    auto *controls = new QHBoxLayout;
    controls->addWidget(methodLabel);
    controls->addWidget(mMethodBox);
    controls->addWidget(windowLabel);
    controls->addWidget(mWindowBox);
    controls->addSpacing(12);
    controls->addWidget(horizonLabel);
    controls->addWidget(mHorizonBox);
    controls->addStretch(1);

    const auto label = [this](const char *name) {
        auto *l = new QLabel(this);
        l->setObjectName(QLatin1String(name));
        l->setWordWrap(true);
        l->setTextFormat(Qt::PlainText); // the history's errors are the server's words
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return l;
    };
    mSource = label("historySource");
    mForecastLabel = label("forecast");
    mRecommendation = label("recommendation");
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(mSource);
    layout->addWidget(mForecastLabel);
    layout->addWidget(mRecommendation);
    layout->addWidget(mView, 1);
    replot();
}

void HistoryChart::setFilter(const Geometry &g, double target)
{
    mGeometry = g;
    mTarget = target;
    replot();
}

void HistoryChart::clear()
{
    mSnapshots.clear();
    mRefreshes.clear();
    mNote.clear();
    replot();
}

void HistoryChart::setSnapshots(const QList<Snapshot> &snapshots)
{
    mSnapshots = snapshots;
    mNote.clear();
    replot();
}

void HistoryChart::appendSnapshots(const QList<Snapshot> &snapshots)
{
    if (snapshots.isEmpty())
        return;
    // Ids grow with each record, times need not (a snapshot recorded with another clock, a planted
    // row): merged by id, ordered by time.
    QSet<qint64> known;
    for (const Snapshot &s : std::as_const(mSnapshots))
        known.insert(s.id);
    for (const Snapshot &s : snapshots)
        if (!known.contains(s.id))
            mSnapshots.append(s);
    std::stable_sort(mSnapshots.begin(), mSnapshots.end(), [](const Snapshot &a, const Snapshot &b) {
        return a.takenAt < b.takenAt || (a.takenAt == b.takenAt && a.id < b.id);
    });
    mNote.clear();
    replot();
}

qint64 HistoryChart::lastId() const
{
    qint64 id = 0;
    for (const Snapshot &s : mSnapshots)
        id = qMax(id, s.id);
    return id;
}

void HistoryChart::setHistoryNote(const QString &note)
{
    mNote = note;
    replot();
}

void HistoryChart::addRefresh(const QDateTime &at, double fpr, double names)
{
    mRefreshes.append({at, fpr, names});
    if (mSnapshots.isEmpty())
        replot();
}

void HistoryChart::setMethod(forecast::Method m)
{
    mMethod = m;
    const int i = mMethodBox->findData(int(m));
    if (i >= 0 && i != mMethodBox->currentIndex())
        mMethodBox->setCurrentIndex(i);
    replot();
}

void HistoryChart::setWindowDays(int days)
{
    mWindowDays = days;
    const int i = mWindowBox->findData(days);
    if (i >= 0 && i != mWindowBox->currentIndex())
        mWindowBox->setCurrentIndex(i);
    replot();
}

void HistoryChart::setHorizonMonths(int months)
{
    mHorizonMonths = months;
    if (mHorizonBox->value() != months)
        mHorizonBox->setValue(months);
    replot();
}

QList<HistoryChart::Sample> HistoryChart::samples() const
{
    if (mSnapshots.isEmpty())
        return mRefreshes;
    QList<Sample> out;
    out.reserve(mSnapshots.size());
    for (const Snapshot &s : mSnapshots)
        out.append({s.takenAt, s.estimatedFpr, s.estimatedNames});
    return out;
}

QString HistoryChart::sourceText() const
{
    if (!mSnapshots.isEmpty())
        return (mSnapshots.size() == 1
                    ? tr("1 snapshot recorded in bloomscope_history, on %1.")
                    : tr("%L1 snapshots recorded in bloomscope_history, the last %2.").arg(mSnapshots.size()))
            .arg(QLocale().toString(mSnapshots.last().takenAt.toLocalTime(), QLocale::ShortFormat));
    const QString why = mNote.isEmpty() ? tr("No snapshot of this filter is recorded") : mNote;
    return tr("%1: the window's own refreshes are plotted instead. Record snapshots on a schedule "
              "(bloomctl record, a systemd timer or pg_cron; docs/operations.md, 'History and forecast') to see weeks "
              "of it.")
        .arg(why);
}

QString HistoryChart::forecastText() const
{
    if (!mFit) {
        if (mSupport.points == 0 || mSupport.enough())
            return tr("Growth: %1.").arg(mFitWhy.isEmpty() ? tr("nothing to fit yet") : mFitWhy);
        // Too little history: what there is, what a forecast needs, and how to get it (the line above
        // says how to record when nothing is recorded yet).
        const qsizetype n = mSupport.points;
        const QString what = mSnapshots.isEmpty()
                                 ? (n == 1 ? tr("1 refresh of this window") : tr("%L1 refreshes of this window").arg(n))
                                 : (n == 1 ? tr("1 snapshot") : tr("%L1 snapshots").arg(n));
        const QString how =
            mSnapshots.isEmpty()
                ? tr("Record snapshots, as the line above says, or with Admin > Record a snapshot now.")
                : tr("Keep recording (bloomctl record on a schedule, or Admin > Record a snapshot now), or widen "
                     "the window.");
        return tr("No forecast: too little history. The window holds %1 over %2; a forecast needs at least %3 "
                  "over at least %4 (Sen's 95% interval has no ends with fewer than %3 points). %5")
            .arg(what, duration(mSupport.spanSeconds), QString::number(mSupport.neededPoints),
                 duration(mSupport.neededSpanSeconds), how);
    }
    const forecast::Fit &f = *mFit;
    const QString span = tr("%1 fit of %2 points from %3 to %4")
                             .arg(methodName(f.method), QString::number(f.points),
                                  QLocale().toString(f.from.toLocalTime(), QLocale::ShortFormat),
                                  QLocale().toString(f.to.toLocalTime(), QLocale::ShortFormat));
    QString growth;
    if (f.method == forecast::Method::Exponential) {
        const auto pct = [](double slope) { return (std::exp(slope * 86400) - 1) * 100; };
        growth = tr("Growth %1% a day (95%: %2% to %3%), about %4 names a day now")
                     .arg(QString::number(pct(f.slope), 'g', 3), QString::number(pct(f.slopeLow), 'g', 3),
                          QString::number(pct(f.slopeHigh), 'g', 3), count(f.perDay(f.slope)));
    } else {
        growth = tr("Growth %1 names a day (95%: %2 to %3)")
                     .arg(count(f.perDay(f.slope)), count(f.perDay(f.slopeLow)), count(f.perDay(f.slopeHigh)));
    }
    const double cap = fpr::capacity(mGeometry, mTarget);
    const forecast::Crossing c = forecast::crossing(f, cap, f.to);
    const QString target = QStringLiteral("%1%").arg(mTarget * 100, 0, 'g', 3);
    QString when;
    if (c.alreadyCrossed)
        when = tr("The %1 target (capacity %2 names) is already crossed: rebuild with more chunks.")
                   .arg(target, count(cap));
    else if (!c.at)
        when = tr("At this growth the %1 target (capacity %2 names) is not crossed within a century.")
                   .arg(target, count(cap));
    else
        when = tr("The %1 target (capacity %2 names) is crossed around <b>%3</b> (95%: %4 to %5).")
                   .arg(target, count(cap), day(c.at), day(c.earliest),
                        c.latest ? day(c.latest) : tr("not within a century"));
    return tr("%1; %2. %3").arg(growth, span, when);
}

QString HistoryChart::recommendationText() const
{
    if (!mFit)
        return {};
    const forecast::Recommendation r = forecast::recommend(*mFit, mGeometry, mTarget, mFit->to, mHorizonMonths);
    const double fprThere = fpr::blocked(r.names, mGeometry);
    if (fprThere <= mTarget)
        return tr("Sized for the next %1 months: this filter holds up to %2 names (the interval's high end on %3) "
                  "at FPR %4, under the target. No rebuild needed for that long.")
            .arg(QString::number(mHorizonMonths), count(r.names), day(r.at), QString::number(fprThere, 'g', 2));
    if (!r.geometry)
        return tr("Sized for the next %1 months: %2 names is beyond any geometry Bloomscope can make.")
            .arg(QString::number(mHorizonMonths), count(r.names));
    const Geometry &g = *r.geometry;
    return tr("Sized for the next %1 months (up to %2 names on %3, the interval's high end): rebuild into "
              "<b>%4</b>, FPR %5 there: <tt>bloomctl rebuild --chunks %6 --chunk-bits %7 --k %8</tt>")
        .arg(QString::number(mHorizonMonths), count(r.names), day(r.at), g.describe().toHtmlEscaped(),
             QString::number(r.fpr, 'g', 2), QString::number(g.chunks()), QString::number(g.chunkBits()),
             QString::number(g.k()));
}

QString HistoryChart::csv() const
{
    QString out = QStringLiteral("time,estimated_names,estimated_fpr,source\n");
    const QString source = mSnapshots.isEmpty() ? QStringLiteral("refresh") : QStringLiteral("snapshot");
    for (const Sample &s : samples())
        out += QStringLiteral("%1,%2,%3,%4\n")
                   .arg(s.at.toUTC().toString(Qt::ISODateWithMs), QString::number(qRound64(s.names)),
                        QString::number(s.fpr, 'g', 6), source);
    return out;
}

void HistoryChart::replot()
{
    const QList<Sample> all = samples();
    QList<forecast::Point> points;
    for (const Sample &s : all)
        points.append({s.at, s.names});
    mFitWhy.clear();
    mFit = forecast::fit(points, mMethod, qint64(mWindowDays) * 86400, 0.95, &mFitWhy, &mSupport);

    mChart->setTitle(mSnapshots.isEmpty() ? tr("Estimated names and FPR since the window opened")
                                          : tr("Estimated names and FPR, recorded snapshots"));
    mSource->setText(sourceText());
    mForecastLabel->setText(forecastText());
    mRecommendation->setText(recommendationText());
    mRecommendation->setVisible(mFit.has_value());
    // No fit, no forecast: its line and band have no legend entry either.
    for (QAbstractSeries *series : std::initializer_list<QAbstractSeries *>{mForecast, mBand})
        for (QLegendMarker *m : mChart->legend()->markers(series))
            m->setVisible(mFit.has_value());
    if (all.isEmpty()) {
        for (QXYSeries *s : std::initializer_list<QXYSeries *>{mNames, mNamePoints, mFprLine, mForecast, mBandLow,
                                                               mBandHigh, mCapacity})
            s->clear();
        const QDateTime now = QDateTime::currentDateTime();
        mTime->setRange(now.addSecs(-3600), now);
        mNamesAxis->setRange(0, 1);
        mFprAxis->setRange(0, 1);
        return;
    }
    // What is shown: the fit's window (all of it when the window is "all").
    const QDateTime last = all.last().at;
    const QDateTime from = mWindowDays > 0 ? last.addDays(-mWindowDays) : all.first().at;
    QList<Sample> shown;
    for (const Sample &s : all)
        if (s.at >= from)
            shown.append(s);
    const double span = qMax(60.0, double(shown.first().at.secsTo(last)));
    // The forecast runs ahead by the span shown (the history stays most of the picture), or to the
    // crossing when that is near (within three spans and the horizon); the texts give the rest.
    double ahead = 0;
    double cap = fpr::capacity(mGeometry, mTarget);
    if (mFit) {
        const forecast::Crossing crossing = forecast::crossing(*mFit, cap, last);
        const double horizon = double(last.secsTo(last.addMonths(mHorizonMonths)));
        ahead = span;
        if (crossing.at && !crossing.alreadyCrossed) {
            const double until = double(last.secsTo(*crossing.at));
            if (until <= 3 * span)
                ahead = qMax(span * 0.25, until * 1.1);
        }
        ahead = qMin(ahead, horizon);
    }
    const QDateTime end = last.addSecs(qint64(ahead));

    double hiNames = 0, loNames = std::numeric_limits<double>::max(), loFpr = 1, hiFpr = 0;
    for (const Sample &s : shown) {
        hiNames = qMax(hiNames, s.names);
        loNames = qMin(loNames, s.names);
        if (s.fpr > 0) {
            loFpr = qMin(loFpr, s.fpr);
            hiFpr = qMax(hiFpr, s.fpr);
        }
    }
    QList<QPointF> fc, low, high;
    if (mFit && ahead > 0) {
        const int steps = mFit->method == forecast::Method::Exponential ? 40 : 1;
        for (int i = 0; i <= steps; ++i) {
            const QDateTime t = last.addSecs(qint64(ahead * i / steps));
            const double x = double(t.toMSecsSinceEpoch());
            fc.append({x, mFit->namesAt(t)});
            low.append({x, mFit->namesAt(t, mFit->slopeLow)});
            high.append({x, mFit->namesAt(t, mFit->slopeHigh)});
            hiNames = qMax(hiNames, qMax(high.last().y(), fc.last().y()));
            loNames = qMin(loNames, low.last().y());
        }
    }
    // The capacity line only when it is within reach of the chart (else the growth would be a flat line
    // at the bottom); the forecast text gives it either way.
    const bool showCapacity = cap <= hiNames * 1.5;
    if (showCapacity)
        hiNames = qMax(hiNames, cap);
    mUnit = hiNames >= 1e6 ? 1e6 : hiNames >= 1e3 ? 1e3 : 1;
    mNamesAxis->setTitleText(mUnit == 1e6 ? tr("names, M") : mUnit == 1e3 ? tr("names, k") : tr("names"));
    const auto scaled = [this](QList<QPointF> pts) {
        for (QPointF &p : pts)
            p.setY(p.y() / mUnit);
        return pts;
    };
    QList<QPointF> names, fprs;
    for (const Sample &s : shown) {
        names.append({double(s.at.toMSecsSinceEpoch()), s.names / mUnit});
        if (s.fpr > 0)
            fprs.append({double(s.at.toMSecsSinceEpoch()), s.fpr});
    }
    mNames->replace(names);
    mNamePoints->replace(names.size() <= 400 ? names : QList<QPointF>{});
    mFprLine->replace(fprs);
    mForecast->replace(scaled(fc));
    mBandLow->replace(scaled(low));
    mBandHigh->replace(scaled(high));
    const double x0 = double(shown.first().at.toMSecsSinceEpoch()), x1 = double(end.toMSecsSinceEpoch());
    mCapacity->replace(showCapacity ? QList<QPointF>{{x0, cap / mUnit}, {x1, cap / mUnit}} : QList<QPointF>{});
    mCapacity->setName(tr("capacity at %1%").arg(mTarget * 100, 0, 'g', 3));
    if (showCapacity != mCapacityShown) { // no entry for a line that is not drawn
        mCapacityShown = showCapacity;
        for (QLegendMarker *m : mChart->legend()->markers(mCapacity))
            m->setVisible(showCapacity);
    }

    const double pad = qMax((hiNames - loNames) * 0.1, hiNames * 0.01);
    const theme::NiceAxis y = theme::niceAxis(qMax(0.0, loNames - pad) / mUnit, (hiNames + pad) / mUnit, 5);
    applyAxis(mNamesAxis, y);
    if (hiFpr <= 0)
        loFpr = hiFpr = 1e-6;
    const double unit = std::pow(10.0, std::floor(std::log10(hiFpr)));
    QList<QPointF> fprScaled = mFprLine->points();
    for (QPointF &p : fprScaled)
        p.setY(p.y() / unit);
    mFprLine->replace(fprScaled);
    const double fprPad = qMax((hiFpr - loFpr) * 0.2, hiFpr * 0.02);
    const theme::NiceAxis fy = theme::niceAxis(qMax(0.0, loFpr - fprPad) / unit, (hiFpr + fprPad) / unit, 5);
    applyAxis(mFprAxis, fy);
    mFprAxis->setTitleText(unit == 1.0 ? tr("FPR") : tr("FPR, \u00d7 %1").arg(unit, 0, 'g', 1));
    const theme::NiceTimeAxis t = theme::niceTimeAxis(shown.first().at, qMax(end, shown.first().at.addSecs(60)), 5);
    mTime->setFormat(t.format);
    mTime->setRange(t.min, t.max);
    mTime->setTickCount(t.tickCount);
}

} // namespace bloom
