#include "teach/teachexport.h"
#include "teach/bitcolours.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgRenderer>

namespace bloom::teachexport {

namespace {

const QStringList MonoFamilies{QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Liberation Mono"),
                               QStringLiteral("Courier New")};
constexpr double TextSize = 18;    ///< px
constexpr double Advance = 0.6;    ///< em: DejaVu Sans Mono's and Liberation Mono's advance
constexpr double Margin = 24;      ///< px
constexpr double LineHeight = 1.5; ///< em
constexpr int MinWidth = 1280;     ///< px

/** Text for XML: escaped, and without the control characters XML 1.0 forbids. */
QString xml(QString s)
{
    for (QChar &c : s)
        if (c.unicode() < 0x20 && c != QLatin1Char('\t'))
            c = QChar(0xfffd);
    return s.toHtmlEscaped();
}

QString num(double v)
{
    return QString::number(v, 'f', 1);
}

/** One piece of text at (x, y): its baseline's left end. */
QString text(const QString &family, double x, double y, double size, const QString &s, const QColor &colour,
             bool bold = false, const QString &anchor = QString())
{
    return QStringLiteral("<text x=\"%1\" y=\"%2\" font-family=\"%3\" font-size=\"%4\" fill=\"%5\"%6%7 "
                          "xml:space=\"preserve\" style=\"white-space:pre\">%8</text>\n")
        .arg(num(x), num(y), family, num(size), colour.name(),
             bold ? QStringLiteral(" font-weight=\"bold\"") : QString(),
             anchor.isEmpty() ? QString() : QStringLiteral(" text-anchor=\"%1\"").arg(anchor), xml(s));
}

/** `s` in lines of at most `columns` characters, broken at spaces. */
QStringList wrap(const QString &s, int columns)
{
    QStringList out;
    QString line;
    for (const QString &word : s.split(QLatin1Char(' '))) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > columns) {
            out << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        out << line;
    return out;
}

} // namespace

QByteArray slideSvg(const Slide &s, const QString &fontFamily)
{
    const QString family =
        fontFamily.isEmpty() ? MonoFamilies.join(QStringLiteral(", ")) + QStringLiteral(", monospace") : fontFamily;
    const double adv = Advance * TextSize, line = LineHeight * TextSize;
    qsizetype widest = s.position.size();
    for (const QString &l : s.hashLines)
        widest = qMax(widest, l.size());
    const double width = qMax(double(MinWidth), std::ceil(2 * Margin + widest * adv));
    const int columns = qMax(1, int((width - 2 * Margin) / adv));
    const QStringList verdict = wrap(s.verdict, columns);
    const bool blocked = s.chunkBits > 0;
    const int perRow = qMax(1, s.columns);
    const qsizetype rows = (s.bits.size() + perRow - 1) / perRow;
    const double captionWidth = (blocked ? 10 : 8) * adv; // "chunk 123", "bit 4096"
    const double cell = qBound(6.0, std::floor((width - 2 * Margin - captionWidth) / perRow), 56.0);
    const bool numbers = cell >= 22;

    QString body;
    double y = Margin + TextSize;
    body += text(family, Margin, y, TextSize, s.position, s.text, true);
    y += line;
    // The hash lines: a "mod m = N" line's N (bold in the window) its own text right after the rest.
    static const QRegularExpression modLine(QStringLiteral("^(.*mod \\d+ = )(\\d+)$"));
    for (qsizetype i = 0; i < s.hashLines.size(); ++i) {
        y += line;
        const QString &l = s.hashLines[i];
        const QRegularExpressionMatch m = modLine.match(l);
        if (m.hasMatch()) {
            body += text(family, Margin, y, TextSize, m.captured(1), s.text);
            body += text(family, Margin + m.captured(1).size() * adv, y, TextSize, m.captured(2), s.text, true);
        } else {
            body += text(family, Margin, y, TextSize, l, s.text, i == 0);
        }
    }
    // The bits, as the grid shows them: set ones filled, the step's outlined.
    y += line;
    const double gridLeft = Margin + captionWidth;
    const quint64 largest = blocked ? s.chunkBits - 1 : quint64(qMax<qsizetype>(1, s.bits.size()) - 1);
    const double small = qMin(cell * 0.4, (cell - 4) / (0.6 * QString::number(largest).size()));
    const double captionSize = qMin(TextSize, cell * 0.9);
    // Cells too small for their numbers: a ruler of every eighth (or fourth) column above, as the window.
    const double rulerSize = 12;
    if (!numbers || small < 7) {
        y += rulerSize;
        for (int c = 0; c < perRow; c += perRow >= 32 ? 8 : 4)
            body += text(family, gridLeft + c * cell, y - 2, rulerSize, QString::number(c), s.text);
    }
    const double gridTop = y;
    for (qsizetype b = 0; b < s.bits.size(); ++b) {
        const double cx = gridLeft + double(b % perRow) * cell, cy = gridTop + double(b / perRow) * cell;
        const bool set = s.bits[b];
        body += QStringLiteral("<rect data-bit=\"%1\" data-set=\"%2\" x=\"%3\" y=\"%4\" width=\"%5\" height=\"%5\" "
                               "fill=\"%6\" stroke=\"#b0b0b0\" stroke-width=\"1\"/>\n")
                    .arg(QString::number(b), set ? QStringLiteral("1") : QStringLiteral("0"), num(cx), num(cy),
                         num(cell - 1), (set ? bitcolours::Set : bitcolours::Clear).name());
        if (numbers && small >= 7)
            body += text(family, cx + (cell - 1) / 2, cy + (cell - 1) / 2 + small * 0.35, small,
                         QString::number(blocked ? quint64(b) % s.chunkBits : quint64(b)),
                         set ? QColor(Qt::white) : QColor(0x60, 0x60, 0x60), false, QStringLiteral("middle"));
        if (b % perRow == 0) {
            const QString caption =
                blocked
                    ? (quint64(b) % s.chunkBits == 0 ? QCoreApplication::translate("bloom::BitGridWidget", "chunk %1")
                                                           .arg(QString::number(quint64(b) / s.chunkBits))
                                                     : QCoreApplication::translate("bloom::BitGridWidget", "+%1")
                                                           .arg(QString::number(quint64(b) % s.chunkBits)))
                    : QCoreApplication::translate("bloom::BitGridWidget", "bit %1").arg(QString::number(b));
            body += text(family, gridLeft - adv * 0.5, cy + cell / 2 + captionSize * 0.35, captionSize, caption, s.text,
                         false, QStringLiteral("end"));
        }
    }
    for (qsizetype i = 0; i < s.positions.size(); ++i) {
        const quint64 b = s.positions[i];
        const QColor c = !s.tested ? bitcolours::New : (s.wasSet.value(i) ? bitcolours::WasSet : bitcolours::WasClear);
        const double pen = qMax(2.0, cell / 8);
        body += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%3\" fill=\"none\" stroke=\"%4\" "
                               "stroke-width=\"%5\"/>\n")
                    .arg(num(gridLeft + double(b % quint64(perRow)) * cell + pen / 2),
                         num(gridTop + double(b / quint64(perRow)) * cell + pen / 2), num(cell - 1 - pen), c.name(),
                         num(pen));
    }
    y = gridTop + double(rows) * cell + TextSize / 2;
    for (qsizetype i = 0; i < verdict.size(); ++i) {
        y += line;
        const QString &l = verdict[i];
        if (i == 0 && !s.verdictHead.isEmpty() && l.startsWith(s.verdictHead)) {
            body += text(family, Margin, y, TextSize, s.verdictHead,
                         s.verdictColour.isValid() ? s.verdictColour : s.text, true);
            if (l.size() > s.verdictHead.size())
                body +=
                    text(family, Margin + s.verdictHead.size() * adv, y, TextSize, l.mid(s.verdictHead.size()), s.text);
        } else {
            body += text(family, Margin, y, TextSize, l, s.text);
        }
    }
    const double height = std::ceil(y + Margin);
    const QString svg =
        QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%1\" height=\"%2\" "
                       "viewBox=\"0 0 %1 %2\">\n<title>Bloomscope teaching mode</title>\n"
                       "<rect x=\"0\" y=\"0\" width=\"%1\" height=\"%2\" fill=\"%3\"/>\n%4</svg>\n")
            .arg(QString::number(width), QString::number(height), s.background.name(), body);
    return svg.toUtf8();
}

