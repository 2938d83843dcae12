#pragma once

#include <QLocale>
#include <QStringList>

namespace bloom::translators {

/**
 * Installs Bloomscope's translation for `locale` (compiled in as ":/i18n/bloomscope_LANG.qm"), English
 * with its plural forms for a language it has none of, and Qt's own translation of its dialogs
 * (qtbase_LANG.qm) where qt6-translations-l10n is installed. Returns the files loaded.
 */
QStringList install(const QLocale &locale = QLocale());

} // namespace bloom::translators
