#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QWidget;

namespace bloom::teachexport {

/**
 * A slide of `widget` (the hash lines, the bit array, the verdict) by the file's suffix: .svg
 * (vector, its text still text), .pdf (one page of the widget's size) or .png. False and `error`
 * when it cannot be written.
 */
bool slide(QWidget *widget, const QString &path, QString *error);

/** A table as CSV (RFC 4180: fields quoted when they hold a comma, a quote or a line break). */
bool csv(const QList<QStringList> &rows, const QString &path, QString *error);

} // namespace bloom::teachexport