bool slide(const Slide &content, const QString &path, QString *error)
{
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".svg"))) {
        const QByteArray svg = slideSvg(content);
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(svg) != svg.size() || !file.commit()) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
            return false;
        }
        return true;
    }
    // Qt's SVG renderer takes font-family as one name: the first of the list installed here.
    QString family = QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
    for (const QString &f : MonoFamilies)
        if (QFontDatabase::hasFamily(f)) {
            family = f;
            break;
        }
    QSvgRenderer renderer(slideSvg(content, family));
    const QSize size = renderer.defaultSize();
    if (lower.endsWith(QLatin1String(".pdf"))) {
        QPdfWriter pdf(path);
        pdf.setResolution(96);
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0), QPageSize::Point));
        pdf.setTitle(QStringLiteral("Bloomscope teaching mode"));
        QPainter p;
        if (!p.begin(&pdf)) {
            *error = QStringLiteral("cannot write %1").arg(path);
            return false;
        }
        renderer.render(&p, QRectF(QPointF(0, 0), QSizeF(size)));
        p.end();
        return true;
    }
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(content.background);
    QPainter p(&image);
    renderer.render(&p, QRectF(QPointF(0, 0), QSizeF(size)));
    p.end();
    if (!image.save(path, "PNG")) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

QString csvCell(QString f)
{
    // OWASP's CSV injection advice: a cell a spreadsheet would read as a formula (= + - @, a tab or a
    // carriage return first) gets a leading ' and quotes; a comma, a quote or a line break is quoted.
    bool quote = f.contains(QLatin1Char(',')) || f.contains(QLatin1Char('"')) || f.contains(QLatin1Char('\n')) ||
                 f.contains(QLatin1Char('\r'));
    if (!f.isEmpty() && QStringView(u"=+-@\t\r").contains(f.front())) {
        f.prepend(QLatin1Char('\''));
        quote = true;
    }
    if (quote) {
        f.replace(QLatin1String("\""), QLatin1String("\"\""));
        f = QLatin1Char('"') + f + QLatin1Char('"');
    }
    return f;
}

bool csv(const QList<QStringList> &rows, const QString &path, QString *error)
{
    QByteArray out;
    for (const QStringList &row : rows) {
        QStringList fields;
        for (const QString &f : row)
            fields << csvCell(f);
        out += fields.join(QLatin1Char(',')).toUtf8() + "\r\n";
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(out) != out.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace bloom::teachexport
