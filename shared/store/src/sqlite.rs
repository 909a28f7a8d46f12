//! [`SqliteStore`]: the embedded default store (bundled SQLite in WAL mode), used by `beurs serve`.
//!
//! Layout: `games` holds one row per game (the whole [`GameRecord`] as JSON, plus the columns
//! the store itself needs to query or condition on), `log` one row per log entry, and
//! `idempotency` one row per used `Idempotency-Key`. A commit is one `IMMEDIATE` transaction
//! that conditions the `games` update on the expected version, so a lost race writes nothing.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::oneshot;

use rusqlite::types::Value as SqlValue;
use rusqlite::{
    ffi, params, params_from_iter, Connection, ErrorCode, OpenFlags, OptionalExtension,
    TransactionBehavior,
};

use crate::cache::VersionCache;
use crate::common::{check_commit, lobby_limit, lobby_page, log_start, message_page, PageCursor};
use crate::{
    AppRecord, Commit, DeliveryStatus, GameRecord, GameStore, IdempotencyRecord, ListPage,
    ListQuery, LogEntry, MessagePage, OutboxMessage, Owner, PlayerRecord, StoreError,
};

/// How long a statement waits for another process's write lock before failing. Our own
/// statements are serialised by the mutex; this covers a second process (e.g. a backup or an
/// operator's `sqlite3` shell) holding the database.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The schema, one migration per version: `MIGRATIONS[n]` takes `user_version` n to n + 1.
/// Append only; never edit a migration that has shipped.
const MIGRATIONS: &[&str] = &[
    // 1: games, log, idempotency and the lobby indexes.
    "CREATE TABLE games (
        id          TEXT PRIMARY KEY NOT NULL,
        ruleset     TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('open', 'active', 'finished')),
        invite_only INTEGER NOT NULL CHECK (invite_only IN (0, 1)),
        version     INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        record      TEXT NOT NULL
    ) STRICT;
    -- The lobby reads open, public games in (created_at, id) order, with or without a ruleset.
    -- Partial indexes stay small: games leave them as soon as they start.
    CREATE INDEX games_lobby ON games (created_at, id)
        WHERE status = 'open' AND invite_only = 0;
    CREATE INDEX games_lobby_ruleset ON games (ruleset, created_at, id)
        WHERE status = 'open' AND invite_only = 0;
    CREATE TABLE log (
        game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        entry   TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE idempotency (
        game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        key      TEXT NOT NULL,
        seq      INTEGER NOT NULL,
        response TEXT NOT NULL,
        PRIMARY KEY (game_id, seat, key)
    ) STRICT, WITHOUT ROWID;",
    // 2: the webhook outbox. `next_attempt_at` is set only while a message is pending, so the
    // partial index of due messages holds exactly what the delivery worker still has to do.
    "CREATE TABLE outbox (
        id              TEXT PRIMARY KEY NOT NULL,
        game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        hook_id         TEXT NOT NULL,
        created_at      INTEGER NOT NULL,
        status          TEXT NOT NULL
            CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
        next_attempt_at INTEGER,
        message         TEXT NOT NULL
    ) STRICT;
    CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
    CREATE INDEX outbox_by_hook ON outbox (game_id, hook_id, created_at);",
    // 3: when a game next needs the deadline worker. Set only while something is pending, so
    // the partial index holds exactly the games the worker may have to visit.
    "ALTER TABLE games ADD COLUMN due_at INTEGER;
    CREATE INDEX games_due ON games (due_at) WHERE due_at IS NOT NULL;",
    // 4: the version check of every read ([`VERSION_SQL`]) reads this index alone: two pages
    // after a commit has emptied a reader's page cache, where the table took about four.
    "CREATE INDEX games_version ON games (id, version);",
    // 5: the retention sweep reads finished games oldest first.
    "CREATE INDEX games_finished ON games (updated_at) WHERE status = 'finished';",
    // 6: apps (docs/apps.md), and the games an app owns: its listing and its live-games
    // quota read the app's unfinished games in lobby order.
    "ALTER TABLE games ADD COLUMN app TEXT;
    CREATE INDEX games_app ON games (app, created_at, id)
        WHERE app IS NOT NULL AND status != 'finished';
    CREATE TABLE apps (
        id         TEXT PRIMARY KEY NOT NULL,
        version    INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        record     TEXT NOT NULL
    ) STRICT;",
    // 7: games created without an app key, by the pseudonym of their client's address
    // (docs/apps.md): the address's live-games quota counts its unfinished games, and its
    // hourly quota counts in `origin_creations`, one row per address with its latest hour.
    "ALTER TABLE games ADD COLUMN origin TEXT;
    CREATE INDEX games_origin ON games (origin)
        WHERE origin IS NOT NULL AND status != 'finished';
    CREATE TABLE origin_creations (
        origin  TEXT PRIMARY KEY NOT NULL,
        hour    INTEGER NOT NULL,
        created INTEGER NOT NULL
    ) STRICT;",
    // 8: players of apps (docs/api.md, "Players"), and the games each sits in, newest first
    // (a superset: readers check the seats). A game's notes go with it.
    "CREATE TABLE players (
        app     TEXT NOT NULL,
        id      TEXT NOT NULL,
        version INTEGER NOT NULL,
        record  TEXT NOT NULL,
        PRIMARY KEY (app, id)
    ) STRICT;
    CREATE TABLE player_games (
        app        TEXT NOT NULL,
        player     TEXT NOT NULL,
        game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (app, player, game_id)
    ) STRICT;
    CREATE INDEX player_games_order ON player_games (app, player, created_at, game_id);
    CREATE INDEX player_games_game ON player_games (game_id);",
];

/// A game's current version: the check that comes before every read of a record (decision
/// 31). It is answered from the covering index `games_version`, named because SQLite's
/// planner prefers the primary key's unique index for `id = ?`, and would then read the
/// table's pages as well.
const VERSION_SQL: &str = "SELECT version FROM games INDEXED BY games_version WHERE id = ?1";

/// A game's record, read when the cached copy is not the current version.
const RECORD_SQL: &str = "SELECT record FROM games WHERE id = ?1";

/// How a [`SqliteStore`] makes commits durable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SqliteConfig {
    /// Group commit (the default): the writer thread takes every write queued while it was
    /// busy and makes them durable in one transaction, with one fsync. Each commit still runs in
    /// its own savepoint, conditioned on its own version: a refused commit is rolled back alone.
    /// Off, every write is its own transaction and its own fsync (what `beurs bench` compares
    /// against).
    pub group_commit: bool,
}

impl Default for SqliteConfig {
    fn default() -> SqliteConfig {
        SqliteConfig { group_commit: true }
    }
}

/// The most writes one group transaction takes, so a long queue still gets answers in steps.
const MAX_GROUP: usize = 256;

/// Reader connections kept open for reuse (more are opened when more readers run at once).
const MAX_IDLE_READERS: usize = 8;

/// Parsed records kept for the games read or written last (a few KiB each).
const CACHED_RECORDS: usize = 1024;

