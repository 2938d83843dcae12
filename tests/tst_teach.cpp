#include "local/localcluster.h"
#include "model/fprmodel.h"
#include "model/hash128.h"
#include "model/name.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"
#include "style/statuslabel.h"
#include "style/theme.h"
#include "style/translators.h"
#include "teach/bitgridwidget.h"
#include "teach/compareview.h"
#include "teach/lessons.h"
#include "teach/lessonsview.h"
#include "teach/steppage.h"
#include "teach/teachexport.h"
#include "teach/teachwindow.h"
#include "teach/timelineplayer.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QScreen>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStringDecoder>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTranslator>
#include <QXmlStreamReader>

#include <bit>
#include <functional>
#include <sys/stat.h>
#include <tuple>

using namespace bloom;

namespace {

const QStringList ExampleLines{
    QStringLiteral("add ada: bits 5, 13, 14"), QStringLiteral("add grace: bits 2, 3, 8"),
    QStringLiteral("check ada -> bits 5, 13, 14: all set, and ada was added"),
    QStringLiteral("check alan -> bits 2, 8, 10: bit 10 is 0, definitely not added"),
    QStringLiteral("check bjarne -> bits 3, 5, 8: all set, but bjarne was never added - a false positive: its bits "
                   "were set by ada and grace")};

/** Runs `act` in the pause after the timeline's entry `index` is done (its line just logged, the
 *  next entry not started): the moment the lecture's Enter fell into. */
void inThePauseAfter(TeachWindow &w, qsizetype index, const std::function<void()> &act)
{
    auto *conn = new QMetaObject::Connection;
    *conn = QObject::connect(w.stepPage()->player(), &TimelinePlayer::entryFinished, &w,
                             [conn, index, act](qsizetype done) {
                                 if (done != index)
                                     return;
                                 QObject::disconnect(*conn);
                                 delete conn;
                                 act();
                             });
}

/** What a class does: type a name in the field and press Enter. */
void typeAndEnter(TeachWindow &w, const QString &name)
{
    auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
    QTest::keyClicks(field, name);
    QTest::keyClick(field, Qt::Key_Return);
}

/** Where the tests' pictures go (BLOOMSCOPE_SHOT_DIR), or nowhere. */
void shot(QWidget &w, const QString &name)
{
    const QString dir = qEnvironmentVariable("BLOOMSCOPE_SHOT_DIR");
    if (dir.isEmpty())
        return;
    QString file = name;
    if (!qEnvironmentVariableIsEmpty("BLOOMSCOPE_SHOT_PALETTE"))
        file.replace(QLatin1String(".png"),
                     QLatin1Char('-') + qEnvironmentVariable("BLOOMSCOPE_SHOT_PALETTE") + QLatin1String(".png"));
    if (w.devicePixelRatioF() > 1 && !file.contains(QLatin1String("scale2")))
        file.replace(QLatin1String(".png"), QLatin1String("-scale2.png"));
    QTest::qWait(30);
    QVERIFY(w.grab().save(dir + QLatin1Char('/') + file));
}

/** Every visible control of `w` lies inside the screen, whole: not cut by the window or a parent,
 *  and given at least the size it asks as a minimum. Returns what is not. */
QStringList outside(QWidget &w)
{
    QStringList bad;
    const QRect screen = w.screen()->geometry();
    if (!screen.contains(w.frameGeometry()))
        bad << QStringLiteral("the window %1,%2 %3x%4").arg(w.x()).arg(w.y()).arg(w.width()).arg(w.height());
    for (QWidget *c : w.findChildren<QWidget *>()) {
        if (!c->isVisibleTo(&w) || c->isWindow())
            continue;
        const bool control = qobject_cast<QAbstractButton *>(c) || qobject_cast<QLineEdit *>(c) ||
                             qobject_cast<QComboBox *>(c) || qobject_cast<QAbstractSpinBox *>(c) ||
                             qobject_cast<QLabel *>(c) || qobject_cast<QAbstractSlider *>(c) ||
                             qobject_cast<BitGridWidget *>(c);
        // A spin box's or combo box's own line edit is the box's business.
        const bool inner =
            qobject_cast<QAbstractSpinBox *>(c->parentWidget()) || qobject_cast<QComboBox *>(c->parentWidget());
        if (!control || inner || c->width() == 0)
            continue;
        // Not cut by any parent (a scroll area's viewport included).
        QRect r(c->mapTo(&w, QPoint(0, 0)), c->size());
        QRect visible = r;
        for (QWidget *p = c->parentWidget(); p && p != &w; p = p->parentWidget())
            visible &= QRect(p->mapTo(&w, QPoint(0, 0)), p->size());
        visible &= w.rect();
        const QString what =
            QStringLiteral("%1 '%2'").arg(QString::fromLatin1(c->metaObject()->className()),
                                          c->accessibleName().isEmpty() ? c->objectName() : c->accessibleName());
        if (visible != r)
            bad << QStringLiteral("%1 cut: %2x%3 of %4x%5 shown")
                       .arg(what)
                       .arg(visible.width())
                       .arg(visible.height())
                       .arg(r.width())
                       .arg(r.height());
        else if (auto *label = qobject_cast<QLabel *>(c);
                 label && label->wordWrap() && label->height() < label->heightForWidth(label->width()))
            bad << QStringLiteral("%1 cut: %2 px high, needs %3")
                       .arg(what)
                       .arg(label->height())
                       .arg(label->heightForWidth(label->width()));
        else if (c->width() < c->minimumSizeHint().width() || c->height() < c->minimumSizeHint().height())
            bad << QStringLiteral("%1 squeezed: %2x%3, asks %4x%5")
                       .arg(what)
                       .arg(c->width())
                       .arg(c->height())
                       .arg(c->minimumSizeHint().width())
                       .arg(c->minimumSizeHint().height());
    }
    return bad;
}

} // namespace

