#include "connect/connectdialog.h"
#include "style/theme.h"

#include "session/filtersession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <qt6keychain/keychain.h>

namespace bloom {

namespace {
const QString KeyringService = QStringLiteral("Bloomscope");
}

ConnectDialog::ConnectDialog(FilterSession *session, QWidget *parent)
    : QDialog(parent)
    , mSession(session)
{
    setWindowTitle(tr("Connect to a filter"));
    mProfiles = new QComboBox(this);
    mProfiles->setObjectName(QStringLiteral("profiles"));
    mName = new QLineEdit(this);
    mName->setObjectName(QStringLiteral("profileName"));
    mHost = new QLineEdit(this);
    mHost->setObjectName(QStringLiteral("host"));
    mHost->setPlaceholderText(tr("db.example.com, or empty for the local socket"));
    mPort = new QSpinBox(this);
    mPort->setObjectName(QStringLiteral("port"));
    mPort->setRange(1, 65535);
    mPort->setValue(5432);
    mDatabase = new QLineEdit(this);
    mDatabase->setObjectName(QStringLiteral("database"));
    mUser = new QLineEdit(this);
    mUser->setObjectName(QStringLiteral("user"));
    mService = new QLineEdit(this);
    mService->setPlaceholderText(tr("optional: a pg_service.conf entry instead of host/port/database"));
    mPassword = new QLineEdit(this);
    mPassword->setObjectName(QStringLiteral("password"));
    mPassword->setEchoMode(QLineEdit::Password);
    mPassword->setPlaceholderText(tr("empty: ~/.pgpass or the service file is used"));
    mRemember = new QCheckBox(tr("Remember in the system keyring (never in the settings file)"), this);
    mSslmode = new QComboBox(this);
    mSslmode->addItems({QStringLiteral("prefer"), QStringLiteral("disable"), QStringLiteral("require"),
                        QStringLiteral("verify-ca"), QStringLiteral("verify-full")});
    mTable = new QLineEdit(QStringLiteral("username_filter"), this);
    mTable->setObjectName(QStringLiteral("table"));
    mFunction = new QLineEdit(QStringLiteral("username_bits"), this);
    mEnvironment = new QComboBox(this);
    mEnvironment->setObjectName(QStringLiteral("environment"));
    mEnvironment->addItem(tr("(none)"), QString());
    mEnvironment->addItem(tr("development (green)"), QStringLiteral("development"));
    mEnvironment->addItem(tr("staging (amber)"), QStringLiteral("staging"));
    mEnvironment->addItem(tr("production (red)"), QStringLiteral("production"));
    mError = new QLabel(this);
    mError->setObjectName(QStringLiteral("connectError"));
    mError->setWordWrap(true);
    mError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mError->setStyleSheet(theme::textStyle(theme::errorText(palette())));
    mError->setAccessibleName(tr("Connection result"));

    auto *form = new QFormLayout;
    form->addRow(tr("Profile:"), mProfiles);
    form->addRow(tr("Profile &name:"), mName);
    form->addRow(tr("Host:"), mHost);
    form->addRow(tr("Port:"), mPort);
    form->addRow(tr("Database:"), mDatabase);
    form->addRow(tr("User:"), mUser);
    form->addRow(tr("Service:"), mService);
    form->addRow(tr("Password:"), mPassword);
    form->addRow(QString(), mRemember);
    form->addRow(tr("SSL mode:"), mSslmode);
    form->addRow(tr("Filter table:"), mTable);
    form->addRow(tr("Function:"), mFunction);
    form->addRow(tr("Environment:"), mEnvironment);

    auto *buttons = new QDialogButtonBox(this);
    mConnect = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    mConnect->setObjectName(QStringLiteral("connectButton"));
    mTest = buttons->addButton(tr("&Test connection"), QDialogButtonBox::ActionRole);
    mTest->setObjectName(QStringLiteral("testButton"));
    auto *save = buttons->addButton(tr("&Save profile"), QDialogButtonBox::ActionRole);
    save->setObjectName(QStringLiteral("saveButton"));
    auto *remove = buttons->addButton(tr("De&lete profile"), QDialogButtonBox::ActionRole);
    auto *demo = buttons->addButton(tr("&Demo database"), QDialogButtonBox::ActionRole);
    demo->setObjectName(QStringLiteral("demoButton"));
    buttons->addButton(QDialogButtonBox::Cancel);
    // Enter connects, whatever was clicked last: no other button takes the default.
    for (QAbstractButton *b : buttons->buttons())
        if (auto *push = qobject_cast<QPushButton *>(b))
            push->setAutoDefault(false);
    mConnect->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(mError);
    layout->addWidget(buttons);

    mProbe = new FilterSession(this);
    connect(mConnect, &QPushButton::clicked, this, &ConnectDialog::connectNow);
    connect(mTest, &QPushButton::clicked, this, &ConnectDialog::testNow);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save, &QPushButton::clicked, this, [this] {
        const Profile p = profile();
        if (p.name.isEmpty()) {
            mError->setStyleSheet(theme::textStyle(theme::errorText(palette())));
            mError->setText(tr("Give the profile a name first."));
            mName->setFocus();
            return;
        }
        // The typed password stays for this connect; it goes to the keyring only if asked, never to the file.
        const QString password = mPassword->text();
        ProfileStore::save(p);
        loadProfiles();
        const QSignalBlocker block(mProfiles);
        mProfiles->setCurrentIndex(mProfiles->findData(QStringLiteral("profile:") + p.name));
        mPassword->setText(password);
        if (mRemember->isChecked() && !password.isEmpty())
            writeKeyring(p, password);
        mError->setStyleSheet(theme::textStyle(theme::okText(palette()))); // a success, not in error red
        mError->setText(tr("Saved profile \"%1\" (without the password).").arg(p.name));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (!mName->text().isEmpty())
            ProfileStore::remove(mName->text());
        loadProfiles();
    });
    connect(demo, &QPushButton::clicked, this, [this] {
        mDemo = true;
        accept();
    });
    connect(mProfiles, &QComboBox::currentIndexChanged, this, &ConnectDialog::profileChosen);
    connect(mSession, &FilterSession::opened, this, [this](const FilterSummary &s) {
        if (!mWaiting || s.followed)
            return;
        mWaiting = false;
        mConnect->setEnabled(true);
        const Profile p = profile();
        rememberRecent(p);
        accept();
    });
    connect(mSession, &FilterSession::openFailed, this, [this](const Error &e) {
        if (!mWaiting)
            return;
        mWaiting = false;
        mConnect->setEnabled(true);
        mError->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mError->setText(guiWords(e.toString()));
    });
    connect(mProbe, &FilterSession::opened, this, [this](const FilterSummary &s) {
        mTest->setEnabled(true);
        mError->setStyleSheet(QString());
        mError->setText(tr("Connected to %1: PostgreSQL %2; filter %3 found, %4; round trip %5 ms.")
                            .arg(s.where, s.serverVersion, s.ref.table, s.geometry.describe(),
                                 QString::number(s.roundTripMs, 'f', 2)));
    });
    connect(mProbe, &FilterSession::openFailed, this, [this](const Error &e) {
        mTest->setEnabled(true);
        mError->setStyleSheet(theme::textStyle(theme::errorText(palette())));
        mError->setText(guiWords(e.toString()));
    });
    loadProfiles();
    // Open on the last connection used, not on an empty form.
    const int last = mProfiles->findData(ProfileStore::lastUsed());
    if (last > 0)
        mProfiles->setCurrentIndex(last);
}

