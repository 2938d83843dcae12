// "Let the class join": a small web page, served by the teaching window, where students add or check
// names in the teaching sandbox from their phones (issue 49, item 3).
#pragma once

#include "common/result.h"
#include "teach/timeline.h"

#include <QAbstractHttpServer>
#include <QDeadlineTimer>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QUrl>

#include <functional>

namespace bloom {

/**
 * The class's page: GET /j/CODE is a form (a name, Add or Check), POST /j/CODE takes the field `name`
 * (and `action`: add, the default, or check) as application/x-www-form-urlencoded and answers with the
 * verdict and the bits, or, while the lecturer approves names, a page that refreshes until they have.
 * Anything else is 404, a wrong code included. Plain HTML, no script, a phone-sized viewport.
 *
 * Never started implicitly: the lecturer picks the address. Only the teaching sandbox is reached (the
 * answer comes from `submit`, which the window sets), never a database. Per device (remote address):
 * at most `perMinute` names a minute (429 past it); a request body over MaxBodyBytes is refused (413)
 * and its connection closed before the body is read whole; a name the core rule refuses or longer than
 * MaxNameBytes is 400 with the reason. Paused: 503. Stopped: the port is closed.
 */
class ClassJoinServer : public QAbstractHttpServer {
    Q_OBJECT
public:
    static constexpr qsizetype MaxBodyBytes = 4096;
    static constexpr qsizetype MaxNameBytes = 64; ///< a lecture's names; the sandbox takes no more from a phone
    static constexpr int MaxWaiting = 50;         ///< names waiting for approval at once
    static constexpr qsizetype MaxConnectionBytes = 64 * 1024;

    /** What the window answers for a name it took: the verdict and the bits, as the projector shows them. */
    struct Answer {
        QString verdict; ///< "added", "definitely not", "maybe"
        QString bits;    ///< "bits 5, 13, 14"
        QString line;    ///< the log's line
    };
    using Submit = std::function<Result<Answer>(Timeline::Action, const QByteArray &)>;

    /** A name from a phone. */
    struct Submission {
        int id = 0;
        Timeline::Action action = Timeline::Action::Add;
        QByteArray name;
        QString device; ///< the phone's address
        enum class State { Waiting, Answered, Refused } state = State::Waiting;
        Answer answer;
        QString refusal;
    };

    explicit ClassJoinServer(QObject *parent = nullptr);
    ~ClassJoinServer() override;

    /** Listens on `address`:`port` (0: any free port); returns the join URL. */
    Result<QUrl> start(const QHostAddress &address, quint16 port);
    void stop();
    bool running() const { return mRunning; }
    QUrl joinUrl() const { return mUrl; }

    void setSubmit(Submit submit) { mSubmit = std::move(submit); }
    /** With approval on, names wait in waiting() until approve() or refuse(). */
    void setApproval(bool on) { mApproval = on; }
    bool approval() const { return mApproval; }
    void setPaused(bool on) { mPaused = on; }
    bool paused() const { return mPaused; }
    void setPerMinute(int n) { mPerMinute = n; }

    QList<Submission> waiting() const;
    /** Hands a waiting name to the window; its answer reaches the phone at its next refresh. */
    void approve(int id);
    void refuse(int id);
    /** Names the window took from phones since start(). */
    int taken() const { return mTaken; }

signals:
    void waitingChanged();
    /** A name reached the window (approved, or with approval off). */
    void nameTaken(const QString &line);

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    class Listener;
    void answer(const QHttpServerRequest &request, QTcpSocket *socket, int status, const QString &title,
                const QString &body, int refreshSeconds = 0, const QString &refreshTo = {});
    QString form(const QString &message = {}) const;
    QString result(const Submission &s) const;
    void take(Submission &s);
    bool allow(const QString &device);

    Submit mSubmit;
    Listener *mListener = nullptr;
    bool mRunning = false, mApproval = false, mPaused = false;
    int mPerMinute = 10;
    QString mCode;
    QUrl mUrl;
    int mNextId = 1;
    int mTaken = 0;
    QList<Submission> mSubmissions;                ///< the last few hundred, answered ones kept for the phones' refresh
    QHash<QString, QList<QDeadlineTimer>> mRecent; ///< per device, the names of the last minute
};

} // namespace bloom
