#include "shards/shardmap.h"

#include "common/boundedfile.h"

namespace bloom {

namespace {

constexpr qint64 MaxShardMapBytes = 1 << 20; // 256 shards of long conninfos fit many times over

/** The line without an inline comment: a '#' after a blank, outside a quoted conninfo value. */
QString withoutComment(const QString &line)
{
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted && c == QLatin1Char('\\')) {
            ++i; // an escaped character inside quotes
            continue;
        }
        if (c == QLatin1Char('\''))
            quoted = !quoted;
        else if (!quoted && c == QLatin1Char('#') && (i == 0 || line[i - 1].isSpace()))
            return line.left(i).trimmed();
    }
    return line;
}

} // namespace

Result<ShardMap> ShardMap::parse(const QString &text, const QString &source)
{
    ShardMap map;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        QString line = withoutComment(lines[i].trimmed());
        if (line.isEmpty())
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq < 0)
            return makeError(ErrorKind::BadInput,
                             QStringLiteral("%1 line %2: expected 'key = value', got '%3'")
                                 .arg(source, QString::number(i + 1), line),
                             QStringLiteral("use table = ..., column = ... or shard = CONNINFO"));
        const QString key = line.left(eq).trimmed();
        const QString value = line.mid(eq + 1).trimmed();
        if (key == QLatin1String("shard")) {
            auto spec = ConnectionSpec::parse(value);
            if (!spec)
                return makeError(
                    ErrorKind::BadInput,
                    QStringLiteral("%1 line %2: %3").arg(source, QString::number(i + 1), spec.error().message));
            map.shards.append(*spec);
        } else if (key == QLatin1String("table")) {
            map.table = value;
        } else if (key == QLatin1String("column")) {
            map.column = value;
        } else {
            return makeError(ErrorKind::BadInput,
                             QStringLiteral("%1 line %2: unknown key '%3'").arg(source, QString::number(i + 1), key),
                             QStringLiteral("the keys are table, column and shard"));
        }
    }
    if (map.shards.isEmpty())
        return makeError(ErrorKind::BadInput, QStringLiteral("%1 lists no shard").arg(source),
                         QStringLiteral("add one line 'shard = CONNINFO' per shard"));
    return map;
}

Result<ShardMap> ShardMap::load(const QString &path)
{
    // A shard map is a few lines: a FIFO, a device or a huge file is refused, never waited on or read whole.
    auto bytes = readBoundedFile(path, MaxShardMapBytes, QStringLiteral("the shard map"));
    if (!bytes)
        return bytes.error();
    return parse(QString::fromUtf8(*bytes), path);
}

QString ShardMap::toText() const
{
    QString out = QStringLiteral("# bloomscope shard map\ntable = %1\ncolumn = %2\n").arg(table, column);
    for (const ConnectionSpec &s : shards)
        out += QStringLiteral("shard = %1\n").arg(s.toConninfo());
    return out;
}

} // namespace bloom