QString ConnectDialog::testText() const
{
    return mError->text();
}

QString ConnectDialog::guiWords(const QString &text)
{
    QString t = text;
    // libpq indents continuation lines with a tab ("\tIs the server running..."): a label shows it raw.
    t.replace(QLatin1Char('\t'), QLatin1Char(' '));
    static const std::pair<const char *, const char *> words[] = {
        {"check --table and --db",
         QT_TRANSLATE_NOOP("bloom::ConnectDialog", "check the Filter table and the connection fields")},
        {"--table and --function", QT_TRANSLATE_NOOP("bloom::ConnectDialog", "the Filter table and Function fields")},
        {"--table", QT_TRANSLATE_NOOP("bloom::ConnectDialog", "the Filter table field")},
        {"--function", QT_TRANSLATE_NOOP("bloom::ConnectDialog", "the Function field")},
        {"--db", QT_TRANSLATE_NOOP("bloom::ConnectDialog", "the connection fields")},
    };
    for (const auto &[cli, gui] : words)
        t.replace(QLatin1String(cli), QCoreApplication::translate("bloom::ConnectDialog", gui));
    while (t.contains(QStringLiteral("  ")))
        t.replace(QStringLiteral("  "), QStringLiteral(" "));
    return t.trimmed();
}

void ConnectDialog::rememberRecent(const Profile &p)
{
    ProfileStore::addRecent(p);
    ProfileStore::setLastUsed(p.name.isEmpty() ? QStringLiteral("recent:") + ProfileStore::recentLabel(p)
                                               : QStringLiteral("profile:") + p.name);
}

