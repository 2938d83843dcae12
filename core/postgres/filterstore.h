#pragma once

#include "common/result.h"
#include "model/chunkdamage.h"
#include "model/fillsnapshot.h"
#include "model/geometry.h"
#include "model/name.h"
#include "model/namereader.h"
#include "model/placement.h"
#include "postgres/database.h"
#include "postgres/filterwriter.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QIODevice;
class QSqlQuery;

namespace bloom {

class PgConn;
class PreparedCheck;
class DensePlacer;

/** Which table and function make up a filter (defaults: the reference names). */
struct FilterRef {
    QString table = QStringLiteral("username_filter");
    QString function = QStringLiteral("username_bits");
};

/** What a DBA watches on a table every add UPDATEs: sizes, dead tuples, vacuum. */
struct TableHealth {
    qint64 totalBytes = 0;
    qint64 heapBytes = 0;
    qint64 indexBytes = 0;
    qint64 toastBytes = 0;
    qint64 liveTuples = 0;
    qint64 deadTuples = 0;
    double bloat = 0; ///< heap size / the size the rows need packed (1.0 = none)
    int fillfactor = 100;
    qint64 packedHeapBytes = 0; ///< the rows packed at the table's fillfactor
    QDateTime lastVacuum, lastAutovacuum, lastAnalyze, lastAutoanalyze;
    qint64 vacuumCount = 0, autovacuumCount = 0;
};

/** Where bulk loading is, for progress displays. */
class MaskBatch;

struct LoadProgress {
    qint64 linesRead = 0;
    qint64 namesAdded = 0;
    qint64 badLines = 0;
    qint64 bytesRead = 0;
};

struct LoadReport {
    qint64 lines = 0;
    qint64 namesAdded = 0;
    qint64 chunksUpdated = 0;
    qint64 batches = 0;
    QList<BadLine> bad;  ///< the first NameReader::MaxBadLinesKept bad lines
    qint64 badCount = 0; ///< every bad line
    double seconds = 0;
    // Where the time went, summed over batches.
    double readSeconds = 0;   ///< reading, validating, placing (and server lower() for non-ASCII)
    double copySeconds = 0;   ///< merging masks and encoding them as array parameters (the client)
    double updateSeconds = 0; ///< the update statements (sending the masks, locking and updating the rows), the commit
    double recordSeconds = 0; ///< recording the names for a rebuild ahead of the steps (FilterWriter::recordAhead)
    qint64 recordedNames = 0; ///< names recorded for a rebuild (0: none was recording)
    double vacuumSeconds =
        0; ///< waiting for VACUUM: before a dense load's first step, and for one beside a step that outlasted it
    /** The load touched much of the table but this role may not vacuum it: written in one step, the
     *  table grew by the rows it rewrote until its owner (or autovacuum) vacuums it. */
    bool vacuumRefused = false;
    /** Connections that wrote the steps: each step's chunks are split between them. */
    int connections = 1;
    /** Why fewer connections than asked for wrote the steps (a second one refused, another server). */
    QString fewerConnections;
    /** The VACUUMs between the steps ran on a connection of their own (beside the next step). */
    bool vacuumConnection = false;
    /** Why some ran on the load's own session instead, holding the next step up (a connection limit,
     *  or no server connection free in a pooler within FilterStore::LoadConnectionWaitMs). */
    QString noVacuumConnection;
    /** A failed step had parts that committed: some of its chunks were written. */
    bool partOfAStep = false;

    /** What a DBA should know about how a successful load wrote `table` (fewer connections than asked
     *  for, a step the role could not vacuum), one sentence each; bloomctl and the GUI show the same. */
    QStringList notes(const QString &table) const;
};

/** Measured FPR on names that were never added, next to the estimate and the model. */
struct FprSample {
    qint64 probes = 0;
    qint64 falsePositives = 0;
    double measured = 0;
    double low95 = 0, high95 = 0; ///< Wilson interval
    double estimated = 0;         ///< from the fill
    double model = 0;             ///< blocked model at the estimated number of names

