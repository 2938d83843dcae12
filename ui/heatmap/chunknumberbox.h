#pragma once

#include <QSpinBox>

namespace bloom {

/**
 * The Chunk tab's number: a chunk beyond the filter's last can be typed in full and is refused with a
 * signal, instead of QSpinBox's silent cut (999999 typed opened chunk 99999).
 */
class ChunkNumberBox : public QSpinBox {
    Q_OBJECT
public:
    using QSpinBox::QSpinBox;
    /** The number in the field when it is past maximum() (-1: none). */
    qint64 typedBeyond() const;

signals:
    /** Enter, or leaving the field, with a number past the last chunk: nothing is opened. */
    void outOfRange(qint64 typed);

protected:
    QValidator::State validate(QString &text, int &pos) const override;
    void keyPressEvent(QKeyEvent *e) override;
    void focusOutEvent(QFocusEvent *e) override;
};

} // namespace bloom
