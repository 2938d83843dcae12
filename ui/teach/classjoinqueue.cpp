#include "teach/classjoinqueue.h"

#include "teach/classjoinserver.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace bloom {

ClassJoinQueue::ClassJoinQueue(ClassJoinServer *server, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , mServer(server)
{
    setObjectName(QStringLiteral("classJoinQueue"));
    setWindowTitle(tr("Names from the class"));
    mTitle = new QLabel(this);
    mTitle->setWordWrap(true);
    mList = new QListWidget(this);
    mList->setObjectName(QStringLiteral("classJoinWaiting"));
    mList->setSelectionMode(QAbstractItemView::ExtendedSelection);
    mTitle->setBuddy(mList);
    mList->setAccessibleName(tr("Names waiting"));
    mTake = new QPushButton(tr("&Take"), this);
    mRefuse = new QPushButton(tr("&Refuse"), this);
    mTakeAll = new QPushButton(tr("Take &all"), this);
    mTake->setObjectName(QStringLiteral("classJoinTake"));
    mRefuse->setObjectName(QStringLiteral("classJoinRefuse"));
    mTakeAll->setObjectName(QStringLiteral("classJoinTakeAll"));
    connect(mTake, &QPushButton::clicked, this, [this] { decide(true, false); });
    connect(mRefuse, &QPushButton::clicked, this, [this] { decide(false, false); });
    connect(mTakeAll, &QPushButton::clicked, this, [this] { decide(true, true); });
    connect(mList, &QListWidget::itemActivated, this, [this] { decide(true, false); });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(mTake);
    buttons->addWidget(mRefuse);
    buttons->addStretch();
    buttons->addWidget(mTakeAll);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mTitle);
    layout->addWidget(mList, 1);
    layout->addLayout(buttons);
    connect(mServer, &ClassJoinServer::waitingChanged, this, &ClassJoinQueue::refresh);
    resize(360, 420);
    refresh();
}

void ClassJoinQueue::refresh()
{
    const auto waiting = mServer->waiting();
    QList<int> selected;
    for (const QListWidgetItem *item : mList->selectedItems())
        selected << item->data(Qt::UserRole).toInt();
    mList->clear();
    for (const ClassJoinServer::Submission &s : waiting) {
        const QString text = (s.action == Timeline::Action::Add ? tr("add %1 (from %2)") : tr("check %1 (from %2)"))
                                 .arg(QString::fromUtf8(s.name), s.device);
        auto *item = new QListWidgetItem(text, mList);
        item->setData(Qt::UserRole, s.id);
        item->setSelected(selected.contains(s.id));
    }
    if (mList->currentRow() < 0 && mList->count() > 0)
        mList->setCurrentRow(0);
    mTitle->setText(waiting.isEmpty() ? tr("No name is waiting.")
                                      : tr("%n name(s) wait for you: take them to the filter, or refuse them.", nullptr,
                                           int(waiting.size())));
    mTake->setEnabled(!waiting.isEmpty());
    mRefuse->setEnabled(!waiting.isEmpty());
    mTakeAll->setEnabled(!waiting.isEmpty());
}

void ClassJoinQueue::decide(bool take, bool all)
{
    QList<int> ids;
    if (all) {
        for (const ClassJoinServer::Submission &s : mServer->waiting())
            ids << s.id;
    } else {
        for (const QListWidgetItem *item : mList->selectedItems())
            ids << item->data(Qt::UserRole).toInt();
        if (ids.isEmpty() && mList->currentItem())
            ids << mList->currentItem()->data(Qt::UserRole).toInt();
    }
    for (int id : ids)
        take ? mServer->approve(id) : mServer->refuse(id);
}

} // namespace bloom