    struct Interval {
        double low = 0, high = 1;
    };
    /** The 95% Wilson score interval of `hits` in `trials`: exactly 0 at its low end for 0 hits. */
    static Interval wilson(qint64 hits, qint64 trials);
};

/** "bloomscope-fpr-probe-" and a version-4 UUID made of four random words: a name never added. */
QByteArray fprProbeName(const quint32 random[4]);

/**
 * A blocked Bloom filter in PostgreSQL: attach (discover and verify the geometry), init, check,
 * add, bulk load, fill, chunk bits, health. Names that are not ASCII are lowercased by the
 * database, as the application's function does. Identifiers are quoted, values bound.
 */
class FilterStore {
public:
    using ProgressFn = std::function<void(const LoadProgress &)>;

    FilterStore(Database &db, FilterRef ref);
    ~FilterStore();

    /** A flag that, once true, makes every batch loop stop with a Cancelled error (Ctrl-C, a Cancel
     *  button); pair it with Database::cancel() for the statement running at that moment. */
    void setCancelFlag(const std::atomic<bool> *flag) { mCancelFlag = flag; }
    /** When the caller runs the transaction (a swap), bulk adds neither begin, commit nor retry. */
    void setManagedTransaction(bool managed) { mManagedTransaction = managed; }

    /** Connections a dense load writes its committed steps on (default 2, at most 8): each step's
     *  chunks are split between them, so the server updates rows on that many cores. The write
     *  that is one transaction (a role that may not vacuum, a managed transaction) uses one. */
    void setLoadConnections(int n) { mLoadConnections = qBound(1, n, 8); }

    /** Creates the table and its function for g in one transaction; refuses to overwrite. */
    Status init(const Geometry &g);
    /** Finds the table and function, discovers the geometry, proves core places names as the function. */
    Status attach();

    /** attach() calls the filter's function on its probe names under this statement_timeout, in ms
     *  (0: none): bloomctl's --statement-timeout, else BLOOMSCOPE_STATEMENT_TIMEOUT, else 5 s. For the
     *  whole process. */
    static int probeTimeoutMs();
    static void setProbeTimeoutMs(int ms);
    static constexpr int DefaultProbeTimeoutMs = 5000;
    static constexpr int MaxProbeTimeoutMs = 3600 * 1000;
    /** "5s", "500ms", "2m" (or "2min"), "5" (seconds), up to an hour; nullopt otherwise. */
    static std::optional<int> parseTimeout(const QString &text);
    static QString describeTimeout(int ms);
    bool attached() const { return mAttached; }
    /** The oids of the table and function found by attach(), "table/function". */
    const QString &identity() const { return mIdentity; }
    /** Whether this session's role may UPDATE the attached table (what the write path's lock needs):
     *  the window offers admin mode only then. */
    Result<bool> mayUpdate();
    /** The table's oid found by attach(). */
    quint32 tableOid() const { return mIdentity.section(QLatin1Char('/'), 0, 0).toUInt(); }
    /** Whether the names still lead to the objects attach() found; false after a swap renamed them away. */
    Result<bool> stillAttached();
    const Geometry &geometry() const { return mGeometry; }
    /** Chunk rows that are NULL or missing, as attach() found them (the rows it counted; NULL rows
     *  looked for only when the bits column lacks NOT NULL), updated by each fill() and by checks and
     *  chunk reads that meet one. */
    const ChunkDamage &damage() const { return mDamage; }
    /** `damage` (this filter's, or a fill's) as the error a command that reads every chunk gives,
     *  naming the chunks, with the fix for this table. */
    Error damageError(const ChunkDamage &damage) const { return damage.error(damagedTable()); }
    /** Whether the bits column is NOT NULL (pg_attribute.attnotnull), as attach() read it. */
    bool bitsNotNull() const { return mBitsNotNull; }
    const FilterRef &ref() const { return mRef; }
    QString quotedTable() const { return mTable; }
    QString quotedFunction() const { return mFunction; }
    /** The table and function with their schemas resolved (the schema holds the rebuild's helpers). */
    const QualifiedName &tableName() const { return mTableName; }
    const QualifiedName &functionName() const { return mFunctionName; }
    QString quotedSchema() const { return quoteIdent(mTableName.schema); }
    /** For messages: schema.table and schema.function as a DBA types them. */
    QString tableText() const { return mNameError ? mRef.table : mTableName.text(); }
    QString functionText() const { return mNameError ? mRef.function : mFunctionName.text(); }

