#pragma once

#include "local/localcluster.h"
#include "postgres/filtersql.h"
#include "postgres/pgconn.h"

#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

namespace bloom::test {

/** Reads one of bloomcore's SQL resources (":/sql/NAME"). */
using bloom::sqlResource;

/** Starts a private cluster for a test case; fails the test (never skips) when it cannot. */
inline bool startCluster(LocalCluster &cluster)
{
    auto s = cluster.start();
    if (!s) {
        qWarning("%s", qPrintable(s.error().toString()));
        return false;
    }
    return true;
}

/** How many of `names` the reference's own check statement, run on `conninfo` (the application's
 *  role, say), calls free: must be 0 for every name that was added. */
inline qint64 referenceFree(const QString &conninfo, const QList<QByteArray> &names)
{
    PgConn c(conninfo);
    auto r = c.column(QStringLiteral("select count(*) from unnest(string_to_array($1, E'\\n')) n "
                                     "where not (select bits & mask = mask from username_filter "
                                     "join username_bits(n) using (chunk))"),
                      {names.join('\n')});
    if (!r)
        qFatal("%s", qPrintable(r.error().message));
    return r->value(0).toLongLong();
}

/** What a bloomctl run said and how it ended (code -1: it did not finish, -2: it crashed). */
struct CtlRun {
    int code = -1;
    QByteArray out, err;
};

/**
 * Runs the built bloomctl with `args` (stdin: `input`, closed at once when null), under `wrapper`
 * when one is given (a program and its options, e.g. valgrind's), with `env` added to the environment.
 */
inline CtlRun runBloomctl(const QStringList &args, const QByteArray &input = {}, const QStringList &wrapper = {},
                          const QHash<QString, QString> &env = {})
{
    QProcess p;
    if (!env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (auto it = env.begin(); it != env.end(); ++it)
            e.insert(it.key(), it.value());
        p.setProcessEnvironment(e);
    }
    if (wrapper.isEmpty())
        p.start(QStringLiteral(BLOOMCTL_PATH), args);
    else
        p.start(wrapper.first(), wrapper.mid(1) + QStringList{QStringLiteral(BLOOMCTL_PATH)} + args);
    p.waitForStarted();
    if (!input.isNull())
        p.write(input);
    p.closeWriteChannel();
    CtlRun r;
    if (!p.waitForFinished(120000))
        return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

/**
 * Whether the Prometheus text `text` (bloomctl metrics) has a sample of `name` labelled with the server
 * and database, then `labels` ("table=\"public.username_filter\"" and any after it), and the value
 * `value` (any value when empty).
 */
inline bool hasSample(const QByteArray &text, const QString &name, const QString &labels, const QString &value = {})
{
    const QRegularExpression re(
        QLatin1Char('^') + QRegularExpression::escape(name) +
            QStringLiteral("\\{server=\"[^\"]+\",database=\"[^\"]+\",") + QRegularExpression::escape(labels) +
            QStringLiteral("\\} ") +
            (value.isEmpty() ? QStringLiteral("\\S+$") : QRegularExpression::escape(value) + QLatin1Char('$')),
        QRegularExpression::MultilineOption);
    return re.match(QString::fromUtf8(text)).hasMatch();
}

} // namespace bloom::test
