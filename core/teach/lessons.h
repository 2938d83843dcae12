#pragma once

#include "common/result.h"
#include "teach/sandbox.h"

#include <QByteArray>
#include <QList>

#include <optional>

namespace bloom::lessons {

/**
 * The fewest added names whose bits cover every position of `positions` (each a bit that is set),
 * as indices into f.names() in the order added; empty when a position is 0. Exact (a depth-first
 * search over each uncovered bit's owners, at most k deep).
 */
QList<int> fewestNamesCovering(const SandboxFilter &f, const QList<quint64> &positions);

/**
 * Candidate names for the false-positive search, deterministic: the names of computing pioneers
 * ("ada", "alan", "barbara", ...), then each with a number ("ada2", ...), then "user1", "user2", ...
 */
QByteArray candidate(qsizetype i);

/** A false positive found in the class's own filter. */
struct FoundFalsePositive {
    bool found = false;
    QByteArray name;
    SandboxFilter::Trace trace;   ///< its check against the filter
    QList<QByteArray> cover;      ///< the fewest added names that set its bits, in the order added
    qsizetype tried = 0;          ///< candidates checked (never-added ones)
    qsizetype falsePositives = 0; ///< of those, how many check "maybe"
    /** The first false positive that needs two names or more (the article's bjarne: ada and grace
     *  together), looked for on past a single-name one within the same limits; empty if none. */
    QByteArray together;
    QList<QByteArray> togetherCover;
};

/** The false positives findFalsePositive() explains at most: each costs a search for its cover, and in
 *  a full filter nearly every candidate is one (2,500 names at 4,096 bits: 20,000 searches, 29 s). */
constexpr qsizetype MaxExplained = 200;

/**
 * Checks up to `budget` candidate names never added, and explains at most `explained` of the false
 * positives among them, and keeps the one that needs the fewest of the added names (ties: the first
 * candidate). Stops early at one that a single name explains, since none can need fewer.
 */
FoundFalsePositive findFalsePositive(const SandboxFilter &f, qsizetype budget = 20000,
                                     qsizetype explained = MaxExplained);

/** A name deleted, acted out: a plain filter zeroes its bits, a counting filter counts them down. */
struct Deletion {
    QByteArray name;
    SandboxFilter::Trace trace; ///< where the deleted name's bits are
    struct Other {
        QByteArray name;
        bool plainMaybe = false;    ///< still "maybe" after the plain filter zeroed the bits
        bool countingMaybe = false; ///< still "maybe" in the counting filter
        QList<quint64> zeroed;      ///< its positions (as told) that the plain deletion zeroed
    };
    QList<Other> others; ///< every other added name, in the order added
    std::optional<SandboxFilter> plain, counting;
    /** The other names the plain deletion turned into "definitely not": false negatives. */
    QList<QByteArray> falseNegatives() const;
};

Result<Deletion> deleteName(const SandboxFilter &f, const QByteArray &name);

/** A name never added that shares a bit with an added one: added, a deletion of either forgets the
 *  other. The first of the candidates (empty when none of the first 2,000 does); `with` and `bit`
 *  (as the lesson tells it) say which. */
QByteArray nameSharingABit(const SandboxFilter &f, QByteArray *with = nullptr, quint64 *bit = nullptr);

/** The added name whose deletion (bits zeroed) leaves the most false negatives; ties: the first
 *  added. Empty for an empty filter. */
QByteArray mostHarmfulDeletion(const SandboxFilter &f);

} // namespace bloom::lessons
