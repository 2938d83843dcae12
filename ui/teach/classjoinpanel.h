#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;

namespace bloom {

class ClassJoinQueue;
class ClassJoinServer;

/**
 * What the projector shows of the class's page: its address as a QR code and as text, how many names
 * arrived, and the lecturer's controls (approve each name first, pause, close the page). The names
 * waiting for approval are never shown here (the class would read them before the lecturer does):
 * they are in ClassJoinQueue, a window of its own for the lecturer's screen.
 */
class ClassJoinPanel : public QWidget {
    Q_OBJECT
public:
    ClassJoinPanel(ClassJoinServer *server, QWidget *parent = nullptr);
    /** Reads the server again (its address, counts, state). */
    void refresh();
    ClassJoinQueue *queue() const { return mQueue; }

signals:
    /** The lecturer closed the page. */
    void closeRequested();

private:
    void showCode();

    ClassJoinServer *mServer;
    ClassJoinQueue *mQueue;
    QWidget *mCode;
    QLabel *mUrl, *mCounts;
    QCheckBox *mApproval;
    QPushButton *mPause, *mWaiting, *mClose;
};

} // namespace bloom
