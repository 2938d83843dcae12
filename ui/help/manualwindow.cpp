#include "help/manualwindow.h"

#include <QAction>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QTextTable>
#include <QVBoxLayout>

#include <algorithm>

namespace bloom {

ManualWindow::ManualWindow(const QList<QAction *> &actions, QWidget *parent)
    : QWidget(parent, Qt::Window)
{
    setObjectName(QStringLiteral("manualWindow"));
    setWindowTitle(tr("Bloomscope Manual"));
    mBrowser = new QTextBrowser(this);
    mBrowser->setObjectName(QStringLiteral("manualBrowser"));
    mBrowser->setAccessibleName(tr("Manual"));
    mBrowser->setAccessibleDescription(tr("The Bloomscope manual, in English"));
    mBrowser->setOpenExternalLinks(true);
    QFile file(QStringLiteral(":/manual/manual.md"));
    if (file.open(QIODevice::ReadOnly))
        mMarkdown = QString::fromUtf8(file.readAll());
    else
        mMarkdown = tr("The manual is missing from this build.");
    mMarkdown.replace(QLatin1String("{{SHORTCUTS}}"), shortcutTable(actions));
    mBrowser->setMarkdown(mMarkdown);
    // Markdown's tables come without padding: the shortcuts table gets some, and no double border.
    for (QTextFrame *child : mBrowser->document()->rootFrame()->childFrames())
        if (auto *table = qobject_cast<QTextTable *>(child)) {
            QTextTableFormat format = table->format();
            format.setCellPadding(4);
            format.setCellSpacing(0);
            format.setBorderCollapse(true);
            table->setFormat(format);
        }

    auto *findLabel = new QLabel(tr("&Find:"), this);
    mFind = new QLineEdit(this);
    mFind->setObjectName(QStringLiteral("manualFind"));
    mFind->setAccessibleName(tr("Find in the manual"));
    mFind->setPlaceholderText(tr("Find in the manual"));
    mFind->setClearButtonEnabled(true);
    findLabel->setBuddy(mFind);
    connect(mFind, &QLineEdit::returnPressed, this, [this] { find(false); });
    auto *next = new QPushButton(tr("&Next"), this);
    next->setObjectName(QStringLiteral("manualFindNext"));
    connect(next, &QPushButton::clicked, this, [this] { find(false); });
    auto *previous = new QPushButton(tr("&Previous"), this);
    previous->setObjectName(QStringLiteral("manualFindPrevious"));
    connect(previous, &QPushButton::clicked, this, [this] { find(true); });
    // Not QDialogButtonBox::Close: its text is Qt's, English unless qt6-translations-l10n is installed.
    auto *closeButton = new QPushButton(tr("Close"), this);
    closeButton->setObjectName(QStringLiteral("manualClose"));
    connect(closeButton, &QPushButton::clicked, this, &QWidget::close);

    auto *findAction = new QAction(this);
    findAction->setShortcuts(QKeySequence::Find);
    connect(findAction, &QAction::triggered, this, [this] {
        mFind->setFocus();
        mFind->selectAll();
    });
    addAction(findAction);
    auto *closeAction = new QAction(this);
    closeAction->setShortcuts(QKeySequence::Close);
    connect(closeAction, &QAction::triggered, this, &QWidget::close);
    addAction(closeAction);

    auto *row = new QHBoxLayout;
    row->addWidget(findLabel);
    row->addWidget(mFind, 1);
    row->addWidget(previous);
    row->addWidget(next);
    row->addStretch();
    row->addWidget(closeButton);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mBrowser, 1);
    layout->addLayout(row);
    resize(860, 680);
}

void ManualWindow::find(bool backward)
{
    const QString text = mFind->text();
    if (text.isEmpty())
        return;
    const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (!mBrowser->find(text, flags)) { // once more from the other end
        QTextCursor c = mBrowser->textCursor();
        c.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        mBrowser->setTextCursor(c);
        mBrowser->find(text, flags);
    }
}

QString ManualWindow::shortcutTable(const QList<QAction *> &actions)
{
    QStringList rows;
    for (const QAction *a : actions) {
        if (a->shortcuts().isEmpty() || a->text().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        QString text = a->text();
        text.remove(QRegularExpression(QStringLiteral("&(?!&)"))).replace(QLatin1String("..."), QString());
        rows << QStringLiteral("| %1 | %2 |").arg(keys.join(QLatin1String(", ")), text.toHtmlEscaped());
    }
    std::sort(rows.begin(), rows.end());
    rows.removeDuplicates();
    return QStringLiteral("| %1 | %2 |\n| --- | --- |\n").arg(tr("Keys"), tr("Action")) + rows.join(QLatin1Char('\n'));
}

} // namespace bloom
