#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Bloomscope"));
    QApplication::setOrganizationName(QStringLiteral("Bloomscope"));
    QApplication::setApplicationVersion(QStringLiteral(BLOOMSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Visualiser for blocked Bloom filters in PostgreSQL"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window to a PNG file and exit."),
                                        QStringLiteral("file"));
    const QCommandLineOption name(QStringLiteral("name"), QStringLiteral("Name to explain."), QStringLiteral("name"),
                                  QStringLiteral("ada"));
    parser.addOptions({screenshot, name});
    parser.process(app);

    bloom::MainWindow window;
    window.setName(parser.value(name));
    if (parser.isSet(screenshot)) {
        window.show();
        QApplication::processEvents();
        return window.grab().save(parser.value(screenshot)) ? 0 : 1;
    }
    window.show();
    return app.exec();
}