/** Teaching mode as a teacher uses it: real widgets under QT_QPA_PLATFORM=offscreen, no database. */
class TestTeach : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // The pictures in the other palette (BLOOMSCOPE_SHOT_PALETTE=dark), as `--palette dark` has it.
        if (!qEnvironmentVariableIsEmpty("BLOOMSCOPE_SHOT_PALETTE"))
            QVERIFY(theme::applyPalette(qEnvironmentVariable("BLOOMSCOPE_SHOT_PALETTE")));
    }

    void referenceExampleStartToFinish()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        QTest::mouseClick(w.findChild<QPushButton *>(QStringLiteral("teachExample")), Qt::LeftButton);
        QVERIFY(w.idle());
        QCOMPARE(w.logLines(),
                 (QStringList{QStringLiteral("add ada: bits 5, 13, 14"), QStringLiteral("add grace: bits 2, 3, 8"),
                              QStringLiteral("check ada -> bits 5, 13, 14: all set, and ada was added"),
                              QStringLiteral("check alan -> bits 2, 8, 10: bit 10 is 0, definitely not added"),
                              QStringLiteral("check bjarne -> bits 3, 5, 8: all set, but bjarne was never added - a "
                                             "false positive: its bits were set by ada and grace")}));
        QCOMPARE(w.falsePositiveRows(), QList<int>{4});
        for (quint64 b = 0; b < 16; ++b)
            QCOMPARE(w.filter().bit(b), QList<quint64>({2, 3, 5, 8, 13, 14}).contains(b));
        QVERIFY(w.hashText().contains(QLatin1String("md5(\"2:bjarne\")")));
        QVERIFY(
            w.findChild<QLabel *>(QStringLiteral("teachVerdict"))->text().contains(QLatin1String("FALSE POSITIVE")));
        // Every bit is drawn and findable.
        for (quint64 b = 0; b < 16; ++b)
            QCOMPARE(w.grid()->bitAt(w.grid()->cellRect(b).center()), qint64(b));
    }

    /** Issue 36, 1: an Enter in the pause between two animated steps lost the next queued step. */
    void enterInThePauseLosesNothing_data()
    {
        QTest::addColumn<int>("pauseAfter");
        QTest::newRow("Enter as 'add ada' appears (lost add grace)") << 1;
        QTest::newRow("Enter after line 2 (lost check ada)") << 2;
        QTest::newRow("Enter after line 4 (lost check bjarne)") << 4;
    }
    void enterInThePauseLosesNothing()
    {
        QFETCH(int, pauseAfter);
        TeachWindow w;
        w.setStepMs(15);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        bool typed = false;
        inThePauseAfter(w, pauseAfter - 1, [&] {
            QCOMPARE(w.logLines().size(), pauseAfter); // the line is there, the next entry not begun
            QCOMPARE(w.stepPage()->player()->phase(), -1);
            typeAndEnter(w, QStringLiteral("linus"));
            typed = true;
        });
        w.playReferenceExample();
        QTRY_VERIFY_WITH_TIMEOUT(typed && w.idle(), 10000);
        QCOMPARE(w.logLines().mid(0, 5), ExampleLines);
        QCOMPARE(w.logLines().size(), 6);
        QVERIFY(w.logLines().at(5).startsWith(QLatin1String("add linus")));
        QCOMPARE(w.falsePositiveRows(), QList<int>{4});
    }

    /** Issue 36, 1: "Play the reference's example" clicked in a pause lost add ada. */
    void exampleInAPauseLosesNothing()
    {
        TeachWindow w;
        w.setStepMs(15);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        bool clicked = false;
        inThePauseAfter(w, 0, [&] {
            // The class's names are discarded only after asking: say yes.
            QTimer::singleShot(0, qApp, [] {
                if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
                    for (QAbstractButton *b : box->buttons())
                        if (b->text().contains(QLatin1String("Discard")))
                            b->click();
            });
            QTest::mouseClick(w.findChild<QPushButton *>(QStringLiteral("teachExample")), Qt::LeftButton);
            clicked = true;
        });
        typeAndEnter(w, QStringLiteral("ken"));
        typeAndEnter(w, QStringLiteral("dennis"));
        QTRY_VERIFY_WITH_TIMEOUT(clicked && w.idle(), 10000);
        QCOMPARE(w.logLines(), ExampleLines);
    }

    /** Issue 36, 1: a class typing 8 names with Enter every 0.6-1.0 s (here scaled to the step) lost one. */
    void aClassTypingEightNamesLosesNone()
    {
        const QStringList names{QStringLiteral("linus"),    QStringLiteral("ken"),    QStringLiteral("dennis"),
                                QStringLiteral("barbara"),  QStringLiteral("edsger"), QStringLiteral("donald"),
                                QStringLiteral("margaret"), QStringLiteral("tony")};
        for (quint32 run = 1; run <= 3; ++run) {
            TeachWindow w;
            w.setStepMs(15); // the lecture's 450 ms step, scaled: Enter every 20-33 ms
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QRandomGenerator rng(run);
            for (const QString &n : names) {
                typeAndEnter(w, n);
                QTest::qWait(20 + int(rng.bounded(14)));
            }
            QTRY_VERIFY_WITH_TIMEOUT(w.idle(), 20000);
            QList<QByteArray> expected;
            for (const QString &n : names)
                expected << n.toUtf8();
            QCOMPARE(w.filter().names(), expected);
            QCOMPARE(w.logLines().size(), 8);
        }
    }

    /** Issue 36, 2: for username_bits Ada is ada: never a false positive of it. */
    void blockedAdaIsAda()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *scheme = w.findChild<QComboBox *>(QStringLiteral("teachScheme"));
        scheme->setFocus();
        QTest::keyClick(scheme, Qt::Key_Down); // blocked
        QCOMPARE(scheme->currentIndex(), 1);
        if (w.filter().scheme() != SandboxFilter::Scheme::Blocked)
            QTest::mouseClick(w.findChild<QPushButton *>(QStringLiteral("teachNew")), Qt::LeftButton);
        QCOMPARE(w.filter().scheme(), SandboxFilter::Scheme::Blocked);
        auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
        field->setFocus();
        typeAndEnter(w, QStringLiteral("ada"));
        for (const QString &n : {QStringLiteral("Ada"), QStringLiteral("ADA")}) {
            QTest::keyClicks(field, n);
            QTest::keyClick(field, Qt::Key_Return, Qt::ControlModifier);
            QTRY_VERIFY(w.idle());
            QVERIFY2(!w.logLines().last().contains(QLatin1String("false positive")), qPrintable(w.logLines().last()));
            QVERIFY2(w.logLines().last().contains(QLatin1String("was added")), qPrintable(w.logLines().last()));
        }
        QVERIFY(w.falsePositiveRows().isEmpty());
    }

    /** Issue 36, 3: a non-ASCII name is lowered as the demo database's lower() lowers it, and the
     *  screen says the offline lowering is approximate. */
    void nonAsciiLoweredAsTheDatabaseDoes()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        auto *scheme = w.findChild<QComboBox *>(QStringLiteral("teachScheme"));
        scheme->setCurrentIndex(1);
        if (w.filter().scheme() != SandboxFilter::Scheme::Blocked)
            w.newFilter();
        w.enqueue(TeachWindow::Action::Add, QStringLiteral("İstanbul"));
        QTRY_VERIFY(w.idle());
        // The demo database (C.UTF-8, libc) lowers İ to i: md5('istanbul').
        const QString digest = Hash128::md5("istanbul").hex();
        QVERIFY2(w.hashText().contains(digest), qPrintable(w.hashText()));
        QVERIFY2(w.hashText().contains(QLatin1String("approximate")), qPrintable(w.hashText()));
    }

    /** Issue 36, 4: m, k and the scheme took effect only after "New empty filter"; focus started on
     *  the scheme combo. */
    void focusStartsInTheNameField()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(field));
        // The first thing typed is a name, not a change of scheme.
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("bjarne"));
        QCOMPARE(field->text(), QStringLiteral("bjarne"));
        QCOMPARE(w.findChild<QComboBox *>(QStringLiteral("teachScheme"))->currentIndex(), 0);
    }

    /** Issue 36, 4: m = 32, k = 4 typed into the spin boxes, then linus added: the filter is that filter. */
    void sizeAndKTakeEffectAtOnce()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
        // m = 32, k = 4 typed into the spin boxes: the filter is that filter at once.
        auto *m = w.findChild<QSpinBox *>(QStringLiteral("teachBits"));
        auto *k = w.findChild<QSpinBox *>(QStringLiteral("teachK"));
        QVERIFY(m && k);
        m->setFocus();
        QTest::keyClick(m, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(m, QStringLiteral("32"));
        k->setFocus();
        QTest::keyClick(k, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(k, QStringLiteral("4"));
        field->setFocus();
        typeAndEnter(w, QStringLiteral("linus"));
        QTRY_VERIFY(w.idle());
        QCOMPARE(w.filter().size(), quint64(32));
        QCOMPARE(w.filter().k(), 4);
        QVERIFY2(w.hashText().contains(QLatin1String("m=32 bits, k=4")), qPrintable(w.hashText()));
        QVERIFY2(!w.hashText().contains(QLatin1String("m=16")), qPrintable(w.hashText()));
    }

    /** Issue 36, 5: presentation mode (F11) fits the screen - the projector's 1280 x 720 at scale 2 is
     *  640 x 360 (tst_teach_projector) - with every control whole, and the grid legible at m = 64..512. */
    void presentationFitsTheScreen_data()
    {
        QTest::addColumn<QLocale>("language");
        QTest::newRow("English") << QLocale(QLocale::English, QLocale::UnitedStates);
        // Issue 48: German scrolled sideways at 1280 x 720, scale 2, on all three tabs.
        QTest::newRow("German") << QLocale(QLocale::German, QLocale::Germany);
    }

    void presentationFitsTheScreen()
    {
        QFETCH(QLocale, language);
        translators::install(language);
        const auto english = qScopeGuard([] { // the other tests read English: no translator at all
            for (QTranslator *t : qApp->findChildren<QTranslator *>()) {
                QCoreApplication::removeTranslator(t);
                delete t;
            }
        });
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect screen = w.screen()->availableGeometry();
        qInfo("screen %dx%d (device pixel ratio %.1f)", screen.width(), screen.height(), w.devicePixelRatioF());
        // The first size fits the screen, presentation or not.
        QVERIFY2(screen.contains(w.frameGeometry()),
                 qPrintable(QStringLiteral("%1x%2").arg(w.width()).arg(w.height())));
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        QTest::keyClick(&w, Qt::Key_F11);
        QVERIFY(w.presentation());
        QTRY_COMPARE(w.geometry(), w.screen()->geometry());
        QTest::qWait(50);
        const QString scale = language.language() == QLocale::German ? QStringLiteral("-de") : QString();
        shot(w, QStringLiteral("presentation%1.png").arg(scale));
        QStringList bad = outside(w);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
        QVERIFY2(w.hashText().contains(QLatin1String("mod 16 = 8")), qPrintable(w.hashText()));
        // Each tab, whole.
        for (int tab : {2, 3}) {
            QTest::keyClick(&w, Qt::Key(Qt::Key_0 + tab), Qt::ControlModifier);
            QCOMPARE(w.findChild<QTabWidget *>()->currentIndex(), tab - 1);
            if (tab == 3)
                w.lessonsView()->findFalsePositive();
            QTest::qWait(50);
            shot(w, QStringLiteral("presentation-tab%1%2.png").arg(tab).arg(scale));
            bad = outside(w);
            QVERIFY2(bad.isEmpty(), qPrintable(QStringLiteral("tab %1: ").arg(tab) + bad.join(QStringLiteral("; "))));
        }
        QTest::keyClick(&w, Qt::Key_1, Qt::ControlModifier);
        // The grid at m = 64 .. 512: every bit drawn inside the grid, at least 7 px, each one numbered
        // (in its cell, or by the ruler and the row's caption).
        for (int m : {64, 128, 256, 512}) {
            w.findChild<QSpinBox *>(QStringLiteral("teachBits"))->setValue(m);
            QCOMPARE(w.filter().size(), quint64(m));
            QTest::qWait(20);
            BitGridWidget *g = w.grid();
            QVERIFY2(g->cellSize() >= 7, qPrintable(QStringLiteral("m = %1: %2 px").arg(m).arg(g->cellSize())));
            for (quint64 b : {quint64(0), quint64(m - 1)})
                QVERIFY(g->rect().contains(g->cellRect(b)));
            shot(w, QStringLiteral("presentation-m%1%2.png").arg(m).arg(scale));
        }
        bad = outside(w);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QStringLiteral("; "))));
        // Esc leaves it, and the window is as it was.
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.presentation());
        QTRY_VERIFY(screen.contains(w.frameGeometry()));
    }

    /** The timeline steps back: before grace was added, bjarne is definitely not. By the keys alone. */
    void stepBackThroughTheTimeline()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
        field->setFocus();
        auto *log = w.findChild<QListWidget *>(QStringLiteral("teachLog"));
        TimelinePlayer *p = w.stepPage()->player();
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(field, Qt::Key_PageUp);
        QCOMPARE(p->position(), 1); // after ada, before grace
        QCOMPARE(w.filter().names(), QList<QByteArray>{"ada"});
        QCOMPARE(w.logLines(), ExampleLines.mid(0, 1));
        QVERIFY2(log->item(4)->text().contains(QLatin1String("at this point: bits 3, 8 are 0, definitely not added")),
                 qPrintable(log->item(4)->text()));
        QVERIFY(w.hashText().contains(QLatin1String("add ada")));
        QTest::keyClick(field, Qt::Key_PageDown); // grace
        QCOMPARE(p->position(), 2);
        QVERIFY2(log->item(4)->text().contains(QLatin1String("at this point: maybe (a false positive)")),
                 qPrintable(log->item(4)->text()));
        QTest::keyClick(field, Qt::Key_Home, Qt::AltModifier);
        QCOMPARE(p->position(), 0);
        QCOMPARE(w.filter().setBits(), quint64(0));
        QTest::keyClick(field, Qt::Key_End, Qt::AltModifier);
        QCOMPARE(w.logLines(), ExampleLines);
        // A click on a line shows the filter after it.
        QTest::mouseClick(log->viewport(), Qt::LeftButton, {}, log->visualItemRect(log->item(1)).center());
        QCOMPARE(p->position(), 2);
        QCOMPARE(w.filter().setBits(), quint64(6));
        // Paused, names typed wait in the timeline; Ctrl+P plays them, in order.
        QVERIFY(p->paused());
        field->setFocus();
        typeAndEnter(w, QStringLiteral("linus"));
        QCOMPARE(p->position(), 2);
        QCOMPARE(p->timeline().size(), 6);
        QVERIFY(log->item(5)->text().startsWith(QLatin1String("to come: add linus")));
        QTest::keyClick(field, Qt::Key_P, Qt::ControlModifier);
        QTRY_VERIFY(w.idle());
        QCOMPARE(w.logLines().mid(0, 5), ExampleLines);
        QVERIFY(w.logLines().at(5).startsWith(QLatin1String("add linus")));
    }

    /** bjarne is the false positive whatever the class types and whenever: during a step, in a pause. */
    void anyInterleavingKeepsTheExample()
    {
        for (quint32 run = 1; run <= 3; ++run) {
            TeachWindow w;
            w.setStepMs(10);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.playReferenceExample();
            QRandomGenerator rng(run * 7);
            QList<Timeline::Entry> typed;
            for (int i = 0; i < 5; ++i) {
                QTest::qWait(int(rng.bounded(40)));
                const QString name = QStringLiteral("c%1x%2").arg(run).arg(i);
                auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
                QTest::keyClicks(field, name);
                const bool check = rng.bounded(3) == 0;
                QTest::keyClick(field, Qt::Key_Return, check ? Qt::ControlModifier : Qt::NoModifier);
                typed << Timeline::Entry{check ? Timeline::Action::Check : Timeline::Action::Add, name.toUtf8(),
                                         Timeline::Origin::Class};
            }
            QTRY_VERIFY_WITH_TIMEOUT(w.idle(), 10000);
            const auto &entries = w.stepPage()->player()->timeline().entries();
            QCOMPARE(entries.mid(5), typed);
            QCOMPARE(w.logLines().mid(0, 5), ExampleLines);
            QCOMPARE(w.falsePositiveRows().value(0), 4);
        }
    }

    /** Issue 36, 6: the example does not discard the class's names without asking. */
    void exampleAsksBeforeDiscarding()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        typeAndEnter(w, QStringLiteral("ken"));
        QTimer::singleShot(0, qApp, [] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            QVERIFY2(box->text().contains(QLatin1String("1 entry")), qPrintable(box->text()));
            box->button(QMessageBox::Cancel)->click();
        });
        QTest::mouseClick(w.findChild<QPushButton *>(QStringLiteral("teachExample")), Qt::LeftButton);
        QCOMPARE(w.filter().names(), QList<QByteArray>{"ken"});
        // In presentation mode the button is hidden; its key still asks.
        w.setPresentation(true);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.findChild<QLineEdit *>(QStringLiteral("teachName"))->setFocus();
        bool asked = false;
        QTimer::singleShot(0, qApp, [&asked] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            asked = true;
            box->button(QMessageBox::Cancel)->click();
        });
        QTest::keyClick(w.findChild<QLineEdit *>(QStringLiteral("teachName")), Qt::Key_R, Qt::ControlModifier);
        QVERIFY(asked);
        QCOMPARE(w.filter().names(), QList<QByteArray>{"ken"});
    }

    /** Issue 36, 6: blocked mode numbers bits one way (inside the chunk) in the slices, the log and the
     *  verdict; two hashes on one bit are said; "1 name"; the Chunks control has powers of two only. */
    void oneNumberingAndHonestCounts()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        w.findChild<QComboBox *>(QStringLiteral("teachScheme"))->setCurrentIndex(1);
        auto *chunks = w.findChild<QComboBox *>(QStringLiteral("teachChunks"));
        QVERIFY(chunks);
        for (int i = 0; i < chunks->count(); ++i)
            QVERIFY(std::has_single_bit(unsigned(chunks->itemData(i).toInt())));
        chunks->setCurrentIndex(chunks->findData(2));
        QCOMPARE(w.filter().geometry().chunks(), 2u);
        w.enqueue(TeachWindow::Action::Add, QStringLiteral("ada"));
        QTRY_VERIFY(w.idle());
        const SandboxFilter::Trace t = *w.filter().check("ada");
        QStringList local;
        for (quint64 p : t.positions)
            local << QString::number(p % 64);
        QVERIFY2(w.hashText().contains(QStringLiteral("pick its bits %1").arg(local.join(QStringLiteral(", ")))),
                 qPrintable(w.hashText()));
        QCOMPARE(w.logLines().last(), QStringLiteral("add ada: ") + t.where());
        QVERIFY(t.where().startsWith(QStringLiteral("chunk %1, bits ").arg(t.chunk)));
        QVERIFY(w.stepPage()->statusText().contains(QLatin1String("| 1 name,")));
        // Two of k hashes on one bit: the verdict counts the bits set.
        w.findChild<QComboBox *>(QStringLiteral("teachScheme"))->setCurrentIndex(0);
        w.findChild<QSpinBox *>(QStringLiteral("teachBits"))->setValue(4);
        QByteArray twice;
        for (int i = 0; twice.isEmpty(); ++i) {
            auto f = SandboxFilter::classic(4, 3);
            const auto pos = f->trace("n" + QByteArray::number(i))->shownSorted();
            if (pos.size() == 2)
                twice = "n" + QByteArray::number(i);
        }
        w.enqueue(TeachWindow::Action::Add, QString::fromLatin1(twice));
        QTRY_VERIFY(w.idle());
        const QString verdict = w.findChild<QLabel *>(QStringLiteral("teachVerdict"))->text();
        QVERIFY2(verdict.contains(QLatin1String("2 bits are now 1 - 2 of its 3 hashes chose the same bit")),
                 qPrintable(verdict));
    }

    /** Issue 36, 6: Ctrl+Tab goes round the tabs both ways, and the compare tab's status follows its slider. */
    void tabsByKeyAndCompareStatus()
    {
        TeachWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *tabs = w.findChild<QTabWidget *>();
        for (int expected : {1, 2, 0, 1}) {
            QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &w, Qt::Key_Tab,
                            Qt::ControlModifier);
            QCOMPARE(tabs->currentIndex(), expected);
        }
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tabs->currentIndex(), 0);
        w.showCompare();
        w.compareView()->setNames(600);
        QTRY_VERIFY2(w.findChild<StatusLabel *>()->text().contains(QLatin1String("600 names in each filter")),
                     qPrintable(w.findChild<StatusLabel *>()->text()));
    }

    /** Issue 36, 6: `bloomscope --session FILE` opens the file; a missing one is an error. */
    void sessionFromTheCommandLine()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("class.json"));
        {
            TeachWindow w;
            w.setStepMs(0);
            w.playReferenceExample();
            w.enqueue(TeachWindow::Action::Add, QStringLiteral("linus"));
            QString error;
            QVERIFY2(w.saveSession(session, &error), qPrintable(error));
        }
        const auto run = [&dir](const QStringList &args) {
            QProcess p;
            p.setProcessChannelMode(QProcess::SeparateChannels);
            p.start(QStringLiteral(BLOOMSCOPE_PATH),
                    args + QStringList{QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("s.png"))});
            p.waitForFinished(60000);
            return std::make_tuple(p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                                   QString::fromUtf8(p.readAllStandardError()));
        };
        auto [code, out, err] = run({QStringLiteral("--session"), session});
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QLatin1String("opened the session")) && out.contains(QLatin1String("(6 entries)")),
                 qPrintable(out + err));
        std::tie(code, out, err) = run({QStringLiteral("--session"), dir.filePath(QStringLiteral("missing.json"))});
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(QLatin1String("missing.json")), qPrintable(err));
    }

    /** The lessons on the class's own filter show what core finds (tst_sandbox checks core against brute force). */
    void lessonsOnTheClassFilter()
    {
        TeachWindow w;
        w.setStepMs(0);
        if (!qEnvironmentVariableIsEmpty("BLOOMSCOPE_SHOT_DIR"))
            w.resize(1280, 800); // the README's size
        w.show();
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        for (const char *n : {"linus", "ken", "dennis"})
            w.enqueue(TeachWindow::Action::Add, QString::fromLatin1(n));
        QTRY_VERIFY(w.idle());
        w.showLessons();
        LessonsView *l = w.lessonsView();
        l->showLesson(LessonsView::FindFalsePositive);
        QTest::mouseClick(l->findChild<QPushButton *>(QStringLiteral("lessonSearch")), Qt::LeftButton);
        const auto expected = lessons::findFalsePositive(w.filter());
        QVERIFY(l->found() && l->found()->found);
        QCOMPARE(l->found()->name, expected.name);
        QVERIFY2(l->text().contains(QString::fromUtf8(expected.name) + QStringLiteral(" was never added")),
                 qPrintable(l->text()));
        QVERIFY(l->text().contains(QStringLiteral("needs only %1 of the class's names").arg(expected.cover.size())));
        shot(w, QStringLiteral("lessons-find.png"));
        // Check it in the timeline: the class sees it happen, a false positive.
        QTest::mouseClick(l->findChild<QPushButton *>(QStringLiteral("lessonCheckIt")), Qt::LeftButton);
        QTRY_VERIFY(w.idle());
        QVERIFY(w.logLines().last().contains(QLatin1String("false positive")));
        // Delete a name: the one that does most harm; a false negative in red, none in a counting filter.
        w.showLessons();
        l->showLesson(LessonsView::DeleteName);
        QTest::mouseClick(l->findChild<QPushButton *>(QStringLiteral("lessonDeletePlain")), Qt::LeftButton);
        QVERIFY(l->deletion());
        const QByteArray victim = lessons::mostHarmfulDeletion(w.filter());
        QCOMPARE(l->deletion()->name, victim);
        const QList<QByteArray> lost = l->deletion()->falseNegatives();
        QVERIFY(!lost.isEmpty());
        auto *checks = l->findChild<QListWidget *>(QStringLiteral("lessonChecks"));
        int red = 0;
        for (int i = 0; i < checks->count(); ++i)
            if (checks->item(i)->text().contains(QLatin1String("FALSE NEGATIVE"))) {
                ++red;
                QVERIFY(checks->item(i)->foreground().color().red() > 150);
            }
        QCOMPARE(red, lost.size());
        shot(w, QStringLiteral("lessons-delete-plain.png"));
        QTest::mouseClick(l->findChild<QPushButton *>(QStringLiteral("lessonDeleteCounting")), Qt::LeftButton);
        for (int i = 0; i < checks->count(); ++i)
            QVERIFY(!checks->item(i)->text().contains(QLatin1String("FALSE NEGATIVE")));
        shot(w, QStringLiteral("lessons-delete-counting.png"));
        // The theory: the best k for these numbers.
        l->showLesson(LessonsView::Theory);
        const double best = fpr::optimalK(16, double(w.filter().names().size()));
        QVERIFY2(l->text().contains(QStringLiteral("= %1").arg(best, 0, 'f', 1)), qPrintable(l->text()));
        shot(w, QStringLiteral("lessons-theory.png"));
    }

    /** A slide (SVG, PDF) and the log as a table. */
    void slidesAndTable()
    {
        QTemporaryDir dir;
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        QString error;
        QVERIFY2(w.exportSlide(dir.filePath(QStringLiteral("s.svg")), &error), qPrintable(error));
        QVERIFY2(w.exportSlide(dir.filePath(QStringLiteral("s.pdf")), &error), qPrintable(error));
        QVERIFY2(w.exportLog(dir.filePath(QStringLiteral("log.csv")), &error), qPrintable(error));
        QFile svg(dir.filePath(QStringLiteral("s.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.contains("<svg") && svgText.contains("bjarne"));
        QFile pdf(dir.filePath(QStringLiteral("s.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF"));
        QFile csv(dir.filePath(QStringLiteral("log.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 6);
        QVERIFY(rows[0].startsWith("step,action,name,origin,hashed,chunk,bits,verdict,line"));
        QVERIFY(rows[5].startsWith("5,check,bjarne,example,bjarne,,3 5 8,false positive,"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("missing/s.svg"))));
        QVERIFY(!w.exportLog(dir.filePath(QStringLiteral("missing/log.csv")), &error));
    }

    /** Issue 48, 3: the SVG slide renders outside Qt as in the window. Every text has its own x and y,
     *  each "mod 16 = N" digit sits on its line's baseline right after the line's text, the slide
     *  shows the bits and the timeline position, and rsvg-convert draws the digit where the SVG says. */
    void svgSlideRendersOutsideQt()
    {
        const QString rsvg = QStandardPaths::findExecutable(QStringLiteral("rsvg-convert"));
        QVERIFY2(!rsvg.isEmpty(), "rsvg-convert (librsvg2-bin) is needed");
        QTemporaryDir dir;
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        const QString path = dir.filePath(QStringLiteral("s.svg"));
        QString error;
        QVERIFY2(w.exportSlide(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        struct Text {
            double x = -1, y = -1, size = 0;
            QString family, text;
            bool tspan = false;
        };
        QList<Text> texts;
        QSet<int> setBits, clearBits;
        double width = 0, height = 0;
        QXmlStreamReader xml(&file);
        int inText = 0;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement()) {
                const QXmlStreamAttributes a = xml.attributes();
                const auto num = [&](const char *n) {
                    bool ok = false;
                    const double v = a.value(QLatin1String(n)).toDouble(&ok);
                    return ok ? v : -1.0;
                };
                if (xml.name() == u"svg") {
                    width = num("width");
                    height = num("height");
                } else if (xml.name() == u"text" || xml.name() == u"tspan") {
                    ++inText;
                    Text t{num("x"),         num("y"),
                           num("font-size"), a.value(QLatin1String("font-family")).toString(),
                           QString(),        xml.name() == u"tspan"};
                    if (t.family.isEmpty() && !texts.isEmpty() && inText > 1)
                        t.family = texts.last().family;
                    texts << t;
                } else if (xml.name() == u"rect" && a.hasAttribute(QLatin1String("data-bit"))) {
                    const int b = a.value(QLatin1String("data-bit")).toInt();
                    (a.value(QLatin1String("data-set")) == u"1" ? setBits : clearBits).insert(b);
                }
            } else if (xml.isEndElement() && (xml.name() == u"text" || xml.name() == u"tspan")) {
                --inText;
            } else if (xml.isCharacters() && inText > 0) {
                texts.last().text += xml.text();
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY2(width > 0 && height > 0, "the SVG declares its size in pixels");
        QVERIFY(!texts.isEmpty());
        // Every text placed by its own x and y, in fonts named with fallbacks; the texts of one
        // baseline (in document order) are a line as the window shows it.
        QStringList rows;
        double lastY = -2;
        for (const Text &t : texts) {
            QVERIFY2(t.x >= 0 && t.y >= 0, qPrintable(QStringLiteral("no x or y: ") + t.text));
            QVERIFY2(t.family.contains(QLatin1String(",")), qPrintable(QStringLiteral("no fallback: ") + t.text));
            if (t.y == lastY)
                rows.last() += t.text;
            else
                rows << t.text;
            lastY = t.y;
        }
        // The window's hash lines and verdict, word for word, and the timeline position.
        const StepPage *page = w.stepPage();
        for (const QString &hash : page->hashText().replace(QChar(0xa0), QLatin1Char(' ')).split(QLatin1Char('\n')))
            QVERIFY2(rows.contains(hash), qPrintable(hash + QLatin1String("\n---\n") + rows.join(QLatin1Char('\n'))));
        QCOMPARE(rows.filter(QStringLiteral("step 5 / 5")).size(), 1);
        QCOMPARE(rows.filter(QStringLiteral("bjarne: maybe - a FALSE POSITIVE")).size(), 1);
        // The bits as the grid shows them.
        QCOMPARE(setBits, (QSet<int>{2, 3, 5, 8, 13, 14}));
        QCOMPARE(setBits.size() + clearBits.size(), 16);
        for (int b = 0; b < 16; ++b)
            QCOMPARE(page->filter().bit(quint64(b)), setBits.contains(b));
        // Each digit right after its "mod 16 = ", on the same baseline (both fonts advance 0.6 em).
        QList<Text> digits;
        for (qsizetype i = 1; i < texts.size(); ++i) {
            const Text &before = texts[i - 1], &d = texts[i];
            if (!before.text.endsWith(QLatin1String("mod 16 = ")))
                continue;
            QCOMPARE(d.y, before.y);
            QVERIFY2(qAbs(d.x - (before.x + before.text.size() * 0.6 * before.size)) < 1.0, qPrintable(before.text));
            digits << d;
        }
        QStringList got;
        for (const Text &d : digits)
            got << d.text;
        got.sort();
        QCOMPARE(got, (QStringList{QStringLiteral("3"), QStringLiteral("5"), QStringLiteral("8")}));
        // rsvg-convert draws it at the declared size, with ink where each digit is and none after it.
        const QString png = dir.filePath(QStringLiteral("s.png"));
        QProcess p;
        p.start(rsvg, {QStringLiteral("-o"), png, path});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(qRound(width), qRound(height)));
        const QRgb background = image.pixel(1, 1);
        const auto ink = [&](const QRectF &r) {
            int n = 0;
            for (int y = qMax(0, int(r.top())); y < qMin(image.height(), int(r.bottom())); ++y)
                for (int x = qMax(0, int(r.left())); x < qMin(image.width(), int(r.right())); ++x)
                    n += image.pixel(x, y) != background;
            return n;
        };
        for (const Text &d : digits) {
            const QRectF glyph(d.x, d.y - 0.8 * d.size, 0.6 * d.size * d.text.size(), 0.8 * d.size);
            QVERIFY2(ink(glyph) > 3, qPrintable(d.text));
            QCOMPARE(ink(QRectF(glyph.right() + 2, glyph.top(), 200, glyph.height())), 0);
        }
    }

    /** Issue 36, 2 and 3 against a real server: the sandbox's blocked placement of Ada, ADA and
     *  non-ASCII names equals username_bits of the same geometry, with the server's lower(). */
    void placementAsTheServerPlacesIt()
    {
        LocalCluster cluster;
        auto started = cluster.start();
        if (!started)
            QSKIP(qPrintable(QStringLiteral("no PostgreSQL cluster here: ") + started.error().message));
        const Geometry g = *Geometry::create(3, 6, 3); // the teaching default: 8 chunks x 64 bits
        QVERIFY(cluster.createDatabase(QStringLiteral("teach")).ok());
        auto made = cluster.exec(QStringLiteral("teach"), renderFilterSql(g, QStringLiteral("username_filter"),
                                                                          QStringLiteral("username_bits")));
        QVERIFY2(made.ok(), qPrintable(made.ok() ? QString() : made.error().message));
        PgConn conn(cluster.connectionString(QStringLiteral("teach")));
        QVERIFY(conn.ok());
        auto sandbox = SandboxFilter::blocked(g);
        int approximate = 0;
        for (const QString &name : {QStringLiteral("ada"), QStringLiteral("Ada"), QStringLiteral("ADA"),
                                    QStringLiteral("İstanbul"), QStringLiteral("ΣΊΣΥΦΟΣ"), QStringLiteral("Straße"),
                                    QStringLiteral("ЖЁЛТЫЙ"), QStringLiteral("Ǆemal"), QStringLiteral("ＦＵＬＬ")}) {
            auto row = conn.rows(QStringLiteral("select chunk, array(select i from generate_series(0, 63) i "
                                                "where get_bit(mask, i) = 1)::text from username_bits($1)"),
                                 {name.toUtf8()});
            QVERIFY2(row.ok(), qPrintable(row.ok() ? QString() : row.error().message));
            const auto t = sandbox->trace(name.toUtf8());
            QStringList bits;
            for (quint64 b : t->shownSorted())
                bits << QString::number(b);
            QCOMPARE(row->value(0).value(0).toUInt(), t->chunk);
            QCOMPARE(QString::fromUtf8(row->value(0).value(1)),
                     QStringLiteral("{%1}").arg(bits.join(QLatin1Char(','))));
            approximate += t->lowering == Lowering::Approximate ? 1 : 0;
        }
        QCOMPARE(approximate, 6); // still marked: only the database's own lower() decides
        // Every code point of the Basic Multilingual Plane, lowered by this server and offline.
        QString all;
        QList<char32_t> points;
        for (char32_t c = 0x80; c < 0x10000; ++c)
            if (!QChar::isSurrogate(c) && QChar::category(c) != QChar::Other_NotAssigned) {
                all += QChar(char16_t(c));
                points << c;
            }
        auto lowered = conn.column(QStringLiteral("select lower($1)"), {all.toUtf8()});
        QVERIFY(lowered.ok());
        const QList<uint> server = QString::fromUtf8(lowered->value(0)).toUcs4();
        QCOMPARE(server.size(), points.size());
        int differ = 0;
        QStringList examples;
        for (qsizetype i = 0; i < points.size(); ++i) {
            const QString one(QChar(char16_t(points[i]))); // fromUcs4() would drop a U+FEFF as a byte-order mark
            QStringDecoder decode(QStringDecoder::Utf8,
                                  QStringDecoder::Flag::ConvertInitialBom | QStringDecoder::Flag::Stateless);
            const QList<uint> mine = QString(decode(offlineLower(one.toUtf8()))).toUcs4();
            if (mine.size() != 1 || mine[0] != server[i]) {
                ++differ;
                if (examples.size() < 8)
                    examples << QStringLiteral("U+%1: server U+%2, offline %3")
                                    .arg(uint(points[i]), 4, 16, QLatin1Char('0'))
                                    .arg(server[i], 4, 16, QLatin1Char('0'))
                                    .arg(QString::fromLatin1(offlineLower(one.toUtf8()).toHex()));
            }
        }
        qInfo("lower() of %lld assigned BMP code points: offline and this server (C.UTF-8) differ on %d (%s)",
              static_cast<long long>(points.size()), differ, qPrintable(examples.join(QStringLiteral(", "))));
        QCOMPARE(differ, 0);
        QVERIFY(cluster.stop().ok());
    }

    void eachStepIsAnimated()
    {
        TeachWindow w;
        w.setStepMs(30);
        w.show();
        QSignalSpy idle(&w, &TeachWindow::idleNow);
        QTest::keyClicks(w.findChild<QLineEdit *>(QStringLiteral("teachName")), QStringLiteral("ada"));
        QTest::mouseClick(w.findChild<QPushButton *>(QStringLiteral("teachAdd")), Qt::LeftButton);
        QVERIFY(!w.idle());
        QVERIFY(w.hashText().contains(QLatin1String("md5(\"0:ada\") = 2d0adfba24320bd14abdb38aa02ff6fe")));
        QVERIFY(!w.hashText().contains(QLatin1String("mod 16 = 14"))); // hash first, positions after
        QCOMPARE(w.filter().setBits(), quint64(0));                    // bits are set at their step
        QTRY_VERIFY(w.hashText().contains(QLatin1String("mod 16 = 14")));
        QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 1, 5000);
        QCOMPARE(w.filter().setBits(), quint64(3));
    }

    void enterAddsClearsAndKeepsTheFocus()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
        field->setFocus();
        QTest::keyClicks(field, QStringLiteral("linus"));
        QTest::keyClick(field, Qt::Key_Return);
        QTRY_VERIFY(w.idle());
        QVERIFY(field->text().isEmpty());
        QTRY_COMPARE(w.focusWidget(), field); // the keyboard is back where it was
        QTest::keyClicks(field, QStringLiteral("ken"));
        QTest::keyClick(field, Qt::Key_Return);
        QTRY_VERIFY(w.idle());
        QCOMPARE(w.filter().names(), (QList<QByteArray>{"linus", "ken"})); // never "linusken"
        // Ctrl+Enter checks, and the field empties for the next name too.
        QTest::keyClicks(field, QStringLiteral("ken"));
        QTest::keyClick(field, Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY(w.idle());
        QCOMPARE(w.filter().names().size(), 2);
        QVERIFY(w.logLines().last().startsWith(QLatin1String("check ken")));
        // A refused name stays in the field to be corrected.
        QTest::keyClicks(field, QStringLiteral("   "));
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(field->text(), QStringLiteral("   "));
        field->clear();
        // New empty filter asks before it discards names: Cancel keeps them, Discard clears.
        auto *fresh = w.findChild<QPushButton *>(QStringLiteral("teachNew"));
        const auto answer = [](const QString &button) {
            QTimer::singleShot(0, qApp, [button] {
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                QVERIFY(box);
                QVERIFY(box->text().contains(QLatin1String("2 name")));
                for (QAbstractButton *b : box->buttons())
                    if (b->text() == button)
                        b->click();
            });
        };
        answer(QStringLiteral("Cancel"));
        fresh->click();
        QCOMPARE(w.filter().names().size(), 2);
        answer(QStringLiteral("Discard"));
        fresh->click();
        QVERIFY(w.filter().names().isEmpty());
    }

    void badNamesAreRefusedAndLoseNothing()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.enqueue(TeachWindow::Action::Add, QStringLiteral("ada"));
        w.enqueue(TeachWindow::Action::Add, QStringLiteral("   "));
        QVERIFY(w.findChild<QLabel *>(QStringLiteral("teachVerdict"))->text().contains(QLatin1String("empty")));
        QCOMPARE(w.filter().names(), QList<QByteArray>{"ada"});
    }

    void sessionAndPictureRoundTrip()
    {
        QTemporaryDir dir;
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        w.playReferenceExample();
        w.enqueue(TeachWindow::Action::Add, QStringLiteral("Łukasz"));
        QString error;
        const QString session = dir.filePath(QStringLiteral("class.json"));
        QVERIFY2(w.saveSession(session, &error), qPrintable(error));
        QVERIFY(w.exportPicture(dir.filePath(QStringLiteral("class.png"))));
        QImage png(dir.filePath(QStringLiteral("class.png")));
        QVERIFY(!png.isNull() && png.width() >= 600);

        TeachWindow again;
        again.setStepMs(0);
        QVERIFY2(again.openSession(session, &error), qPrintable(error));
        QCOMPARE(again.filter().names(), w.filter().names());
        QCOMPARE(again.logLines(), w.logLines());
        QCOMPARE(again.falsePositiveRows(), QList<int>{4});
        QVERIFY(again.filter().check("bjarne")->maybe);

        // Saved at an earlier entry, it opens there, paused, with the rest to come.
        w.stepPage()->player()->jumpTo(1);
        QVERIFY2(w.saveSession(session, &error), qPrintable(error));
        TeachWindow middle;
        middle.setStepMs(0);
        QVERIFY2(middle.openSession(session, &error), qPrintable(error));
        QCOMPARE(middle.stepPage()->player()->position(), 1);
        QCOMPARE(middle.stepPage()->player()->timeline().size(), 6);
        QCOMPARE(middle.logLines(), ExampleLines.mid(0, 1));

        QFile bad(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"bloomscope-sandbox-1\", \"scheme\": \"round\"}");
        bad.close();
        QVERIFY(!again.openSession(bad.fileName(), &error));
        QVERIFY2(error.contains(QLatin1String("unknown scheme")), qPrintable(error));
        QCOMPARE(again.filter().names(), (QList<QByteArray>{"ada", "grace", "Łukasz"})); // the open session is kept
    }

    /** Issue 48: Ctrl+E did nothing in the name field (where the keyboard starts: the field took it as
     *  "end of line"), and the path then typed became two names. It exports, and adds nothing. */
    void ctrlEFromTheNameFieldExports()
    {
        QTemporaryDir dir;
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
        field->setFocus();
        QTest::keyClicks(field, QStringLiteral("linus"));
        const QString path = dir.filePath(QStringLiteral("bloom-slide.svg")); // the dialog's own name
        bool dialog = false;
        QTimer poll;
        connect(&poll, &QTimer::timeout, &w, [&] {
            if (auto *d = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
                dialog = true;
                d->setDirectory(QFileInfo(path).absolutePath());
                static_cast<QDialog *>(d)->accept(); // QFileDialog::accept, virtually
            }
        });
        poll.start(50);
        QTest::keyClick(field, Qt::Key_E, Qt::ControlModifier);
        QTRY_VERIFY(dialog);
        QTRY_VERIFY(QFile::exists(path));
        QCOMPARE(w.timelineSize(), 5); // nothing added
        QCOMPARE(field->text(), QStringLiteral("linus"));
        QTRY_COMPARE(w.focusWidget(), field); // the keyboard is back where it was
        // Ctrl+Shift+E (the log) from the field too.
        dialog = false;
        const QString log = dir.filePath(QStringLiteral("bloom-log.csv"));
        disconnect(&poll, nullptr, &w, nullptr);
        connect(&poll, &QTimer::timeout, &w, [&] {
            if (auto *d = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
                dialog = true;
                d->setDirectory(QFileInfo(log).absolutePath());
                static_cast<QDialog *>(d)->accept(); // QFileDialog::accept, virtually
            }
        });
        w.activateWindow(); // offscreen does not give the window back its activation after a dialog
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(field, Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(QFile::exists(log));
        QCOMPARE(w.timelineSize(), 5);
    }

    /** Issue 48: a mistyped entry can go: Ctrl+Z removes the last, Delete on a log line removes that
     *  one; the later entries stay and every verdict is asked again. */
    void removeATimelineEntry()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto *field = w.findChild<QLineEdit *>(QStringLiteral("teachName"));
        field->setFocus();
        QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
        QTRY_COMPARE(w.timelineSize(), 4);
        QCOMPARE(w.logLines(), ExampleLines.mid(0, 4));
        // Delete on grace's line: bjarne's check would now say definitely not, and alan's too.
        w.enqueue(TeachWindow::Action::Check, QStringLiteral("bjarne"));
        QTRY_VERIFY(w.idle());
        auto *log = w.findChild<QListWidget *>(QStringLiteral("teachLog"));
        log->setFocus();
        log->setCurrentRow(1);
        QTest::keyClick(log, Qt::Key_Delete);
        QTRY_COMPARE(w.timelineSize(), 4);
        QTRY_VERIFY(w.idle());
        QCOMPARE(w.filter().names(), QList<QByteArray>{"ada"});
        QVERIFY2(w.logLines().last().startsWith(QLatin1String("check bjarne")) &&
                     w.logLines().last().contains(QLatin1String("definitely not")),
                 qPrintable(w.logLines().join(QLatin1Char('\n'))));
    }

    /** Issue 48: on the article's filter (ada, grace) the false-positive lesson gave barbara with "50.0%"
     *  of 2 candidates, and the deletion lesson showed nothing (their bits do not overlap). Now barbara
     *  is explained as grace's alone, the article's bjarne is named as ada's and grace's together, and
     *  the deletion lesson says why nobody is forgotten and offers a name that shares a bit. */
    void lessonsOnTheArticleFilterSayWhy()
    {
        TeachWindow w;
        w.setStepMs(0);
        if (!qEnvironmentVariableIsEmpty("BLOOMSCOPE_SHOT_DIR"))
            w.resize(1280, 800);
        w.show();
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        w.showLessons();
        LessonsView *l = w.lessonsView();
        l->showLesson(LessonsView::FindFalsePositive);
        QTest::mouseClick(l->findChild<QPushButton *>(QStringLiteral("lessonSearch")), Qt::LeftButton);
        QVERIFY2(l->text().contains(QLatin1String("barbara was never added")) &&
                     l->text().contains(QLatin1String("grace alone set them all")) &&
                     l->text().contains(QLatin1String("bjarne is one that names make together: ada and grace")) &&
                     !l->text().contains(QLatin1String("50.0%")),
                 qPrintable(l->text()));
        shot(w, QStringLiteral("lessons-article-find.png"));
        l->showLesson(LessonsView::DeleteName);
        QVERIFY2(l->text().contains(QLatin1String("Here no two names share a bit")), qPrintable(l->text()));
        shot(w, QStringLiteral("lessons-article-delete.png"));
        auto *share = l->findChild<QPushButton *>(QStringLiteral("lessonAddSharing"));
        QVERIFY(share->isVisible());
        QTest::mouseClick(share, Qt::LeftButton);
        QTRY_VERIFY(w.idle());
        QCOMPARE(w.filter().names().size(), 3);
        w.showLessons();
        l->showLesson(LessonsView::DeleteName);
        QVERIFY(!share->isVisible());
        QTest::mouseClick(l->findChild<QPushButton *>(QStringLiteral("lessonDeletePlain")), Qt::LeftButton);
        QVERIFY(l->deletion() && !l->deletion()->falseNegatives().isEmpty());
    }

    /** Issue 48: one model for the article's filter: the status line said 0.0306 (the approximation),
     *  the theory chart 0.035 (the exact one); now both, the Compare tab and the lessons say the one
     *  exact value, and the best-k curve is never above a fixed k's (at n = 3 it is k = 3's 0.0906). */
    void oneModelOnEveryScreen()
    {
        TeachWindow w;
        w.setStepMs(0);
        if (!qEnvironmentVariableIsEmpty("BLOOMSCOPE_SHOT_DIR"))
            w.resize(1280, 800);
        w.show();
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        const double model = w.filter().modelFpr();
        QCOMPARE(QString::number(model, 'g', 3), QStringLiteral("0.0352"));
        const QString status = w.findChild<StatusLabel *>()->text();
        QVERIFY2(status.contains(QLatin1String("model 0.0352")) && !status.contains(QLatin1String("0.0306")),
                 qPrintable(status));
        shot(w, QStringLiteral("teach-status-model.png"));
        w.showLessons();
        LessonsView *l = w.lessonsView();
        l->showLesson(LessonsView::Theory);
        shot(w, QStringLiteral("lessons-theory-bestk.png"));
        QLineSeries *modelCurve = nullptr, *best = nullptr;
        for (QAbstractSeries *s : l->findChild<QChartView *>()->chart()->series()) {
            if (s->name() == QLatin1String("model, k = 3"))
                modelCurve = qobject_cast<QLineSeries *>(s);
            if (s->name() == QLatin1String("the best k for each n"))
                best = qobject_cast<QLineSeries *>(s);
        }
        QVERIFY(modelCurve && best);
        bool atTwo = false;
        for (const QPointF &p : modelCurve->points())
            if (p.x() == 2) {
                atTwo = true;
                QCOMPARE(p.y(), model);
            }
        QVERIFY(atTwo);
        QVERIFY(!best->points().isEmpty());
        for (const QPointF &p : best->points()) {
            for (int k = 1; k <= 12; ++k)
                QVERIFY2(p.y() <= w.filter().modelFpr(qint64(p.x()), k),
                         qPrintable(QStringLiteral("n = %1: best %2, k = %3: %4")
                                        .arg(p.x())
                                        .arg(p.y())
                                        .arg(k)
                                        .arg(w.filter().modelFpr(qint64(p.x()), k))));
            if (p.x() == 3)
                QCOMPARE(QString::number(p.y(), 'g', 3), QStringLiteral("0.0906"));
        }
        QVERIFY2(l->text().contains(QLatin1String("the best whole k, by the model, is 5")), qPrintable(l->text()));
        // The Compare tab's model is the same source: its classic filter's model at its n.
        w.showCompare();
        const auto r = w.compareView()->rates();
        const int n = w.compareView()->names();
        QCOMPARE(r[1], SandboxFilter::classic(4096, 7)->modelFpr(n));
        QVERIFY2(w.compareView()->summary().contains(QStringLiteral("At n = %1 ").arg(n)),
                 qPrintable(w.compareView()->summary()));
    }

    /** Issue 48: a FIFO as --session (no writer) is refused at once, in the window and on the command
     *  line, with an error that names it; it used to block forever with no window. */
    void aFifoSessionIsRefusedAtOnce()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("class.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        TeachWindow w;
        w.setStepMs(0);
        w.playReferenceExample();
        QTRY_VERIFY(w.idle());
        QElapsedTimer clock;
        clock.start();
        QString error;
        QVERIFY(!w.openSession(fifo, &error));
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(error.contains(QLatin1String("FIFO")) && error.contains(fifo), qPrintable(error));
        QCOMPARE(w.timelineSize(), 5); // the open session is kept
        clock.restart();
        QProcess p;
        p.start(QStringLiteral(BLOOMSCOPE_PATH), {QStringLiteral("--session"), fifo, QStringLiteral("--screenshot"),
                                                  dir.filePath(QStringLiteral("s.png"))});
        const bool finished = p.waitForFinished(10000);
        if (!finished)
            p.kill();
        QVERIFY2(finished, "bloomscope --session FIFO still waits after 10 s");
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QLatin1String("FIFO")), qPrintable(err));
        qInfo("--session FIFO: exit 2 after %lld ms", static_cast<long long>(clock.elapsed()));
    }

    /** Issue 48: the CSV log neutralised as OWASP recommends: a name that starts with = + - @ (or a tab,
     *  a carriage return) is not a live formula; a bare carriage return is quoted. */
    void csvCellsAreNeverFormulas()
    {
        QTemporaryDir dir;
        TeachWindow w;
        w.setStepMs(0);
        w.newFilter();
        const QStringList names{QStringLiteral("=HYPERLINK(\"http://x\")"), QStringLiteral("+1+1"),
                                QStringLiteral("-2+3"), QStringLiteral("@SUM(A1)"), QStringLiteral("a\rb")};
        for (const QString &n : names)
            QVERIFY(w.enqueue(TeachWindow::Action::Add, n));
        QTRY_VERIFY(w.idle());
        QString error;
        const QString path = dir.filePath(QStringLiteral("log.csv"));
        QVERIFY2(w.exportLog(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray csv = f.readAll();
        for (const char *cell :
             {"\"'=HYPERLINK(\"\"http://x\"\")\"", "\"'+1+1\"", "\"'-2+3\"", "\"'@SUM(A1)\"", "\"a\rb\""})
            QVERIFY2(csv.contains(cell), cell);
        // No cell starts a formula: every field after a comma or a line start is quoted or harmless.
        for (const QByteArray &row : csv.split('\n'))
            for (const QByteArray &field : row.split(','))
                QVERIFY2(field.isEmpty() || !QByteArray("=+-@").contains(field.at(0)), field.constData());
        QCOMPARE(teachexport::csvCell(QStringLiteral("\tx")), QStringLiteral("\"'\tx\""));
        QCOMPARE(teachexport::csvCell(QStringLiteral("ada")), QStringLiteral("ada"));
    }

    /** Issue 48: a 1 MiB name or 10,000 combining marks is refused at once (one took 40 s to show,
     *  the other 18 s); the longest name a lecture takes, all combining marks, shows in bounded time. */
    void longNamesAreBounded()
    {
        TeachWindow w;
        w.setStepMs(0);
        w.show();
        w.newFilter();
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!w.enqueue(TeachWindow::Action::Add, QString(1 << 20, QLatin1Char('x'))));
        QVERIFY(!w.enqueue(TeachWindow::Action::Add, QStringLiteral("a") + QString(10000, QChar(0x0301))));
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(w.findChild<QLabel *>(QStringLiteral("teachVerdict"))->text().contains(QLatin1String("at most 256")));
        QCOMPARE(w.timelineSize(), 0);
        clock.restart();
        const QString marks = QStringLiteral("a") + QString(int(SandboxFilter::MaxNameBytes - 1) / 2, QChar(0x0301));
        QVERIFY(w.enqueue(TeachWindow::Action::Add, marks));
        QVERIFY(w.enqueue(TeachWindow::Action::Check, marks));
        QTRY_VERIFY(w.idle());
        w.setPresentation(true);
        QTest::qWait(50);
        w.setPresentation(false);
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(w.timelineSize(), 2);
    }

    void classicAgainstBlockedSideBySide()
    {
        TeachWindow w;
        w.show();
        w.showCompare();
        CompareView *c = w.compareView();
        // Opens where the classic model gives the reference's 0.578%.
        const auto r = c->rates();
        QVERIFY2(qAbs(r[1] - 0.00578) < 0.0003, qPrintable(QString::number(r[1])));
        QVERIFY(r[3] > r[1]); // the blocked model pays for its chunks
        QVERIFY2(qAbs(r[0] - r[1]) < 0.35 * r[1], qPrintable(QString::number(r[0])));
        QVERIFY2(qAbs(r[2] - r[3]) < 0.35 * r[3], qPrintable(QString::number(r[2])));
        c->setNames(600);
        QCOMPARE(c->names(), 600);
        QVERIFY(c->rates()[1] > r[1]);
        QVERIFY(c->summary().contains(QLatin1String("600 names")));
    }
};

QTEST_MAIN(TestTeach)
#include "tst_teach.moc"