    /** Placements of valid UTF-8 names; non-ASCII ones are lowercased by the server, in one query. */
    Result<QList<Placement>> place(const QList<QByteArray> &names, QList<Lowering> *how = nullptr);
    /** The server's lower() of each name, in order. */
    Result<QList<QByteArray>> serverLower(const QList<QByteArray> &names);

    /** true = maybe (all k bits set), false = definitely free. One indexed read per chunk, batched.
     *  A name whose chunk row is NULL or missing is an ErrorKind::DamagedFilter error, never "free". */
    Result<QList<bool>> check(const QList<Placement> &placements);
    /** What each name's chunk row says (Free, Maybe, or a NULL or missing row), with no error for a
     *  damaged chunk: for a caller that must decide itself (a rebuild's drain keeps such a name). */
    Result<QList<RowVerdict>> rowVerdicts(const QList<Placement> &placements);
    /** check()'s two ways for many names, public for bench_store: the prepared one-row check pipelined
     *  (libpq 14+; what check() uses), and one array query per 10,000 names. */
    Result<QList<bool>> checkPipelined(const QList<Placement> &placements);
    Result<QList<bool>> checkArray(const QList<Placement> &placements);
    /** Adds valid names (validateName) through the one write path (FilterWriter): one transaction that
     *  ORs their masks in and, while a rebuild of the table records names, records them for it. A
     *  filter swapped since attach() fails with Error::Retry::Attach and nothing written. Returns the
     *  chunk rows updated. */
    Result<qint64> add(const QList<QByteArray> &names);
    /** The same, for names place() already placed (`placements[i]` is `names[i]`'s). */
    Result<qint64> add(const QList<QByteArray> &names, const QList<Placement> &placements);
    /** ORs placed names into a rebuilt filter before its swap (Rebuilder's drain): nobody else writes
     *  it and no rebuild records its names, so it takes neither the write path's lock nor its guard. */
    Result<qint64> addToRebuilt(const QList<Placement> &placements);
    /** The write path to this filter, for the writes of several transactions and connections. */
    FilterWriter writer() const;
    /** Filters up to this size are loaded in one transaction that writes each chunk once. */
    static constexpr quint64 MaxDenseLoadBytes = quint64(1) << 30;
    /** A dense load that touches more than 1/LoadSteps of the chunks writes them in this many
     *  committed steps (when the role may vacuum), the table vacuumed before the first and, on a
     *  connection of its own, after each while the next is written: the table grows by about two
     *  steps instead of doubling. */
    static constexpr int LoadSteps = 16;
    /** The ranges of chunks [first, end) that a step written on `connections` connections is cut
     *  into, in order: connection i takes range i, then each takes the next one left when it is done
     *  with one. */
    static std::vector<std::pair<quint32, quint32>> stepRanges(quint32 first, quint32 end, int connections);
    /** Connections a dense load's steps are written on unless setLoadConnections() says otherwise. */
    static constexpr int DefaultLoadConnections = 2;
    /** How long each of the load's extra connections may take to connect and answer its first statement
     *  before the load goes on with fewer (PgBouncer queues a client until a server connection is free). */
    static constexpr int LoadConnectionWaitMs = 3000;
    /** Reads names from `in` and adds them. When the filter fits MaxDenseLoadBytes every name is read
     *  before anything is written, and each touched chunk is written once: in one transaction, or in
     *  LoadSteps committed steps when it touches much of the table. Larger filters go in committed
     *  batches of `batchNames`. A rerun of the same input completes an interrupted load. Bad lines are
     *  reported and skipped. */
    Result<LoadReport> load(QIODevice *in, const ProgressFn &progress = {}, qsizetype batchNames = 2'000'000);

