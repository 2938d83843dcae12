#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

namespace bloom::teachexport {

/** What a slide shows: the filter at the timeline's position and that step's explanation. */
struct Slide {
    QString position;      ///< "step 5 / 5"
    QStringList hashLines; ///< the window's hash lines, plain text
    QString verdict;       ///< the window's verdict line, plain text
    QString verdictHead;   ///< its start the window shows bold in verdictColour (may be empty)
    QColor verdictColour;
    QList<bool> bits;         ///< every bit of the filter
    quint64 chunkBits = 0;    ///< a blocked filter's chunk (its rows); 0: classic
    int columns = 16;         ///< cells a row, as the window's grid lays them out
    QList<quint64> positions; ///< the step's positions, outlined
    QList<bool> wasSet;       ///< each position's bit before a check
    bool tested = false;      ///< a check: outlined by the old bit
    QColor background = Qt::white;
    QColor text = Qt::black;
};

/**
 * The slide as SVG 1.1 that renders the same in a browser, rsvg-convert and Qt: every piece of
 * text its own <text> with x and y (monospace, DejaVu Sans Mono or Liberation Mono, both 0.6 em an
 * advance), each cell a <rect data-bit data-set>. `fontFamily`: one family rather than the list
 * (for Qt's renderer, which reads the list as one name).
 */
QByteArray slideSvg(const Slide &slide, const QString &fontFamily = QString());

/**
 * `slide` by the file's suffix: .svg (slideSvg()), .pdf (one page, the same SVG drawn) or .png.
 * False and `error` when it cannot be written.
 */
bool slide(const Slide &slide, const QString &path, QString *error);

/** One CSV cell (RFC 4180 quoting), neutralised as OWASP recommends for spreadsheets: a cell that
 *  starts with = + - @, a tab or a carriage return gets a leading ' inside quotes. */
QString csvCell(QString field);
/** A table as CSV, each cell through csvCell(). */
bool csv(const QList<QStringList> &rows, const QString &path, QString *error);

} // namespace bloom::teachexport
