#pragma once

#include "connect/profile.h"
#include "session/sessiontypes.h"

#include <QLabel>

#include <optional>

namespace bloom {

/** The line over the tabs that says where the window is and whether it writes: the environment, the
 *  profile, the table on user@host/db, read-only or ADMIN MODE, coloured by the environment. */
class SessionBanner : public QLabel {
    Q_OBJECT
public:
    explicit SessionBanner(QWidget *parent = nullptr);
    /** The session now (none: hidden); returns the window title that goes with it. */
    /** `role`: the server's role at the last refresh (a standby's replay lag); none before the first. */
    QString describe(const FilterSummary *session, const Profile &profile,
                     const std::optional<ServerRole> &role = std::nullopt);
};

} // namespace bloom
