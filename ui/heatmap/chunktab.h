#pragma once

#include "session/sessiontypes.h"

#include <QWidget>

class QLabel;

namespace bloom {

class ChunkGridWidget;
class ChunkNumberBox;
class FilterSession;

/** The Chunk tab: one chunk's bits as a grid; its number typed (a number past the last is refused
 *  and said) or a chunk clicked in the heatmap. */
class ChunkTab : public QWidget {
    Q_OBJECT
public:
    ChunkTab(FilterSession *session, QWidget *parent = nullptr);

    ChunkGridWidget *grid() const { return mChunk; }
    /** Asks for `chunk`'s bits (the grid follows when they come); a chunk past the last is refused and said. */
    void showChunk(quint32 chunk);
    /** The line beside the number: the chunk shown, or why none is. */
    QString text() const;
    /** Another filter: its number of chunks, and nothing shown yet. */
    void opened(const FilterSummary &s);
    /** The chunk's read failed. */
    void failed(const Error &e);

private:
    void say(const QString &text, bool error);

    FilterSession *mSession;
    ChunkGridWidget *mChunk = nullptr;
    QLabel *mLabel = nullptr;
    ChunkNumberBox *mNumber = nullptr;
};

} // namespace bloom
