#include "teach/classjoinserver.h"

#include "model/name.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QPointer>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>

#include <memory>

namespace bloom {

/** The TCP side: counts what each connection sends and closes one that sends more than a request of
 *  the page can hold, before Qt's HTTP server has read the body whole. */
class ClassJoinServer::Listener : public QTcpServer {
public:
    using QTcpServer::QTcpServer;
    void closeAll()
    {
        close();
        for (const QPointer<QTcpSocket> &s : std::as_const(mSockets))
            if (s)
                s->abort();
        mSockets.clear();
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QTcpSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        // Connected before the HTTP server's own handler: it runs first on every read.
        auto seen = std::make_shared<qint64>(0);
        connect(socket, &QTcpSocket::readyRead, socket, [socket, seen] {
            *seen += socket->bytesAvailable();
            if (*seen <= MaxConnectionBytes)
                return;
            socket->readAll();
            socket->write("HTTP/1.1 413 Payload Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
                          "Connection: close\r\nContent-Length: 26\r\n\r\nThe request is too large.\n");
            socket->flush();
            socket->abort();
        });
        mSockets.removeAll(nullptr);
        mSockets << socket;
        addPendingConnection(socket);
    }

private:
    QList<QPointer<QTcpSocket>> mSockets;
};

namespace {

QString escaped(const QString &s)
{
    return s.toHtmlEscaped();
}

/** The fields of an application/x-www-form-urlencoded body, as bytes ('+' is a blank). */
QHash<QByteArray, QByteArray> formFields(const QByteArray &body)
{
    QHash<QByteArray, QByteArray> out;
    for (const QByteArray &pair : body.split('&')) {
        const qsizetype eq = pair.indexOf('=');
        QByteArray key = eq < 0 ? pair : pair.left(eq), value = eq < 0 ? QByteArray() : pair.mid(eq + 1);
        key.replace('+', ' ');
        value.replace('+', ' ');
        out.insert(QByteArray::fromPercentEncoding(key), QByteArray::fromPercentEncoding(value));
    }
    return out;
}

QString randomCode()
{
    static const char alphabet[] = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i on a projector
    QString code;
    for (int i = 0; i < 6; ++i)
        code += QLatin1Char(alphabet[QRandomGenerator::system()->bounded(int(sizeof alphabet - 1))]);
    return code;
}

} // namespace

ClassJoinServer::ClassJoinServer(QObject *parent)
    : QAbstractHttpServer(parent)
{
}

ClassJoinServer::~ClassJoinServer()
{
    stop();
}

Result<QUrl> ClassJoinServer::start(const QHostAddress &address, quint16 port)
{
    stop();
    mListener = new Listener(this);
    if (!mListener->listen(address, port)) {
        const QString why = mListener->errorString();
        delete mListener;
        mListener = nullptr;
        return makeError(
            ErrorKind::Usage,
            tr("cannot open the class's page on %1 port %2: %3").arg(address.toString(), QString::number(port), why),
            tr("choose another address or port (a port below 1024 needs root; 0 picks a free one)"));
    }
    bind(mListener);
    mCode = randomCode();
    mUrl = QUrl();
    mUrl.setScheme(QStringLiteral("http"));
    mUrl.setHost(address.toString());
    mUrl.setPort(mListener->serverPort());
    mUrl.setPath(QStringLiteral("/j/") + mCode);
    mRunning = true;
    mPaused = false;
    mTaken = 0;
    mSubmissions.clear();
    mRecent.clear();
    emit waitingChanged();
    return mUrl;
}

void ClassJoinServer::stop()
{
    if (mListener)
        mListener->closeAll(); // the HTTP server owns it; closed, it takes no connection again
    mListener = nullptr;
    mRunning = false;
    mSubmissions.clear();
    emit waitingChanged();
}

QList<ClassJoinServer::Submission> ClassJoinServer::waiting() const
{
    QList<Submission> out;
    for (const Submission &s : mSubmissions)
        if (s.state == Submission::State::Waiting)
            out << s;
    return out;
}

void ClassJoinServer::take(Submission &s)
{
    auto a = mSubmit ? mSubmit(s.action, s.name)
                     : Result<Answer>(makeError(ErrorKind::Usage, tr("the teaching window is not ready")));
    if (a) {
        s.state = Submission::State::Answered;
        s.answer = *a;
        ++mTaken;
        emit nameTaken(a->line);
    } else {
        s.state = Submission::State::Refused;
        s.refusal = a.error().message;
    }
}

void ClassJoinServer::approve(int id)
{
    for (Submission &s : mSubmissions)
        if (s.id == id && s.state == Submission::State::Waiting)
            take(s);
    emit waitingChanged();
}

void ClassJoinServer::refuse(int id)
{
    for (Submission &s : mSubmissions)
        if (s.id == id && s.state == Submission::State::Waiting) {
            s.state = Submission::State::Refused;
            s.refusal = tr("the lecturer did not take it");
        }
    emit waitingChanged();
}

bool ClassJoinServer::allow(const QString &device)
{
    QList<QDeadlineTimer> &recent = mRecent[device];
    recent.removeIf([](const QDeadlineTimer &t) { return t.hasExpired(); });
    if (recent.size() >= mPerMinute)
        return false;
    recent << QDeadlineTimer(60000);
    return true;
}

QString ClassJoinServer::form(const QString &message) const
{
    const QString action = escaped(mUrl.path());
    return (message.isEmpty() ? QString() : QStringLiteral("<p class=msg>%1</p>").arg(message)) +
           QStringLiteral("<form method=post action=\"%1\">"
                          "<label for=name>%2</label>"
                          "<input id=name name=name maxlength=%3 autocomplete=off autocapitalize=none required>"
                          "<div class=buttons><button name=action value=add>%4</button>"
                          "<button name=action value=check>%5</button></div></form>")
               .arg(action, escaped(tr("A name")), QString::number(MaxNameBytes), escaped(tr("Add")),
                    escaped(tr("Check")));
}

QString ClassJoinServer::result(const Submission &s) const
{
    const QString name = escaped(QString::fromUtf8(s.name));
    if (s.state == Submission::State::Refused)
        return QStringLiteral("<p class=verdict>%1</p><p>%2</p>")
            .arg(escaped(tr("%1 was not taken").arg(QString::fromUtf8(s.name))), escaped(s.refusal));
    return QStringLiteral("<p class=name>%1</p><p class=verdict>%2</p><p class=bits>%3</p>")
        .arg(name, escaped(s.answer.verdict), escaped(s.answer.bits));
}

void ClassJoinServer::answer(const QHttpServerRequest &request, QTcpSocket *socket, int status, const QString &title,
                             const QString &body, int refreshSeconds, const QString &refreshTo)
{
    const QString refresh = refreshSeconds > 0 ? QStringLiteral("<meta http-equiv=refresh content=\"%1; url=%2\">")
                                                     .arg(QString::number(refreshSeconds), escaped(refreshTo))
                                               : QString();
    const QByteArray html =
        QStringLiteral(
            "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content=\"width=device-width, initial-scale=1\">%1<title>%2</title><style>"
            "body{font-family:sans-serif;margin:0;padding:1.2em;max-width:32em;font-size:1.2em;line-height:1.4}"
            "h1{font-size:1.3em}label{display:block;margin:.6em 0 .3em}"
            "input{font-size:1.2em;width:100%;box-sizing:border-box;padding:.4em}"
            ".buttons{display:flex;gap:.6em;margin-top:.8em}"
            "button{flex:1;font-size:1.1em;padding:.6em}.verdict{font-size:1.6em;font-weight:bold}"
            ".name{font-size:1.3em;word-break:break-all}.msg{color:#a40000}"
            "@media(prefers-color-scheme:dark){body{background:#1e1e1e;color:#eee}.msg{color:#ff8a80}}"
            "</style></head><body><h1>%3</h1>%4</body></html>")
            .arg(refresh, escaped(title), escaped(tr("Bloom filter: the class's names")), body)
            .toUtf8();
    makeResponder(request, socket)
        .write(html,
               {{"Content-Type", "text/html; charset=utf-8"},
                {"Cache-Control", "no-store"},
                {"Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"},
                {"X-Content-Type-Options", "nosniff"},
                {"Referrer-Policy", "no-referrer"},
                {"Connection", "close"}},
               QHttpServerResponder::StatusCode(status));
}

bool ClassJoinServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const QStringList path = request.url().path().split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QString device = request.remoteAddress().toString();
    if (!mRunning || path.size() < 2 || path[0] != QLatin1String("j") || path[1] != mCode) {
        answer(request, socket, 404, tr("Not found"), QStringLiteral("<p>%1</p>").arg(escaped(tr("No such page."))));
        return true;
    }
    const QString home = mUrl.path();
    // /j/CODE/r/ID: a waiting name's answer.
    if (path.size() == 4 && path[2] == QLatin1String("r") && request.method() == QHttpServerRequest::Method::Get) {
        const int id = path[3].toInt();
        for (const Submission &s : std::as_const(mSubmissions))
            if (s.id == id && s.device == device) {
                if (s.state == Submission::State::Waiting)
                    answer(request, socket, 202, tr("Waiting"),
                           QStringLiteral("<p class=name>%1</p><p>%2</p>")
                               .arg(escaped(QString::fromUtf8(s.name)),
                                    escaped(tr("Waiting for the lecturer to take it..."))),
                           2, request.url().path());
                else
                    answer(request, socket, 200, QString::fromUtf8(s.name), result(s) + form());
                return true;
            }
        answer(request, socket, 404, tr("Not found"), QStringLiteral("<p>%1</p>").arg(escaped(tr("No such name."))));
        return true;
    }
    if (path.size() != 2) {
        answer(request, socket, 404, tr("Not found"), QStringLiteral("<p>%1</p>").arg(escaped(tr("No such page."))));
        return true;
    }
    if (request.method() == QHttpServerRequest::Method::Get) {
        answer(request, socket, 200, tr("Join the class"), form());
        return true;
    }
    if (request.method() != QHttpServerRequest::Method::Post) {
        answer(request, socket, 405, tr("Not allowed"), form());
        return true;
    }
    if (request.body().size() > MaxBodyBytes) {
        answer(request, socket, 413, tr("Too large"), form(escaped(tr("That was too much text."))));
        return true;
    }
    if (mPaused) {
        answer(request, socket, 503, tr("Paused"), form(escaped(tr("The lecturer paused the page: try again soon."))));
        return true;
    }
    const auto fields = formFields(request.body());
    const QByteArray name = fields.value("name").trimmed();
    const QByteArray action = fields.value("action", "add");
    if (action != "add" && action != "check") {
        answer(request, socket, 400, tr("Not understood"), form(escaped(tr("Add or Check?"))));
        return true;
    }
    if (name.isEmpty() || name.size() > MaxNameBytes) {
        answer(request, socket, 400, tr("Not taken"),
               form(escaped(name.isEmpty() ? tr("Type a name first.")
                                           : tr("A name here has at most %1 bytes.").arg(MaxNameBytes))));
        return true;
    }
    if (auto s = validateName(name); !s) {
        answer(request, socket, 400, tr("Not taken"), form(escaped(s.error().message)));
        return true;
    }
    if (!allow(device)) {
        answer(request, socket, 429, tr("Slow down"),
               form(escaped(tr("At most %n name(s) a minute from one phone.", nullptr, mPerMinute))));
        return true;
    }
    Submission s;
    s.id = mNextId++;
    s.action = action == "check" ? Timeline::Action::Check : Timeline::Action::Add;
    s.name = name;
    s.device = device;
    if (mApproval) {
        if (waiting().size() >= MaxWaiting) {
            answer(request, socket, 503, tr("Busy"), form(escaped(tr("Too many names are waiting: try again soon."))));
            return true;
        }
        mSubmissions << s;
        emit waitingChanged();
        const QString at = home + QStringLiteral("/r/") + QString::number(s.id);
        answer(request, socket, 202, tr("Waiting"),
               QStringLiteral("<p class=name>%1</p><p>%2</p>")
                   .arg(escaped(QString::fromUtf8(name)), escaped(tr("Waiting for the lecturer to take it..."))),
               2, at);
    } else {
        take(s);
        mSubmissions << s;
        answer(request, socket, 200, QString::fromUtf8(name), result(s) + form());
    }
    while (mSubmissions.size() > 500 && mSubmissions.first().state != Submission::State::Waiting)
        mSubmissions.removeFirst();
    return true;
}

void ClassJoinServer::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    answer(request, socket, 404, tr("Not found"), QStringLiteral("<p>%1</p>").arg(escaped(tr("No such page."))));
}

} // namespace bloom
