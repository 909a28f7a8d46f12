//! Where Beurs keeps its games: one record per game plus its append-only log.
//!
//! - [`GameStore`]: the one contract every backend meets (DESIGN.md §4).
//! - [`SqliteStore`]: the embedded default (bundled SQLite, WAL), used by `beurs serve`; behind
//!   the `sqlite` feature, which the Lambda functions leave off.
//! - [`MemoryStore`]: for unit tests.
//! - [`VersionCache`]: values kept by game and record version (parsed records, engine states).
//! - [`testing::contract`]: the suite every store must pass; `tests/` runs it on each.
//!
//! Architecture invariant: the store knows no game and no HTTP. It saves an opaque, versioned
//! record (the engine state is a JSON string inside it) and opaque JSON log entries. Every
//! change is one atomic commit conditioned on the version the caller loaded: a lost race is
//! [`StoreError::VersionConflict`], never a silent overwrite.

mod apps;
pub mod cache;
mod common;
#[cfg(feature = "dynamo")]
pub mod dynamo;
mod memory;
#[cfg(feature = "sqlite")]
mod sqlite;
pub mod testing;

pub use apps::{AppRecord, CreationWindow, KeyRecord, PlayerRecord, Scope};
pub use cache::VersionCache;
#[cfg(feature = "dynamo")]
pub use dynamo::DynamoStore;
pub use memory::MemoryStore;
#[cfg(feature = "sqlite")]
pub use sqlite::{SqliteConfig, SqliteStore, WriterCounts};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Waiting for seats to be claimed.
    Open,
    /// Being played.
    Active,
    /// Over; the audit reveals the secret.
    Finished,
}

impl Status {
    /// The status as stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Active => "active",
            Status::Finished => "finished",
        }
    }
}

/// One seat of a game record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The player's display name, once claimed.
    pub name: Option<String>,
    /// SHA-256 (hex) of the seat's bearer token, once claimed. The token itself is never stored.
    pub token_hash: Option<String>,
    /// The entropy the player contributed to the seed (revealed by the audit once finished).
    pub entropy: Option<String>,
    /// The server-side bot that plays the seat (`random`), if one does: claimed for a bot, or
    /// handed to one when its player resigned. A bot seat has no token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// Whether the seat's player resigned (the bot in `bot` plays on for it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
    /// How many turns of the seat's player began: each time the game came to wait on the
    /// seat (a `turn` notice of webhooks and `GET /v1/me/events`). A resumed stream tells as
    /// many `turn`s as began since its cursor.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub turns: u32,
    /// The app's own id for the person in the seat, if the app named one when it claimed the
    /// seat for them: that player's tokens act as the seat's token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

fn is_zero_u32(value: &u32) -> bool {
    *value == 0
}

impl SeatRecord {
    /// Whether the seat has been claimed, by a player or for a bot.
    pub fn is_claimed(&self) -> bool {
        self.token_hash.is_some() || self.bot.is_some()
    }
}

/// Which seed derivation a game uses (`service::seed` defines them). The store only keeps the tag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeedScheme {
    /// `sha256(secret ‖ sha256(entropy_0) ‖ …)`: the game's id, ruleset and options are not
    /// bound. Every game created before scheme 2 existed.
    #[default]
    #[serde(rename = "v1")]
    V1,
    /// Scheme 1 plus the game's context (id, ruleset, rules version, options, seat count), so
    /// an audit whose context was changed no longer replays. Every new game.
    #[serde(rename = "v2")]
    V2,
}

impl SeedScheme {
    /// The scheme new games are created with.
    pub const CURRENT: SeedScheme = SeedScheme::V2;
}

