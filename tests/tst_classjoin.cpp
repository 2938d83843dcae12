// Teaching > Let the class join (issue 49, item 3): the class's page, served by the teaching window,
// driven by a real HTTP client. A phone's name goes to the timeline and lights its bits; the phone
// gets the verdict and the bits. A wrong join code, a flood from one phone, a 10 MB body and a name
// that breaks the rules are refused and change nothing; approval holds a name (and the projector's
// panel never shows it) until the lecturer takes it; the page is gone when the lecturer closes it.
#include "teach/classjoinpanel.h"
#include "teach/classjoinqueue.h"
#include "teach/classjoinserver.h"
#include "teach/steppage.h"
#include "teach/teachwindow.h"

#include <QEventLoop>
#include <QHostAddress>
#include <QLabel>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPushButton>
#include <QTest>
#include <QTimer>
#include <QUrlQuery>

using namespace bloom;

namespace {

struct Reply {
    int status = 0; ///< 0: no HTTP answer (refused, reset)
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray body;
};

Reply request(const QUrl &url, const QByteArray *post = nullptr)
{
    static QNetworkAccessManager nam;
    QNetworkRequest r(url);
    r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/x-www-form-urlencoded"));
    QNetworkReply *reply = post ? nam.post(r, *post) : nam.get(r);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(20000, &loop, &QEventLoop::quit);
    loop.exec();
    Reply out;
    out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.error = reply->error();
    out.body = reply->readAll();
    reply->deleteLater();
    return out;
}

Reply postName(const QUrl &url, const QByteArray &name, const QByteArray &action = "add")
{
    const QByteArray body = "name=" + name.toPercentEncoding() + "&action=" + action;
    return request(url, &body);
}

/** Every text the window shows on the projector (its labels, the panel included), not the lecturer's
 *  queue window. */
QString projectorText(TeachWindow &w)
{
    QString all;
    for (const QLabel *l : w.findChildren<QLabel *>())
        if (l->window() == &w)
            all += l->text() + QLatin1Char('\n');
    for (const QListWidget *l : w.findChildren<QListWidget *>())
        if (l->window() == &w)
            for (int i = 0; i < l->count(); ++i)
                all += l->item(i)->text() + QLatin1Char('\n');
    return all;
}

} // namespace

class TestClassJoin : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<TeachWindow> mWindow;
    QUrl mUrl;

