#include "maintenance/siteobjects.h"

#include "postgres/filtersql.h"
#include "postgres/identifier.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

namespace bloom::maintenance {

namespace {

/** A catalog query from resources/sql, without its comment lines. */
QString catalogQuery(const QString &resource)
{
    QStringList lines;
    for (const QString &line : sqlResource(resource).split(QLatin1Char('\n')))
        if (!line.trimmed().startsWith(QLatin1String("--")))
            lines << line;
    return lines.join(QLatin1Char('\n')).trimmed();
}

QList<std::pair<QString, QString>> optionsOf(const QVariant &json)
{
    QList<std::pair<QString, QString>> out;
    const QJsonObject o = QJsonDocument::fromJson(json.toString().toUtf8()).object();
    for (auto it = o.begin(); it != o.end(); ++it)
        out.append({it.key(), it.value().toString()});
    return out;
}

/** (name = 'value', ...): reloption names quoted as identifiers, values as literals. */
QString withOptions(const Database &db, const QList<std::pair<QString, QString>> &options)
{
    QStringList parts;
    for (const auto &[name, value] : options)
        parts << quoteIdent(name) + QStringLiteral(" = ") + db.quoteLiteral(value);
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

QString qualified(const QString &schema, const QString &name)
{
    return quoteIdent(schema) + QLatin1Char('.') + quoteIdent(name);
}

/** pg_trigger.tgtype's bits (PostgreSQL's catalog/pg_trigger.h). */
enum TriggerType : int {
    Row = 1 << 0,
    Before = 1 << 1,
    Insert = 1 << 2,
    Delete = 1 << 3,
    Update = 1 << 4,
    Truncate = 1 << 5,
    Instead = 1 << 6,
};

} // namespace

bool SiteIndex::hasExpressions() const
{
    if (!predicate.isEmpty())
        return true;
    for (const IndexColumn &c : columns)
        if (c.column.isEmpty())
            return true;
    return false;
}

QString SiteIndex::createSql(const Database &db, const QString &quotedTable) const
{
    QStringList keys, included;
    for (qsizetype i = 0; i < columns.size(); ++i) {
        const IndexColumn &c = columns[i];
        QString element =
            c.column.isEmpty() ? QLatin1Char('(') + c.expression + QLatin1Char(')') : quoteIdent(c.column);
        if (i >= keyColumns) {
            included << element;
            continue;
        }
        if (!c.collation.isEmpty())
            element += QStringLiteral(" collate ") + qualified(c.collationSchema, c.collation);
        if (!c.opclass.isEmpty()) {
            element += QLatin1Char(' ') + qualified(c.opclassSchema, c.opclass);
            if (!c.opclassOptions.isEmpty())
                element += QLatin1Char(' ') + withOptions(db, c.opclassOptions);
        }
        if (canOrder)
            element += QLatin1String(c.sort & 1 ? " desc" : " asc") +
                       QLatin1String(c.sort & 2 ? " nulls first" : " nulls last");
        keys << element;
    }
    QString sql = QStringLiteral("create %1index %2 on %3 using %4 (%5)")
                      .arg(unique ? QStringLiteral("unique ") : QString(), quoteIdent(name), quotedTable,
                           quoteIdent(method), keys.join(QStringLiteral(", ")));
    if (!included.isEmpty())
        sql += QStringLiteral(" include (%1)").arg(included.join(QStringLiteral(", ")));
    if (nullsNotDistinct)
        sql += QStringLiteral(" nulls not distinct");
    if (!options.isEmpty())
        sql += QStringLiteral(" with ") + withOptions(db, options);
    if (!tablespace.isEmpty())
        sql += QStringLiteral(" tablespace ") + quoteIdent(tablespace);
    if (!predicate.isEmpty())
        sql += QStringLiteral(" where (%1)").arg(predicate);
    return sql + QStringLiteral(";\n");
}

QString SiteTrigger::createSql(const Database &db, const QString &quotedTable) const
{
    QStringList events;
    if (type & Insert)
        events << QStringLiteral("insert");
    if (type & Delete)
        events << QStringLiteral("delete");
    if (type & Update) {
        QStringList of;
        for (const QString &c : updateColumns)
            of << quoteIdent(c);
        events << (of.isEmpty() ? QStringLiteral("update")
                                : QStringLiteral("update of ") + of.join(QStringLiteral(", ")));
    }
    if (type & Truncate)
        events << QStringLiteral("truncate");
    QString referencing;
    if (!oldTable.isEmpty())
        referencing += QStringLiteral(" old table as ") + quoteIdent(oldTable);
    if (!newTable.isEmpty())
        referencing += QStringLiteral(" new table as ") + quoteIdent(newTable);
    QStringList args;
    for (const QString &a : arguments)
        args << db.quoteLiteral(a);
    QString sql = QStringLiteral("create trigger %1 %2 %3 on %4%5 for each %6 execute function %7(%8);\n")
                      .arg(quoteIdent(name),
                           type & Before    ? QStringLiteral("before")
                           : type & Instead ? QStringLiteral("instead of")
                                            : QStringLiteral("after"),
                           events.join(QStringLiteral(" or ")), quotedTable,
                           referencing.isEmpty() ? QString() : QStringLiteral(" referencing") + referencing,
                           type & Row ? QStringLiteral("row") : QStringLiteral("statement"),
                           qualified(functionSchema, function), args.join(QStringLiteral(", ")));
    if (enabled == QLatin1String("D"))
        sql += QStringLiteral("alter table %1 disable trigger %2;\n").arg(quotedTable, quoteIdent(name));
    else if (enabled == QLatin1String("R"))
        sql += QStringLiteral("alter table %1 enable replica trigger %2;\n").arg(quotedTable, quoteIdent(name));
    else if (enabled == QLatin1String("A"))
        sql += QStringLiteral("alter table %1 enable always trigger %2;\n").arg(quotedTable, quoteIdent(name));
    return sql;
}

Result<QList<SiteIndex>> siteIndexes(Database &db, const QString &quotedTable)
{
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    q.prepare(catalogQuery(QStringLiteral("carryover_indexes.sql")));
    q.addBindValue(quotedTable);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the indexes of %1").arg(quotedTable));
    QList<SiteIndex> out;
    while (q.next()) {
        SiteIndex ix;
        ix.name = q.value(QStringLiteral("name")).toString();
        ix.primary = q.value(QStringLiteral("is_primary")).toBool();
        ix.constraint = q.value(QStringLiteral("is_constraint")).toBool();
        ix.valid = q.value(QStringLiteral("is_valid")).toBool();
        ix.method = q.value(QStringLiteral("method")).toString();
        ix.canOrder = q.value(QStringLiteral("can_order")).toBool();
        ix.unique = q.value(QStringLiteral("is_unique")).toBool();
        ix.nullsNotDistinct = q.value(QStringLiteral("nulls_not_distinct")).toBool();
        ix.keyColumns = q.value(QStringLiteral("key_columns")).toInt();
        ix.predicate = q.value(QStringLiteral("predicate")).toString();
        ix.options = optionsOf(q.value(QStringLiteral("options")));
        ix.tablespace = q.value(QStringLiteral("tablespace")).toString();
        ix.comment = q.value(QStringLiteral("comment")).toString();
        ix.clustered = q.value(QStringLiteral("is_clustered")).toBool();
        ix.replicaIdentity = q.value(QStringLiteral("is_replica_identity")).toBool();
        const QJsonArray columns =
            QJsonDocument::fromJson(q.value(QStringLiteral("columns")).toString().toUtf8()).array();
        for (const QJsonValue &v : columns) {
            const QJsonObject o = v.toObject();
            IndexColumn c;
            c.column = o.value(QLatin1String("column")).toString();
            c.expression = o.value(QLatin1String("expression")).toString();
            c.opclassSchema = o.value(QLatin1String("opclass_schema")).toString();
            c.opclass = o.value(QLatin1String("opclass")).toString();
            const QJsonObject opclassOptions = o.value(QLatin1String("opclass_options")).toObject();
            for (auto it = opclassOptions.begin(); it != opclassOptions.end(); ++it)
                c.opclassOptions.append({it.key(), it.value().toString()});
            c.collationSchema = o.value(QLatin1String("collation_schema")).toString();
            c.collation = o.value(QLatin1String("collation")).toString();
            c.sort = o.value(QLatin1String("sort")).toInt();
            c.statistics = o.value(QLatin1String("statistics")).toInt(-1);
            if (c.column.isEmpty() && c.expression.isEmpty())
                return makeError(ErrorKind::Server,
                                 QStringLiteral("reading the indexes of %1: column %2 of index %3 has neither a "
                                                "column nor an expression")
                                     .arg(quotedTable, QString::number(ix.columns.size() + 1), ix.name));
            ix.columns.append(c);
        }
        out.append(ix);
    }
    return out;
}

Result<QList<SiteTrigger>> siteTriggers(Database &db, const QString &quotedTable)
{
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    q.prepare(catalogQuery(QStringLiteral("carryover_triggers.sql")));
    q.addBindValue(quotedTable);
    if (!q.exec())
        return Database::queryError(q, QStringLiteral("reading the triggers of %1").arg(quotedTable));
    QList<SiteTrigger> out;
    while (q.next()) {
        SiteTrigger t;
        t.name = q.value(QStringLiteral("name")).toString();
        t.type = q.value(QStringLiteral("type")).toInt();
        t.enabled = q.value(QStringLiteral("enabled")).toString();
        t.constraint = q.value(QStringLiteral("is_constraint")).toBool();
        t.hasWhen = q.value(QStringLiteral("has_when")).toBool();
        t.functionSchema = q.value(QStringLiteral("function_schema")).toString();
        t.function = q.value(QStringLiteral("function")).toString();
        t.oldTable = q.value(QStringLiteral("old_table")).toString();
        t.newTable = q.value(QStringLiteral("new_table")).toString();
        t.comment = q.value(QStringLiteral("comment")).toString();
        // tgargs: each argument ends with a NUL byte.
        const QList<QByteArray> args = q.value(QStringLiteral("args")).toByteArray().split('\0');
        const int nargs = q.value(QStringLiteral("nargs")).toInt();
        if (args.size() < nargs)
            return makeError(ErrorKind::Server,
                             QStringLiteral("reading the triggers of %1: trigger %2 lists %3 "
                                            "arguments and holds %4")
                                 .arg(quotedTable, t.name, QString::number(nargs), QString::number(args.size())));
        for (int i = 0; i < nargs; ++i)
            t.arguments << QString::fromUtf8(args[i]);
        for (const QJsonValue &v :
             QJsonDocument::fromJson(q.value(QStringLiteral("update_columns")).toString().toUtf8()).array())
            t.updateColumns << v.toString();
        out.append(t);
    }
    return out;
}

} // namespace bloom::maintenance
