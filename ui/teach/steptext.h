#pragma once

#include "teach/timeline.h"

#include <QFont>
#include <QPalette>
#include <QString>

namespace bloom::steptext {

/**
 * The hash panel of one entry at one step, as rich text: the md5 of each input and, from step 1
 * on, each position with its "mod m" (classic) or the chunk and slices (blocked). `maxWidth` (pixels
 * of `font`'s monospace; 0: no limit) shortens the digests in the middle rather than lose a "mod 16 = N".
 */
QString hashHtml(Timeline::Action action, const SandboxFilter::Trace &t, const SandboxFilter &f, int phase,
                 const QFont &font, int maxWidth);

/** The verdict under the grid once the bits are shown; `brief`: the headline alone (the log line has
 *  the rest), for presentation mode. */
QString verdictHtml(Timeline::Action action, const SandboxFilter::Trace &t, const QPalette &palette,
                    bool brief = false);

/** The note a non-ASCII name gets in blocked mode: who lowered it, and that the database decides. */
QString loweringNote(const SandboxFilter::Trace &t);

} // namespace bloom::steptext
