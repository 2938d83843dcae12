#include "connect/profile.h"
#include "style/theme.h"

#include <QSettings>

namespace bloom {

ConnectionSpec Profile::spec(const QString &password) const
{
    ConnectionSpec s;
    if (!service.isEmpty()) {
        s.set(QStringLiteral("service"), service);
    } else {
        if (!host.isEmpty())
            s.set(QStringLiteral("host"), host);
        s.set(QStringLiteral("port"), QString::number(port));
        if (!database.isEmpty())
            s.set(QStringLiteral("dbname"), database);
    }
    if (!user.isEmpty())
        s.set(QStringLiteral("user"), user);
    if (!sslmode.isEmpty())
        s.set(QStringLiteral("sslmode"), sslmode);
    if (!password.isEmpty())
        s.set(QStringLiteral("password"), password);
    return s;
}

QColor Profile::colour() const
{
    if (environment == QLatin1String("production"))
        return theme::productionBanner();
    if (environment == QLatin1String("staging"))
        return theme::stagingBanner();
    if (environment == QLatin1String("development"))
        return theme::developmentBanner();
    return {};
}

namespace {

Profile readProfile(QSettings &settings)
{
    Profile p;
    p.host = settings.value(QStringLiteral("host")).toString();
    p.port = settings.value(QStringLiteral("port"), 5432).toInt();
    p.database = settings.value(QStringLiteral("database")).toString();
    p.user = settings.value(QStringLiteral("user")).toString();
    p.sslmode = settings.value(QStringLiteral("sslmode"), QStringLiteral("prefer")).toString();
    p.service = settings.value(QStringLiteral("service")).toString();
    p.table = settings.value(QStringLiteral("table"), p.table).toString();
    p.function = settings.value(QStringLiteral("function"), p.function).toString();
    p.environment = settings.value(QStringLiteral("environment")).toString();
    return p;
}

void writeProfile(QSettings &settings, const Profile &p)
{
    settings.setValue(QStringLiteral("host"), p.host);
    settings.setValue(QStringLiteral("port"), p.port);
    settings.setValue(QStringLiteral("database"), p.database);
    settings.setValue(QStringLiteral("user"), p.user);
    settings.setValue(QStringLiteral("sslmode"), p.sslmode);
    settings.setValue(QStringLiteral("service"), p.service);
    settings.setValue(QStringLiteral("table"), p.table);
    settings.setValue(QStringLiteral("function"), p.function);
    settings.setValue(QStringLiteral("environment"), p.environment);
    // Deliberately no password key: see Profile.
}

} // namespace

QList<Profile> ProfileStore::load()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("profiles"));
    QList<Profile> out;
    for (const QString &name : settings.childGroups()) {
        settings.beginGroup(name);
        Profile p = readProfile(settings);
        p.name = name;
        settings.endGroup();
        out.append(p);
    }
    return out;
}

void ProfileStore::save(const Profile &p)
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("profiles"));
    settings.remove(p.name);
    settings.beginGroup(p.name);
    writeProfile(settings, p);
}

QList<Profile> ProfileStore::recent()
{
    QSettings settings;
    const int n = settings.beginReadArray(QStringLiteral("recent"));
    QList<Profile> out;
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        Profile p = readProfile(settings);
        p.name = settings.value(QStringLiteral("profile")).toString();
        out.append(p);
    }
    settings.endArray();
    return out;
}

void ProfileStore::addRecent(const Profile &p)
{
    QList<Profile> list = recent();
    list.removeIf([&p](const Profile &q) { return recentLabel(q) == recentLabel(p); });
    list.prepend(p);
    while (list.size() > 8)
        list.removeLast();
    QSettings settings;
    settings.remove(QStringLiteral("recent"));
    settings.beginWriteArray(QStringLiteral("recent"), int(list.size()));
    for (int i = 0; i < list.size(); ++i) {
        settings.setArrayIndex(i);
        writeProfile(settings, list[i]);
        settings.setValue(QStringLiteral("profile"), list[i].name);
    }
    settings.endArray();
}

QString ProfileStore::lastUsed()
{
    return QSettings().value(QStringLiteral("lastUsed")).toString();
}

void ProfileStore::setLastUsed(const QString &key)
{
    QSettings().setValue(QStringLiteral("lastUsed"), key);
}

QString ProfileStore::recentLabel(const Profile &p)
{
    const QString where = p.service.isEmpty() ? QStringLiteral("%1@%2:%3/%4")
                                                    .arg(p.user.isEmpty() ? QStringLiteral("(you)") : p.user,
                                                         p.host.isEmpty() ? QStringLiteral("local") : p.host,
                                                         QString::number(p.port), p.database)
                                              : QStringLiteral("service=%1").arg(p.service);
    return QStringLiteral("%1 %2").arg(where, p.table);
}

void ProfileStore::remove(const QString &name)
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("profiles"));
    settings.remove(name);
}

} // namespace bloom
