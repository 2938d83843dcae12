#pragma once

#include "session/sessiontypes.h"

#include <QLabel>

namespace bloom {

/** The red line over the tabs while a chunk row is NULL or missing: what it means and what restores
 *  it, in bloomctl's words, on every refresh that still finds it; hidden otherwise. */
class DamageBanner : public QLabel {
    Q_OBJECT
public:
    explicit DamageBanner(QWidget *parent = nullptr);
    /** A refresh's finding (no damage: hidden). */
    void setState(const FillResult &r);
};

} // namespace bloom
