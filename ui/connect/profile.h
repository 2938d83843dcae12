#pragma once

#include "postgres/connectionspec.h"
#include "postgres/filterstore.h"

#include <QColor>
#include <QList>
#include <QString>

namespace bloom {

/** A saved connection: where the filter is and how the window marks it. Never holds a password. */
struct Profile {
    QString name;
    QString host;
    int port = 5432;
    QString database;
    QString user;
    QString sslmode = QStringLiteral("prefer");
    QString service; ///< a pg_service.conf entry; used instead of host/port/database when set
    QString table = QStringLiteral("username_filter");
    QString function = QStringLiteral("username_bits");
    QString environment; ///< "", "development", "staging", "production"

    FilterRef ref() const { return {table, function}; }
    /** The libpq options (and `password` only when one is passed in, for this connection only). */
    ConnectionSpec spec(const QString &password = {}) const;
    /** The banner colour of the environment (production red, staging amber, development green). */
    QColor colour() const;
    /** The keyring key of this profile's password. */
    QString keyringKey() const
    {
        return QStringLiteral("%1@%2:%3/%4").arg(user, host, QString::number(port), database);
    }
};

/** Profiles in QSettings ("profiles/<name>/..."); passwords live in ~/.pgpass or the keyring. */
class ProfileStore {
public:
    static QList<Profile> load();
    static void save(const Profile &p);
    static void remove(const QString &name);
    /** The last connections that succeeded, newest first (at most 8; never a password). */
    static QList<Profile> recent();
    static void addRecent(const Profile &p);
    /** The profile (or recent entry) the dialog opens on. */
    static QString lastUsed();
    static void setLastUsed(const QString &key);
    /** "user@host:port/db table" for a recent entry. */
    static QString recentLabel(const Profile &p);
};

} // namespace bloom
