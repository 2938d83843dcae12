#pragma once

#include "common/result.h"
#include "model/geometry.h"
#include "model/name.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <vector>

namespace bloom {

/**
 * An in-memory Bloom filter for teaching: no database. Either the classic filter of the reference's
 * first example (position i = md5("i:" + name) mod m) or the blocked one (any small geometry, placed
 * exactly as username_bits places a name). It remembers which names set each bit, so a false
 * positive can be explained ("set by ada and grace").
 */
class SandboxFilter {
public:
    enum class Scheme { Classic, Blocked };

    /** The longest name a lecture takes, in UTF-8 bytes: every name is drawn, logged and hashed on
     *  screen (a 1 MiB name took 40 s to show, and k copies of it a step filled the memory). */
    static constexpr qsizetype MaxNameBytes = 256;
    /** validateName() and MaxNameBytes: the error names the limit and how long the name is. */
    static Status validateLectureName(const QByteArray &name);

    /** Every step of one add or check, for the animation and the explanation. */
    struct Trace {
        QByteArray name;
        QByteArray hashed;                   ///< what the hash reads: the name, or its lowercase for blocked
        Lowering lowering = Lowering::Ascii; ///< blocked: who lowercased it (Approximate: non-ASCII offline)
        QList<QByteArray> digests;           ///< md5 hex of each input (classic: k of them; blocked: one)
        quint32 chunk = 0;                   ///< blocked: the chunk the first bits pick
        quint64 chunkBits = 0;    ///< blocked: bits a chunk (positions are told inside the chunk); 0: classic
        QList<quint64> positions; ///< global bit numbers, in hash order (may repeat)
        QList<bool> wasSet;       ///< each position's bit before this step
        bool maybe = false;       ///< every bit was set before (a check's verdict)
        bool added = false;       ///< the name is one this filter was given (blocked: its lowercase)
        QByteArray addedAs;       ///< how it was first typed when added ("ada" for a check of "Ada")
        QList<QByteArray> setBy;  ///< for a "maybe" on a name never added: who set its bits

        /** What hash i reads: classic "0:ada", "1:ada", ...; blocked the one lowered name. Made when
         *  asked, so a step keeps its name once, not k times. */
        QByteArray input(qsizetype i) const;
        /** A position as the lesson tells it: the bit number, inside the chunk for blocked. */
        quint64 shown(quint64 position) const { return chunkBits ? position % chunkBits : position; }
        /** The distinct positions as told, sorted. */
        QList<quint64> shownSorted() const;
        /** "bits 5, 13, 14" or "chunk 1, bits 4, 12, 61" */
        QString where() const;
        /** The log's line for an add: "ada: bits 5, 13, 14", with a note when two hashes chose one bit. */
        QString describeAdd() const;
        QString explain() const; ///< one sentence, as the reference tells it
    };

    /** What a removal does: what a plain Bloom filter can do (zero the name's bits), or what a
     *  counting filter does (count each of its positions down). */
    enum class Removal { ClearBits, CountDown };

    static Result<SandboxFilter> classic(quint64 m, int k);
    static Result<SandboxFilter> blocked(const Geometry &g);

    Scheme scheme() const { return mScheme; }
    quint64 size() const { return mBits.size(); }
    int k() const { return mK; }
    const Geometry &geometry() const { return mGeometry; } ///< blocked only
    quint64 chunkBits() const { return mScheme == Scheme::Blocked ? mGeometry.chunkBits() : size(); }
    QString describe() const;

    /** Where a name goes, without changing anything. */
    Result<Trace> trace(const QByteArray &name) const;
    Result<Trace> add(const QByteArray &name);
    Result<Trace> check(const QByteArray &name) const;

    bool bit(quint64 i) const { return mBits[i]; }
    /** How many positions of added names fell on bit i (a counting filter's counter). */
    quint32 count(quint64 i) const { return mCounts[i]; }
    quint64 setBits() const;
    /** The names (indices into names()) that set bit i, in the order they were added. */
    const QList<int> &owners(quint64 i) const { return mOwners[i]; }
    /** The added names, each as first typed (blocked: one entry per lowercase). */
    const QList<QByteArray> &names() const { return mNames; }
    /** The name's identity in this filter: itself (classic), its lowercase (blocked, as username_bits). */
    QByteArray key(const QByteArray &name) const;
    bool contains(const QByteArray &name) const { return mIndex.contains(key(name)); }
    /** An empty filter of the same scheme and size. */
    SandboxFilter emptyCopy() const;
    /** Everything added but `name`, then `name` removed as `how` says (a lesson: never do ClearBits). */
    Result<SandboxFilter> without(const QByteArray &name, Removal how) const;

    /** The share of `probes` never-added names that check "maybe" (deterministic for a seed). */
    double measuredFpr(int probes, quint32 seed = 1) const;
    /** The model's rate for the names added so far: the one model of this filter's kind that every
     *  screen, chart, lesson and export calls "model" (fpr::standardExact or fpr::blockedExact, exact
     *  for random names; the textbook's (1 - e^(-kn/m))^k is an approximation and said to be one). */
    double modelFpr() const;
    double modelFpr(qint64 names) const;
    /** The same model with `k` hashes instead of this filter's. */
    double modelFpr(qint64 names, int k) const;
    /** The integer k from 1 to `maxK` whose model rate at `names` is the lowest (ties: the smaller k):
     *  at m = 16, n = 3 that is 3, where round((m/n) ln 2) says 4. */
    int bestK(qint64 names, int maxK) const;

    QJsonObject toJson() const;
    static Result<SandboxFilter> fromJson(const QJsonObject &o);

private:
    SandboxFilter() = default;
    bool allSet(const QByteArray &name) const;

    Scheme mScheme = Scheme::Classic;
    Geometry mGeometry;
    int mK = 0;
    std::vector<bool> mBits;
    std::vector<quint32> mCounts;
    std::vector<QList<int>> mOwners;
    QList<QByteArray> mNames;
    QHash<QByteArray, int> mIndex; ///< key(name) -> its place in mNames (every probe asks)
};

} // namespace bloom
