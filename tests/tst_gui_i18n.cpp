#include "help/manualwindow.h"
#include "mainwindow.h"
#include "redis/rediswindow.h"
#include "style/shortcuts.h"
#include "style/translators.h"
#include "teach/teachwindow.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QTest>
#include <QTextBrowser>
#include <QTranslator>

#include <map>
#include <memory>
#include <vector>

using namespace bloom;

/** Issue 37, item 7: translations (German whole), standard shortcuts, F1 and the manual. */
class TestGuiI18n : public QObject {
    Q_OBJECT
private slots:
    void testsRunInEnglish();
    void f1OpensTheManual();
    void shortcutsAreUniqueAndStandard();
    void germanWindowsHaveNoEnglishAction();
    void localePicksTheTranslation();

private:
    /** The window an action fires in (the manual's own actions are the manual's). */
    static QWidget *windowOf(QAction *a)
    {
        auto *w = qobject_cast<QWidget *>(a->parent());
        return w ? w->window() : nullptr;
    }
    static void removeTranslators()
    {
        for (QTranslator *t : qApp->findChildren<QTranslator *>(Qt::FindDirectChildrenOnly)) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
    }
};

void TestGuiI18n::testsRunInEnglish()
{
    // ctest runs the GUI tests in the C locale and nothing installs a translator: English stays.
    MainWindow main;
    QCOMPARE(main.findChild<QMenu *>(QStringLiteral("menuFile"))->title(), QStringLiteral("&File"));
}

void TestGuiI18n::f1OpensTheManual()
{
    MainWindow main;
    main.show();
    QVERIFY(QTest::qWaitForWindowExposed(&main));
    QVERIFY(!main.manualWindow());
    QTest::keyClick(&main, Qt::Key_F1);
    QTRY_VERIFY(main.manualWindow() && main.manualWindow()->isVisible());
    ManualWindow *manual = main.manualWindow();
    QVERIFY(QTest::qWaitForWindowExposed(manual));
    QTextBrowser *browser = manual->browser();
    QVERIFY(!browser->accessibleName().isEmpty());
    QCOMPARE(manual->findChild<QWidget *>(QStringLiteral("manualFind"))->accessibleName(),
             QStringLiteral("Find in the manual"));
    const QString text = browser->toPlainText();
    for (const char *section :
         {"Connect", "The views", "Admin mode", "Rebuild with more chunks", "Swap in the rebuilt", "Old filters",
          "Load names from a file", "Teaching mode", "Shortcuts", "Bloomscope.conf"})
        QVERIFY2(text.contains(QLatin1String(section)), section);
    // The shortcuts table is made from the window's own actions.
    QVERIFY(!manual->markdown().contains(QLatin1String("{{SHORTCUTS}}")));
    QVERIFY(manual->markdown().contains(
        QStringLiteral("| %1 | Quit |").arg(QKeySequence(Qt::CTRL | Qt::Key_Q).toString(QKeySequence::NativeText))));
    QVERIFY(manual->markdown().contains(QLatin1String("| F1 | Contents |")));
    // A second F1 brings the same window back.
    manual->close();
    main.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&main));
    QTest::keyClick(&main, Qt::Key_F1);
    QTRY_VERIFY(manual->isVisible());
    QCOMPARE(main.manualWindow(), manual);

    TeachWindow teach;
    teach.show();
    QVERIFY(QTest::qWaitForWindowExposed(&teach));
    QTest::keyClick(&teach, Qt::Key_F1);
    QTRY_VERIFY(teach.manualWindow() && teach.manualWindow()->isVisible());
    QVERIFY(teach.manualWindow()->markdown().contains(QLatin1String("Presentation mode |")));
}

void TestGuiI18n::shortcutsAreUniqueAndStandard()
{
    MainWindow main;
    main.showManual(); // its own keys (Find, Close) are its window's, not the main window's
    TeachWindow teach;
    RedisWindow redis;
    const std::map<QMainWindow *, std::vector<const char *>> standard{
        {&main, {"actionConnect", "actionQuit", "actionRefreshNow", "actionHelpContents"}},
        {&teach,
         {"actionOpenSession", "actionSaveSession", "actionQuit", "actionPresentation", "actionNextTab",
          "actionPreviousTab", "actionHelpContents"}},
        {&redis, {"actionClose", "actionQuit", "actionRefreshNow"}}};
    for (const auto &[w, names] : standard) {
        const char *cls = w->metaObject()->className();
        std::map<QString, QString> owner; // key -> the action that has it
        for (QAction *a : w->findChildren<QAction *>()) {
            if (windowOf(a) != w)
                continue;
            for (const QKeySequence &k : a->shortcuts()) {
                const QString key = k.toString();
                const QString who = a->objectName().isEmpty() ? a->text() : a->objectName();
                QVERIFY2(
                    !owner.count(key),
                    qPrintable(
                        QStringLiteral("%1: %2 is on both %3 and %4").arg(QLatin1String(cls), key, owner[key], who)));
                owner[key] = who;
            }
        }
        for (const char *n : names) {
            const QString name = QLatin1String(n);
            auto *a = w->findChild<QAction *>(name);
            QVERIFY2(a, qPrintable(name));
            const QVariant key = a->property(shortcuts::StandardKeyProperty);
            QVERIFY2(key.isValid(), qPrintable(name));
            // Every key the platform has for it is on the action; at most the one documented key more.
            const QList<QKeySequence> platform = QKeySequence::keyBindings(QKeySequence::StandardKey(key.toInt()));
            for (const QKeySequence &k : platform)
                QVERIFY2(a->shortcuts().contains(k), qPrintable(name + QLatin1Char(' ') + k.toString()));
            QVERIFY2(a->shortcuts().size() <= platform.size() + 1, qPrintable(name));
            QVERIFY2(!a->shortcuts().isEmpty(), qPrintable(name));
        }
    }
    auto *help = main.findChild<QAction *>(QStringLiteral("actionHelpContents"));
    QVERIFY(help->shortcuts().contains(QKeySequence(Qt::Key_F1)));
}

