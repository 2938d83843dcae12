#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace bloom {

class ClassJoinServer;

/** The names from the class's phones that wait for the lecturer: take or refuse each, or all. A window
 *  of its own, for the lecturer's screen, never the projector's. */
class ClassJoinQueue : public QWidget {
    Q_OBJECT
public:
    ClassJoinQueue(ClassJoinServer *server, QWidget *parent = nullptr);
    void refresh();

private:
    void decide(bool take, bool all);

    ClassJoinServer *mServer;
    QLabel *mTitle;
    QListWidget *mList;
    QPushButton *mTake, *mRefuse, *mTakeAll;
};

} // namespace bloom