    /** Every chunk's set bits in one scan; NULL and missing rows go into the snapshot's damage (and
     *  damage()) rather than failing the read, so that a swap can still replace a damaged filter:
     *  whoever shows the figures checks it. */
    Result<FillSnapshot> fill();
    /**
     * The fill now, reading only the rows written since `earlier` was read (xmin at or after its
     * position; a superset, never fewer): one scan that tests a row header and sends back the changed
     * chunks, which go into `changed` in chunk order. The rest is `earlier`'s, damage included (a row
     * nulled since is seen, a deleted one is not: watch the delete counter, or `countRows`, which adds
     * a count of the rows to the read). Not for an earlier read of another table or geometry, nor one
     * older than about two billion transactions.
     */
    Result<FillSnapshot> fillSince(const FillSnapshot &earlier, std::vector<quint32> *changed = nullptr,
                                   bool countRows = false);
    /** The chunks written since a read at `position` (a FillSnapshot's, e.g. a recorded snapshot's,
     *  taken at `at`): rows whose xmin is at or after it, in chunk order. `complete` is false when
     *  VACUUM may have frozen some of those rows since (their xmin no longer tells), or the position
     *  is over two billion transactions back; `why` then says so. */
    struct WrittenSince {
        std::vector<quint32> chunks;
        bool complete = true;
        QString why;
        qint64 elapsedMs = 0;
    };
    Result<WrittenSince> writtenSince(const QString &position, const QDateTime &at);
    /** The table's write counters from the statistics system since the stats were reset; on a hot
     *  standby, whose counters never count a replicated write, its replay position instead. */
    struct WriteCounter {
        qint64 writes = 0;  ///< rows inserted + updated + deleted; on a standby pg_last_wal_replay_lsn() in bytes
        qint64 deletes = 0; ///< rows deleted: a read of the changes cannot see those (a standby: not counted)
        /** A standby's: `writes` moves with every replayed write of the cluster, this table's or not, and
         *  says nothing of how many rows or of deletes (count the rows to see one). */
        bool replay = false;
        bool operator==(const WriteCounter &) const = default;
    };
    /** The write counters, one catalog call and no table row read; nullopt when track_counts is
     *  off. They may lag a write by up to ten seconds: a busy backend flushes its stats at most once a
     *  second, and one that went idle within a second of its last flush only ten seconds later. On a
     *  standby (the session's Database::inRecovery()) the replay position, read with the server's role
     *  (into `role` when given; a primary's role is filled in without a statement): it moves as soon as
     *  a write is replayed. */
    Result<std::optional<WriteCounter>> writeCounter(ServerRole *role = nullptr);
    /** The reference estimate query, run on the server as the text writes it. */
    Result<double> referenceEstimate();
    /** Probes a sample makes, places and checks at a time (a cancel is seen between two). */
    static constexpr qint64 SampleBlock = 10'000;
    using SampleProgressFn = std::function<void(qint64 done, qint64 total, qint64 falsePositives)>;
    /** Checks `probes` never-added names a block of SampleBlock at a time, holding one block (progress
     *  after each); the cancel flag stops it between blocks, Database::cancel() within one. */
    Result<FprSample> sampleFpr(qint64 probes, const SampleProgressFn &progress = {});
    /** The bits of one chunk, '0'/'1' (bit 0 first); a NULL or missing row is a DamagedFilter error. */
    Result<QByteArray> chunkBits(quint32 chunk);
    Result<TableHealth> health();

