#pragma once

#include "common/result.h"
#include "connect/profile.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace bloom {

class FilterSession;

/**
 * Connect to a filter: saved profiles (QSettings, never a password), an optional password kept in
 * the system keyring, and the demo database. Connecting runs on the session's worker; a failure is
 * shown here, with the store's words.
 */
class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    ConnectDialog(FilterSession *session, QWidget *parent = nullptr);

    Profile profile() const;
    void setProfile(const Profile &p);
    QString errorText() const;
    bool demoRequested() const { return mDemo; }

    /** Starts connecting (as the Connect button does). */
    void connectNow();
    /** Connects without closing anything: server version, filter, geometry, round trip (the Test button). */
    void testNow();
    /** Connect read-write (the window is in admin mode). */
    void setAdmin(bool admin) { mAdmin = admin; }
    /** What the last Test said. */
    QString testText() const;
    /** libpq's and core's words as the dialog shows them: no raw tabs, the dialog's fields for options. */
    static QString guiWords(const QString &text);

signals:
    /** A connect of `profile` starts on the session (the window takes the profile when it succeeds). */
    void connecting(const bloom::Profile &profile);

private:
    void loadProfiles();
    void rememberRecent(const Profile &p);
    void profileChosen(int index);
    void readKeyring(const Profile &p);
    void writeKeyring(const Profile &p, const QString &password);

    FilterSession *mSession;
    QComboBox *mProfiles = nullptr;
    QLineEdit *mName = nullptr, *mHost = nullptr, *mDatabase = nullptr, *mUser = nullptr, *mService = nullptr;
    QLineEdit *mPassword = nullptr, *mTable = nullptr, *mFunction = nullptr;
    QSpinBox *mPort = nullptr;
    QComboBox *mSslmode = nullptr, *mEnvironment = nullptr;
    QCheckBox *mRemember = nullptr;
    QLabel *mError = nullptr;
    QPushButton *mConnect = nullptr;
    QPushButton *mTest = nullptr;
    FilterSession *mProbe = nullptr; ///< the Test button's own session, so a test never touches the window's
    QList<Profile> mRecent;
    bool mAdmin = false;
    bool mDemo = false;
    bool mWaiting = false;
};

} // namespace bloom
