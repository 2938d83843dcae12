#include "teach/timeline.h"

#include "common/boundedfile.h"
#include "common/printable.h"
#include "model/name.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace bloom {

namespace {

Error badEntry(qsizetype i, const QString &what, const QString &fix = {})
{
    return makeError(ErrorKind::BadInput,
                     QStringLiteral("the session's timeline, entry %1: %2").arg(QString::number(i + 1), what), fix);
}

Error badName(qsizetype i, const QString &name, const Error &e)
{
    return makeError(ErrorKind::BadInput,
                     QStringLiteral("the session's name \"%1\" (entry %2): %3")
                         .arg(shortened(name), QString::number(i + 1), e.message),
                     e.fix);
}

Error tooMany(qsizetype n)
{
    return makeError(ErrorKind::BadInput,
                     QStringLiteral("the session has %1 entries; a lecture's timeline holds at most %2")
                         .arg(formatCount(qint64(n)), formatCount(qint64(Timeline::MaxEntries))),
                     QStringLiteral("split the class's names into sessions of %1 entries or fewer")
                         .arg(formatCount(qint64(Timeline::MaxEntries))));
}

} // namespace

Timeline::Timeline(const SandboxFilter &empty)
    : mEmpty(empty.emptyCopy())
{
}

Result<qsizetype> Timeline::append(Action action, const QByteArray &name, Origin origin)
{
    if (auto v = SandboxFilter::validateLectureName(name); !v)
        return v.error();
    if (mEntries.size() >= MaxEntries)
        return tooMany(mEntries.size() + 1);
    mEntries.append(Entry{action, name, origin});
    return mEntries.size() - 1;
}

void Timeline::clear()
{
    mEntries.clear();
}

bool Timeline::remove(qsizetype index)
{
    if (index < 0 || index >= mEntries.size())
        return false;
    mEntries.removeAt(index);
    return true;
}

void Timeline::setFilter(const SandboxFilter &empty)
{
    mEmpty = empty.emptyCopy();
}

qsizetype Timeline::addsBefore(qsizetype count) const
{
    qsizetype n = 0;
    for (qsizetype i = 0; i < count && i < mEntries.size(); ++i)
        n += mEntries[i].action == Action::Add ? 1 : 0;
    return n;
}

SandboxFilter Timeline::stateAfter(qsizetype count) const
{
    SandboxFilter f = mEmpty;
    for (qsizetype i = 0; i < count && i < mEntries.size(); ++i)
        if (mEntries[i].action == Action::Add)
            (void)f.add(mEntries[i].name); // validated when appended
    return f;
}

SandboxFilter::Trace Timeline::traceOf(qsizetype i) const
{
    SandboxFilter before = stateAfter(i);
    return *before.trace(mEntries[i].name);
}

QList<SandboxFilter::Trace> Timeline::traces() const
{
    QList<SandboxFilter::Trace> out;
    out.reserve(mEntries.size());
    SandboxFilter f = mEmpty;
    for (const Entry &e : mEntries) {
        out << *f.trace(e.name);
        if (e.action == Action::Add)
            (void)f.add(e.name);
    }
    return out;
}

QString Timeline::line(Action action, const SandboxFilter::Trace &t)
{
    return action == Action::Add ? QCoreApplication::translate("bloom", "add %1").arg(t.describeAdd())
                                 : QCoreApplication::translate("bloom", "check %1").arg(t.explain());
}

QJsonObject Timeline::toJson(qsizetype position) const
{
    QJsonObject o = mEmpty.toJson();
    o.insert(QStringLiteral("format"), QStringLiteral("bloomscope-session-2"));
    o.remove(QStringLiteral("names"));
    QJsonArray entries;
    for (const Entry &e : mEntries)
        entries.append(QJsonObject{
            {QStringLiteral("action"), e.action == Action::Add ? QStringLiteral("add") : QStringLiteral("check")},
            {QStringLiteral("name"), QString::fromUtf8(e.name)},
            {QStringLiteral("origin"),
             e.origin == Origin::Example ? QStringLiteral("example") : QStringLiteral("class")}});
    o.insert(QStringLiteral("timeline"), entries);
    o.insert(QStringLiteral("position"), qint64(qBound<qsizetype>(0, position, mEntries.size())));
    return o;
}