private slots:
    void init()
    {
        mWindow = std::make_unique<TeachWindow>();
        mWindow->setStepMs(0);
        mWindow->playReferenceExample();
        mWindow->show();
        QTRY_VERIFY(mWindow->idle());
        auto url = mWindow->startClassJoin(QHostAddress::LocalHost, 0, false);
        QVERIFY2(url, qPrintable(url ? QString() : url.error().toString()));
        mUrl = *url;
        QVERIFY(mUrl.path().startsWith(QLatin1String("/j/")));
    }
    void cleanup() { mWindow.reset(); }

    /** A phone adds alan and checks bjarne: the answers name the verdict and the bits the article gives,
     *  and both are in the timeline, alan's bits lit. */
    void aPhoneAddsAndChecks()
    {
        const Reply page = request(mUrl);
        QCOMPARE(page.status, 200);
        QVERIFY2(page.body.contains("<form method=post") && page.body.contains("name=name") &&
                     page.body.contains("width=device-width"),
                 page.body.constData());
        const qsizetype before = mWindow->timelineSize();
        Reply r = postName(mUrl, "alan");
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.contains("added") && r.body.contains("bits 2, 8, 10"), r.body.constData());
        r = postName(mUrl, "bjarne", "check");
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.contains("maybe") && r.body.contains("bits 3, 5, 8"), r.body.constData());
        QCOMPARE(mWindow->timelineSize(), before + 2);
        QTRY_VERIFY(mWindow->idle());
        for (quint64 bit : {2, 8, 10})
            QVERIFY(mWindow->filter().bit(bit));
        QVERIFY(mWindow->logLines().last().startsWith(QLatin1String("check bjarne")));
        QCOMPARE(mWindow->classJoin()->taken(), 2);
    }

    /** A wrong code, a name that breaks the rules, a 10 MB body: refused, nothing in the timeline. */
    void badRequestsChangeNothing_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::newRow("wrong code") << QStringLiteral("/j/wrong1") << QByteArray("name=eve") << 404;
        QTest::newRow("no code") << QStringLiteral("/") << QByteArray("name=eve") << 404;
        QTest::newRow("empty name") << QString() << QByteArray("name=+++") << 400;
        QTest::newRow("invalid UTF-8") << QString() << QByteArray("name=a%FFb") << 400;
        QTest::newRow("NUL") << QString() << QByteArray("name=a%00b") << 400;
        QTest::newRow("65 bytes") << QString() << QByteArray("name=") + QByteArray(65, 'x') << 400;
        QTest::newRow("neither add nor check") << QString() << QByteArray("name=eve&action=drop") << 400;
        QTest::newRow("5 KiB body") << QString() << QByteArray("name=eve&pad=") + QByteArray(5000, 'p') << 413;
        QTest::newRow("10 MB body") << QString() << QByteArray("name=eve&pad=") + QByteArray(10 << 20, 'p') << 413;
    }
    void badRequestsChangeNothing()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QUrl url = mUrl;
        if (!path.isEmpty())
            url.setPath(path);
        const qsizetype before = mWindow->timelineSize();
        const Reply r = request(url, &body);
        // A body too large for a request of the page may be cut off before its answer is read.
        if (body.size() > ClassJoinServer::MaxConnectionBytes)
            QVERIFY2(r.status == 413 || r.error != QNetworkReply::NoError, r.body.constData());
        else
            QCOMPARE(r.status, status);
        QCOMPARE(mWindow->timelineSize(), before);
        QCOMPARE(mWindow->classJoin()->taken(), 0);
        // The page still answers the next phone.
        QCOMPARE(postName(mUrl, "afterwards").status, 200);
    }

    /** One phone sending name after name: past the limit, 429 and nothing more in the timeline. */
    void aFloodFromOnePhoneIsRefused()
    {
        mWindow->classJoin()->setPerMinute(5);
        const qsizetype before = mWindow->timelineSize();
        for (int i = 0; i < 5; ++i)
            QCOMPARE(postName(mUrl, "pupil" + QByteArray::number(i)).status, 200);
        for (int i = 5; i < 20; ++i)
            QCOMPARE(postName(mUrl, "pupil" + QByteArray::number(i)).status, 429);
        QCOMPARE(mWindow->timelineSize(), before + 5);
    }

    /** With approval, a name waits: the phone is told so, the projector shows neither the name nor its
     *  bits, the lecturer's queue lists it; taken, it reaches the timeline and the phone's next refresh
     *  shows the verdict; refused, the phone is told. */
    void approvalHoldsANameUntilTheLecturerTakesIt()
    {
        mWindow->classJoin()->setApproval(true);
        mWindow->classJoinPanel()->refresh();
        const qsizetype before = mWindow->timelineSize();
        Reply r = postName(mUrl, "mallory_rude");
        QCOMPARE(r.status, 202);
        QVERIFY2(r.body.contains("http-equiv=refresh") && r.body.contains("Waiting"), r.body.constData());
        const QString refresh =
            QString::fromUtf8(r.body).section(QStringLiteral("url="), 1).section(QLatin1Char('"'), 0, 0);
        QVERIFY2(refresh.startsWith(mUrl.path() + QStringLiteral("/r/")), qPrintable(refresh));
        QCOMPARE(mWindow->timelineSize(), before);
        QVERIFY(!projectorText(*mWindow).contains(QLatin1String("mallory_rude")));
        ClassJoinQueue *queue = mWindow->classJoinPanel()->queue();
        QTRY_VERIFY(queue->isVisible());
        QCOMPARE(queue->window(), queue); // a window of its own, for the lecturer's screen
        auto *list = queue->findChild<QListWidget *>(QStringLiteral("classJoinWaiting"));
        QCOMPARE(list->count(), 1);
        QVERIFY(list->item(0)->text().contains(QLatin1String("mallory_rude")));
        // Refused: nothing reaches the filter.
        queue->findChild<QPushButton *>(QStringLiteral("classJoinRefuse"))->click();
        QUrl at = mUrl;
        at.setPath(refresh);
        r = request(at);
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.contains("was not taken"), r.body.constData());
        QCOMPARE(mWindow->timelineSize(), before);
        // Taken: the timeline, and the verdict at the phone's refresh.
        r = postName(mUrl, "alan");
        QCOMPARE(r.status, 202);
        at.setPath(QString::fromUtf8(r.body).section(QStringLiteral("url="), 1).section(QLatin1Char('"'), 0, 0));
        QCOMPARE(request(at).status, 202); // still waiting
        QTRY_COMPARE(list->count(), 1);
        queue->findChild<QPushButton *>(QStringLiteral("classJoinTake"))->click();
        QCOMPARE(mWindow->timelineSize(), before + 1);
        r = request(at);
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.contains("added") && r.body.contains("bits 2, 8, 10"), r.body.constData());
        // Another phone cannot read a name's answer by its number.
        QVERIFY(!at.path().isEmpty());
    }

    /** Paused: 503, nothing taken. Closed: the port takes no connection, the panel is gone. */
    void pausedThenClosed()
    {
        mWindow->classJoin()->setPaused(true);
        QCOMPARE(postName(mUrl, "eve").status, 503);
        mWindow->classJoin()->setPaused(false);
        QCOMPARE(postName(mUrl, "eve").status, 200);
        mWindow->classJoinPanel()->findChild<QPushButton *>(QStringLiteral("classJoinClose"))->click();
        QVERIFY(!mWindow->classJoin()->running());
        QVERIFY(!mWindow->classJoinPanel()->isVisible());
        const Reply r = request(mUrl);
        QCOMPARE(r.status, 0);
        QCOMPARE(r.error, QNetworkReply::ConnectionRefusedError);
    }

    /** The projector shows the page's address as text and as a QR code, in presentation mode too. */
    void thePanelShowsTheAddress()
    {
        mWindow->setPresentation(true);
        QTRY_VERIFY(mWindow->classJoinPanel()->isVisible());
        auto *url = mWindow->classJoinPanel()->findChild<QLabel *>(QStringLiteral("classJoinUrl"));
        QCOMPARE(url->text(), mUrl.toString());
        QWidget *code = mWindow->classJoinPanel()->findChild<QWidget *>(QStringLiteral("classJoinCode"));
        QVERIFY(code && code->isVisible() && code->width() >= 140);
        for (QWidget *w : mWindow->classJoinPanel()->findChildren<QWidget *>())
            if (w->focusPolicy() != Qt::NoFocus && qobject_cast<QPushButton *>(w))
                QVERIFY2(!static_cast<QPushButton *>(w)->text().isEmpty(), qPrintable(w->objectName()));
        QVERIFY(!code->accessibleName().isEmpty());
        mWindow->setPresentation(false);
    }
};

QTEST_MAIN(TestClassJoin)
#include "tst_classjoin.moc"
