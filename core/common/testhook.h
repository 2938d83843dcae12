#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

namespace bloom {

/**
 * A test hook: with BLOOMSCOPE_TEST_PAUSE_AT=<stage> in the environment, the process says
 * "bloomscope: paused at <stage>" on stderr and waits there BLOOMSCOPE_TEST_PAUSE_SECONDS (60 by
 * default), until `cancel`, or until the file BLOOMSCOPE_TEST_RESUME_FILE exists (when set), so that a
 * test can act at that moment (kill it, start a rebuild) and then let it go on.
 */
inline void pauseForTests(const char *stage, const std::atomic<bool> *cancel = nullptr)
{
    if (qgetenv("BLOOMSCOPE_TEST_PAUSE_AT") != stage)
        return;
    std::fprintf(stderr, "bloomscope: paused at %s\n", stage);
    std::fflush(stderr);
    const int seconds = qEnvironmentVariableIntValue("BLOOMSCOPE_TEST_PAUSE_SECONDS");
    const QByteArray resume = qgetenv("BLOOMSCOPE_TEST_RESUME_FILE");
    for (int i = 0; i < (seconds > 0 ? seconds : 60) * 10 && !(cancel && cancel->load()); ++i) {
        if (std::FILE *f = resume.isEmpty() ? nullptr : std::fopen(resume.constData(), "r")) {
            std::fclose(f);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

} // namespace bloom
