#pragma once

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
    ErrorKind kind = ErrorKind::Server;
    QString message; ///< what happened, naming the thing that failed
    QString fix;     ///< what the user can do about it (may be empty)

    QString toString() const { return fix.isEmpty() ? message : message + QStringLiteral("\nFix: ") + fix; }
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
    return Error{kind, std::move(message), std::move(fix)};
}

} // namespace bloom
