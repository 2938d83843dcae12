#include "connect/sessionbanner.h"

#include "style/theme.h"

namespace bloom {

SessionBanner::SessionBanner(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("environmentBanner"));
    setAlignment(Qt::AlignCenter);
    setAccessibleName(tr("Session"));
    setTextFormat(Qt::PlainText); // a profile's name and the server's are not markup
    hide();
}

QString SessionBanner::describe(const FilterSummary *s, const Profile &profile, const std::optional<ServerRole> &role)
{
    if (!s) {
        hide();
        return tr("Bloomscope");
    }
    // A standby takes no write whatever the mode: the banner says where writes go instead.
    const bool standby = role ? role->inRecovery : s->standby;
    const QString mode = standby       ? tr("STANDBY, read-only replica")
                         : s->readOnly ? tr("read-only")
                                       : tr("ADMIN: writes allowed");
    // The three environments the dialog offers are words of the window's language; others as typed.
    const QString stored = profile.environment.toLower();
    const QString env = stored == QLatin1String("development")  ? tr("DEVELOPMENT")
                        : stored == QLatin1String("staging")    ? tr("STAGING")
                        : stored == QLatin1String("production") ? tr("PRODUCTION")
                                                                : profile.environment.toUpper();
    // The banner always says where the window is and whether it writes; the environment colours it.
    const QColor colour = profile.colour();
    if (colour.isValid())
        setStyleSheet(theme::bannerStyle(colour));
    else if (!s->readOnly)
        setStyleSheet(theme::bannerStyle(theme::adminBanner()));
    else
        setStyleSheet(QStringLiteral("padding:3px"));
    QStringList parts;
    if (!env.isEmpty())
        parts << env;
    if (!profile.name.isEmpty())
        parts << profile.name;
    parts << tr("%1 on %2").arg(s->ref.table, s->where);
    if (standby)
        parts << (role ? tr("STANDBY: %1; writes go to the primary").arg(role->describe())
                       : tr("STANDBY (read-only replica); writes go to the primary"));
    else
        parts << (s->readOnly ? tr("read-only") : tr("ADMIN MODE: writes allowed"));
    setText(parts.join(QStringLiteral(" \u2014 ")));
    show();
    return env.isEmpty() ? tr("Bloomscope \u2014 %1 on %2 (%3)").arg(s->ref.table, s->where, mode)
                         : tr("Bloomscope \u2014 %1 \u2014 %2 on %3 (%4)").arg(env, s->ref.table, s->where, mode);
}

} // namespace bloom
