#pragma once

#include <QString>

class QWidget;

namespace bloom {

/** `path` with `.suffix` appended unless it already ends in it (case-insensitive). */
QString withSuffix(const QString &path, const QString &suffix);

/** A save dialog that adds `suffix` when the name typed has none; empty when cancelled. */
QString chooseSaveFile(QWidget *parent, const QString &title, const QString &defaultName, const QString &filter,
                       const QString &suffix);

} // namespace bloom
