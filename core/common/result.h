#pragma once

#include <QCoreApplication>
#include <QString>

#include <utility>
#include <variant>

namespace bloom {

/** What went wrong, in the classes a caller (and `bloomctl`'s exit code) distinguishes. */
enum class ErrorKind {
    Usage,           ///< the caller asked for something that makes no sense (bad option, bad geometry)
    Connection,      ///< server unreachable, bad connection string, driver missing
    Authentication,  ///< the server refused the credentials
    MissingDatabase, ///< the server is up but the database does not exist
    Encoding,        ///< the database is not UTF-8: the hash would differ from the application's
    MissingFilter,   ///< the table or function does not exist
    ForeignFilter,   ///< a table/function exists but is not a filter core can place names into
    DamagedFilter,   ///< a chunk row the answer needs is NULL or missing: neither free nor maybe (ChunkDamage)
    BadInput,        ///< a name or a file line that cannot be used
    Server,          ///< a statement failed on the server
    Cancelled,       ///< the user cancelled
    Cluster,         ///< the private local PostgreSQL could not be created or started
    Io,              ///< a local file could not be read or written
    Refused,         ///< a guard refused an action that would lose names or rights (swap, shrink)
};

/** An error as a value: what happened and how to fix it. Core never shows it; callers decide. */
struct Error {
    /** Whether doing the same again can succeed without the user changing anything. */
    enum class Retry {
        No,
        Transaction, ///< a deadlock or serialization failure: run the transaction again
        Attach,      ///< the filter was swapped since it was attached: attach again, then run it again
    };

    ErrorKind kind = ErrorKind::Server;
    QString message;  ///< what happened, naming the thing that failed
    QString fix;      ///< what the user can do about it (may be empty)
    QString sqlState; ///< the server's SQLSTATE when a statement failed ("40P01"), else empty
    Retry retry = Retry::No;
    /** For a refusal that a deliberate yes overrides: that consent, named as bloomctl's flag without its
     *  dashes ("publication-ok"); empty otherwise. The GUI offers it as a tick box. */
    QString consent;

    /** The message and its fix, framed in the window's language (bloomctl installs no translator). */
    QString toString() const
    {
        return fix.isEmpty() ? message : QCoreApplication::translate("bloom", "%1\nFix: %2").arg(message, fix);
    }
};

/** Either a value or an Error (std::expected is C++23; this is the part of it we need). */
template<class T> class [[nodiscard]] Result {
public:
    Result(T value)
        : mState(std::in_place_index<0>, std::move(value))
    {
    }
    Result(Error error)
        : mState(std::in_place_index<1>, std::move(error))
    {
    }

    bool ok() const { return mState.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return std::get<0>(mState); }
    T &value() & { return std::get<0>(mState); }
    T &&value() && { return std::get<0>(std::move(mState)); }
    const T &operator*() const & { return value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    T *operator->() { return &value(); }
    const Error &error() const { return std::get<1>(mState); }

private:
    std::variant<T, Error> mState;
};

/** Result of an operation that returns nothing on success. */
struct Done {};
using Status = Result<Done>;
inline Status success()
{
    return Done{};
}

inline Error makeError(ErrorKind kind, QString message, QString fix = {})
{
    return Error{kind, std::move(message), std::move(fix), {}, Error::Retry::No, {}};
}

/** bloomctl's exit code for an error of `kind` (documented in `bloomctl --help` and docs/bloomctl.md). */
constexpr int exitCodeFor(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::Usage:
        return 2;
    case ErrorKind::Connection:
    case ErrorKind::Authentication:
    case ErrorKind::MissingDatabase:
    case ErrorKind::Encoding:
        return 3;
    case ErrorKind::MissingFilter:
    case ErrorKind::ForeignFilter:
        return 4;
    case ErrorKind::BadInput:
        return 5;
    case ErrorKind::Refused:
        return 8;
    case ErrorKind::DamagedFilter:
        return 9;
    case ErrorKind::Cancelled:
        return 130;
    case ErrorKind::Server:
    case ErrorKind::Cluster:
    case ErrorKind::Io:
        return 1;
    }
    return 1;
}

/** The kind as bloomctl's --json names it ("connection", "refused", ...). */
inline QString errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::Usage:
        return QStringLiteral("usage");
    case ErrorKind::Connection:
        return QStringLiteral("connection");
    case ErrorKind::Authentication:
        return QStringLiteral("authentication");
    case ErrorKind::MissingDatabase:
        return QStringLiteral("missing_database");
    case ErrorKind::Encoding:
        return QStringLiteral("encoding");
    case ErrorKind::MissingFilter:
        return QStringLiteral("missing_filter");
    case ErrorKind::ForeignFilter:
        return QStringLiteral("foreign_filter");
    case ErrorKind::BadInput:
        return QStringLiteral("bad_input");
    case ErrorKind::Server:
        return QStringLiteral("server");
    case ErrorKind::Cancelled:
        return QStringLiteral("cancelled");
    case ErrorKind::Cluster:
        return QStringLiteral("cluster");
    case ErrorKind::Io:
        return QStringLiteral("io");
    case ErrorKind::Refused:
        return QStringLiteral("refused");
    case ErrorKind::DamagedFilter:
        return QStringLiteral("damaged_filter");
    }
    return QStringLiteral("error");
}

} // namespace bloom
