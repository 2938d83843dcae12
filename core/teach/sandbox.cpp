#include "teach/sandbox.h"

#include "model/fprmodel.h"
#include "model/hash128.h"
#include "model/name.h"
#include "model/placement.h"
#include "teach/classicfilter.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRandomGenerator>

#include <algorithm>

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
    return s.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last;
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

Result<SandboxFilter::Trace> SandboxFilter::trace(const QByteArray &name) const
{
    if (auto v = validateName(name); !v)
        return v.error();
    Trace t;
    t.name = name;
    if (mScheme == Scheme::Classic) {
        // The reference's first example hashes the name as typed, one counter prefix per hash.
        t.hashed = name;
        t.lowering = Lowering::Ascii; // nothing is lowered: the bytes as typed, exactly
        for (int i = 0; i < mK; ++i) {
            const QByteArray input = QByteArray::number(i) + ':' + name;
            t.inputs << input;
            t.digests << Hash128::md5(input).hex().toLatin1();
        }
        t.positions = classic::positions(name, size(), mK);
    } else {
        t.hashed = offlineLower(name, &t.lowering);
        t.chunkBits = mGeometry.chunkBits();
        const Hash128 h = Hash128::md5(t.hashed);
        t.inputs << t.hashed;
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
    const QString bits =
        (pos.size() == 1 ? QStringLiteral("bit ") : QStringLiteral("bits ")) + pos.join(QStringLiteral(", "));
    return chunkBits ? QStringLiteral("chunk %1, %2").arg(QString::number(chunk), bits) : bits;
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
        return QStringLiteral("%1: bit%2 %3 %4 0, definitely not added")
            .arg(whereText, zero.size() > 1 ? QStringLiteral("s") : QString(), zero.join(QStringLiteral(", ")),
                 zero.size() > 1 ? QStringLiteral("are") : QStringLiteral("is"));
    }
    if (added) {
        if (addedAs == name || addedAs.isEmpty())
            return QStringLiteral("%1: all set, and %2 was added").arg(whereText, QString::fromUtf8(name));
        return QStringLiteral("%1: all set, and %2 was added (lower(\"%3\") is \"%4\": one name to username_bits)")
            .arg(whereText, QString::fromUtf8(addedAs), QString::fromUtf8(name), QString::fromUtf8(hashed));
    }
    return QStringLiteral("%1: all set, but %2 was never added - a false positive: its bits were set by %3")
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
    return modelFpr(double(mNames.size()));
}

double SandboxFilter::modelFpr(double names) const
{
    if (mScheme == Scheme::Classic)
        return fpr::standard(names, double(size()), mK);
    return fpr::blocked(names, mGeometry);
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
    const QString scheme = o.value(QLatin1String("scheme")).toString();
    const int k = o.value(QLatin1String("k")).toInt();
    Result<SandboxFilter> f = makeError(ErrorKind::BadInput, QStringLiteral("unknown scheme '%1'").arg(scheme),
                                        QStringLiteral("the schemes are classic and blocked"));
    if (scheme == QLatin1String("classic"))
        f = classic(quint64(o.value(QLatin1String("bits")).toInteger()), k);
    else if (scheme == QLatin1String("blocked")) {
        auto g = Geometry::fromCounts(o.value(QLatin1String("chunks")).toInteger(),
                                      o.value(QLatin1String("chunk_bits")).toInteger(), k);
        if (!g)
            return g.error();
        f = blocked(*g);
    }
    if (!f)
        return f;
    for (const QJsonValue &v : o.value(QLatin1String("names")).toArray())
        if (auto a = f->add(v.toString().toUtf8()); !a)
            return makeError(ErrorKind::BadInput,
                             QStringLiteral("the session's name '%1': %2").arg(v.toString(), a.error().message));
    return f;
}

} // namespace bloom
