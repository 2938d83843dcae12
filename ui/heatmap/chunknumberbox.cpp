#include "heatmap/chunknumberbox.h"

#include <QKeyEvent>
#include <QLineEdit>

namespace bloom {

namespace {

/** The digits of `text` as a number, or -1 (group separators and blanks ignored). */
qint64 number(QString text)
{
    text.remove(QLatin1Char(',')).remove(QLatin1Char(' ')).remove(QChar(0x00a0)).remove(QLatin1Char('.'));
    if (text.isEmpty() || text.size() > 12)
        return -1;
    for (QChar c : text)
        if (!c.isDigit())
            return -1;
    return text.toLongLong();
}

} // namespace

qint64 ChunkNumberBox::typedBeyond() const
{
    const qint64 v = number(lineEdit()->text());
    return v > maximum() ? v : -1;
}

QValidator::State ChunkNumberBox::validate(QString &text, int &) const
{
    if (text.trimmed().isEmpty())
        return QValidator::Intermediate;
    const qint64 v = number(text);
    if (v < 0)
        return QValidator::Invalid;
    // Past the last chunk it stays typed (Intermediate) so that Enter can say so.
    return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

void ChunkNumberBox::keyPressEvent(QKeyEvent *e)
{
    if ((e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter) && typedBeyond() >= 0) {
        emit outOfRange(typedBeyond());
        selectAll();
        return;
    }
    QSpinBox::keyPressEvent(e);
}

void ChunkNumberBox::focusOutEvent(QFocusEvent *e)
{
    if (const qint64 v = typedBeyond(); v >= 0)
        emit outOfRange(v);
    QSpinBox::focusOutEvent(e); // puts the last valid number back
}

} // namespace bloom