/// A store in one SQLite database file (or in memory, for tests).
///
/// Durability: WAL with `synchronous = FULL`, so a commit that returned `Ok` (an acknowledged
/// move) survives a crash of the process or of the machine. `NORMAL` would be faster but may
/// lose the last transactions on power loss.
///
/// Threads (docs/decisions.md #24): every write goes to one writer thread, which owns the
/// write connection and commits in groups ([`SqliteConfig`]). Reads of a file database run on
/// the caller's thread, on a pooled read-only connection: in WAL mode a reader never waits for
/// the writer, and a read of a hot page cache costs less than handing it to another thread.
/// An in-memory database has one connection, so its reads go to the writer thread too.
///
/// Clones share the writer and the reader pool, so a clone per request handler is cheap.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// The writer thread's queue. Dropping the last store closes it, and the thread ends.
    jobs: mpsc::Sender<Job>,
    /// Where read connections come from: `None` for an in-memory database.
    path: Option<PathBuf>,
    /// Idle read connections.
    readers: Mutex<Vec<Connection>>,
    /// What the writer has done so far.
    stats: Arc<WriterStats>,
    /// Records as last read or committed, by game and version, so that a read of an unchanged
    /// game costs a look at its `version` column rather than a parse of its JSON. Every read
    /// still asks the database for the current version, so a commit by another process (or
    /// another store on the same file) is never hidden by the cache.
    records: VersionCache<Arc<GameRecord>>,
}

/// Counters the writer thread keeps.
#[derive(Debug, Default)]
struct WriterStats {
    /// Transactions committed (one fsync each).
    groups: AtomicU64,
    /// Writes in them, refused ones included.
    writes: AtomicU64,
}

/// What a [`SqliteStore`]'s writer has done since it opened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriterCounts {
    /// Transactions committed, each made durable with one fsync.
    pub groups: u64,
    /// Writes (creates, commits, delivery updates) in them, refused ones included.
    pub writes: u64,
}

