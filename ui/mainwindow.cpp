#include "mainwindow.h"

#include "explanation.h"
#include "name.h"

#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace bloom {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Bloomscope"));
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->addWidget(new QLabel(tr("Name:"), central));
    mName = new QLineEdit(central);
    mName->setPlaceholderText(tr("type a username, e.g. ada"));
    layout->addWidget(mName);
    mText = new QPlainTextEdit(central);
    mText->setReadOnly(true);
    mText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(mText, 1);
    setCentralWidget(central);
    connect(mName, &QLineEdit::textChanged, this, &MainWindow::updateExplanation);
    resize(900, 520);
}

void MainWindow::setName(const QString &name)
{
    mName->setText(name);
}

void MainWindow::updateExplanation()
{
    const QString name = mName->text();
    if (auto s = validateName(name.toUtf8()); !s) {
        mText->setPlainText(s.error().toString());
        return;
    }
    mText->setPlainText(Explanation::offline(Geometry(), name).toText());
}

} // namespace bloom
