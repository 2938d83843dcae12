#include "connect/connectdialog.h"

#include "session/filtersession.h"

#include <QCheckBox>
#include <QComboBox>
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
    mName = new QLineEdit(this);
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
    mFunction = new QLineEdit(QStringLiteral("username_bits"), this);
    mEnvironment = new QComboBox(this);
    mEnvironment->addItem(tr("(none)"), QString());
    mEnvironment->addItem(tr("development (green)"), QStringLiteral("development"));
    mEnvironment->addItem(tr("staging (amber)"), QStringLiteral("staging"));
    mEnvironment->addItem(tr("production (red)"), QStringLiteral("production"));
    mError = new QLabel(this);
    mError->setObjectName(QStringLiteral("connectError"));
    mError->setWordWrap(true);
    mError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mError->setStyleSheet(QStringLiteral("color:#d33"));

    auto *form = new QFormLayout;
    form->addRow(tr("Profile:"), mProfiles);
    form->addRow(tr("Name:"), mName);
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
    auto *save = buttons->addButton(tr("Save profile"), QDialogButtonBox::ActionRole);
    auto *remove = buttons->addButton(tr("Delete profile"), QDialogButtonBox::ActionRole);
    auto *demo = buttons->addButton(tr("Demo database"), QDialogButtonBox::ActionRole);
    demo->setObjectName(QStringLiteral("demoButton"));
    buttons->addButton(QDialogButtonBox::Cancel);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(mError);
    layout->addWidget(buttons);

    connect(mConnect, &QPushButton::clicked, this, &ConnectDialog::connectNow);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save, &QPushButton::clicked, this, [this] {
        const Profile p = profile();
        if (p.name.isEmpty()) {
            mError->setText(tr("Give the profile a name first."));
            return;
        }
        ProfileStore::save(p);
        loadProfiles();
        mProfiles->setCurrentText(p.name);
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
    connect(mSession, &FilterSession::opened, this, [this] {
        if (!mWaiting)
            return;
        mWaiting = false;
        mConnect->setEnabled(true);
        accept();
    });
    connect(mSession, &FilterSession::openFailed, this, [this](const Error &e) {
        if (!mWaiting)
            return;
        mWaiting = false;
        mConnect->setEnabled(true);
        mError->setText(e.toString());
    });
    loadProfiles();
}

void ConnectDialog::loadProfiles()
{
    const QSignalBlocker block(mProfiles);
    mProfiles->clear();
    mProfiles->addItem(tr("(new connection)"));
    for (const Profile &p : ProfileStore::load())
        mProfiles->addItem(p.name);
}

void ConnectDialog::profileChosen(int index)
{
    if (index <= 0)
        return;
    for (const Profile &p : ProfileStore::load())
        if (p.name == mProfiles->itemText(index)) {
            setProfile(p);
            readKeyring(p);
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
    mError->setText(tr("Connecting to %1...").arg(p.spec().describe()));
    mConnect->setEnabled(false);
    mWaiting = true;
    mSession->open(p.spec(password), p.ref(), /*readOnly=*/true);
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
