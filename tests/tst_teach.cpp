#include "model/fprmodel.h"
#include "teach/bitgridwidget.h"
#include "teach/compareview.h"
#include "teach/teachwindow.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace bloom;

/** Teaching mode as a teacher uses it: real widgets under QT_QPA_PLATFORM=offscreen, no database. */
class TestTeach : public QObject {
    Q_OBJECT
private slots:
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
        QVERIFY(field->hasFocus());
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
        QVERIFY(!png.isNull() && png.width() >= 800);

        TeachWindow again;
        QVERIFY2(again.openSession(session, &error), qPrintable(error));
        QCOMPARE(again.filter().names(), w.filter().names());
        QCOMPARE(again.logLines(), w.logLines());
        QCOMPARE(again.falsePositiveRows(), QList<int>{4});
        QVERIFY(again.filter().check("bjarne")->maybe);

        QFile bad(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"bloomscope-sandbox-1\", \"scheme\": \"round\"}");
        bad.close();
        QVERIFY(!again.openSession(bad.fileName(), &error));
        QVERIFY2(error.contains(QLatin1String("unknown scheme")), qPrintable(error));
        QCOMPARE(again.filter().names(), w.filter().names()); // the open session is kept
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