/// Everything about one game except its log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game id (`g_…`).
    pub id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// The ruleset's rules version when the game was created.
    pub rules_version: u32,
    /// The normalised options.
    pub options: Value,
    /// Lifecycle status.
    pub status: Status,
    /// +1 per committed change; the HTTP `ETag`.
    pub version: u64,
    /// Whether only the admin may claim seats (such games are not listed in the lobby).
    pub invite_only: bool,
    /// The seats.
    pub seats: Vec<SeatRecord>,
    /// SHA-256 (hex) of the admin token.
    pub admin_token_hash: String,
    /// The server's 32-byte secret (hex); revealed only by the audit of a finished game.
    pub server_secret: String,
    /// SHA-256 (hex) of the secret, published at creation.
    pub seed_commitment: String,
    /// How the seed is derived from the secret and the entropies. Records written before this
    /// field existed have none and use [`SeedScheme::V1`], so they keep playing as before.
    #[serde(default)]
    pub seed_scheme: SeedScheme,
    /// The engine state (JSON), once the game has started.
    pub state: Option<String>,
    /// The number of log entries (setup is entry 0, so `log_len - 1` is the last `seq`).
    pub log_len: u64,
    /// Creation time, Unix milliseconds.
    pub created_at: u64,
    /// Time of the last change, Unix milliseconds.
    pub updated_at: u64,
    /// The game's webhook subscriptions. They live in the record so that a move, which must
    /// know whom to notify, reads them with the game in its one read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<HookRecord>,
    /// The game's move clock, as the API keeps it (opaque to the store), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Value>,
    /// When the game next needs attention without a request (a deadline, a reminder, a bot
    /// left to move), Unix milliseconds; `None` when nothing is pending. Stores index it so
    /// [`GameStore::due_games`] finds such games after a restart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_at: Option<u64>,
    /// The moves that may still be taken back, oldest first, each with the state before it
    /// (docs/api.md, "Undo"). They are one seat's most recent moves; any other change to the
    /// game's state empties the list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub takebacks: Vec<Takeback>,
    /// How many moves have been taken back. A move draws from the random stream of its place
    /// among the moves still standing (`seq - 2 × undone`), so an undo re-rolls nothing.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub undone: u64,
    /// How many log entries are notes (a pause, a vacation) rather than moves: they take no
    /// place among the random streams either (`seq - notes - 2 × undone`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub notes: u64,
    /// The game's rematch, once someone asked for one (`POST /v1/games/{id}/rematch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// The app the game belongs to (`a_…`), if an app's key created it (docs/apps.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
    /// Who created the game without an app key: a pseudonym of the client's address
    /// ([`Owner::Origin`]), so that the address's live-games quota can count its games. Never
    /// shown to anyone; gone with the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The game this one is the rematch of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<String>,
    /// The version of the last commit that changed the game itself, not only its webhook
    /// subscriptions: a move whose `If-Match` names it still applies (a subscription must not
    /// make every player's pending move stale). 0 in records written before it was kept.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub played_at: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// What a new game is made of; everything else in its record starts empty.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game id (`g_…`).
    pub id: String,
    /// The ruleset id.
    pub ruleset: String,
    /// The ruleset's rules version now.
    pub rules_version: u32,
    /// The normalised options.
    pub options: Value,
    /// Whether only the admin may claim seats.
    pub invite_only: bool,
    /// The seats, as the creator fills them.
    pub seats: Vec<SeatRecord>,
    /// SHA-256 (hex) of the admin token.
    pub admin_token_hash: String,
    /// The server's secret (hex).
    pub server_secret: String,
    /// SHA-256 (hex) of the secret.
    pub seed_commitment: String,
    /// The time of creation, Unix milliseconds.
    pub now: u64,
}

impl GameRecord {
    /// The record of a new open game, the one place a record is built whole: version 1, the
    /// current seed scheme, no state and no log, no clock, subscriptions, takebacks, notes,
    /// rematch or app. Its creator adds what else it has (a clock, the game it rematches).
    pub fn open(new: NewGame) -> GameRecord {
        GameRecord {
            id: new.id,
            ruleset: new.ruleset,
            rules_version: new.rules_version,
            options: new.options,
            status: Status::Open,
            version: 1,
            invite_only: new.invite_only,
            seats: new.seats,
            admin_token_hash: new.admin_token_hash,
            server_secret: new.server_secret,
            seed_commitment: new.seed_commitment,
            seed_scheme: SeedScheme::CURRENT,
            state: None,
            log_len: 0,
            created_at: new.now,
            updated_at: new.now,
            hooks: Vec::new(),
            clock: None,
            due_at: None,
            takebacks: Vec::new(),
            undone: 0,
            notes: 0,
            rematch: None,
            app: None,
            rematch_of: None,
            origin: None,
            played_at: 0,
        }
    }
}

