#include "postgres/filtersql.h"

#include <QFile>

namespace bloom {

QString sqlResource(const QString &name)
{
    QFile f(QStringLiteral(":/sql/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

namespace {

QString stripComments(const QString &sql)
{
    QStringList kept;
    for (const QString &line : sql.split(QLatin1Char('\n')))
        if (!line.startsWith(QLatin1String("--")))
            kept << line;
    return kept.join(QLatin1Char('\n')).trimmed() + QLatin1Char('\n');
}

} // namespace

QString renderFilterSql(const Geometry &g, const QString &table, const QString &function)
{
    QString sql = stripComments(sqlResource(QStringLiteral("filter_template.sql")));
    const QString chunkExpr =
        g.chunkLog2() == 0 ? QStringLiteral("0") : QStringLiteral("substring(h from 1 for %1)::int").arg(g.chunkLog2());
    sql.replace(QLatin1String("{{table}}"), table);
    sql.replace(QLatin1String("{{function}}"), function);
    sql.replace(QLatin1String("{{chunk_bits}}"), QString::number(g.chunkBits()));
    sql.replace(QLatin1String("{{chunks_minus_1}}"), QString::number(qint64(g.chunks()) - 1));
    sql.replace(QLatin1String("{{chunk_expr}}"), chunkExpr);
    sql.replace(QLatin1String("{{k_minus_1}}"), QString::number(g.k() - 1));
    sql.replace(QLatin1String("{{first_slice}}"), QString::number(g.chunkLog2() + 1));
    sql.replace(QLatin1String("{{bits_log2}}"), QString::number(g.bitsLog2()));
    return sql;
}

QString renderFunctionSql(const Geometry &g, const QString &function)
{
    const QString all = renderFilterSql(g, QStringLiteral("__table__"), function);
    return all.mid(all.indexOf(QLatin1String("create function")));
}

QString renderTableSql(const Geometry &g, const QString &table)
{
    const QString all = renderFilterSql(g, table, QStringLiteral("__function__"));
    return all.left(all.indexOf(QLatin1String("insert into"))).trimmed() + QLatin1Char('\n');
}

} // namespace bloom
