#pragma once

namespace bloom {

/**
 * SIGTERM, SIGINT and SIGHUP end the application the normal way: a self-pipe written by the handler
 * wakes the event loop, which quits, so every destructor runs (the demo's private server stops and
 * its directory goes). Call once, after the QApplication exists.
 */
void quitOnSignals();

} // namespace bloom
