#include "style/translators.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace bloom::translators {

QStringList install(const QLocale &locale)
{
    QStringList loaded;
    auto *ours = new QTranslator(QCoreApplication::instance());
    // QTranslator::load(QLocale, ...) tries each of the locale's UI languages (LANGUAGE first, then
    // LC_ALL, LC_MESSAGES, LANG); the C locale and languages we lack get English's plural forms.
    if (ours->load(locale, QStringLiteral("bloomscope"), QStringLiteral("_"), QStringLiteral(":/i18n")) ||
        ours->load(QStringLiteral(":/i18n/bloomscope_en.qm"))) {
        QCoreApplication::installTranslator(ours);
        loaded << ours->filePath();
    } else {
        delete ours;
    }
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        loaded << qt->filePath();
    } else {
        delete qt;
    }
    return loaded;
}

} // namespace bloom::translators
