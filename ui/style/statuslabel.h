#pragma once

#include <QLabel>

namespace bloom {

/**
 * A window's status line (object name "status") that never widens its window. A line longer than
 * the label is cut at its end with an ellipsis, and the whole text is then the label's tooltip;
 * `text()` (and what a screen reader reads) is always the whole text. The text is always plain: a
 * name typed by the user that looks like HTML is shown as typed.
 */
class StatusLabel : public QLabel {
    Q_OBJECT
public:
    explicit StatusLabel(const QString &text, QWidget *parent = nullptr);

    /** Whether a line of the text is cut at the label's present width. */
    bool isCut() const;
    /** The text as it is drawn at the present width. */
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    QRect textRect() const; ///< where the text is drawn: the contents less the margin
};

} // namespace bloom
