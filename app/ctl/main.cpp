#include "commands.h"

#include "postgres/connectionspec.h"

#include <QCoreApplication>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bloomctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BLOOMSCOPE_VERSION));
    const QStringList args = app.arguments().mid(1);
    // The arguments are strings now: no password stays readable in ps while a load runs.
    bloom::scrubPasswordsInArgv(argc, argv);
    return bloom::cli::run(args);
}
