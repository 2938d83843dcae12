#pragma once

#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

namespace bloom::test {

/** Answers the next modal message box with `button`, once it is up. */
inline void answerNextBox(QMessageBox::StandardButton button)
{
    QTimer::singleShot(0, qApp, [button] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box) {
            answerNextBox(button);
            return;
        }
        box->button(button)->click();
    });
}

} // namespace bloom::test
