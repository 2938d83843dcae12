#pragma once

#include "connect/profile.h"
#include "session/sessiontypes.h"

#include <QLabel>

namespace bloom {

/** The line over the tabs that says where the window is and whether it writes: the environment, the
 *  profile, the table on user@host/db, read-only or ADMIN MODE, coloured by the environment. */
class SessionBanner : public QLabel {
    Q_OBJECT
public:
    explicit SessionBanner(QWidget *parent = nullptr);
    /** The session now (none: hidden); returns the window title that goes with it. */
    QString describe(const FilterSummary *session, const Profile &profile);
};

} // namespace bloom
