#pragma once

#include "maintenance/rebuild.h"

#include <QLabel>

namespace bloom {

/** The line over the tabs about a rebuild of the filter: running, waiting for its swap (amber), or
 *  interrupted (red: the live function still records every name); hidden when there is none. */
class RebuildBanner : public QLabel {
    Q_OBJECT
public:
    explicit RebuildBanner(QWidget *parent = nullptr);
    void setState(const RebuildState &rebuild);
};

} // namespace bloom
