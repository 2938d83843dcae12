#pragma once

#include <QByteArray>
#include <QIODevice>

namespace bloom::cli {

/**
 * bloomctl's standard output or error: every control character a terminal would act on is escaped on
 * its way out, whoever wrote it (a name, a server's message, a catalog name). In text mode as
 * escapeMessage() does (`\x1b`, `\x9b`, `\u202e`; line breaks and tabs are the output's own); with
 * --json as JSON's `\u001b` (JSON has escaped C0 already; C1 and the bidirectional controls remain, and
 * only ever inside strings). Names are escaped whole, with their tabs and line breaks, where they are
 * printed (escapeField()).
 */
class SafeOutput : public QIODevice {
public:
    enum class Mode { Text, Json };
    SafeOutput(int fd, Mode mode);
    ~SafeOutput() override;

    bool isSequential() const override { return true; }
    void setMode(Mode mode) { mMode = mode; }
    /** Writes `bytes` as they are (a progress line's carriage return), after what is pending. */
    void writeRaw(QByteArrayView bytes);

    /** The escaping alone, for tests and for text that does not go through a device. */
    static QByteArray escape(QByteArrayView utf8, Mode mode, QByteArray *pending = nullptr);

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 len) override;

private:
    void writeAll(QByteArrayView bytes);

    int mFd;
    Mode mMode;
    QByteArray mPending; ///< the start of a UTF-8 sequence a write cut off
};

} // namespace bloom::cli