void ConnectDialog::loadProfiles()
{
    const QSignalBlocker block(mProfiles);
    mProfiles->clear();
    mProfiles->addItem(tr("(new connection)"));
    for (const Profile &p : ProfileStore::load())
        mProfiles->addItem(p.name, QStringLiteral("profile:") + p.name);
    mRecent = ProfileStore::recent();
    if (!mRecent.isEmpty())
        mProfiles->insertSeparator(mProfiles->count());
    for (const Profile &p : mRecent)
        mProfiles->addItem(tr("Recent: %1").arg(ProfileStore::recentLabel(p)),
                           QStringLiteral("recent:") + ProfileStore::recentLabel(p));
}

void ConnectDialog::profileChosen(int index)
{
    const QString key = mProfiles->itemData(index).toString();
    if (key.startsWith(QLatin1String("profile:"))) {
        for (const Profile &p : ProfileStore::load())
            if (QStringLiteral("profile:") + p.name == key) {
                setProfile(p);
                readKeyring(p);
            }
    } else if (key.startsWith(QLatin1String("recent:"))) {
        for (const Profile &p : std::as_const(mRecent))
            if (QStringLiteral("recent:") + ProfileStore::recentLabel(p) == key) {
                setProfile(p);
                readKeyring(p);
            }
    }
}

Profile ConnectDialog::profile() const
{
    Profile p;
    p.name = mName->text().trimmed();
    p.host = mHost->text().trimmed();
    p.port = mPort->value();
    p.database = mDatabase->text().trimmed();
    p.user = mUser->text().trimmed();
    p.service = mService->text().trimmed();
    p.sslmode = mSslmode->currentText();
    p.table = mTable->text().trimmed();
    p.function = mFunction->text().trimmed();
    p.environment = mEnvironment->currentData().toString();
    return p;
}

void ConnectDialog::setProfile(const Profile &p)
{
    mName->setText(p.name);
    mHost->setText(p.host);
    mPort->setValue(p.port);
    mDatabase->setText(p.database);
    mUser->setText(p.user);
    mService->setText(p.service);
    mSslmode->setCurrentText(p.sslmode);
    mTable->setText(p.table);
    mFunction->setText(p.function);
    mEnvironment->setCurrentIndex(qMax(0, mEnvironment->findData(p.environment)));
    mPassword->clear();
}

QString ConnectDialog::errorText() const
{
    return mError->text();
}

void ConnectDialog::connectNow()
{
    const Profile p = profile();
    const QString password = mPassword->text();
    if (mRemember->isChecked() && !password.isEmpty())
        writeKeyring(p, password);
    mError->setStyleSheet(QString());
    mError->setText(tr("Connecting to %1...").arg(p.spec().describe()));
    mConnect->setEnabled(false);
    mWaiting = true;
    emit connecting(p);
    mSession->open(p.spec(password), p.ref(), /*readOnly=*/!mAdmin);
}

void ConnectDialog::testNow()
{
    const Profile p = profile();
    mError->setStyleSheet(QString());
    mError->setText(tr("Testing %1...").arg(p.spec().describe()));
    mTest->setEnabled(false);
    mProbe->open(p.spec(mPassword->text()), p.ref(), /*readOnly=*/true);
}

void ConnectDialog::readKeyring(const Profile &p)
{
    auto *job = new QKeychain::ReadPasswordJob(KeyringService, this);
    job->setKey(p.keyringKey());
    connect(job, &QKeychain::Job::finished, this, [this, job] {
        if (job->error() == QKeychain::NoError)
            mPassword->setText(job->textData());
        job->deleteLater();
    });
    job->start();
}

void ConnectDialog::writeKeyring(const Profile &p, const QString &password)
{
    auto *job = new QKeychain::WritePasswordJob(KeyringService, this);
    job->setKey(p.keyringKey());
    job->setTextData(password);
    connect(job, &QKeychain::Job::finished, this, [this, job] {
        if (job->error() != QKeychain::NoError)
            mError->setText(mError->text() + QLatin1Char('\n') +
                            tr("The password was not saved: the system keyring is not available (%1). Use "
                               "~/.pgpass instead.")
                                .arg(job->errorString()));
        job->deleteLater();
    });
    job->start();
}

} // namespace bloom
