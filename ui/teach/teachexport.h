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

/** One CSV cell (RFC 4180 quoting), neutralised as OWASP recommends for spreadsheets: a cell that
 *  starts with = + - @, a tab or a carriage return gets a leading ' inside quotes. */
QString csvCell(QString field);
/** A table as CSV, each cell through csvCell(). */
bool csv(const QList<QStringList> &rows, const QString &path, QString *error);

} // namespace bloom::teachexport
