#pragma once

#include <QIODevice>

#include <cerrno>
#include <unistd.h>

namespace bloom::cli {

/**
 * Standard input as a QIODevice whose read() returns at Ctrl-C: QFile retries a read interrupted by
 * a signal, which would leave `bloomctl load -` waiting for input after the user pressed Ctrl-C.
 */
class StdinDevice : public QIODevice {
public:
    StdinDevice() { open(QIODevice::ReadOnly | QIODevice::Unbuffered); }
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *data, qint64 max) override
    {
        const ssize_t n = ::read(STDIN_FILENO, data, size_t(max));
        if (n < 0 && errno == EINTR)
            return 0; // the caller sees no data and checks its cancel flag
        return n == 0 ? -1 : n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }
};

} // namespace bloom::cli
