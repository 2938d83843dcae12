#include "local/localcluster.h"
#include "model/name.h"
#include "model/placement.h"
#include "postgres/pgconn.h"
#include "testcluster.h"

#include <QRandomGenerator>
#include <QTest>

using namespace bloom;

/**
 * Exact compatibility: for every name, core's placement equals what the server's reference
 * `username_bits` computes, on a private cluster with the reference SQL installed verbatim.
 */
class TestServerCompat : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(test::startCluster(mCluster));
        QVERIFY(mCluster.createDatabase(QStringLiteral("filter")).ok());
        auto s = mCluster.exec(QStringLiteral("filter"), test::sqlResource(QStringLiteral("reference.sql")));
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().message));
        mConn = std::make_unique<PgConn>(mCluster.connectionString(QStringLiteral("filter")));
        QVERIFY2(mConn->ok(), qPrintable(mConn->errorMessage()));
    }

    void clusterIsPrivate()
    {
        auto r = mConn->column(QStringLiteral("show listen_addresses"));
        QVERIFY(r.ok());
        QCOMPARE(r->value(0), QByteArray("127.0.0.1"));
        auto enc = mConn->column(QStringLiteral("show server_encoding"));
        QCOMPARE(enc->value(0), QByteArray("UTF8"));
    }

    void referenceFilterInstalled()
    {
        auto rows = mConn->column(QStringLiteral("select count(*) from username_filter"));
        QVERIFY(rows.ok());
        QCOMPARE(rows->value(0), QByteArray("131072"));
        auto ada = mConn->rows(
            QStringLiteral("select chunk, array(select i from generate_series(0, 8191) i where get_bit(mask, i) = 1) "
                           "from username_bits('ada')"));
        QVERIFY(ada.ok());
        QCOMPARE(ada->value(0).value(0), QByteArray("71962"));
        QCOMPARE(ada->value(0).value(1), QByteArray("{619,1835,3259,3422,5396,5977,6900}"));
    }

    void tenThousandAsciiNames()
    {
        // Mixed case, digits and punctuation, lengths 1..64, deterministic.
        QRandomGenerator rng(20260419);
        static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-+@!~ ";
        QList<QByteArray> names;
        for (int i = 0; i < 10000; ++i) {
            const int len = 1 + int(rng.bounded(64));
            QByteArray n(len, Qt::Uninitialized);
            for (int j = 0; j < len; ++j)
                n[j] = alphabet[rng.bounded(int(sizeof alphabet) - 1)];
            names.append(n);
        }
        names.append("ada");
        names.append("ADA");
        compareWithServer(names, /*serverLower=*/false);
    }

    void nonAsciiNamesUseServerLower()
    {
        const QList<QByteArray> names{
            QStringLiteral("ÅSA").toUtf8(),      QStringLiteral("Straße").toUtf8(),
            QStringLiteral("İstanbul").toUtf8(), QStringLiteral("ΣΊΣΥΦΟΣ").toUtf8(),
            QStringLiteral("Ǆemal").toUtf8(),    QStringLiteral("José").toUtf8(),
            QStringLiteral("ЖЁЛТЫЙ").toUtf8(),   QStringLiteral("\U0001F600smile").toUtf8(),
            QStringLiteral("名前").toUtf8(),     QStringLiteral("ＦＵＬＬ").toUtf8(),
            QStringLiteral("e\u0301").toUtf8(),
        };
        compareWithServer(names, /*serverLower=*/true);
    }

    void offlineGuessCanDiffer()
    {
        // Why the API marks offline non-ASCII placement approximate: Qt and this database's lower()
        // need not agree (İ lowercases to "i̇" in Qt's full mapping, to "i" in glibc's towlower).
        auto server = mConn->column(QStringLiteral("select lower($1)"), {QStringLiteral("İstanbul").toUtf8()});
        QVERIFY(server.ok());
        Lowering how;
        const QByteArray offline = offlineLower(QStringLiteral("İstanbul").toUtf8(), &how);
        QCOMPARE(how, Lowering::Approximate);
        qInfo("server lower(İstanbul) = %s, Qt's = %s", server->value(0).constData(), offline.constData());
    }

    void cleanupTestCase()
    {
        mConn.reset();
        QVERIFY(mCluster.stop().ok());
    }

private:
    void compareWithServer(const QList<QByteArray> &names, bool serverLower)
    {
        const Geometry g;
        QByteArray joined;
        for (const QByteArray &n : names) {
            QVERIFY(!n.contains('\n'));
            joined += n + '\n';
        }
        joined.chop(1);
        auto rows =
            mConn->rows(QStringLiteral("select n.ord, lower(n.name), (b).chunk, (b).mask::text "
                                       "from (select name, ord, username_bits(name) b "
                                       "      from string_to_table($1, E'\\n') with ordinality as t(name, ord)) n "
                                       "order by n.ord"),
                        {joined});
        QVERIFY2(rows.ok(), qPrintable(rows.ok() ? QString() : rows.error().message));
        QCOMPARE(rows->size(), names.size());
        int disagreements = 0;
        for (qsizetype i = 0; i < names.size(); ++i) {
            const QList<QByteArray> &row = rows->at(i);
            const QByteArray &name = names[i];
            Placement mine;
            if (serverLower) {
                QVERIFY(!isAscii(name));
                mine = placeLowered(g, row[1]); // the database's lower() is the authority
            } else {
                QVERIFY(isAscii(name));
                mine = placeAscii(g, name);
            }
            QList<int> serverBits;
            const QByteArray &mask = row[3];
            QCOMPARE(mask.size(), 8192);
            for (int b = 0; b < mask.size(); ++b)
                if (mask[b] == '1')
                    serverBits.append(b);
            if (row[2].toUInt() != mine.chunk || serverBits != mine.setBits()) {
                ++disagreements;
                qWarning("disagreement on '%s': server chunk %s, core chunk %u", name.constData(), row[2].constData(),
                         mine.chunk);
            }
        }
        QCOMPARE(disagreements, 0);
    }

    LocalCluster mCluster;
    std::unique_ptr<PgConn> mConn;
};

QTEST_GUILESS_MAIN(TestServerCompat)
#include "tst_servercompat.moc"
