#pragma once

#include <QMainWindow>

class QLineEdit;
class QPlainTextEdit;

namespace bloom {

/** Bloomscope's main window. For now: the offline explanation of a name as the user types it. */
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    void setName(const QString &name);

private:
    void updateExplanation();

    QLineEdit *mName = nullptr;
    QPlainTextEdit *mText = nullptr;
};

} // namespace bloom
