#include "teach/steptext.h"

#include "style/theme.h"

#include <QCoreApplication>
#include <QFontMetrics>

namespace bloom::steptext {

namespace {

const QColor FreeColour(0x1e, 0x9e, 0x4a);
const QColor MaybeColour(0xc0, 0x7a, 0x00);

QString mono(const QString &s)
{
    return QStringLiteral("<span style='font-family:monospace'>%1</span>").arg(s.toHtmlEscaped());
}

QString name(const QByteArray &n)
{
    return QString::fromUtf8(n).toHtmlEscaped();
}

/** The digest whole, or its ends when the line would be wider than `room` characters. */
QString digest(const QByteArray &hex, int room)
{
    if (room <= 0 || hex.size() <= room)
        return QString::fromLatin1(hex);
    const int keep = qMax(8, room - 1);
    return QString::fromLatin1(hex.left(keep - 4)) + QChar(0x2026) + QString::fromLatin1(hex.right(4));
}

} // namespace

QString loweringNote(const SandboxFilter::Trace &t)
{
    if (t.lowering != Lowering::Approximate)
        return {};
    return QCoreApplication::translate(
        "bloom::steptext", "lower() offline, one character at a time as a libc UTF-8 database does (the demo's): "
                           "<b>approximate</b> - the filter database's own lower() decides");
}

QString hashHtml(Timeline::Action action, const SandboxFilter::Trace &t, const SandboxFilter &f, int phase,
                 const QFont &font, int maxWidth)
{
    const int k = int(t.positions.size());
    const int shown = qMin(phase, k);
    QFont monoFont(QStringLiteral("monospace"));
    monoFont.setStyleHint(QFont::TypeWriter);
    monoFont.setPointSizeF(font.pointSizeF() > 0 ? font.pointSizeF() : 10);
    const int charWidth = qMax(1, QFontMetrics(monoFont).horizontalAdvance(QLatin1Char('0')));
    const int columns = maxWidth > 0 ? maxWidth / charWidth : 0;
    QStringList lines;
    lines << QCoreApplication::translate("bloom::steptext", "<b>%1 %2</b> in a %3 filter")
                 .arg(action == Timeline::Action::Add ? QCoreApplication::translate("bloom::steptext", "add")
                                                      : QCoreApplication::translate("bloom::steptext", "check"),
                      name(t.name), f.describe());
    if (f.scheme() == SandboxFilter::Scheme::Classic) {
        for (int i = 0; i < k; ++i) {
            const QString input = QString::fromUtf8(t.input(i));
            const QString tail =
                QStringLiteral("  mod %1 = %2").arg(QString::number(f.size()), QString::number(t.positions[i]));
            // md5("0:ada") = <digest>  mod 16 = 14
            const int room = columns > 0 ? columns - int(input.size()) - 10 - int(tail.size()) : 0;
            QString line = mono(QStringLiteral("md5(\"%1\") = %2").arg(input, digest(t.digests[i], room)));
            if (i < shown)
                line +=
                    mono(QStringLiteral("  mod %1 = ").arg(f.size())) + QStringLiteral("<b>%1</b>").arg(t.positions[i]);
            lines << line;
        }
        return lines.join(QStringLiteral("<br>"));
    }
    const QString typed = QString::fromUtf8(t.name), lowered = QString::fromUtf8(t.hashed);
    const QString call = typed == lowered ? QStringLiteral("md5(lower(\"%1\"))").arg(typed)
                                          : QStringLiteral("md5(lower(\"%1\")) = md5(\"%2\")").arg(typed, lowered);
    const int room = columns > 0 ? columns - int(call.size()) - 3 : 0;
    lines << mono(QStringLiteral("%1 = %2").arg(call, digest(t.digests.value(0), room)));
    if (const QString note = loweringNote(t); !note.isEmpty())
        lines << QStringLiteral("<i>%1</i>").arg(note);
    QStringList bits;
    for (int i = 0; i < shown; ++i)
        bits << QString::number(t.shown(t.positions[i]));
    lines << QCoreApplication::translate("bloom::steptext",
                                         "the first %1 bits pick <b>chunk %2</b>; then %3-bit slices pick its bits %4")
                 .arg(QString::number(f.geometry().chunkLog2()), QString::number(t.chunk),
                      QString::number(f.geometry().bitsLog2()),
                      bits.isEmpty() ? QStringLiteral("...") : bits.join(QStringLiteral(", ")));
    return lines.join(QStringLiteral("<br>"));
}

QString verdictHtml(Timeline::Action action, const SandboxFilter::Trace &t, const QPalette &palette, bool brief)
{
    if (action == Timeline::Action::Add) {
        const qsizetype distinct = t.shownSorted().size(), k = t.positions.size();
        QString bits = distinct == 1
                           ? QCoreApplication::translate("bloom::steptext", "%1's bit is now 1").arg(name(t.name))
                           : QCoreApplication::translate("bloom::steptext", "%1's %2 bits are now 1")
                                 .arg(name(t.name), QString::number(distinct));
        if (distinct < k)
            bits += QCoreApplication::translate("bloom::steptext", " - %1 of its %2 hashes chose the same bit")
                        .arg(QString::number(k - distinct + 1), QString::number(k));
        return bits + QLatin1Char('.');
    }
    const QString rest = t.explain().toHtmlEscaped();
    if (!t.maybe)
        return QCoreApplication::translate("bloom::steptext",
                                           "<span style='color:%1'><b>%2: definitely not added</b></span>%3")
            .arg(theme::textOn(FreeColour, palette), name(t.name), brief ? QString() : QStringLiteral(" - ") + rest);
    if (t.added)
        return QCoreApplication::translate("bloom::steptext", "<span style='color:%1'><b>%2: maybe</b></span>%3")
            .arg(theme::textOn(MaybeColour, palette), name(t.name), brief ? QString() : QStringLiteral(" - ") + rest);
    QStringList who;
    for (const QByteArray &n : t.setBy)
        who << name(n);
    return QCoreApplication::translate("bloom::steptext",
                                       "<span style='color:%1'><b>%2: maybe - a FALSE POSITIVE</b></span>%3")
        .arg(theme::textOn(MaybeColour, palette), name(t.name),
             brief ? QCoreApplication::translate("bloom::steptext", " - its bits set by %1")
                         .arg(who.join(QStringLiteral(", ")))
                   : QStringLiteral(" - ") + rest);
}

} // namespace bloom::steptext
