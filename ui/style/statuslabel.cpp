#include "style/statuslabel.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

namespace bloom {

StatusLabel::StatusLabel(const QString &text, QWidget *parent)
    : QLabel(text, parent)
{
    setTextFormat(Qt::PlainText);
    setMinimumWidth(1);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

QString StatusLabel::shownText() const
{
    const int width = contentsRect().width() - 2 * margin() - 2 * qMax(0, indent());
    QStringList lines = text().split(QLatin1Char('\n'));
    for (QString &line : lines)
        line = fontMetrics().elidedText(line, Qt::ElideRight, qMax(1, width));
    return lines.join(QLatin1Char('\n'));
}

bool StatusLabel::isCut() const
{
    return shownText() != text();
}

void StatusLabel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QRect r = contentsRect().adjusted(margin(), margin(), -margin(), -margin());
    style()->drawItemText(&p, r, int(alignment()), palette(), isEnabled(), shownText(), foregroundRole());
}

bool StatusLabel::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        if (isCut())
            QToolTip::showText(help->globalPos(), text(), this);
        else if (toolTip().isEmpty())
            QToolTip::hideText();
        else
            return QLabel::event(event);
        return true;
    }
    return QLabel::event(event);
}

} // namespace bloom