    /** The SQL each operation runs, for "show the SQL" in the GUI and confirmations. */
    QString checkSql() const;
    QString checkOneSql() const;
    /** The SQL of an add: one transaction of the write path (FilterWriter::sqlText). */
    QString addSql() const;
    /** What serverLower() runs for a batch of names ($1 the text[] of them). */
    static QString lowerSql();
    /** What chunkBits() runs ($1 the chunk): the row as '0'/'1' text. */
    QString chunkBitsSql() const;
    /** The reference's own check of one name through this filter's table and function ($1 the name),
     *  for a view that explains what a check does. */
    QString referenceCheckSql() const;

private:
    Status requireAttached() const;
    ChunkDamage::Table damagedTable() const { return {tableText(), mTable, mGeometry}; }
    /** Whether this role may VACUUM the table. */
    Result<bool> mayVacuum();
    Result<std::pair<bool, bool>> tableAndFunctionExist();
    Result<QString> currentIdentity();
    bool cancelled() const { return mCancelFlag && mCancelFlag->load(); }
    Error cancelledError(const QString &what) const;
    Status discover();
    /** The function's (chunk, set bits) for each probe name: one row a name, under the probe timeout. */
    Result<QList<std::pair<quint32, QList<int>>>> probe(qint64 bitLength);
    /** The chunks with no row, when attach() counted fewer rows than the geometry has. */
    Status findMissingChunks(qint64 rows);
    /** The rows whose bits are NULL: one scan, run by attach() when the column lacks NOT NULL. */
    Status findNullChunks();
    /** What each name's chunk row says: one prepared read for one name, else pipelined (or one
     *  array query per 10,000 names without libpq). */
    Result<RowVerdict> rowOne(const Placement &p);
    Result<QList<RowVerdict>> rowsPipelined(const QList<Placement> &placements);
    Result<QList<RowVerdict>> rowsArray(const QList<Placement> &placements);
    /** Free/Maybe as false/true; the first name whose chunk row is NULL or missing is an error (and
     *  goes into damage()). */
    Result<QList<bool>> answers(const QList<RowVerdict> &rows, const QList<Placement> &placements);
    /** A read met `chunk`'s row NULL or missing: damage() says so from now on. */
    void noteDamage(quint32 chunk, RowVerdict v);
    /** Runs a fill query (chunk -1 carries the snapshot position, -2 the row count) into `snap`;
     *  `seen` (when given) marks the chunks read. */
    Status readFill(QSqlQuery &q, FillSnapshot &snap, std::vector<quint32> *changed, std::vector<bool> *seen);
    /** Whether a rebuild in the table's schema records names now (its recorder exists): a load then
     *  keeps its names for it. */
    Result<bool> rebuildRecording();
    /** One transaction of the write path with `names` (may be empty) and their placements, into a
     *  serving filter or a rebuilt one (FilterWriter's WriteTarget::serving). */
    Result<qint64> write(const NameList &names, const QList<Placement> &placements, bool serving);
    /** Where this session is, "database|postmaster start|table oid": another connection of the load's
     *  must be there too. Runs a statement on this session (its thread only). */
    QByteArray loadIdentity();
    /** Up to `extra` more sessions on this one's server, database and table (`mine`, loadIdentity();
     *  search_path pinned), for the load's steps; fewer, with `why`, when one is refused, reaches
     *  somewhere else, or is not usable within LoadConnectionWaitMs (a pooler's queue). `why` calls the
     *  first of them "connection firstNumber". Safe on another thread: it runs nothing on this session. */
    std::vector<std::unique_ptr<PgConn>> openLoadConnections(int extra, const QByteArray &mine, QString *why,
                                                             const std::atomic<bool> *abandon = nullptr,
                                                             int firstNumber = 2) const;
    friend class DenseWrite;
    friend class BatchCheck;
    bool mManagedTransaction = false;
    int mLoadConnections = DefaultLoadConnections;
    /** The statements' time of the last write(), for LoadReport; the rest is the client's. */
    double mLastUpdateSeconds = 0;

    Database &mDb;
    FilterRef mRef;
    QualifiedName mTableName, mFunctionName;
    std::optional<Error> mNameError; ///< a --table / --function that is not a valid name
    QString mTable;
    QString mFunction;
    Geometry mGeometry;
    ChunkDamage mDamage;
    bool mBitsNotNull = true;
    bool mAttached = false;
    QString mIdentity;
    const std::atomic<bool> *mCancelFlag = nullptr;
    std::unique_ptr<QSqlQuery> mCheckOne;
    std::unique_ptr<PreparedCheck> mPreparedCheck;
};

/** The names core uses to probe a filter's function when attaching. */
QList<QByteArray> probeNames();

} // namespace bloom
