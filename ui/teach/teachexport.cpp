#include "teach/teachexport.h"

#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace bloom::teachexport {

bool slide(QWidget *widget, const QString &path, QString *error)
{
    const QSize size = widget->size();
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".svg"))) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(QStringLiteral("Bloomscope teaching mode"));
        QPainter p;
        if (!p.begin(&svg)) {
            *error = QStringLiteral("cannot write %1").arg(path);
            return false;
        }
        widget->render(&p);
        p.end();
        return true;
    }
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
        widget->render(&p);
        p.end();
        return true;
    }
    if (!widget->grab().save(path, "PNG")) {
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