void TestGuiI18n::germanWindowsHaveNoEnglishAction()
{
    // Texts German shares with English (names of views and products).
    const QStringList same{QStringLiteral("&FPR"),    QStringLiteral("&Heatmap"), QStringLiteral("&Chunk"),
                           QStringLiteral("Refresh"), QStringLiteral("&Pause"),   QStringLiteral("Pause")};
    auto english = std::make_unique<MainWindow>();
    auto englishTeach = std::make_unique<TeachWindow>();
    QTranslator german;
    QVERIFY(german.load(QStringLiteral(":/i18n/bloomscope_de.qm")));
    QCoreApplication::installTranslator(&german);
    MainWindow main;
    TeachWindow teach;
    QCoreApplication::removeTranslator(&german);

    QCOMPARE(main.findChild<QMenu *>(QStringLiteral("menuFile"))->title(), QStringLiteral("&Datei"));
    QCOMPARE(main.findChild<QMenu *>(QStringLiteral("menuView"))->title(), QStringLiteral("&Ansicht"));
    QCOMPARE(main.findChild<QMenu *>(QStringLiteral("menuHelp"))->title(), QStringLiteral("&Hilfe"));
    QCOMPARE(main.findChild<QAction *>(QStringLiteral("actionHelpContents"))->text(), QStringLiteral("&Inhalt"));
    QCOMPARE(teach.findChild<QAction *>(QStringLiteral("actionOpenSession"))->text(),
             QStringLiteral("Sitzung &öffnen..."));

    const std::pair<QMainWindow *, QMainWindow *> pairs[] = {{english.get(), &main}, {englishTeach.get(), &teach}};
    for (const auto &[en, de] : pairs) {
        // The same actions in the same order: each text that is visible differs from its English.
        const QList<QAction *> enActions = en->findChildren<QAction *>();
        const QList<QAction *> deActions = de->findChildren<QAction *>();
        QCOMPARE(deActions.size(), enActions.size());
        int compared = 0;
        for (qsizetype i = 0; i < deActions.size(); ++i) {
            const QString text = deActions[i]->text();
            if (text.isEmpty() || deActions[i]->isSeparator() || same.contains(text))
                continue;
            QVERIFY2(text != enActions[i]->text(), qPrintable(QStringLiteral("still English: ") + text));
            ++compared;
        }
        QVERIFY(compared > 10);
        // Each menu's accelerators stay unique in German (and the menu bar's).
        QList<QMenu *> menus = de->menuBar()->findChildren<QMenu *>();
        for (QWidget *bar : {static_cast<QWidget *>(de->menuBar())}) {
            QStringList keys;
            for (QAction *a : bar->actions()) {
                const qsizetype amp = a->text().indexOf(QLatin1Char('&'));
                const QString key = a->text().mid(amp + 1, 1).toLower();
                QVERIFY2(amp >= 0 && !keys.contains(key), qPrintable(a->text()));
                keys << key;
            }
        }
        for (QMenu *menu : menus) {
            QStringList keys;
            for (QAction *a : menu->actions()) {
                const qsizetype amp = a->text().indexOf(QLatin1Char('&'));
                if (a->isSeparator() || amp < 0)
                    continue;
                const QString key = a->text().mid(amp + 1, 1).toLower();
                QVERIFY2(!keys.contains(key), qPrintable(menu->title() + QLatin1String(": ") + a->text()));
                keys << key;
            }
        }
    }
}

void TestGuiI18n::localePicksTheTranslation()
{
    // What main() does at start: the system's language, else English with its plural forms.
    QCOMPARE(translators::install(QLocale(QLocale::German, QLocale::Germany)).value(0),
             QStringLiteral(":/i18n/bloomscope_de.qm"));
    QCOMPARE(QCoreApplication::translate("bloom::MainWindow", "&View"), QStringLiteral("&Ansicht"));
    QCOMPARE(QCoreApplication::translate("bloom::HeatmapTab", "%Ln outlier(s)", nullptr, 1),
             QStringLiteral("1 Ausreißer"));
    QCOMPARE(QCoreApplication::translate("bloom::AdminActions", "%Ln connection(s)", nullptr, 3),
             QStringLiteral("3 Verbindungen"));
    removeTranslators();
    for (const QLocale &other : {QLocale::c(), QLocale(QLocale::French, QLocale::France)}) {
        QCOMPARE(translators::install(other).value(0), QStringLiteral(":/i18n/bloomscope_en.qm"));
        QCOMPARE(QCoreApplication::translate("bloom::MainWindow", "&View"), QStringLiteral("&View"));
        QCOMPARE(QCoreApplication::translate("bloom::HeatmapTab", "%Ln outlier(s)", nullptr, 1),
                 QStringLiteral("1 outlier"));
        QCOMPARE(QCoreApplication::translate("bloom::HeatmapTab", "%Ln outlier(s)", nullptr, 2),
                 QStringLiteral("2 outliers"));
        removeTranslators();
    }
    QCOMPARE(QCoreApplication::translate("bloom::HeatmapTab", "%Ln outlier(s)", nullptr, 1),
             QStringLiteral("1 outlier(s)"));
}

QTEST_MAIN(TestGuiI18n)
#include "tst_gui_i18n.moc"
