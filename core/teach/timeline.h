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

    /** The most entries a lecture's timeline holds (every one is a line of the log, replayed at each
     *  change of the filter): far more than a 45-minute class types. */
    static constexpr qsizetype MaxEntries = 5000;
    /** The largest session file read: MaxEntries of the longest names, written as JSON. */
    static constexpr qint64 MaxFileBytes = 16 << 20;

    /** An empty timeline over `empty` (its names, if any, are dropped: only its scheme and size count). */
    explicit Timeline(const SandboxFilter &empty);

    /** Appends an entry; refused (nothing appended) for a name the lecture's rule refuses
     *  (SandboxFilter::validateLectureName) and past MaxEntries. */
    Result<qsizetype> append(Action action, const QByteArray &name, Origin origin = Origin::Class);
    void clear();
    /** Removes entry `index` (false when there is none): the later entries stay, in order. */
    bool remove(qsizetype index);
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
    /** A session file: only a regular file of at most MaxFileBytes is read (a FIFO or /dev/zero is
     *  refused at once), then fromJson(); every error names the file. */
    static Result<Timeline> readFile(const QString &path, qsizetype *position = nullptr);

private:
    SandboxFilter mEmpty;
    QList<Entry> mEntries;
};

} // namespace bloom
