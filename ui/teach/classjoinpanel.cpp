#include "teach/classjoinpanel.h"

#include "teach/classjoinqueue.h"
#include "teach/classjoinserver.h"
#include "teach/qrcode.h"

#include <QCheckBox>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

namespace bloom {

namespace {

/** A QR code drawn at a whole number of pixels a module, never smoothed (a phone's camera reads sharp
 *  edges), on white with its quiet zone, as large as the widget allows. */
class QrView : public QWidget {
public:
    using QWidget::QWidget;
    void setImage(const QImage &image)
    {
        mImage = image;
        update();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        if (mImage.isNull())
            return;
        QPainter p(this);
        const int module = qMax(1, qMin(width(), height()) / mImage.width());
        const int side = module * mImage.width();
        const QRect target((width() - side) / 2, (height() - side) / 2, side, side);
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(target, mImage);
    }

private:
    QImage mImage;
};

} // namespace

ClassJoinPanel::ClassJoinPanel(ClassJoinServer *server, QWidget *parent)
    : QWidget(parent)
    , mServer(server)
    , mQueue(new ClassJoinQueue(server, this))
{
    setObjectName(QStringLiteral("classJoinPanel"));
    auto *title = new QLabel(tr("Join from your phone"), this);
    QFont big = title->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.3);
    title->setFont(big);
    title->setWordWrap(true);
    mCode = new QrView(this);
    mCode->setObjectName(QStringLiteral("classJoinCode"));
    mCode->setMinimumSize(140, 140);
    mCode->setAccessibleName(tr("QR code of the class's page"));
    mUrl = new QLabel(this);
    mUrl->setObjectName(QStringLiteral("classJoinUrl"));
    mUrl->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    mUrl->setWordWrap(true);
    mUrl->setAlignment(Qt::AlignCenter);
    mUrl->setAccessibleName(tr("Address of the class's page"));
    mUrl->setFont(big); // typed from the projector by whoever cannot scan the code
    mCounts = new QLabel(this);
    mCounts->setObjectName(QStringLiteral("classJoinCounts"));
    mCounts->setWordWrap(true);
    mApproval = new QCheckBox(tr("Take each name &myself"), this);
    mApproval->setObjectName(QStringLiteral("classJoinApproval"));
    mPause = new QPushButton(tr("&Pause"), this);
    mPause->setObjectName(QStringLiteral("classJoinPause"));
    mPause->setCheckable(true);
    mWaiting = new QPushButton(this);
    mWaiting->setObjectName(QStringLiteral("classJoinWaitingButton"));
    mClose = new QPushButton(tr("Close the &page"), this);
    mClose->setObjectName(QStringLiteral("classJoinClose"));
    connect(mApproval, &QCheckBox::toggled, this, [this](bool on) {
        mServer->setApproval(on);
        refresh();
    });
    connect(mPause, &QPushButton::toggled, this, [this](bool on) {
        mServer->setPaused(on);
        refresh();
    });
    connect(mWaiting, &QPushButton::clicked, this, [this] {
        mQueue->show();
        mQueue->raise();
        mQueue->activateWindow();
    });
    connect(mClose, &QPushButton::clicked, this, &ClassJoinPanel::closeRequested);
    connect(mServer, &ClassJoinServer::waitingChanged, this, [this] {
        if (!mServer->waiting().isEmpty() && !mQueue->isVisible())
            mQueue->show(); // the lecturer's window: never on the projector's panel
        refresh();
    });
    connect(mServer, &ClassJoinServer::nameTaken, this, &ClassJoinPanel::refresh);
    auto *buttons = new QVBoxLayout; // narrow: the projector's width is the filter's
    buttons->addWidget(mPause);
    buttons->addWidget(mClose);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(mCode, 1);
    layout->addWidget(mUrl);
    layout->addWidget(mCounts);
    layout->addWidget(mApproval);
    layout->addWidget(mWaiting);
    layout->addLayout(buttons);
    refresh();
}

void ClassJoinPanel::refresh()
{
    mUrl->setText(mServer->joinUrl().toString());
    const QSignalBlocker blockApproval(mApproval), blockPause(mPause);
    mApproval->setChecked(mServer->approval());
    mPause->setChecked(mServer->paused());
    const int waiting = int(mServer->waiting().size());
    mCounts->setText(mServer->paused() ? tr("Paused: phones are asked to wait.")
                                       : tr("%n name(s) from the class so far.", nullptr, mServer->taken()));
    mWaiting->setText(tr("Names &waiting (%1)...").arg(waiting));
    mWaiting->setVisible(mServer->approval());
    showCode();
}

void ClassJoinPanel::showCode()
{
    static_cast<QrView *>(mCode)->setImage(qrCode(mServer->joinUrl().toString().toUtf8()));
}

} // namespace bloom
