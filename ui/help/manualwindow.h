#pragma once

#include <QList>
#include <QWidget>

class QAction;
class QLineEdit;
class QTextBrowser;

namespace bloom {

/**
 * Help > Contents (F1): the manual compiled into the program (":/manual/manual.md", English), in a
 * window of its own that works offline, with a find field and the shortcuts of the window that opened
 * it as a table.
 */
class ManualWindow : public QWidget {
    Q_OBJECT
public:
    /** `actions`: the opening window's actions; those with keys make the manual's shortcuts table. */
    explicit ManualWindow(const QList<QAction *> &actions, QWidget *parent = nullptr);

    QTextBrowser *browser() const { return mBrowser; }
    /** The manual's Markdown with the shortcuts table in place of its {{SHORTCUTS}} line. */
    QString markdown() const { return mMarkdown; }
    /** A Markdown table, one row an action with keys: the menu text without its accelerator, the keys. */
    static QString shortcutTable(const QList<QAction *> &actions);

private:
    void find(bool backward);

    QTextBrowser *mBrowser;
    QLineEdit *mFind;
    QString mMarkdown;
};

} // namespace bloom