/// A move that may still be taken back, and the state before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Takeback {
    /// The move's log entry.
    pub seq: u64,
    /// The seat that made it.
    pub seat: u8,
    /// The engine state (JSON) before the move.
    pub state: String,
}

/// A webhook subscription of one seat or of the admin (DESIGN.md §6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookRecord {
    /// The subscription id (`wh_…`).
    pub id: String,
    /// The subscribing seat; `None` for the admin.
    pub seat: Option<u8>,
    /// Where notifications are posted.
    pub url: String,
    /// The notification types subscribed to, by name (the API's `WebhookEvent`: `turn`,
    /// `action`, `finished`, `reminder`, `timeout`).
    pub events: Vec<String>,
    /// The signing secret (`whsec_…`). Shown to the subscriber once, when created; kept so the
    /// server can sign, never shown again.
    pub secret: String,
    /// Creation time, Unix milliseconds.
    pub created_at: u64,
    /// Why deliveries stopped (the receiver answered 410 Gone), if they did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled: Option<String>,
    /// The body's shape: the signed JSON event, or a chat platform's message.
    #[serde(default, skip_serializing_if = "HookFormat::is_standard")]
    pub format: HookFormat,
    /// The address a chat message links to (the subscriber's page of the game), if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// What a subscription's notifications look like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookFormat {
    /// The signed JSON event (Standard Webhooks).
    #[default]
    Standard,
    /// A Discord incoming-webhook message: `{"content": …}`.
    Discord,
    /// A Slack incoming-webhook message: `{"text": …}`.
    Slack,
}

impl HookFormat {
    /// Whether this is the default, signed JSON event.
    pub fn is_standard(&self) -> bool {
        *self == HookFormat::Standard
    }
}

/// Where a notification is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// Not delivered yet; due at `next_attempt_at`.
    Pending,
    /// A receiver answered 2xx.
    Delivered,
    /// Every attempt failed, or the receiver answered 410 Gone.
    Failed,
    /// The subscription was deleted or disabled before delivery.
    Cancelled,
}

impl DeliveryStatus {
    /// The status as stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryStatus::Pending => "pending",
            DeliveryStatus::Delivered => "delivered",
            DeliveryStatus::Failed => "failed",
            DeliveryStatus::Cancelled => "cancelled",
        }
    }
}

/// One delivery attempt of a notification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// 1 for the first attempt.
    pub attempt: u32,
    /// When it was made, Unix milliseconds.
    pub at: u64,
    /// The receiver's HTTP status, if it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_code: Option<u16>,
    /// What went wrong before an answer (refused address, timeout, connection error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One notification in the outbox: written with the move that caused it, then delivered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboxMessage {
    /// The message id (`msg_…`): the `webhook-id`, the same on every attempt.
    pub id: String,
    /// The game.
    pub game_id: String,
    /// The subscription it is for.
    pub hook_id: String,
    /// The notification type.
    pub event: String,
    /// The JSON body, fixed when the move was committed.
    pub body: String,
    /// Creation time (the commit's), Unix milliseconds.
    pub created_at: u64,
    /// Where it is.
    pub status: DeliveryStatus,
    /// The attempts so far, oldest first.
    #[serde(default)]
    pub attempts: Vec<Attempt>,
    /// When the next attempt is due, while pending; Unix milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_attempt_at: Option<u64>,
}

/// One entry of a game's log. Entry 0 is the setup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Position in the log, from 0.
    pub seq: u64,
    /// The acting seat (`None` for the setup).
    pub seat: Option<u8>,
    /// The action and who may read it, as the API stores it (opaque to the store).
    pub action: Value,
    /// The events with their visibility (opaque to the store).
    pub events: Value,
    /// The `Idempotency-Key` the action was submitted with.
    pub idempotency_key: Option<String>,
    /// SHA-256 (hex) of the engine state after this entry.
    pub state_hash: String,
    /// When the entry was committed, Unix milliseconds.
    pub at: u64,
}

/// The first response to an idempotent request, kept so a retry gets it unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdempotencyRecord {
    /// The seat that sent the request.
    pub seat: u8,
    /// The client's `Idempotency-Key`.
    pub key: String,
    /// The log entry the request created.
    pub seq: u64,
    /// The response body that was sent.
    pub response: String,
}

