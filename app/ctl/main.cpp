#include "commands.h"

#include <QCoreApplication>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bloomctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BLOOMSCOPE_VERSION));
    return bloom::cli::run(app.arguments().mid(1));
}
