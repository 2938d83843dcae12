#include "admin/damagebanner.h"

#include "style/theme.h"

namespace bloom {

DamageBanner::DamageBanner(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("damageBanner"));
    setAccessibleName(tr("Damaged filter"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setStyleSheet(theme::bannerStyle(theme::productionBanner()));
    hide();
}

void DamageBanner::setState(const FillResult &r)
{
    if (r.fill.damage.empty()) {
        hide();
        return;
    }
    setText(tr("DAMAGED FILTER \u2014 %1.\nFix: %2.").arg(r.damageError.message, r.damageError.fix));
    show();
}

} // namespace bloom
