#include "commands.h"

#include "common/printable.h"
#include "common/testhook.h"
#include "postgres/connectionspec.h"
#include "postgres/pgconn.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

int main(int argc, char **argv)
{
    // First: copy the arguments and overwrite every password in argv, so that ps and /proc/PID/cmdline
    // show none from here on; the command reads the copy.
    const bloom::ProcessArguments arguments(argc, argv);
    bloom::pauseForTests("app-start");
    static bool json = false; // under --json every line on stderr is a JSON object, Qt's warnings too
    for (const QByteArray &a : arguments.remaining(argc, argv)) {
        if (a == "--")
            break;
        json = json || a == "--json";
    }
    // Qt's own warnings go to stderr escaped, as everything bloomctl prints does.
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &message) {
        const QByteArray text = json ? QJsonDocument(QJsonObject{{QStringLiteral("warning"),
                                                                  QJsonObject{{QStringLiteral("message"), message}}}})
                                               .toJson(QJsonDocument::Compact) +
                                           '\n'
                                     : (bloom::escapeMessage(message) + QLatin1Char('\n')).toUtf8();
        std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
    });
    bloom::setNoticesAsJson(json); // a server's NOTICE too
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bloomctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BLOOMSCOPE_VERSION));
    return bloom::cli::run(arguments.remaining(argc, argv));
}
