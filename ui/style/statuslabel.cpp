#include "style/statuslabel.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

namespace bloom {

StatusLabel::StatusLabel(const QString &text, QWidget *parent)
    : QLabel(text, parent)
{
    setObjectName(QStringLiteral("status"));
    setTextFormat(Qt::PlainText);
    setMinimumWidth(1);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

QRect StatusLabel::textRect() const
{
    return contentsRect().adjusted(margin(), margin(), -margin(), -margin());
}

QString StatusLabel::shownText() const
{
    const int width = qMax(1, textRect().width());
    QStringList lines = text().split(QLatin1Char('\n'));
    for (QString &line : lines)
        line = fontMetrics().elidedText(line, Qt::ElideRight, width);
    return lines.join(QLatin1Char('\n'));
}

bool StatusLabel::isCut() const
{
    return shownText() != text();
}

void StatusLabel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    style()->drawItemText(&p, textRect(), int(alignment()), palette(), isEnabled(), shownText(), foregroundRole());
}

bool StatusLabel::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty()) {
        if (isCut())
            QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), text(), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QLabel::event(event);
}

} // namespace bloom