/// One atomic change to a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Commit {
    /// The record after the change; its `version` must be `expected_version + 1`.
    pub record: GameRecord,
    /// The version the change was computed from.
    pub expected_version: u64,
    /// The log entry to append (its `seq` must be the stored `log_len`).
    pub entry: Option<LogEntry>,
    /// The idempotency record to keep with it.
    pub idempotency: Option<IdempotencyRecord>,
    /// The notifications the change causes, stored with it (the transactional outbox).
    pub outbox: Vec<OutboxMessage>,
}

/// A lobby listing filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListQuery {
    /// Only games of this ruleset.
    pub ruleset: Option<String>,
    /// Resume after this cursor (from a previous page).
    pub cursor: Option<String>,
    /// At most this many games (1..=100).
    pub limit: usize,
}

/// One page of the lobby: open games that are not invite-only, oldest first.
#[derive(Clone, Debug, PartialEq)]
pub struct ListPage {
    /// The games on this page.
    pub games: Vec<GameRecord>,
    /// Where the next page starts, if there may be one.
    pub next_cursor: Option<String>,
}

/// One page of a subscription's notifications, newest first.
#[derive(Clone, Debug, PartialEq)]
pub struct MessagePage {
    /// The notifications on this page.
    pub messages: Vec<OutboxMessage>,
    /// Where the next (older) page starts, if there is one.
    pub next_cursor: Option<String>,
}

/// What can go wrong in a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A game with this id already exists.
    #[error("game {0} already exists")]
    AlreadyExists(String),
    /// The game changed since it was loaded (or the idempotency key was used concurrently).
    #[error("game {id} is no longer at version {expected}")]
    VersionConflict {
        /// The game.
        id: String,
        /// The version the commit expected.
        expected: u64,
    },
    /// No such game.
    #[error("game {0} not found")]
    NotFound(String),
    /// A cursor that this store did not hand out.
    #[error("invalid cursor")]
    BadCursor,
    /// The backend failed.
    #[error("store backend failed: {0}")]
    Backend(String),
}

