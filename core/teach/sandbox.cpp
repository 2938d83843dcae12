#include "teach/sandbox.h"

#include "common/printable.h"
#include "model/fprmodel.h"
#include "model/hash128.h"
#include "model/name.h"
#include "model/placement.h"
#include "teach/classicfilter.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRandomGenerator>

#include <algorithm>
#include <cmath>

namespace bloom {

namespace {

constexpr quint64 MaxSandboxBits = 1 << 16; // every bit is drawn: a classroom filter

QString joinNames(const QList<QByteArray> &names)
{
    QStringList s;
    for (const QByteArray &n : names)
        s << QString::fromUtf8(n);
    if (s.size() <= 1)
        return s.join(QString());
    const QString last = s.takeLast();
    return QCoreApplication::translate("bloom", "%1 and %2").arg(s.join(QStringLiteral(", ")), last);
}

} // namespace

Result<SandboxFilter> SandboxFilter::classic(quint64 m, int k)
{
    if (m < 2 || m > MaxSandboxBits)
        return makeError(ErrorKind::BadInput, QStringLiteral("a sandbox filter has 2 to %1 bits, not %2")
                                                  .arg(QString::number(MaxSandboxBits), QString::number(m)));
    if (k < 1 || k > Geometry::MaxK)
        return makeError(
            ErrorKind::BadInput,
            QStringLiteral("k must be 1 to %1, not %2").arg(QString::number(Geometry::MaxK), QString::number(k)));
    SandboxFilter f;
    f.mScheme = Scheme::Classic;
    f.mK = k;
    f.mBits.assign(m, false);
    f.mCounts.assign(m, 0);
    f.mOwners.assign(m, {});
    return f;
}

Result<SandboxFilter> SandboxFilter::blocked(const Geometry &g)
{
    if (g.totalBits() > MaxSandboxBits)
        return makeError(ErrorKind::BadInput,
                         QStringLiteral("a sandbox filter has at most %1 bits; %2 has %3")
                             .arg(QString::number(MaxSandboxBits), g.describe(), QString::number(g.totalBits())),
                         QStringLiteral("use fewer or smaller chunks, e.g. 8 chunks of 64 bits"));
    SandboxFilter f;
    f.mScheme = Scheme::Blocked;
    f.mGeometry = g;
    f.mK = g.k();
    f.mBits.assign(g.totalBits(), false);
    f.mCounts.assign(g.totalBits(), 0);
    f.mOwners.assign(g.totalBits(), {});
    return f;
}

QString SandboxFilter::describe() const
{
    if (mScheme == Scheme::Classic)
        return QCoreApplication::translate("bloom", "classic, m=%1 bits, k=%2")
            .arg(QString::number(size()), QString::number(mK));
    return QCoreApplication::translate("bloom", "blocked, %1 chunks x %2 bits, k=%3")
        .arg(QString::number(mGeometry.chunks()), QString::number(mGeometry.chunkBits()), QString::number(mK));
}

QByteArray SandboxFilter::key(const QByteArray &name) const
{
    // username_bits hashes lower(name): for the blocked scheme Ada and ada are one name. The
    // reference's classic example hashes the name as typed.
    return mScheme == Scheme::Blocked ? offlineLower(name) : name;
}

SandboxFilter SandboxFilter::emptyCopy() const
{
    return mScheme == Scheme::Classic ? *classic(size(), mK) : *blocked(mGeometry);
}

Result<SandboxFilter> SandboxFilter::without(const QByteArray &name, Removal how) const
{
    const auto it = mIndex.constFind(key(name));
    if (it == mIndex.constEnd())
        return makeError(ErrorKind::BadInput, QStringLiteral("%1 was never added").arg(QString::fromUtf8(name)));
    SandboxFilter out = emptyCopy();
    for (qsizetype i = 0; i < mNames.size(); ++i)
        if (i != it.value())
            (void)out.add(mNames[i]);
    // A counting filter counts the name's positions down: the filter of the others, exactly.
    if (how == Removal::ClearBits) {
        // A plain filter cannot know who else set a bit: it zeroes all of the name's.
        const auto t = trace(name);
        for (quint64 pos : t->positions) {
            out.mBits[pos] = false;
            out.mCounts[pos] = 0;
            out.mOwners[pos].clear();
        }
    }
    return out;
}

Status SandboxFilter::validateLectureName(const QByteArray &name)
{
    if (name.size() > MaxNameBytes)
        return makeError(ErrorKind::BadInput,
                         QCoreApplication::translate("bloom",
                                                     "a name in teaching mode is at most %1 bytes (UTF-8); this one "
                                                     "has %2")
                             .arg(QString::number(MaxNameBytes), formatCount(name.size())),
                         QCoreApplication::translate("bloom", "a lecture's names are short: type a shorter one"));
    return validateName(name);
}

QByteArray SandboxFilter::Trace::input(qsizetype i) const
{
    if (chunkBits)
        return hashed;
    return QByteArray::number(i) + ':' + name;
}

Result<SandboxFilter::Trace> SandboxFilter::trace(const QByteArray &name) const
{
    if (auto v = validateLectureName(name); !v)
        return v.error();
    Trace t;
    t.name = name;
    if (mScheme == Scheme::Classic) {
        // The reference's first example hashes the name as typed, one counter prefix per hash.
        t.hashed = name;
        t.lowering = Lowering::Ascii; // nothing is lowered: the bytes as typed, exactly
        for (int i = 0; i < mK; ++i)
            t.digests << Hash128::md5(t.input(i)).hex().toLatin1();
        t.positions = classic::positions(name, size(), mK);
    } else {
        t.hashed = offlineLower(name, &t.lowering);
        if (t.hashed == name)
            t.hashed = name; // one copy of the name, shared
        t.chunkBits = mGeometry.chunkBits();
        const Hash128 h = Hash128::md5(t.hashed);
        t.digests << h.hex().toLatin1();
        const Placement p = place(mGeometry, h);
        t.chunk = p.chunk;
        for (int i = 0; i < p.k; ++i)
            t.positions << quint64(p.chunk) * mGeometry.chunkBits() + p.positions[size_t(i)];
    }
    t.maybe = true;
    for (quint64 pos : t.positions) {
        t.wasSet << mBits[pos];
        t.maybe = t.maybe && mBits[pos];
    }
    if (const auto it = mIndex.constFind(key(name)); it != mIndex.constEnd()) {
        t.added = true;
        t.addedAs = mNames[it.value()];
    }
    if (t.maybe && !t.added) {
        // The first name that set each bit explains it; told in the order the names were added.
        QList<int> who;
        for (quint64 pos : t.positions)
            if (!mOwners[pos].isEmpty() && !who.contains(mOwners[pos].first()))
                who << mOwners[pos].first();
        std::sort(who.begin(), who.end());
        for (int i : who)
            t.setBy << mNames[i];
    }
    return t;
}

Result<SandboxFilter::Trace> SandboxFilter::add(const QByteArray &name)
{
    auto t = trace(name);
    if (!t)
        return t;
    const QByteArray k = key(name);
    auto it = mIndex.constFind(k);
    if (it == mIndex.constEnd()) {
        it = mIndex.insert(k, int(mNames.size()));
        mNames << name;
    }
    const int index = it.value();
    for (quint64 pos : t->positions) {
        mBits[pos] = true;
        ++mCounts[pos];
        if (!mOwners[pos].contains(index))
            mOwners[pos] << index;
    }
    if (!t->added)
        t->addedAs = name;
    t->added = true;
    return t;
}

Result<SandboxFilter::Trace> SandboxFilter::check(const QByteArray &name) const
{
    return trace(name);
}

QList<quint64> SandboxFilter::Trace::shownSorted() const
{
    QList<quint64> out;
    for (quint64 p : positions)
        out << shown(p);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QString SandboxFilter::Trace::where() const
{
    QStringList pos;
    for (quint64 p : shownSorted())
        pos << QString::number(p);
    // The log's words in the window's language (a German lecture reads "Bits 5, 13, 14").
    const QString bits = pos.size() == 1
                             ? QCoreApplication::translate("bloom", "bit %1").arg(pos.value(0))
                             : QCoreApplication::translate("bloom", "bits %1").arg(pos.join(QStringLiteral(", ")));
    return chunkBits ? QCoreApplication::translate("bloom", "chunk %1, %2").arg(QString::number(chunk), bits) : bits;
}

QString SandboxFilter::Trace::describeAdd() const
{
    QString out = QStringLiteral("%1: %2").arg(QString::fromUtf8(name), where());
    const qsizetype distinct = shownSorted().size();
    if (distinct < positions.size()) {
        // Two hashes chose one bit: the name sets fewer bits than k.
        QList<quint64> again;
        for (qsizetype i = 0; i < positions.size(); ++i)
            if (positions.indexOf(positions[i]) != i && !again.contains(shown(positions[i])))
                again << shown(positions[i]);
        std::sort(again.begin(), again.end());
        QStringList s;
        for (quint64 p : again)
            s << QString::number(p);
        out +=
            QStringLiteral(" (%1 of its %2 hashes chose the same bit: %3 %4)")
                .arg(QString::number(positions.size() - distinct + 1), QString::number(positions.size()),
                     again.size() > 1 ? QStringLiteral("bits") : QStringLiteral("bit"), s.join(QStringLiteral(", ")));
    }
    return out;
}

QString SandboxFilter::Trace::explain() const
{
    const QString whereText = QStringLiteral("%1 -> %2").arg(QString::fromUtf8(name), where());
    if (!maybe) {
        QList<quint64> zeroSorted;
        for (qsizetype i = 0; i < positions.size(); ++i)
            if (!wasSet[i] && !zeroSorted.contains(shown(positions[i])))
                zeroSorted << shown(positions[i]);
        std::sort(zeroSorted.begin(), zeroSorted.end());
        QStringList zero;
        for (quint64 p : zeroSorted)
            zero << QString::number(p);
        return zero.size() > 1 ? QCoreApplication::translate("bloom", "%1: bits %2 are 0, definitely not added")
                                     .arg(whereText, zero.join(QStringLiteral(", ")))
                               : QCoreApplication::translate("bloom", "%1: bit %2 is 0, definitely not added")
                                     .arg(whereText, zero.value(0));
    }
    if (added) {
        if (addedAs == name || addedAs.isEmpty())
            return QCoreApplication::translate("bloom", "%1: all set, and %2 was added")
                .arg(whereText, QString::fromUtf8(name));
        // Both spellings, each lowered: lower("İstanbul") = lower("istanbul") = "istanbul" (it said
        // lower("istanbul") is "istanbul", which explains nothing).
        return QCoreApplication::translate(
                   "bloom",
                   "%1: all set, and %2 was added (lower(\"%2\") = lower(\"%3\") = \"%4\": one name to username_bits)")
            .arg(whereText, QString::fromUtf8(addedAs), QString::fromUtf8(name), QString::fromUtf8(hashed));
    }
    return QCoreApplication::translate(
               "bloom", "%1: all set, but %2 was never added - a false positive: its bits were set by %3")
        .arg(whereText, QString::fromUtf8(name), joinNames(setBy));
}

bool SandboxFilter::allSet(const QByteArray &name) const
{
    // A check without the trace's digests and explanations: the measurement's hot loop.
    if (mScheme == Scheme::Classic) {
        for (quint64 pos : classic::positions(name, size(), mK))
            if (!mBits[pos])
                return false;
        return true;
    }
    const Placement p = place(mGeometry, Hash128::md5(offlineLower(name)));
    const quint64 base = quint64(p.chunk) * mGeometry.chunkBits();
    for (int i = 0; i < p.k; ++i)
        if (!mBits[base + p.positions[size_t(i)]])
            return false;
    return true;
}

quint64 SandboxFilter::setBits() const
{
    return quint64(std::count(mBits.begin(), mBits.end(), true));
}

double SandboxFilter::measuredFpr(int probes, quint32 seed) const
{
    if (probes <= 0)
        return 0;
    QRandomGenerator rng(seed);
    int hits = 0, tried = 0;
    while (tried < probes) {
        const QByteArray probe = "probe-" + QByteArray::number(rng.generate64(), 36);
        if (contains(probe))
            continue;
        ++tried;
        hits += allSet(probe) ? 1 : 0;
    }
    return double(hits) / double(probes);
}

double SandboxFilter::modelFpr() const
{
    return modelFpr(qint64(mNames.size()), mK);
}

double SandboxFilter::modelFpr(qint64 names) const
{
    return modelFpr(names, mK);
}

double SandboxFilter::modelFpr(qint64 names, int k) const
{
    if (mScheme == Scheme::Classic)
        return fpr::standardExact(names, double(size()), k);
    return fpr::blockedExact(names, double(mGeometry.chunks()), double(mGeometry.chunkBits()), k);
}

int SandboxFilter::bestK(qint64 names, int maxK) const
{
    int best = 1;
    double lowest = modelFpr(names, 1);
    for (int k = 2; k <= maxK; ++k)
        if (const double v = modelFpr(names, k); v < lowest) {
            lowest = v;
            best = k;
        }
    return best;
}

QJsonObject SandboxFilter::toJson() const
{
    QJsonArray names;
    for (const QByteArray &n : mNames)
        names.append(QString::fromUtf8(n));
    QJsonObject o{
        {QStringLiteral("format"), QStringLiteral("bloomscope-sandbox-1")},
        {QStringLiteral("scheme"), mScheme == Scheme::Classic ? QStringLiteral("classic") : QStringLiteral("blocked")},
        {QStringLiteral("k"), mK},
        {QStringLiteral("names"), names}};
    if (mScheme == Scheme::Classic)
        o.insert(QStringLiteral("bits"), qint64(size()));
    else {
        o.insert(QStringLiteral("chunks"), qint64(mGeometry.chunks()));
        o.insert(QStringLiteral("chunk_bits"), qint64(mGeometry.chunkBits()));
    }
    return o;
}

Result<SandboxFilter> SandboxFilter::fromJson(const QJsonObject &o)
{
    if (o.value(QLatin1String("format")).toString() != QLatin1String("bloomscope-sandbox-1"))
        return makeError(ErrorKind::BadInput, QStringLiteral("not a Bloomscope sandbox (format bloomscope-sandbox-1)"));
    const QJsonValue scheme = o.value(QLatin1String("scheme"));
    Result<SandboxFilter> f = makeError(
        ErrorKind::BadInput, QStringLiteral("unknown scheme: the session's scheme is %1").arg(shortenedJson(scheme)),
        QStringLiteral("the schemes are classic and blocked"));
    if (scheme != QJsonValue(QStringLiteral("classic")) && scheme != QJsonValue(QStringLiteral("blocked")))
        return f;
    // Each number is checked as written: "bits": -1 is said as -1 (it used to become 18446744073709551615).
    const auto whole = [&o](const char *field, qint64 lo, qint64 hi) -> Result<qint64> {
        const QJsonValue v = o.value(QLatin1String(field));
        const double d = v.toDouble(-1.5);
        if (!v.isDouble() || d != std::floor(d) || d < double(lo) || d > double(hi))
            return makeError(ErrorKind::BadInput,
                             QStringLiteral("the session's %1 is %2; it must be a whole number from %3 to %4")
                                 .arg(QLatin1String(field), shortenedJson(v), formatCount(lo), formatCount(hi)));
        return qint64(d);
    };
    const auto k = whole("k", 1, Geometry::MaxK);
    if (!k)
        return k.error();
    if (scheme == QJsonValue(QStringLiteral("classic"))) {
        const auto bits = whole("bits", 2, qint64(MaxSandboxBits));
        if (!bits)
            return bits.error();
        f = classic(quint64(*bits), int(*k));
    } else if (scheme == QJsonValue(QStringLiteral("blocked"))) {
        const auto chunks = whole("chunks", 1, qint64(MaxSandboxBits));
        if (!chunks)
            return chunks.error();
        const auto chunkBits = whole("chunk_bits", 1, qint64(MaxSandboxBits));
        if (!chunkBits)
            return chunkBits.error();
        auto g = Geometry::fromCounts(*chunks, *chunkBits, int(*k));
        if (!g)
            return g.error();
        f = blocked(*g);
    }
    if (!f)
        return f;
    const QJsonArray names = o.value(QLatin1String("names")).toArray();
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (!names[i].isString())
            return makeError(ErrorKind::BadInput, QStringLiteral("the session's name %1 is %2, not a string")
                                                      .arg(QString::number(i + 1), shortenedJson(names[i])));
        if (auto a = f->add(names[i].toString().toUtf8()); !a)
            return makeError(
                ErrorKind::BadInput,
                QStringLiteral("the session's name \"%1\": %2").arg(shortened(names[i].toString()), a.error().message),
                a.error().fix);
    }
    return f;
}

} // namespace bloom
