#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

/** `bloomctl explain` end to end: the real executable, its text, JSON and exit codes. */
class TestBloomctlExplain : public QObject {
    Q_OBJECT
private:
    struct Run {
        int code = -1;
        QByteArray out, err;
    };
    static Run bloomctl(const QStringList &args)
    {
        QProcess p;
        p.start(QStringLiteral(BLOOMCTL_PATH), args);
        Run r;
        if (!p.waitForFinished(30000))
            return r;
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

private slots:
    void text()
    {
        const Run r = bloomctl({QStringLiteral("explain"), QStringLiteral("ada")});
        QCOMPARE(r.code, 0);
        for (const char *want : {"8c8d357b5e872bbacd45197626bd5759", "10001100100011010", "71962", "bits 18-30",
                                 "0110101011110", "{619,1835,3259,3422,5396,5977,6900}"})
            QVERIFY2(r.out.contains(want), want);
    }

    void json()
    {
        const Run r = bloomctl({QStringLiteral("--json"), QStringLiteral("explain"), QStringLiteral("Ada")});
        QCOMPARE(r.code, 0);
        QJsonParseError e;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &e).object();
        QCOMPARE(e.error, QJsonParseError::NoError);
        for (const char *key : {"name", "normalized", "md5", "chunk", "bits"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(QLatin1String("name")).toString(), QStringLiteral("Ada"));
        QCOMPARE(o.value(QLatin1String("normalized")).toString(), QStringLiteral("ada"));
        QCOMPARE(o.value(QLatin1String("chunk")).toInt(), 71962);
        QCOMPARE(o.value(QLatin1String("bits")).toVariant().toList().size(), 7);
    }

    void nonAsciiSaysApproximate()
    {
        const Run r = bloomctl({QStringLiteral("explain"), QStringLiteral("Straße")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("APPROXIMATE"));
    }

    void exitCodes()
    {
        QCOMPARE(bloomctl({QStringLiteral("explain"), QString()}).code, 5);
        QCOMPARE(bloomctl({QStringLiteral("frobnicate")}).code, 2);
        QCOMPARE(bloomctl({QStringLiteral("--nope"), QStringLiteral("explain"), QStringLiteral("a")}).code, 2);
        QCOMPARE(bloomctl({QStringLiteral("--chunks"), QStringLiteral("1000"), QStringLiteral("explain"),
                           QStringLiteral("a")})
                     .code,
                 2);
        const Run help = bloomctl({QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains("Exit codes"));
    }

    void otherGeometry()
    {
        const Run r = bloomctl({QStringLiteral("--json"), QStringLiteral("--chunks"), QStringLiteral("8"),
                                QStringLiteral("--chunk-bits"), QStringLiteral("64"), QStringLiteral("--k"),
                                QStringLiteral("3"), QStringLiteral("explain"), QStringLiteral("ada")});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QLatin1String("chunk")).toInt(), 4);
    }
};

QTEST_GUILESS_MAIN(TestBloomctlExplain)
#include "tst_bloomctl_explain.moc"