/// Whose games a live-games quota counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner<'a> {
    /// An app's games ([`GameRecord::app`]).
    App(&'a str),
    /// The games created without a key from one client address ([`GameRecord::origin`]).
    Origin(&'a str),
}

/// The contract every store meets (DESIGN.md §4).
#[async_trait::async_trait]
pub trait GameStore: Send + Sync {
    /// Stores a new game. `AlreadyExists` if the id is taken.
    async fn create(&self, record: &GameRecord) -> Result<(), StoreError>;

    /// Loads a game's record, or `None`.
    async fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;

    /// Applies one change atomically, if and only if the stored version is
    /// `commit.expected_version` (else `VersionConflict`, and nothing is written). Writes the
    /// record, appends the entry and keeps the idempotency record together. An idempotency
    /// key already used by the same seat of the same game is a `VersionConflict` too.
    async fn commit(&self, commit: &Commit) -> Result<(), StoreError>;

    /// Log entries with `seq > after` (all when `after` is `None`), ascending, at most `limit`.
    async fn log(
        &self,
        id: &str,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<LogEntry>, StoreError>;

    /// The idempotency record for this seat and key, if the key was used.
    async fn idempotency(
        &self,
        id: &str,
        seat: u8,
        key: &str,
    ) -> Result<Option<IdempotencyRecord>, StoreError>;

    /// The lobby: open, not invite-only games, oldest first, paginated.
    async fn list_open(&self, query: &ListQuery) -> Result<ListPage, StoreError>;

    /// Pending notifications due at `now` (Unix ms) or earlier, most overdue first, at most
    /// `limit`: what a local delivery worker drains. Stores whose outbox is drained by
    /// something else (DynamoDB's stream) may return none.
    async fn due_messages(&self, now: u64, limit: usize) -> Result<Vec<OutboxMessage>, StoreError>;

    /// The ids of games whose `due_at` is `now` (Unix ms) or earlier, most overdue first, at
    /// most `limit`: what the deadline worker visits.
    async fn due_games(&self, now: u64, limit: usize) -> Result<Vec<String>, StoreError>;

    /// Saves a notification's new status, attempts and next attempt time (by `game_id`,
    /// `hook_id`, `created_at` and `id`). `NotFound` if it is not in the outbox.
    async fn update_message(&self, message: &OutboxMessage) -> Result<(), StoreError>;

    /// One subscription's notifications, newest first, at most `limit`, starting after
    /// `cursor` (the `next_cursor` of a previous page; malformed: `BadCursor`).
    async fn messages(
        &self,
        game_id: &str,
        hook_id: &str,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<MessagePage, StoreError>;

    /// Deletes game `id` and everything stored under it: its log, its idempotency records
    /// and its outbox (its subscriptions live in the record). `NotFound` if there is no such
    /// game. Once it returns, the game is not found by any read.
    async fn delete(&self, id: &str) -> Result<(), StoreError>;

    /// The ids of finished games last changed before `before` (Unix ms), oldest first, at
    /// most `limit`: what a retention sweep deletes. Stores that forget finished games by
    /// themselves (DynamoDB's TTL) may return none.
    async fn finished_before(&self, before: u64, limit: usize) -> Result<Vec<String>, StoreError>;

    /// The games of app `app` that are not finished (open and under way, invite-only ones
    /// too), oldest first, paginated like the lobby; `query.ruleset` narrows them.
    async fn list_app(&self, app: &str, query: &ListQuery) -> Result<ListPage, StoreError>;

    /// How many games of `owner` are not finished: what its live-games quota counts.
    async fn live_games(&self, owner: Owner<'_>) -> Result<u64, StoreError>;

    /// Counts one more game created without an app key by `origin` (an [`Owner::Origin`]
    /// pseudonym) in clock hour `hour` (Unix hours), unless it has created `limit` in that
    /// hour already: the hour's count after this one, or `None` when refused (and nothing
    /// counted). Atomic: concurrent callers never admit more than `limit` between them.
    async fn count_creation(
        &self,
        origin: &str,
        hour: u64,
        limit: u32,
    ) -> Result<Option<u32>, StoreError>;

    /// Stores a new app. `AlreadyExists` if the id is taken.
    async fn create_app(&self, app: &AppRecord) -> Result<(), StoreError>;

    /// Loads an app, or `None`.
    async fn load_app(&self, id: &str) -> Result<Option<AppRecord>, StoreError>;

    /// Saves a changed app if and only if the stored version is `expected_version` (else
    /// `VersionConflict`); `NotFound` if there is no such app.
    async fn save_app(&self, app: &AppRecord, expected_version: u64) -> Result<(), StoreError>;

    /// Every app, oldest first (an operator's listing: deployments have few apps).
    async fn apps(&self) -> Result<Vec<AppRecord>, StoreError>;

    /// Player `id` of app `app`, or `None`.
    async fn load_player(&self, app: &str, id: &str) -> Result<Option<PlayerRecord>, StoreError>;

    /// Saves a player if and only if the stored version is `expected_version` (0: there is
    /// none yet; else `VersionConflict`).
    async fn save_player(
        &self,
        player: &PlayerRecord,
        expected_version: u64,
    ) -> Result<(), StoreError>;

    /// Notes that player `player` of app `app` sits in game `game` (created at `created_at`,
    /// Unix ms). Idempotent. The note may outlive the seat (a claim that then failed, a seat
    /// left): readers check each game's seats, so the notes are a superset of the truth,
    /// written before the seat is taken and removed after it is left. Deleting the game
    /// deletes its notes.
    async fn add_player_game(
        &self,
        app: &str,
        player: &str,
        game: &str,
        created_at: u64,
    ) -> Result<(), StoreError>;

    /// Removes the note that `player` of `app` sits in `game`, if there is one.
    async fn remove_player_game(
        &self,
        app: &str,
        player: &str,
        game: &str,
    ) -> Result<(), StoreError>;

    /// The games noted for player `player` of app `app`, newest first, paginated like the
    /// lobby (`query.cursor` from the last page's `next_cursor`; `query.ruleset` ignored).
    /// Games deleted since are left out.
    async fn player_games(
        &self,
        app: &str,
        player: &str,
        query: &ListQuery,
    ) -> Result<ListPage, StoreError>;
}
