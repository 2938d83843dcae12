// Internal to maintenance/: what the swap carries over from the live pair to the new one.
#pragma once

#include "common/result.h"
#include "maintenance/helpers.h"

#include <QStringList>

namespace bloom::maintenance {

/** The statements that carry what the site set on the live pair over to the new one. */
struct CarryPlan {
    QStringList carried, notCarried;
    QString onNew;   ///< inside the swap, before the renames: indexes, triggers, comments, grants, publications, owner
    QString renames; ///< under ACCESS EXCLUSIVE: constraint names, then the pair's names
    QString oldTable, oldFunction; ///< what the live pair is renamed to (distinct from every name in the schema)
    QStringList publications;      ///< the publications that carry the filter to subscribers
    QString subscriberCheck, subscriberAfter; ///< what their subscribers show before and run after the swap
};

/**
 * Reads the catalog for the live pair (owner, grants, column grants, comments, indexes, triggers,
 * storage options, replica identity, FOR TABLE publications) and writes the statements that give the
 * new pair the same, composed from the catalog's parts with every name quoted (no definition text is
 * parsed); lists what no statement can carry (policies, rules, dependent views, other constraints,
 * a trigger's WHEN condition, ...). Picks the names the live pair's table, function, primary key and
 * indexes get, suffixed with "_old_" + `stamp`.
 */
Result<CarryPlan> planCarryOver(Database &db, const Helpers &h, const FilterStore &live, const FilterStore &next,
                                const QString &stamp);

} // namespace bloom::maintenance
