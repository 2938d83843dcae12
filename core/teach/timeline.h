#pragma once

#include "common/result.h"
#include "teach/sandbox.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace bloom {

/**
 * A lesson's adds and checks, the reference example's and the class's, in the order they were given.
 * Nothing is ever dropped or reordered: the filter's state before any entry is a replay of the
 * entries before it, so a lesson can step back ("before grace was added, bjarne is definitely not")
 * and the same entries can be replayed in a filter of another scheme or size.
 */
class Timeline {
public:
    enum class Action { Add, Check };
    enum class Origin { Class, Example };
    struct Entry {
        Action action = Action::Add;
        QByteArray name;
        Origin origin = Origin::Class;
        friend bool operator==(const Entry &, const Entry &) = default;
    };

    /** An empty timeline over `empty` (its names, if any, are dropped: only its scheme and size count). */
    explicit Timeline(const SandboxFilter &empty);

    /** Appends an entry; refused (nothing appended) for a name the core rule refuses. */
    Result<qsizetype> append(Action action, const QByteArray &name, Origin origin = Origin::Class);
    void clear();
    /** The same entries in another filter (every state and verdict recomputed). */
    void setFilter(const SandboxFilter &empty);

    const QList<Entry> &entries() const { return mEntries; }
    qsizetype size() const { return mEntries.size(); }
    const SandboxFilter &emptyFilter() const { return mEmpty; }
    /** Entries that are adds among the first `count`. */
    qsizetype addsBefore(qsizetype count) const;

    /** The filter after the first `count` entries (0: empty; size(): everything). */
    SandboxFilter stateAfter(qsizetype count) const;
    /** Entry i against the filter before it (an add's trace says what it set). */
    SandboxFilter::Trace traceOf(qsizetype i) const;
    /** Every entry's trace, in one replay. */
    QList<SandboxFilter::Trace> traces() const;
    /** The log's line for entry i: "add ada: bits 5, 13, 14", "check alan -> bits 2, 8, 10: ...". */
    static QString line(Action action, const SandboxFilter::Trace &t);

    /** "bloomscope-session-2": the filter's scheme and size, the entries, and `position`. */
    QJsonObject toJson(qsizetype position) const;
    /** Reads format 2, and format 1 (names, and the checks its log lines name). */
    static Result<Timeline> fromJson(const QJsonObject &o, qsizetype *position = nullptr);

private:
    SandboxFilter mEmpty;
    QList<Entry> mEntries;
};

} // namespace bloom