/// Work for the writer thread.
enum Job {
    /// A change, run in its own savepoint inside the group's transaction; answered once the
    /// group is durable.
    Write {
        work: WriteWork,
        done: oneshot::Sender<Result<(), StoreError>>,
    },
    /// Anything else that needs the write connection (the reads of an in-memory database);
    /// run between groups, outside any transaction. It answers for itself.
    Other(Box<dyn FnOnce(&mut Connection) + Send>),
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Job::Write { .. } => "Job::Write",
            Job::Other(_) => "Job::Other",
        })
    }
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`, configures it and brings its schema
    /// up to date. Commits are grouped ([`SqliteConfig::default`]).
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, SqliteConfig::default())
    }

    /// [`SqliteStore::open`] with a chosen commit policy.
    pub fn open_with(
        path: impl AsRef<Path>,
        config: SqliteConfig,
    ) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref();
        let conn = Connection::open(path).context(|| format!("opening {}", path.display()))?;
        SqliteStore::configure(conn, Some(path.to_path_buf()), config)
    }

    /// A fresh, private in-memory database (for tests). It is gone when the store is dropped.
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        let conn = Connection::open_in_memory().context(|| "opening an in-memory database")?;
        SqliteStore::configure(conn, None, SqliteConfig::default())
    }

    fn configure(
        mut conn: Connection,
        path: Option<PathBuf>,
        config: SqliteConfig,
    ) -> Result<SqliteStore, StoreError> {
        conn.busy_timeout(BUSY_TIMEOUT)
            .context(|| "setting the busy timeout")?;
        // WAL makes a commit one sequential append and one fsync, and lets other connections
        // (our readers, a backup, an operator's `sqlite3` shell) read while we write. An
        // in-memory database cannot use WAL (it answers "memory"), which is fine: it has nothing
        // to make durable.
        let mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
            .context(|| "enabling WAL")?;
        if path.is_some() && !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Backend(format!(
                "enabling WAL: journal_mode is still {mode}"
            )));
        }
        // FULL: every acknowledged commit is synced to disk before `commit` returns (see above).
        conn.pragma_update(None, "synchronous", "FULL")
            .context(|| "setting synchronous = FULL")?;
        // Off by default in SQLite, per connection; without it the REFERENCES clauses are
        // decoration.
        conn.pragma_update(None, "foreign_keys", true)
            .context(|| "enabling foreign keys")?;
        migrate(&mut conn)?;
        let (jobs, queue) = mpsc::channel();
        let group = if config.group_commit { MAX_GROUP } else { 1 };
        let stats = Arc::new(WriterStats::default());
        let counted = Arc::clone(&stats);
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer(conn, queue, group, &counted))
            .context(|| "starting the SQLite writer thread")?;
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                jobs,
                path,
                readers: Mutex::new(Vec::new()),
                stats,
                records: VersionCache::new(CACHED_RECORDS),
            }),
        })
    }

    /// How many transactions and writes the writer has committed: `writes / groups` is the
    /// average group size, that is, commits per fsync.
    pub fn writer_counts(&self) -> WriterCounts {
        WriterCounts {
            groups: self.inner.stats.groups.load(Ordering::Relaxed),
            writes: self.inner.stats.writes.load(Ordering::Relaxed),
        }
    }

    /// Runs `work` in its own savepoint of the writer's next group transaction, and answers
    /// once that transaction is durable.
    /// One page of `listing`, in (created_at, id) order after `query`'s cursor.
    async fn page(&self, query: &ListQuery, listing: Listing) -> Result<ListPage, StoreError> {
        let after = query.cursor.as_deref().map(PageCursor::parse).transpose()?;
        let limit = lobby_limit(query.limit);

        let mut args: Vec<SqlValue> = Vec::new();
        if let Listing::App(app) = &listing {
            args.push(SqlValue::Text(app.clone()));
        }
        if let Some(ruleset) = &query.ruleset {
            args.push(SqlValue::Text(ruleset.clone()));
        }
        if let Some(after) = &after {
            // A cursor beyond i64 cannot come from a stored game; every game sorts before it.
            let Ok(created_at) = i64::try_from(after.created_at) else {
                return Ok(ListPage {
                    games: Vec::new(),
                    next_cursor: None,
                });
            };
            args.push(SqlValue::Integer(created_at));
            args.push(SqlValue::Text(after.id.clone()));
        }
        // One extra row tells whether another page exists, so the last page has no cursor.
        args.push(SqlValue::Integer(
            i64::try_from(limit + 1).unwrap_or(i64::MAX),
        ));

        let sql = lobby_sql(&listing, query.ruleset.is_some(), after.is_some());
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(&sql).context(|| "listing the lobby")?;
            let rows = stmt
                .query_map(params_from_iter(args), |row| row.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .context(|| "listing the lobby")?;
            let games: Vec<GameRecord> = rows
                .iter()
                .map(|json| from_json(json, || "decoding a lobby game"))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(lobby_page(games, limit))
        })
        .await
    }

    async fn write<F>(&self, work: F) -> Result<(), StoreError>
    where
        F: FnOnce(&Connection) -> Result<(), StoreError> + Send + 'static,
    {
        let (done, answer) = oneshot::channel();
        self.inner
            .jobs
            .send(Job::Write {
                work: Box::new(work),
                done,
            })
            .map_err(|_| writer_gone())?;
        answer.await.map_err(|_| writer_gone())?
    }

    /// Runs `work` on the write connection, between groups.
    async fn on_writer<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let (done, answer) = oneshot::channel();
        self.inner
            .jobs
            .send(Job::Other(Box::new(move |conn| {
                // Nobody waiting is fine: the caller went away.
                let _ = done.send(work(conn));
            })))
            .map_err(|_| writer_gone())?;
        answer.await.map_err(|_| writer_gone())?
    }

    /// Runs a read: on this thread with a pooled read-only connection for a file database,
    /// on the writer thread for an in-memory one.
    async fn read<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let Some(path) = &self.inner.path else {
            return self.on_writer(move |conn| work(conn)).await;
        };
        let pooled = self
            .inner
            .readers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let conn = match pooled {
            Some(conn) => conn,
            None => open_reader(path)?,
        };
        let result = work(&conn);
        let mut idle = self
            .inner
            .readers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if idle.len() < MAX_IDLE_READERS {
            idle.push(conn);
        }
        result
    }
}

/// A read-only connection to the database at `path` (already created and migrated).
fn open_reader(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .context(|| format!("opening {} to read", path.display()))?;
    conn.busy_timeout(BUSY_TIMEOUT)
        .context(|| "setting the busy timeout")?;
    Ok(conn)
}

fn writer_gone() -> StoreError {
    StoreError::Backend("the SQLite writer thread has stopped".into())
}

/// The writer thread: takes the first queued job, then (up to `group` writes) whatever else is
/// already queued, and commits those writes in one transaction. Ends when every store handle
/// is dropped.
fn writer(mut conn: Connection, queue: mpsc::Receiver<Job>, group: usize, stats: &WriterStats) {
    let mut writes = Vec::new();
    while let Ok(job) = queue.recv() {
        let mut next = Some(job);
        while let Some(job) = next.take() {
            match job {
                Job::Write { work, done } => writes.push((work, done)),
                Job::Other(work) => {
                    // Writes queued before it are committed first, so it sees them.
                    commit_group(&mut conn, &mut writes, stats);
                    work(&mut conn);
                }
            }
            if writes.len() < group {
                next = queue.try_recv().ok();
            }
        }
        commit_group(&mut conn, &mut writes, stats);
    }
}

/// A write's statements, run on the connection (a savepoint) the writer gives it.
type WriteWork = Box<dyn FnOnce(&Connection) -> Result<(), StoreError> + Send>;

/// A queued write and where its answer goes.
type Write = (WriteWork, oneshot::Sender<Result<(), StoreError>>);

/// Runs `writes` in one `IMMEDIATE` transaction, each in its own savepoint (a write that fails
/// is rolled back alone), commits once and answers each. If the transaction cannot start or
/// commit, every write in it fails and nothing of it is stored.
fn commit_group(conn: &mut Connection, writes: &mut Vec<Write>, stats: &WriterStats) {
    if writes.is_empty() {
        return;
    }
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads and then
    // writes can fail with SQLITE_BUSY on the upgrade when another process writes.
    let mut tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(error) => {
            let message = format!("starting a commit: {error}");
            for (_, done) in writes.drain(..) {
                let _ = done.send(Err(StoreError::Backend(message.clone())));
            }
            return;
        }
    };
    let mut answers = Vec::with_capacity(writes.len());
    for (work, done) in writes.drain(..) {
        let result = match tx.savepoint() {
            // Dropping an unreleased savepoint rolls back to it: a refused write leaves
            // nothing behind, and the others in the group are untouched.
            Ok(savepoint) => work(&savepoint).and_then(|()| {
                savepoint
                    .commit()
                    .context(|| "releasing a commit's savepoint")
            }),
            Err(error) => Err(backend("starting a commit's savepoint", error)),
        };
        answers.push((done, result));
    }
    let committed = tx
        .commit()
        .map_err(|error| format!("committing a group of {} writes: {error}", answers.len()));
    if committed.is_ok() {
        stats.groups.fetch_add(1, Ordering::Relaxed);
        stats
            .writes
            .fetch_add(answers.len() as u64, Ordering::Relaxed);
    }
    for (done, result) in answers {
        let result = match &committed {
            Ok(()) => result,
            Err(message) => result.and(Err(StoreError::Backend(message.clone()))),
        };
        // Nobody waiting is fine: the caller went away (its write is durable all the same).
        let _ = done.send(result);
    }
}

/// Brings the schema from its `user_version` to the latest, in one transaction.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .context(|| "starting the migration")?;
    let current: i64 = tx
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .context(|| "reading user_version")?;
    let latest = MIGRATIONS.len();
    let current = usize::try_from(current)
        .ok()
        .filter(|&v| v <= latest)
        .ok_or_else(|| {
            StoreError::Backend(format!(
                "schema version {current} is not one this build knows (0..={latest})"
            ))
        })?;
    for (version, sql) in MIGRATIONS.iter().enumerate().skip(current) {
        tx.execute_batch(sql)
            .context(|| format!("migrating the schema to version {}", version + 1))?;
    }
    if current < latest {
        tx.pragma_update(None, "user_version", latest)
            .context(|| "writing user_version")?;
    }
    tx.commit().context(|| "committing the migration")
}

#[async_trait::async_trait]
impl GameStore for SqliteStore {
    async fn create(&self, record: &GameRecord) -> Result<(), StoreError> {
        let row = GameRow::new(record)?;
        self.write(move |conn| match row.insert(conn) {
            Ok(_) => Ok(()),
            Err(e) if is_duplicate_key(&e) => Err(StoreError::AlreadyExists(row.id)),
            Err(e) => Err(backend(format!("creating game {}", row.id), e)),
        })
        .await?;
        // Only once durable: a refused or failed write leaves the cache as it was.
        self.inner
            .records
            .insert(&record.id, record.version, Arc::new(record.clone()));
        Ok(())
    }

    async fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        let id = id.to_owned();
        let inner = Arc::clone(&self.inner);
        self.read(move |conn| {
            // The current version first, from the covering index: when it is the version
            // already cached, the table (and the record's pages) are not read at all.
            let Some(version) = game_column::<i64>(conn, VERSION_SQL, &id)? else {
                inner.records.remove(&id);
                return Ok(None);
            };
            let kept = u64::try_from(version)
                .ok()
                .and_then(|version| inner.records.get(&id, version));
            if let Some(record) = kept {
                // Copied outside the cache's lock.
                return Ok(Some(GameRecord::clone(&record)));
            }
            // Not cached, an older copy, or evicted meanwhile. A commit between the two
            // statements is fine: the record read carries its own version, and that is the
            // version it is cached under.
            let Some(json) = game_column::<String>(conn, RECORD_SQL, &id)? else {
                inner.records.remove(&id);
                return Ok(None);
            };
            let record: GameRecord = from_json(&json, || format!("decoding game {id}"))?;
            inner
                .records
                .insert(&id, record.version, Arc::new(record.clone()));
            Ok(Some(record))
        })
        .await
    }

    async fn commit(&self, commit: &Commit) -> Result<(), StoreError> {
        check_commit(commit)?;
        // Serialise on the async side: it is CPU work, and it keeps the closure free of borrows.
        let row = GameRow::new(&commit.record)?;
        let expected = to_sql(commit.expected_version, "expected version")?;
        let entry = commit
            .entry
            .as_ref()
            .map(|entry| {
                Ok::<_, StoreError>((to_sql(entry.seq, "log seq")?, to_json(entry, "log entry")?))
            })
            .transpose()?;
        let idempotency = commit
            .idempotency
            .as_ref()
            .map(|idem| {
                Ok::<_, StoreError>((
                    idem.seat,
                    idem.key.clone(),
                    to_sql(idem.seq, "idempotency seq")?,
                    idem.response.clone(),
                ))
            })
            .transpose()?;
        let expected_version = commit.expected_version;
        let outbox = commit
            .outbox
            .iter()
            .map(OutboxRow::new)
            .collect::<Result<Vec<_>, _>>()?;

        // The writer runs this in its own savepoint of a group transaction: every early return
        // below rolls this commit back, and only this one.
        self.write(move |tx| {
            let id = row.id.clone();
            let conflict = || StoreError::VersionConflict {
                id: id.clone(),
                expected: expected_version,
            };
            let updated = tx
                .prepare_cached(
                    "UPDATE games SET ruleset = ?2, status = ?3, invite_only = ?4, version = ?5,
                         created_at = ?6, updated_at = ?7, record = ?8, due_at = ?10
                     WHERE id = ?1 AND version = ?9",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![
                        row.id,
                        row.ruleset,
                        row.status,
                        row.invite_only,
                        row.version,
                        row.created_at,
                        row.updated_at,
                        row.record,
                        expected,
                        row.due_at
                    ])
                })
                .context(|| format!("updating game {id}"))?;
            if updated == 0 {
                let exists = tx
                    .prepare_cached("SELECT 1 FROM games WHERE id = ?1")
                    .and_then(|mut stmt| stmt.exists([&id]))
                    .context(|| format!("looking up game {id}"))?;
                return Err(if exists {
                    conflict()
                } else {
                    StoreError::NotFound(id.clone())
                });
            }
            if let Some((seq, json)) = &entry {
                let inserted = tx
                    .prepare_cached("INSERT INTO log (game_id, seq, entry) VALUES (?1, ?2, ?3)")
                    .and_then(|mut stmt| stmt.execute(params![id, seq, json]));
                match inserted {
                    Ok(_) => {}
                    // Another writer already appended this seq: the caller's view is stale.
                    Err(e) if is_duplicate_key(&e) => return Err(conflict()),
                    Err(e) => {
                        return Err(backend(format!("appending entry {seq} to game {id}"), e))
                    }
                }
            }
            if let Some((seat, key, seq, response)) = &idempotency {
                let inserted = tx
                    .prepare_cached(
                        "INSERT INTO idempotency (game_id, seat, key, seq, response)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                    )
                    .and_then(|mut stmt| stmt.execute(params![id, seat, key, seq, response]));
                match inserted {
                    Ok(_) => {}
                    // The same request is being (or was) applied by someone else.
                    Err(e) if is_duplicate_key(&e) => return Err(conflict()),
                    Err(e) => {
                        return Err(backend(
                            format!("keeping an idempotency key for game {id}"),
                            e,
                        ))
                    }
                }
            }
            for message in &outbox {
                tx.prepare_cached(
                    "INSERT INTO outbox
                         (id, game_id, hook_id, created_at, status, next_attempt_at, message)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![
                        message.id,
                        message.game_id,
                        message.hook_id,
                        message.created_at,
                        message.status,
                        message.next_attempt_at,
                        message.message
                    ])
                })
                .context(|| format!("queueing notification {} of game {id}", message.id))?;
            }
            Ok(())
        })
        .await?;
        // Only once durable: a refused or failed write leaves the cache as it was.
        self.inner.records.insert(
            &commit.record.id,
            commit.record.version,
            Arc::new(commit.record.clone()),
        );
        Ok(())
    }

    async fn log(
        &self,
        id: &str,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<LogEntry>, StoreError> {
        // No stored seq is beyond i64 (inserts refuse them).
        let Some(start) = log_start(after).and_then(|start| i64::try_from(start).ok()) else {
            return Ok(Vec::new());
        };
        // SQLite's LIMIT is an i64; any larger limit means "all".
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let id = id.to_owned();
        self.read(move |conn| {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT entry FROM log WHERE game_id = ?1 AND seq >= ?2 ORDER BY seq LIMIT ?3",
                )
                .context(|| format!("reading the log of game {id}"))?;
            let rows = stmt
                .query_map(params![id, start, limit], |row| row.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .context(|| format!("reading the log of game {id}"))?;
            rows.iter()
                .map(|json| from_json(json, || format!("decoding the log of game {id}")))
                .collect()
        })
        .await
    }

    async fn idempotency(
        &self,
        id: &str,
        seat: u8,
        key: &str,
    ) -> Result<Option<IdempotencyRecord>, StoreError> {
        let (id, key) = (id.to_owned(), key.to_owned());
        self.read(move |conn| {
            let found: Option<(i64, String)> = conn
                .prepare_cached(
                    "SELECT seq, response FROM idempotency
                     WHERE game_id = ?1 AND seat = ?2 AND key = ?3",
                )
                .and_then(|mut stmt| {
                    let columns = |row: &rusqlite::Row<'_>| Ok((row.get(0)?, row.get(1)?));
                    stmt.query_row(params![id, seat, key], columns).optional()
                })
                .context(|| format!("looking up an idempotency key of game {id}"))?;
            let Some((seq, response)) = found else {
                return Ok(None);
            };
            let seq = u64::try_from(seq).map_err(|_| {
                StoreError::Backend(format!("game {id} has a negative idempotency seq {seq}"))
            })?;
            Ok(Some(IdempotencyRecord {
                seat,
                key,
                seq,
                response,
            }))
        })
        .await
    }

    async fn list_open(&self, query: &ListQuery) -> Result<ListPage, StoreError> {
        self.page(query, Listing::Lobby).await
    }

    async fn due_messages(&self, now: u64, limit: usize) -> Result<Vec<OutboxMessage>, StoreError> {
        let now = i64::try_from(now).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |conn| {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT message FROM outbox
                     WHERE status = 'pending' AND next_attempt_at <= ?1
                     ORDER BY next_attempt_at LIMIT ?2",
                )
                .context(|| "reading due notifications")?;
            let rows = stmt
                .query_map(params![now, limit], |row| row.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .context(|| "reading due notifications")?;
            rows.iter()
                .map(|json| from_json(json, || "decoding a notification"))
                .collect()
        })
        .await
    }

    async fn due_games(&self, now: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        let now = i64::try_from(now).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |conn| {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT id FROM games WHERE due_at IS NOT NULL AND due_at <= ?1
                     ORDER BY due_at LIMIT ?2",
                )
                .context(|| "reading due games")?;
            stmt.query_map(params![now, limit], |row| row.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .context(|| "reading due games")
        })
        .await
    }

    async fn update_message(&self, message: &OutboxMessage) -> Result<(), StoreError> {
        let row = OutboxRow::new(message)?;
        self.write(move |conn| {
            let updated = conn
                .prepare_cached(
                    "UPDATE outbox SET status = ?3, next_attempt_at = ?4, message = ?5
                     WHERE id = ?1 AND game_id = ?2",
                )
                .and_then(|mut stmt| {
                    stmt.execute(params![
                        row.id,
                        row.game_id,
                        row.status,
                        row.next_attempt_at,
                        row.message
                    ])
                })
                .context(|| format!("updating notification {}", row.id))?;
            if updated == 0 {
                return Err(StoreError::NotFound(row.id.clone()));
            }
            Ok(())
        })
        .await
    }

    async fn messages(
        &self,
        game_id: &str,
        hook_id: &str,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<MessagePage, StoreError> {
        let before = cursor.map(PageCursor::parse).transpose()?;
        let (game_id, hook_id) = (game_id.to_owned(), hook_id.to_owned());
        // A cursor beyond i64 cannot come from a stored notification; every one sorts before it.
        let (before_at, before_id) = match &before {
            Some(before) => (
                i64::try_from(before.created_at).unwrap_or(i64::MAX),
                before.id.clone(),
            ),
            None => (i64::MAX, String::from("\u{10FFFF}")),
        };
        // One extra row tells whether another page exists, so the last page has no cursor.
        let fetch = i64::try_from(limit + 1).unwrap_or(i64::MAX);
        self.read(move |conn| {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT message FROM outbox WHERE game_id = ?1 AND hook_id = ?2
                       AND (created_at, id) < (?3, ?4)
                     ORDER BY created_at DESC, id DESC LIMIT ?5",
                )
                .context(|| format!("listing deliveries of {hook_id}"))?;
            let rows = stmt
                .query_map(
                    params![game_id, hook_id, before_at, before_id, fetch],
                    |row| row.get::<_, String>(0),
                )
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .context(|| format!("listing deliveries of {hook_id}"))?;
            let found = rows
                .iter()
                .map(|json| from_json(json, || "decoding a notification"))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(message_page(found, limit))
        })
        .await
    }

    async fn delete(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_owned();
        let inner = Arc::clone(&self.inner);
        self.write(move |conn| {
            // The log, idempotency and outbox rows go with it (ON DELETE CASCADE, with the
            // connection's foreign keys on).
            let deleted = conn
                .prepare_cached("DELETE FROM games WHERE id = ?1")
                .and_then(|mut stmt| stmt.execute(params![id]))
                .context(|| format!("deleting game {id}"))?;
            inner.records.remove(&id);
            if deleted == 0 {
                return Err(StoreError::NotFound(id.clone()));
            }
            Ok(())
        })
        .await
    }

    async fn finished_before(&self, before: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        let before = i64::try_from(before).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |conn| {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT id FROM games INDEXED BY games_finished
                     WHERE status = 'finished' AND updated_at < ?1
                     ORDER BY updated_at LIMIT ?2",
                )
                .context(|| "reading finished games")?;
            stmt.query_map(params![before, limit], |row| row.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .context(|| "reading finished games")
        })
        .await
    }

    async fn list_app(&self, app: &str, query: &ListQuery) -> Result<ListPage, StoreError> {
        self.page(query, Listing::App(app.to_owned())).await
    }

    async fn live_games(&self, owner: Owner<'_>) -> Result<u64, StoreError> {
        let (sql, owner) = match owner {
            Owner::App(app) => (
                "SELECT COUNT(*) FROM games INDEXED BY games_app
                 WHERE app = ?1 AND app IS NOT NULL AND status != 'finished'",
                app.to_owned(),
            ),
            Owner::Origin(origin) => (
                "SELECT COUNT(*) FROM games INDEXED BY games_origin
                 WHERE origin = ?1 AND origin IS NOT NULL AND status != 'finished'",
                origin.to_owned(),
            ),
        };
        self.read(move |conn| {
            let count: i64 = conn
                .prepare_cached(sql)
                .and_then(|mut stmt| stmt.query_row([&owner], |row| row.get(0)))
                .context(|| format!("counting the live games of {owner}"))?;
            Ok(u64::try_from(count).unwrap_or(0))
        })
        .await
    }

    async fn count_creation(
        &self,
        origin: &str,
        hour: u64,
        limit: u32,
    ) -> Result<Option<u32>, StoreError> {
        let origin = origin.to_owned();
        let hour = to_sql(hour, "hour")?;
        // One statement, in a transaction of its own, between the writer's groups (a group's
        // savepoint answers no value): a new address, a new hour, or one more in the hour under the
        // limit; at the limit, the update's condition fails and no row is returned.
        self.on_writer(move |conn| {
            conn.prepare_cached(
                "INSERT INTO origin_creations (origin, hour, created) VALUES (?1, ?2, 1)
                 ON CONFLICT (origin) DO UPDATE SET
                     created = CASE WHEN hour = excluded.hour THEN created + 1 ELSE 1 END,
                     hour = excluded.hour
                 WHERE hour != excluded.hour OR created < ?3
                 RETURNING created",
            )
            .and_then(|mut stmt| {
                stmt.query_row(params![origin, hour, limit], |row| row.get::<_, u32>(0))
                    .optional()
            })
            .context(|| format!("counting a creation of {origin}"))
            .map(|created| created.filter(|created| *created <= limit))
        })
        .await
    }

    async fn create_app(&self, app: &AppRecord) -> Result<(), StoreError> {
        let id = app.id.clone();
        let version = to_sql(app.version, "version")?;
        let created_at = to_sql(app.created_at, "created_at")?;
        let record = to_json(app, "app")?;
        self.write(move |conn| {
            match conn
                .prepare_cached(
                    "INSERT INTO apps (id, version, created_at, record) VALUES (?1, ?2, ?3, ?4)",
                )
                .and_then(|mut stmt| stmt.execute(params![id, version, created_at, record]))
            {
                Ok(_) => Ok(()),
                Err(e) if is_duplicate_key(&e) => Err(StoreError::AlreadyExists(id)),
                Err(e) => Err(backend(format!("creating app {id}"), e)),
            }
        })
        .await
    }

    async fn load_app(&self, id: &str) -> Result<Option<AppRecord>, StoreError> {
        let id = id.to_owned();
        self.read(move |conn| {
            let json: Option<String> =
                game_column(conn, "SELECT record FROM apps WHERE id = ?1", &id)?;
            json.map(|json| from_json(&json, || format!("decoding app {id}")))
                .transpose()
        })
        .await
    }

    async fn save_app(&self, app: &AppRecord, expected_version: u64) -> Result<(), StoreError> {
        let id = app.id.clone();
        let version = to_sql(app.version, "version")?;
        let expected = to_sql(expected_version, "version")?;
        let record = to_json(app, "app")?;
        self.write(move |conn| {
            let updated = conn
                .prepare_cached(
                    "UPDATE apps SET version = ?2, record = ?3 WHERE id = ?1 AND version = ?4",
                )
                .and_then(|mut stmt| stmt.execute(params![id, version, record, expected]))
                .context(|| format!("saving app {id}"))?;
            if updated == 1 {
                return Ok(());
            }
            let exists: Option<i64> =
                game_column(conn, "SELECT version FROM apps WHERE id = ?1", &id)?;
            Err(match exists {
                None => StoreError::NotFound(id),
                Some(_) => StoreError::VersionConflict {
                    id,
                    expected: expected_version,
                },
            })
        })
        .await
    }

    async fn apps(&self) -> Result<Vec<AppRecord>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn
                .prepare_cached("SELECT record FROM apps ORDER BY created_at, id")
                .context(|| "listing apps")?;
            let rows = stmt
                .query_map([], |row| row.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .context(|| "listing apps")?;
            rows.iter()
                .map(|json| from_json(json, || "decoding an app"))
                .collect()
        })
        .await
    }

    async fn load_player(&self, app: &str, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        let (app, id) = (app.to_owned(), id.to_owned());
        self.read(move |conn| {
            let json: Option<String> = conn
                .prepare_cached("SELECT record FROM players WHERE app = ?1 AND id = ?2")
                .and_then(|mut stmt| stmt.query_row([&app, &id], |row| row.get(0)).optional())
                .context(|| format!("loading player {id} of {app}"))?;
            json.map(|json| from_json(&json, || format!("decoding player {id} of {app}")))
                .transpose()
        })
        .await
    }

    async fn save_player(
        &self,
        player: &PlayerRecord,
        expected_version: u64,
    ) -> Result<(), StoreError> {
        let (app, id) = (player.app.clone(), player.id.clone());
        let version = to_sql(player.version, "version")?;
        let expected = to_sql(expected_version, "version")?;
        let record = to_json(player, "player")?;
        self.write(move |conn| {
            // A new player is an insert that fails if one is there; a change is an update
            // of the expected version. Either way, 0 rows changed is a conflict.
            let changed = if expected == 0 {
                conn.prepare_cached(
                    "INSERT INTO players (app, id, version, record) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (app, id) DO NOTHING",
                )
                .and_then(|mut stmt| stmt.execute(params![app, id, version, record]))
            } else {
                conn.prepare_cached(
                    "UPDATE players SET version = ?3, record = ?4
                     WHERE app = ?1 AND id = ?2 AND version = ?5",
                )
                .and_then(|mut stmt| stmt.execute(params![app, id, version, record, expected]))
            }
            .context(|| format!("saving player {id} of {app}"))?;
            if changed == 0 {
                return Err(StoreError::VersionConflict {
                    id,
                    expected: expected_version,
                });
            }
            Ok(())
        })
        .await
    }

    async fn add_player_game(
        &self,
        app: &str,
        player: &str,
        game: &str,
        created_at: u64,
    ) -> Result<(), StoreError> {
        let (app, player, game) = (app.to_owned(), player.to_owned(), game.to_owned());
        let created_at = to_sql(created_at, "created_at")?;
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO player_games (app, player, game_id, created_at)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
            )
            .and_then(|mut stmt| stmt.execute(params![app, player, game, created_at]))
            .context(|| format!("noting that {player} of {app} sits in {game}"))
            .map(drop)
        })
        .await
    }

    async fn remove_player_game(
        &self,
        app: &str,
        player: &str,
        game: &str,
    ) -> Result<(), StoreError> {
        let (app, player, game) = (app.to_owned(), player.to_owned(), game.to_owned());
        self.write(move |conn| {
            conn.prepare_cached(
                "DELETE FROM player_games WHERE app = ?1 AND player = ?2 AND game_id = ?3",
            )
            .and_then(|mut stmt| stmt.execute(params![app, player, game]))
            .context(|| format!("forgetting that {player} of {app} sits in {game}"))
            .map(drop)
        })
        .await
    }

    async fn player_games(
        &self,
        app: &str,
        player: &str,
        query: &ListQuery,
    ) -> Result<ListPage, StoreError> {
        let before = query.cursor.as_deref().map(PageCursor::parse).transpose()?;
        let limit = lobby_limit(query.limit);
        let (before_at, before_id) = match before {
            Some(cursor) => (
                i64::try_from(cursor.created_at).unwrap_or(i64::MAX),
                cursor.id,
            ),
            None => (i64::MAX, String::new()),
        };
        let (app, player) = (app.to_owned(), player.to_owned());
        let fetch = i64::try_from(limit + 1).unwrap_or(i64::MAX);
        self.read(move |conn| {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT g.record FROM player_games p JOIN games g ON g.id = p.game_id
                     WHERE p.app = ?1 AND p.player = ?2
                       AND (p.created_at, p.game_id) < (?3, ?4)
                     ORDER BY p.created_at DESC, p.game_id DESC LIMIT ?5",
                )
                .context(|| "listing a player's games")?;
            let rows = stmt
                .query_map(params![app, player, before_at, before_id, fetch], |row| {
                    row.get::<_, String>(0)
                })
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .context(|| "listing a player's games")?;
            let games = rows
                .iter()
                .map(|json| from_json(json, || "decoding a player's game"))
                .collect::<Result<Vec<GameRecord>, _>>()?;
            Ok(lobby_page(games, limit))
        })
        .await
    }
}

/// A notification as stored: the columns the worker queries on, and the full JSON.
struct OutboxRow {
    id: String,
    game_id: String,
    hook_id: String,
    created_at: i64,
    status: &'static str,
    next_attempt_at: Option<i64>,
    message: String,
}

impl OutboxRow {
    fn new(message: &OutboxMessage) -> Result<OutboxRow, StoreError> {
        let pending = message.status == DeliveryStatus::Pending;
        Ok(OutboxRow {
            id: message.id.clone(),
            game_id: message.game_id.clone(),
            hook_id: message.hook_id.clone(),
            created_at: to_sql(message.created_at, "notification time")?,
            status: message.status.as_str(),
            next_attempt_at: match message.next_attempt_at {
                Some(at) if pending => Some(to_sql(at, "next attempt time")?),
                // A pending message without a time is due at once.
                None if pending => Some(0),
                _ => None,
            },
            message: to_json(message, "notification")?,
        })
    }
}

/// The lobby query; its parameters are the ruleset (if filtered), the cursor's `created_at` and
/// `id` (if resuming), then the limit. The status and invite-only tests are literals, not
/// parameters, so that SQLite can prove the partial lobby indexes apply (see the query plan test).
/// Which games a page lists.
enum Listing {
    /// The lobby: open, public games.
    Lobby,
    /// The unfinished games of one app.
    App(String),
}

fn lobby_sql(listing: &Listing, by_ruleset: bool, after_cursor: bool) -> String {
    let mut sql = String::from(match listing {
        Listing::Lobby => "SELECT record FROM games WHERE status = 'open' AND invite_only = 0",
        Listing::App(_) => {
            "SELECT record FROM games INDEXED BY games_app
             WHERE app = ? AND app IS NOT NULL AND status != 'finished'"
        }
    });
    if by_ruleset {
        sql.push_str(" AND ruleset = ?");
    }
    if after_cursor {
        sql.push_str(" AND (created_at, id) > (?, ?)");
    }
    sql.push_str(" ORDER BY created_at, id LIMIT ?");
    sql
}

/// A record as stored: the queryable columns and the full JSON.
struct GameRow {
    id: String,
    ruleset: String,
    status: &'static str,
    invite_only: bool,
    version: i64,
    created_at: i64,
    updated_at: i64,
    due_at: Option<i64>,
    app: Option<String>,
    origin: Option<String>,
    record: String,
}

impl GameRow {
    /// Inserts this row as a new game.
    fn insert(&self, conn: &Connection) -> rusqlite::Result<usize> {
        conn.prepare_cached(
            "INSERT INTO games
                 (id, ruleset, status, invite_only, version, created_at, updated_at, record,
                  due_at, app, origin)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(params![
            self.id,
            self.ruleset,
            self.status,
            self.invite_only,
            self.version,
            self.created_at,
            self.updated_at,
            self.record,
            self.due_at,
            self.app,
            self.origin
        ])
    }

    fn new(record: &GameRecord) -> Result<GameRow, StoreError> {
        Ok(GameRow {
            id: record.id.clone(),
            ruleset: record.ruleset.clone(),
            status: record.status.as_str(),
            invite_only: record.invite_only,
            version: to_sql(record.version, "version")?,
            created_at: to_sql(record.created_at, "created_at")?,
            updated_at: to_sql(record.updated_at, "updated_at")?,
            due_at: record
                .due_at
                .map(|due_at| to_sql(due_at, "due_at"))
                .transpose()?,
            app: record.app.clone(),
            origin: record.origin.clone(),
            record: to_json(record, "game record")?,
        })
    }
}

/// The one column `sql` selects for game `id` (its only parameter), or `None` if there is no
/// such game.
fn game_column<T: rusqlite::types::FromSql>(
    conn: &Connection,
    sql: &str,
    id: &str,
) -> Result<Option<T>, StoreError> {
    conn.prepare_cached(sql)
        .and_then(|mut stmt| stmt.query_row([id], |row| row.get(0)).optional())
        .context(|| format!("loading game {id}"))
}

/// SQLite integers are i64; refuse (rather than wrap) the values that do not fit.
fn to_sql(value: u64, what: &str) -> Result<i64, StoreError> {
    i64::try_from(value)
        .map_err(|_| StoreError::Backend(format!("{what} {value} does not fit in SQLite")))
}

fn to_json<T: serde::Serialize>(value: &T, what: &str) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Backend(format!("encoding a {what}: {e}")))
}

fn from_json<T: serde::de::DeserializeOwned, C: Display>(
    json: &str,
    context: impl FnOnce() -> C,
) -> Result<T, StoreError> {
    serde_json::from_str(json).map_err(|e| backend(context(), e))
}

/// Whether an insert failed on a primary key or unique constraint (as opposed to any other
/// failure, which must stay a `Backend` error rather than pose as a race).
fn is_duplicate_key(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error(),
        Some(ffi::Error { code: ErrorCode::ConstraintViolation, extended_code })
            if [ffi::SQLITE_CONSTRAINT_PRIMARYKEY, ffi::SQLITE_CONSTRAINT_UNIQUE]
                .contains(extended_code)
    )
}

fn backend(context: impl Display, error: impl Display) -> StoreError {
    StoreError::Backend(format!("{context}: {error}"))
}

/// Adds what we were doing to a backend error, so `Backend("updating game g_1: database is
/// locked")` says more than the bare SQLite message.
trait Context<T> {
    fn context<C: Display>(self, context: impl FnOnce() -> C) -> Result<T, StoreError>;
}

impl<T, E: Display> Context<T> for Result<T, E> {
    fn context<C: Display>(self, context: impl FnOnce() -> C) -> Result<T, StoreError> {
        self.map_err(|e| backend(context(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_file_store_uses_wal_and_full_sync() {
        let path =
            std::env::temp_dir().join(format!("beurs-store-pragmas-{}.sqlite", std::process::id()));
        let store = SqliteStore::open(&path).unwrap();
        let (mode, sync, fks, version) = store
            .on_writer(|conn| {
                let mode: String = conn
                    .pragma_query_value(None, "journal_mode", |row| row.get(0))
                    .unwrap();
                let sync: i64 = conn
                    .pragma_query_value(None, "synchronous", |row| row.get(0))
                    .unwrap();
                let fks: i64 = conn
                    .pragma_query_value(None, "foreign_keys", |row| row.get(0))
                    .unwrap();
                let version: i64 = conn
                    .pragma_query_value(None, "user_version", |row| row.get(0))
                    .unwrap();
                Ok((mode, sync, fks, version))
            })
            .await
            .unwrap();
        assert_eq!((mode.as_str(), sync, fks), ("wal", 2, 1));
        assert_eq!(version, MIGRATIONS.len() as i64);
        drop(store);
        // Reopening an up-to-date database runs no migration and keeps the version.
        drop(SqliteStore::open(&path).unwrap());
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    #[test]
    fn a_database_from_a_newer_build_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        let refused = migrate(&mut conn);
        assert!(
            matches!(refused, Err(StoreError::Backend(ref m)) if m.contains("schema version 99")),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn the_lobby_reads_its_partial_indexes_in_order() {
        let store = SqliteStore::open_in_memory().unwrap();
        store
            .on_writer(|conn| {
                let listings = [Listing::Lobby, Listing::App("a_1".to_owned())];
                for (listing, by_ruleset, after_cursor) in listings.iter().flat_map(|listing| {
                    [(false, false), (false, true), (true, false), (true, true)]
                        .map(|(by_ruleset, after_cursor)| (listing, by_ruleset, after_cursor))
                }) {
                    let sql = format!(
                        "EXPLAIN QUERY PLAN {}",
                        lobby_sql(listing, by_ruleset, after_cursor)
                    );
                    let mut stmt = conn.prepare(&sql).unwrap();
                    let params = usize::from(matches!(listing, Listing::App(_)))
                        + usize::from(by_ruleset)
                        + 2 * usize::from(after_cursor)
                        + 1;
                    let plan: Vec<String> = stmt
                        .query_map(
                            params_from_iter((0..params).map(|_| SqlValue::Integer(1))),
                            |row| row.get(3),
                        )
                        .unwrap()
                        .collect::<Result<_, _>>()
                        .unwrap();
                    let plan = plan.join("; ");
                    let index = match (listing, by_ruleset) {
                        (Listing::App(_), _) => "games_app",
                        (Listing::Lobby, true) => "games_lobby_ruleset",
                        (Listing::Lobby, false) => "games_lobby",
                    };
                    assert!(
                        plan.split([' ', ';']).any(|word| word == index),
                        "{sql}: {plan}"
                    );
                    // The index already yields (created_at, id) order: no sort step.
                    assert!(!plan.contains("TEMP B-TREE"), "{sql}: {plan}");
                }
                Ok(())
            })
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn the_version_check_reads_only_its_covering_index() {
        let store = SqliteStore::open_in_memory().unwrap();
        let plans = store
            .on_writer(|conn| {
                let plan_of = |sql: &str| -> String {
                    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
                    let plan: Vec<String> = stmt
                        .query_map(["g_x"], |row| row.get(3))
                        .unwrap()
                        .collect::<Result<_, _>>()
                        .unwrap();
                    plan.join("; ")
                };
                Ok((plan_of(VERSION_SQL), plan_of(RECORD_SQL)))
            })
            .await
            .unwrap();
        assert!(
            plans.0.contains("USING COVERING INDEX games_version"),
            "{VERSION_SQL}: {}",
            plans.0
        );
        // The record comes from the table, by its primary key.
        assert!(
            !plans.1.contains("games_version"),
            "{RECORD_SQL}: {}",
            plans.1
        );
    }

    #[tokio::test]
    async fn a_database_of_schema_3_keeps_its_games_when_migrated() {
        let path =
            std::env::temp_dir().join(format!("beurs-store-migrate-{}.sqlite", std::process::id()));
        let record = crate::testing::sample_record("g_schema3");
        {
            let conn = Connection::open(&path).unwrap();
            for sql in &MIGRATIONS[..3] {
                conn.execute_batch(sql).unwrap();
            }
            conn.pragma_update(None, "user_version", 3).unwrap();
            // The row as a build of schema 3 wrote it: without the columns added since.
            let row = GameRow::new(&record).unwrap();
            conn.execute(
                "INSERT INTO games
                     (id, ruleset, status, invite_only, version, created_at, updated_at,
                      record, due_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    row.id,
                    row.ruleset,
                    row.status,
                    row.invite_only,
                    row.version,
                    row.created_at,
                    row.updated_at,
                    row.record,
                    row.due_at
                ],
            )
            .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.load(&record.id).await.unwrap(), Some(record.clone()));
        let indexed: i64 = store
            .on_writer(|conn| {
                Ok(conn
                    .query_row(
                        "SELECT count(*) FROM games INDEXED BY games_version WHERE id = ?1",
                        ["g_schema3"],
                        |row| row.get(0),
                    )
                    .unwrap())
            })
            .await
            .unwrap();
        assert_eq!(indexed, 1, "the new index covers the games already stored");
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    #[tokio::test]
    async fn an_oversized_version_is_an_error_not_a_wrap() {
        let store = SqliteStore::open_in_memory().unwrap();
        let mut record = crate::testing::sample_record("g_huge");
        record.version = u64::MAX;
        assert!(matches!(
            store.create(&record).await,
            Err(StoreError::Backend(_))
        ));
        assert_eq!(store.load("g_huge").await.unwrap(), None);
    }

    /// Keeps `store`'s writer busy until the returned sender is sent to, so that the writes
    /// sent meanwhile wait in its queue; the task ends once the writer is free again.
    fn hold_writer(
        store: &SqliteStore,
    ) -> (
        std::sync::mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<(), StoreError>>,
    ) {
        let (hold, release) = std::sync::mpsc::channel::<()>();
        let writer = store.clone();
        let busy = tokio::spawn(async move {
            writer
                .on_writer(move |_| {
                    let _ = release.recv();
                    Ok(())
                })
                .await
        });
        (hold, busy)
    }

    /// A group holds commits to several games and a stale one: the stale commit is refused
    /// alone, the others are stored, and all of them were made durable by one transaction.
    #[tokio::test]
    async fn a_refused_commit_in_a_group_leaves_the_others_committed() {
        let dir = std::env::temp_dir().join(format!("beurs-group-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = SqliteStore::open(dir.join("group.sqlite")).unwrap();
        let ids: Vec<String> = (0..4).map(|n| format!("g_group{n}")).collect();
        for id in &ids {
            store
                .create(&crate::testing::sample_record(id))
                .await
                .unwrap();
        }
        let before = store.writer_counts();
        // Hold the writer, so that everything sent meanwhile waits in its queue as one group.
        let (hold, busy) = hold_writer(&store);
        let commit = |id: &str, expected: u64| {
            let mut record = crate::testing::sample_record(id);
            record.version = expected + 1;
            Commit {
                record,
                expected_version: expected,
                entry: None,
                idempotency: None,
                outbox: Vec::new(),
            }
        };
        let mut tasks = Vec::new();
        for (n, id) in ids.iter().enumerate() {
            // The third game's commit is computed from a version it is not at.
            let expected = if n == 2 { 7 } else { 0 };
            let (store, commit) = (store.clone(), commit(id, expected));
            tasks.push(tokio::spawn(async move { store.commit(&commit).await }));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        hold.send(()).unwrap();
        busy.await.unwrap().unwrap();
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.unwrap());
        }
        for (n, result) in results.iter().enumerate() {
            if n == 2 {
                assert!(
                    matches!(result, Err(StoreError::VersionConflict { expected: 7, .. })),
                    "{result:?}"
                );
            } else {
                assert!(result.is_ok(), "{n}: {result:?}");
            }
        }
        for (n, id) in ids.iter().enumerate() {
            let stored = store.load(id).await.unwrap().unwrap();
            assert_eq!(stored.version, if n == 2 { 0 } else { 1 }, "{id}");
        }
        let after = store.writer_counts();
        assert_eq!(after.writes - before.writes, 4);
        assert_eq!(after.groups - before.groups, 1, "{before:?} → {after:?}");
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Without group commit every write is its own transaction.
    #[tokio::test]
    async fn without_group_commit_each_write_is_its_own_transaction() {
        let dir = std::env::temp_dir().join(format!("beurs-nogroup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = SqliteStore::open_with(
            dir.join("single.sqlite"),
            SqliteConfig {
                group_commit: false,
            },
        )
        .unwrap();
        let (hold, busy) = hold_writer(&store);
        let mut tasks = Vec::new();
        for n in 0..3 {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                store
                    .create(&crate::testing::sample_record(&format!("g_single{n}")))
                    .await
            }));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        hold.send(()).unwrap();
        busy.await.unwrap().unwrap();
        for task in tasks {
            task.await.unwrap().unwrap();
        }
        assert_eq!(
            store.writer_counts(),
            WriterCounts {
                groups: 3,
                writes: 3
            }
        );
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The commit a caller builds on `record`: the next version, with a new state.
    fn next_commit(record: &GameRecord, state: &str) -> Commit {
        let mut next = record.clone();
        next.version += 1;
        next.status = crate::Status::Active;
        next.state = Some(state.to_owned());
        Commit {
            record: next,
            expected_version: record.version,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
        }
    }

    /// Two stores on one file stand for two processes: what one commits, the other reads at
    /// once, whatever it had cached; and a refused commit leaves the cache as it was.
    #[tokio::test]
    async fn a_commit_by_another_process_is_not_hidden_by_the_record_cache() {
        let dir = std::env::temp_dir().join(format!("beurs-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("cache.sqlite");
        let (here, there) = (
            SqliteStore::open(&path).unwrap(),
            SqliteStore::open(&path).unwrap(),
        );
        let created = crate::testing::sample_record("g_cached");
        here.create(&created).await.unwrap();
        assert_eq!(
            here.load("g_cached").await.unwrap().as_ref(),
            Some(&created)
        );

        let theirs = next_commit(&created, r#"{"turn":"theirs"}"#);
        there.commit(&theirs).await.unwrap();
        assert_eq!(
            here.load("g_cached").await.unwrap().as_ref(),
            Some(&theirs.record),
            "the other store's commit is read, not the cached version 0"
        );

        // A commit computed from version 0 loses the race, and caches nothing.
        let stale = next_commit(&created, r#"{"turn":"stale"}"#);
        assert!(matches!(
            here.commit(&stale).await,
            Err(StoreError::VersionConflict { .. })
        ));
        assert_eq!(
            here.load("g_cached").await.unwrap().as_ref(),
            Some(&theirs.record)
        );
        let ours = next_commit(&theirs.record, r#"{"turn":"ours"}"#);
        here.commit(&ours).await.unwrap();
        assert_eq!(
            there.load("g_cached").await.unwrap().as_ref(),
            Some(&ours.record)
        );
        drop((here, there));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The cache is what spares a read the parse: with the stored JSON broken behind the
    /// store's back (version unchanged), the store that cached the record still reads it, and
    /// a store without it in its cache reports the broken JSON.
    #[tokio::test]
    async fn an_unchanged_version_is_read_from_the_record_cache() {
        let dir = std::env::temp_dir().join(format!("beurs-cached-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("cached.sqlite");
        let store = SqliteStore::open(&path).unwrap();
        let created = crate::testing::sample_record("g_parsed");
        store.create(&created).await.unwrap();
        let moved = next_commit(&created, r#"{"turn":1}"#);
        store.commit(&moved).await.unwrap();
        store
            .on_writer(|conn| {
                conn.execute(
                    "UPDATE games SET record = 'not json' WHERE id = 'g_parsed'",
                    [],
                )
                .map(drop)
                .context(|| "breaking the record")
            })
            .await
            .unwrap();
        assert_eq!(
            store.load("g_parsed").await.unwrap().as_ref(),
            Some(&moved.record)
        );
        let fresh = SqliteStore::open(&path).unwrap();
        assert!(matches!(
            fresh.load("g_parsed").await,
            Err(StoreError::Backend(message)) if message.contains("decoding game g_parsed")
        ));
        drop((store, fresh));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
