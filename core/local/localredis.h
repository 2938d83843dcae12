#pragma once

#include "common/result.h"
#include "redis/redisstore.h"

#include <QString>

#include <memory>

class QProcess;
class QTemporaryDir;

namespace bloom {

/**
 * A private, throw-away redis-server for tests and the demo: 127.0.0.1 on a free port and a private
 * Unix socket (mode 700) in a temporary directory, no persistence, stopped on destruction.
 */
class LocalRedis {
public:
    LocalRedis();
    ~LocalRedis();
    LocalRedis(const LocalRedis &) = delete;
    LocalRedis &operator=(const LocalRedis &) = delete;

    Status start();
    void stop();
    bool isRunning() const;
    int port() const { return mPort; }
    QString url() const; ///< redis://127.0.0.1:PORT
    QString socketUrl() const;
    RedisTarget target() const;

private:
    std::unique_ptr<QTemporaryDir> mDir;
    std::unique_ptr<QProcess> mServer;
    int mPort = 0;
};

} // namespace bloom
