#include "model/fprmodel.h"
#include "model/placement.h"
#include "teach/sandbox.h"

#include <QJsonDocument>
#include <QTest>

using namespace bloom;

/** The teaching sandbox: the reference's own example, both schemes, sessions. No database. */
class TestSandbox : public QObject {
    Q_OBJECT
private:
    static QList<quint64> sorted(QList<quint64> v)
    {
        std::sort(v.begin(), v.end());
        return v;
    }

private slots:
    void theReferenceExample()
    {
        // m = 16, k = 3: add ada and grace; check ada, alan and bjarne.
        auto f = SandboxFilter::classic(16, 3);
        QVERIFY(f.ok());
        auto ada = f->add("ada");
        QCOMPARE(ada->inputs, (QList<QByteArray>{"0:ada", "1:ada", "2:ada"}));
        QCOMPARE(ada->digests.first(), QByteArray("2d0adfba24320bd14abdb38aa02ff6fe"));
        QCOMPARE(ada->positions, (QList<quint64>{14, 13, 5}));
        QCOMPARE(sorted(f->add("grace")->positions), (QList<quint64>{2, 3, 8}));
        auto checkAda = f->check("ada");
        QVERIFY(checkAda->maybe && checkAda->added);
        QCOMPARE(checkAda->explain(), QStringLiteral("ada -> bits 5, 13, 14: all set, and ada was added"));
        auto alan = f->check("alan");
        QCOMPARE(sorted(alan->positions), (QList<quint64>{2, 8, 10}));
        QVERIFY(!alan->maybe);
        QCOMPARE(alan->explain(), QStringLiteral("alan -> bits 2, 8, 10: bit 10 is 0, definitely not added"));
        auto bjarne = f->check("bjarne");
        QCOMPARE(sorted(bjarne->positions), (QList<quint64>{3, 5, 8}));
        QVERIFY(bjarne->maybe && !bjarne->added);
        QCOMPARE(bjarne->setBy, (QList<QByteArray>{"ada", "grace"}));
        QVERIFY(bjarne->explain().endsWith(QLatin1String("set by ada and grace")));
        QCOMPARE(f->owners(8), QList<int>{1});
        QCOMPARE(f->setBits(), quint64(6));
        QVERIFY(!f->contains("bjarne")); // a check changes nothing
    }

    void blockedPlacesAsTheReferenceFunction()
    {
        auto g = Geometry::create(3, 6, 3); // 8 chunks of 64 bits
        auto f = SandboxFilter::blocked(*g);
        QVERIFY(f.ok());
        QCOMPARE(f->size(), quint64(512));
        auto t = f->add("Ada");
        const Placement p = placeAscii(*g, "ada");
        QCOMPARE(t->chunk, p.chunk);
        QCOMPARE(t->hashed, QByteArray("ada"));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(t->positions[i] / 64, quint64(p.chunk)); // every bit in the name's chunk
            QCOMPARE(t->positions[i] % 64, quint64(p.positions[size_t(i)]));
        }
        QVERIFY(f->check("ADA")->maybe);
    }

    void badInputIsRefused()
    {
        QVERIFY(!SandboxFilter::classic(1, 3).ok());
        QVERIFY(!SandboxFilter::classic(16, 0).ok());
        QVERIFY(!SandboxFilter::blocked(*Geometry::create(17, 13, 7)).ok()); // the real one: too big to draw
        auto f = SandboxFilter::classic(16, 3);
        QVERIFY(!f->add("").ok());
        QVERIFY(!f->add("\xff\xfe").ok());
        QCOMPARE(f->setBits(), quint64(0));
    }

    void measuredFprFollowsTheModel()
    {
        // Equal size, same names: the classic and the blocked filter near their models.
        auto c = SandboxFilter::classic(4096, 4);
        auto b = SandboxFilter::blocked(*Geometry::create(6, 6, 4));
        for (int i = 0; i < 400; ++i) {
            QVERIFY(c->add("user" + QByteArray::number(i)).ok());
            QVERIFY(b->add("user" + QByteArray::number(i)).ok());
        }
        QCOMPARE(c->modelFpr(), fpr::standard(400, 4096, 4));
        QCOMPARE(b->modelFpr(), fpr::blocked(400, 64, 64, 4));
        QVERIFY(b->modelFpr() > c->modelFpr()); // blocking costs a little accuracy
        const double mc = c->measuredFpr(20000), mb = b->measuredFpr(20000);
        QVERIFY2(qAbs(mc - c->modelFpr()) < 0.25 * c->modelFpr(), qPrintable(QString::number(mc)));
        QVERIFY2(qAbs(mb - b->modelFpr()) < 0.25 * b->modelFpr(), qPrintable(QString::number(mb)));
    }

    void sessionRoundTrip()
    {
        auto f = SandboxFilter::blocked(*Geometry::create(3, 6, 3));
        QVERIFY(f->add("ada").ok() && f->add("grace").ok() && f->add("Łukasz").ok());
        const QByteArray json = QJsonDocument(f->toJson()).toJson();
        auto back = SandboxFilter::fromJson(QJsonDocument::fromJson(json).object());
        QVERIFY(back.ok());
        QCOMPARE(back->names(), f->names());
        QCOMPARE(back->describe(), f->describe());
        for (quint64 i = 0; i < f->size(); ++i)
            QCOMPARE(back->bit(i), f->bit(i));
        QVERIFY(!SandboxFilter::fromJson(QJsonObject{{QStringLiteral("format"), QStringLiteral("x")}}).ok());
    }
};

QTEST_GUILESS_MAIN(TestSandbox)
#include "tst_sandbox.moc"
