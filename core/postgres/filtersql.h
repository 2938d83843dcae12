#pragma once

#include "model/geometry.h"

#include <QString>

namespace bloom {

/**
 * The SQL that creates a filter table and its placement function for any geometry, from
 * resources/sql/filter_template.sql. With the reference geometry and names it is the reference SQL.
 * `table` and `function` must already be quoted identifiers.
 */
QString renderFilterSql(const Geometry &g, const QString &table, const QString &function);

/** The function alone (create function ...), for a rebuild that swaps it in later. */
QString renderFunctionSql(const Geometry &g, const QString &function);

/** The table alone (create table ...; no rows): what a logical-replication subscriber creates so that
 *  the rows can reach it. */
QString renderTableSql(const Geometry &g, const QString &table);

/** Reads a bundled SQL resource (":/sql/NAME"). */
QString sqlResource(const QString &name);

} // namespace bloom
