#include "teach/lessons.h"

#include <algorithm>
#include <vector>

namespace bloom::lessons {

namespace {

const char *const Pioneers[] = {
    "ada",     "alan",   "barbara", "bjarne", "brian",  "charles", "dennis",   "donald", "edsger",    "frances",
    "grace",   "guido",  "hedy",    "jean",   "john",   "ken",     "larry",    "leslie", "linus",     "margaret",
    "niklaus", "radia",  "richard", "shafi",  "sophie", "tim",     "tony",     "vint",   "whitfield", "yukihiro",
    "adele",   "alonzo", "annie",   "bob",    "butler", "claude",  "dana",     "doug",   "evelyn",    "fran",
    "gordon",  "hal",    "ivan",    "james",  "judea",  "karen",   "kathleen", "lynn",   "manuel",    "marvin",
    "mary",    "noam",   "ole",     "peter",  "raj",    "robin",   "sally",    "silvio", "stephen",   "susan",
    "ted",     "whit",   "xavier",  "yann",   "zuse",   "rasmus",  "anita",    "betty",  "carol",     "dorothy"};
constexpr qsizetype PioneerCount = qsizetype(sizeof Pioneers / sizeof Pioneers[0]);

void search(const SandboxFilter &f, const QList<quint64> &todo, QList<int> &chosen, QList<int> &best)
{
    if (!best.isEmpty() && chosen.size() >= best.size())
        return; // cannot beat the cover already found
    // The first position the chosen names leave uncovered.
    qsizetype open = -1;
    for (qsizetype i = 0; i < todo.size() && open < 0; ++i) {
        bool covered = false;
        for (int who : chosen)
            covered = covered || f.owners(todo[i]).contains(who);
        if (!covered)
            open = i;
    }
    if (open < 0) {
        best = chosen;
        return;
    }
    for (int who : f.owners(todo[open])) {
        chosen << who;
        search(f, todo, chosen, best);
        chosen.removeLast();
    }
}

} // namespace

QList<int> fewestNamesCovering(const SandboxFilter &f, const QList<quint64> &positions)
{
    QList<quint64> todo = positions;
    std::sort(todo.begin(), todo.end());
    todo.erase(std::unique(todo.begin(), todo.end()), todo.end());
    for (quint64 p : todo)
        if (f.owners(p).isEmpty())
            return {};
    QList<int> chosen, best;
    search(f, todo, chosen, best);
    std::sort(best.begin(), best.end());
    return best;
}

QByteArray candidate(qsizetype i)
{
    if (i < PioneerCount)
        return Pioneers[i];
    i -= PioneerCount;
    if (i < PioneerCount * 98)
        return QByteArray(Pioneers[i % PioneerCount]) + QByteArray::number(2 + i / PioneerCount);
    return "user" + QByteArray::number(i - PioneerCount * 98 + 1);
}

FoundFalsePositive findFalsePositive(const SandboxFilter &f, qsizetype budget, qsizetype explained)
{
    FoundFalsePositive out;
    if (f.names().isEmpty())
        return out;
    for (qsizetype i = 0; out.tried < budget && out.falsePositives < explained; ++i) {
        const QByteArray name = candidate(i);
        if (f.contains(name))
            continue;
        ++out.tried;
        auto t = f.check(name);
        if (!t || !t->maybe)
            continue;
        ++out.falsePositives;
        const QList<int> cover = fewestNamesCovering(f, t->positions);
        if (cover.size() >= 2 && out.together.isEmpty()) {
            out.together = name;
            for (int who : cover)
                out.togetherCover << f.names().at(who);
        }
        const bool single = out.found && out.cover.size() == 1;
        if (!single && (!out.found || cover.size() < out.cover.size())) {
            out.found = true;
            out.name = name;
            out.trace = *t;
            out.cover.clear();
            for (int who : cover)
                out.cover << f.names().at(who);
        }
        if (out.cover.size() == 1 && !out.together.isEmpty())
            break; // none needs fewer than one name, and one made by several is shown too
    }
    return out;
}

QByteArray nameSharingABit(const SandboxFilter &f, QByteArray *with, quint64 *bit)
{
    for (qsizetype i = 0; i < 2000 && !f.names().isEmpty(); ++i) {
        const QByteArray name = candidate(i);
        if (f.contains(name))
            continue;
        const auto t = f.check(name);
        for (quint64 p : t->positions)
            if (!f.owners(p).isEmpty()) {
                if (with)
                    *with = f.names().at(f.owners(p).first());
                if (bit)
                    *bit = t->shown(p);
                return name;
            }
    }
    return {};
}

QList<QByteArray> Deletion::falseNegatives() const
{
    QList<QByteArray> out;
    for (const Other &o : others)
        if (!o.plainMaybe)
            out << o.name;
    return out;
}

Result<Deletion> deleteName(const SandboxFilter &f, const QByteArray &name)
{
    auto plain = f.without(name, SandboxFilter::Removal::ClearBits);
    if (!plain)
        return plain.error();
    auto counting = f.without(name, SandboxFilter::Removal::CountDown);
    Deletion d;
    d.trace = *f.trace(name);
    d.name = d.trace.addedAs;
    const QList<quint64> gone = d.trace.positions;
    for (const QByteArray &other : f.names()) {
        if (f.key(other) == f.key(name))
            continue;
        Deletion::Other o;
        o.name = other;
        const auto t = plain->trace(other);
        o.plainMaybe = t->maybe;
        o.countingMaybe = counting->trace(other)->maybe;
        for (quint64 p : t->positions)
            if (gone.contains(p) && !o.zeroed.contains(t->shown(p)))
                o.zeroed << t->shown(p);
        std::sort(o.zeroed.begin(), o.zeroed.end());
        d.others << o;
    }
    d.plain = std::move(plain).value();
    d.counting = std::move(counting).value();
    return d;
}

QByteArray mostHarmfulDeletion(const SandboxFilter &f)
{
    // Zeroing x's bits turns another added name into a false negative exactly when it set one of
    // them (all its bits were set): counted from the owners of x's bits, without rebuilding the
    // filter for each name (that was quadratic in hashes: 2,500 names froze the window 59 s).
    const QList<QByteArray> &names = f.names();
    QByteArray best;
    qsizetype most = -1;
    std::vector<qsizetype> countedFor(size_t(names.size()), -1);
    for (qsizetype x = 0; x < names.size(); ++x) {
        auto t = f.trace(names[x]);
        if (!t)
            continue;
        QList<quint64> bits = t->positions;
        std::sort(bits.begin(), bits.end());
        bits.erase(std::unique(bits.begin(), bits.end()), bits.end());
        qsizetype harmed = 0;
        for (quint64 p : bits)
            for (int y : f.owners(p))
                if (y != x && countedFor[size_t(y)] != x) {
                    countedFor[size_t(y)] = x;
                    ++harmed;
                }
        if (harmed > most) {
            most = harmed;
            best = names[x];
        }
    }
    return best;
}

} // namespace bloom::lessons
