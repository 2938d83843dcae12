#include "heatmap/chunktab.h"

#include "heatmap/chunkgridwidget.h"
#include "heatmap/chunknumberbox.h"
#include "session/filtersession.h"
#include "style/theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace bloom {

ChunkTab::ChunkTab(FilterSession *session, QWidget *parent)
    : QWidget(parent)
    , mSession(session)
{
    mChunk = new ChunkGridWidget(this);
    mLabel = new QLabel(tr("Click a chunk in the heatmap, or type its number."), this);
    mLabel->setObjectName(QStringLiteral("chunkLabel"));
    mLabel->setWordWrap(true);
    mNumber = new ChunkNumberBox(this);
    mNumber->setObjectName(QStringLiteral("chunkNumber"));
    mNumber->setRange(0, 131071);
    mNumber->setAccelerated(true);
    auto *numberLabel = new QLabel(tr("C&hunk:"), this);
    numberLabel->setBuddy(mNumber);
    auto *show = new QPushButton(tr("Show"), this);
    show->setObjectName(QStringLiteral("showChunk"));
    connect(show, &QPushButton::clicked, this, [this] {
        if (const qint64 typed = mNumber->typedBeyond(); typed >= 0)
            emit mNumber->outOfRange(typed);
        else
            showChunk(quint32(mNumber->value()));
    });
    connect(mNumber, &QSpinBox::editingFinished, this, [this] {
        if (mNumber->hasFocus())
            showChunk(quint32(mNumber->value()));
    });
    connect(mNumber, &ChunkNumberBox::outOfRange, this, [this](qint64 typed) {
        // Said, and nothing opened: the chunk shown before stays, its line replaced by why.
        say(tr("There is no chunk %L1: this filter has %L2 chunks, 0 to %L3.")
                .arg(QLocale().toString(typed), QLocale().toString(qint64(mNumber->maximum()) + 1),
                     QLocale().toString(mNumber->maximum())),
            true);
    });
    connect(mSession, &FilterSession::chunkReady, this, [this](quint32 c, const QByteArray &bits) {
        mChunk->setChunk(c, bits);
        say(tr("Chunk %1: %2 of %3 bits set")
                .arg(QString::number(c), QString::number(bits.count('1')), QString::number(bits.size())),
            false);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(numberLabel);
    row->addWidget(mNumber);
    row->addWidget(show);
    row->addWidget(mLabel, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(mChunk, 1);
}

void ChunkTab::say(const QString &text, bool error)
{
    mLabel->setStyleSheet(error ? theme::textStyle(theme::errorText(palette())) : QString());
    mLabel->setText(text);
}

void ChunkTab::showChunk(quint32 chunk)
{
    if (chunk > quint32(mNumber->maximum())) {
        // Asked by number (--chunk, a caller): refused as a typed one is, not clamped to the last.
        emit mNumber->outOfRange(qint64(chunk));
        return;
    }
    {
        const QSignalBlocker block(mNumber);
        mNumber->setValue(int(chunk));
    }
    say(tr("Chunk %1: fetching...").arg(chunk), false);
    mSession->chunk(chunk);
}

QString ChunkTab::text() const
{
    return mLabel->text();
}

void ChunkTab::opened(const FilterSummary &s)
{
    mNumber->setMaximum(int(s.geometry.chunks() - 1));
    mChunk->clear();
    say(tr("Click a chunk in the heatmap, or type its number."), false);
}

void ChunkTab::failed(const Error &e)
{
    if (e.kind == ErrorKind::DamagedFilter) {
        // A NULL or missing row: said here in the error colour (the window's banner has the fix).
        mChunk->clear();
        say(e.message, true);
        return;
    }
    say(tr("The chunk cannot be read: %1").arg(e.toString()), true);
}

} // namespace bloom
