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
    } else if (rebuild.waitingForSwap()) {
        setStyleSheet(theme::bannerStyle(theme::warningBanner()));
        setText(tr("%1 is rebuilt and has waited %2 min to be swapped in (Admin > Swap); until then the live "
                   "function records every name, checks included (%3 pending).")
                    .arg(rebuild.newTable, QLocale().toString(qRound64(qMax(0.0, rebuild.stageSeconds) / 60)),
                         QLocale().toString(rebuild.pending)));
        show();
    } else if (rebuild.interrupted()) {
        // Loud: the live function records every name until someone finishes or aborts it. What to do
        // follows the stage: a rebuild cut before its table was written can only be aborted.
        setStyleSheet(theme::bannerStyle(theme::productionBanner()));
        const QString started = QLocale().toString(rebuild.startedAt.toLocalTime(), QLocale::ShortFormat);
        setText(rebuild.newTableWritten()
                    ? tr("REBUILD INTERRUPTED into %1 (stage %2, started %3): no session is running it, yet the live "
                         "function still records every name (%4 pending). Its table is written: finish it with "
                         "Admin > Swap, or undo it with Admin > Abort the rebuild.")
                          .arg(rebuild.newTable, rebuild.stage, started, QLocale().toString(rebuild.pending))
                    : tr("REBUILD INTERRUPTED into %1 (stage %2, started %3): no session is running it, yet the live "
                         "function still records every name (%4 pending). Its table was never written: undo it with "
                         "Admin > Abort the rebuild, then rebuild again.")
                          .arg(rebuild.newTable, rebuild.stage, started, QLocale().toString(rebuild.pending)));
        show();
    } else {
        setStyleSheet(QStringLiteral("padding:4px"));
        setText(tr("A rebuild into %1 is running (stage %2); the live filter keeps serving.")
                    .arg(rebuild.newTable, rebuild.stage));
        show();
    }
}

} // namespace bloom