Result<Timeline> Timeline::fromJson(const QJsonObject &o, qsizetype *position)
{
    const QString format = o.value(QLatin1String("format")).toString();
    const bool v2 = format == QLatin1String("bloomscope-session-2");
    if (!v2 && format != QLatin1String("bloomscope-sandbox-1"))
        return makeError(ErrorKind::BadInput,
                         QStringLiteral("not a Bloomscope session (format bloomscope-session-2 or -sandbox-1)"));
    // The filter's scheme and size, read by the sandbox's own reader without names.
    QJsonObject spec = o;
    spec.insert(QStringLiteral("format"), QStringLiteral("bloomscope-sandbox-1"));
    spec.remove(QStringLiteral("names"));
    auto empty = SandboxFilter::fromJson(spec);
    if (!empty)
        return empty.error();
    Timeline t(*empty);
    if (v2) {
        const QJsonValue list = o.value(QLatin1String("timeline"));
        if (!list.isUndefined() && !list.isArray())
            return makeError(
                ErrorKind::BadInput,
                QStringLiteral("the session's timeline is %1, not a list of entries").arg(shortenedJson(list)));
        const QJsonArray entries = list.toArray();
        if (entries.size() > MaxEntries)
            return tooMany(entries.size());
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const QJsonObject e = entries[i].toObject();
            const QJsonValue action = e.value(QLatin1String("action")), name = e.value(QLatin1String("name"));
            if (action != QJsonValue(QStringLiteral("add")) && action != QJsonValue(QStringLiteral("check")))
                return badEntry(i, QStringLiteral("the action is %1").arg(shortenedJson(action)),
                                QStringLiteral("the actions are add and check"));
            if (!name.isString())
                return badEntry(i, QStringLiteral("the name is %1, not a string").arg(shortenedJson(name)));
            auto a = t.append(action == QJsonValue(QStringLiteral("add")) ? Action::Add : Action::Check,
                              name.toString().toUtf8(),
                              e.value(QLatin1String("origin")).toString() == QLatin1String("example") ? Origin::Example
                                                                                                      : Origin::Class);
            if (!a)
                return badName(i, name.toString(), a.error());
        }
        if (position)
            *position = qBound<qsizetype>(0, o.value(QLatin1String("position")).toInteger(t.size()), t.size());
        return t;
    }
    // Format 1 kept the added names and the log's lines: the checks come back from the lines when
    // the lines' adds are the names, in order; otherwise the names alone.
    QStringList names;
    for (const QJsonValue &v : o.value(QLatin1String("names")).toArray())
        names << v.toString();
    QList<Entry> fromLog;
    QStringList logAdds;
    for (const QJsonValue &v : o.value(QLatin1String("log")).toArray()) {
        const QString line = v.toString();
        if (line.startsWith(QLatin1String("add "))) {
            const QString name = line.mid(4).section(QStringLiteral(": "), 0, 0);
            logAdds << name;
            fromLog << Entry{Action::Add, name.toUtf8(), Origin::Class};
        } else if (line.startsWith(QLatin1String("check "))) {
            fromLog << Entry{Action::Check, line.mid(6).section(QStringLiteral(" -> "), 0, 0).toUtf8(), Origin::Class};
        }
    }
    QList<Entry> entries = fromLog;
    if (logAdds != names) {
        entries.clear();
        for (const QString &n : names)
            entries << Entry{Action::Add, n.toUtf8(), Origin::Class};
    }
    if (entries.size() > MaxEntries)
        return tooMany(entries.size());
    for (qsizetype i = 0; i < entries.size(); ++i)
        if (auto a = t.append(entries[i].action, entries[i].name, entries[i].origin); !a)
            return badName(i, QString::fromUtf8(entries[i].name), a.error());
    if (position)
        *position = t.size();
    return t;
}

Result<Timeline> Timeline::readFile(const QString &path, qsizetype *position)
{
    auto bytes = readBoundedFile(path, MaxFileBytes, QStringLiteral("the session file"));
    if (!bytes)
        return bytes.error();
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &parse);
    if (!doc.isObject())
        return makeError(ErrorKind::BadInput,
                         QStringLiteral("%1 is not a session file: %2")
                             .arg(path, parse.error == QJsonParseError::NoError ? QStringLiteral("not a JSON object")
                                                                                : parse.errorString()));
    auto t = fromJson(doc.object(), position);
    if (!t)
        return makeError(ErrorKind::BadInput, QStringLiteral("%1: %2").arg(path, t.error().message), t.error().fix);
    return t;
}

} // namespace bloom
