#include "admin/rebuildbanner.h"

#include "style/theme.h"

#include <QLocale>

namespace bloom {

RebuildBanner::RebuildBanner(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("rebuildBanner"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText); // the rebuild state's names are the database's text
    setAlignment(Qt::AlignCenter);
    hide();
}

void RebuildBanner::setState(const RebuildState &rebuild)
{
    if (!rebuild.exists) {
        hide();
    } else if (!rebuild.running && rebuild.stage == QLatin1String("ready")) {
        setStyleSheet(theme::bannerStyle(theme::warningBanner()));
        setText(tr("%1 is rebuilt and waits to be swapped in (Admin > Swap); until then the live function "
                   "records every name (%L2 pending).")
                    .arg(rebuild.newTable, QLocale().toString(rebuild.pending)));
        show();
    } else if (!rebuild.running) {
        // Loud: the live function records every name until someone finishes or aborts it.
        setStyleSheet(theme::bannerStyle(theme::productionBanner()));
        setText(tr("REBUILD INTERRUPTED into %1 (stage %2, started %3): no session is running it, yet the live "
                   "function still records every name (%L4 pending). Finish it with Admin > Swap, or undo it with "
                   "bloomctl rebuild --abort.")
                    .arg(rebuild.newTable, rebuild.stage,
                         QLocale().toString(rebuild.startedAt.toLocalTime(), QLocale::ShortFormat),
                         QLocale().toString(rebuild.pending)));
        show();
    } else {
        setStyleSheet(QStringLiteral("padding:4px"));
        setText(tr("A rebuild into %1 is running (stage %2); the live filter keeps serving.")
                    .arg(rebuild.newTable, rebuild.stage));
        show();
    }
}

} // namespace bloom
