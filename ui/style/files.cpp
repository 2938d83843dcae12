#include "style/files.h"

#include <QFileDialog>

namespace bloom {

QString withSuffix(const QString &path, const QString &suffix)
{
    if (path.isEmpty() || path.endsWith(QLatin1Char('.') + suffix, Qt::CaseInsensitive))
        return path;
    return path + QLatin1Char('.') + suffix;
}

QString chooseSaveFile(QWidget *parent, const QString &title, const QString &defaultName, const QString &filter,
                       const QString &suffix)
{
    QFileDialog dialog(parent, title, defaultName, filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return withSuffix(dialog.selectedFiles().first(), suffix); // a native dialog may ignore the default
}

} // namespace bloom
