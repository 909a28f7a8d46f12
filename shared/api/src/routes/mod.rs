//! The route handlers, one module per resource, and what they share.

pub mod actions;
pub mod docs;
pub mod games;
pub mod log;
pub mod me;
pub mod play;
pub mod rulesets;
pub mod seats;
pub mod webhooks;

use crate::audit::StoredAction;
use crate::auth::is_game_id;
use crate::error::ApiError;
use crate::http::IfMatch;
use crate::time::now_ms;
use crate::AppCtx;
use game_core::adapter::LoggedJson;
use game_core::words::Names;
use game_core::{DynGame, DynRuleset, Seat, Viewer};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use store::{Commit, GameRecord, IdempotencyRecord, LogEntry, OutboxMessage, StoreError};

/// How many times a write is retried after losing a race (DESIGN.md §4).
pub const MAX_ATTEMPTS: u32 = 5;

/// Loads a game, or 404. Ids that cannot exist are refused without a lookup.
pub async fn load_record(ctx: &AppCtx, id: &str) -> Result<GameRecord, ApiError> {
    if !is_game_id(id) {
        return Err(ApiError::GameNotFound);
    }
    ctx.store.load(id).await?.ok_or(ApiError::GameNotFound)
}

/// The ruleset of a stored game, if this server still plays the game's rules version
/// (410 `rules-version-retired` otherwise: docs/api.md, rules versions).
pub fn ruleset_of<'a>(
    ctx: &'a AppCtx,
    record: &GameRecord,
) -> Result<&'a dyn DynRuleset, ApiError> {
    let ruleset = ctx.registry.get(&record.ruleset).ok_or_else(|| {
        ApiError::Internal(format!(
            "game {} has unknown ruleset {}",
            record.id, record.ruleset
        ))
    })?;
    if !ruleset.serves_rules_version(record.rules_version) {
        return Err(ApiError::RulesVersionRetired {
            version: record.rules_version,
            current: ruleset.rules_version(),
        });
    }
    Ok(ruleset)
}

/// The engine state of a started game, shared with the other requests that read the same
/// version ([`crate::states`]).
pub fn engine_of(ctx: &AppCtx, record: &GameRecord) -> Result<Option<Arc<dyn DynGame>>, ApiError> {
    let Some(state) = &record.state else {
        return Ok(None);
    };
    let ruleset = ruleset_of(ctx, record)?;
    if let Some(engine) = ctx.states.get(&record.id, record.version) {
        return Ok(Some(engine));
    }
    let engine: Arc<dyn DynGame> = Arc::from(ruleset.load(state).map_err(|error| {
        ApiError::Internal(format!("game {} state does not load: {error}", record.id))
    })?);
    ctx.states
        .insert(&record.id, record.version, Arc::clone(&engine));
    Ok(Some(engine))
}

/// The events `viewer` may see.
pub fn project_events(events: &[LoggedJson], viewer: Viewer) -> Vec<Value> {
    events
        .iter()
        .filter(|logged| logged.visibility.shows(viewer))
        .map(|logged| logged.event.clone())
        .collect()
}

/// What a client shows for an event or action the server cannot put in words (a ruleset no
/// longer registered); never expected in practice.
const UNDESCRIBED: &str = "Something happened.";

/// Puts one game's actions and events into words for its readers: the ruleset and the
/// players' names, gathered once per request. Any registered ruleset describes its events,
/// whatever rules version the game was recorded under, so a retired game's log still reads.
pub struct Narrator<'a> {
    ruleset: Option<&'a dyn DynRuleset>,
    names: Vec<Option<String>>,
}

/// The seats' display names by seat index (`None` for a seat nobody has named), as
/// [`game_core::words::Names`] takes them.
pub(crate) fn seat_names(record: &GameRecord) -> Vec<Option<String>> {
    record.seats.iter().map(|seat| seat.name.clone()).collect()
}

impl<'a> Narrator<'a> {
    /// The narrator of `record`'s game.
    pub fn new(ctx: &'a AppCtx, record: &GameRecord) -> Self {
        Narrator {
            ruleset: ctx.registry.get(&record.ruleset),
            names: seat_names(record),
        }
    }

    /// `events` (as projected for one reader) in words, in order.
    pub fn events(&self, events: &[Value]) -> Vec<String> {
        let names = Names::new(&self.names);
        events
            .iter()
            .map(|event| {
                self.ruleset
                    .and_then(|ruleset| ruleset.describe_event(event, &names))
                    .unwrap_or_else(|| UNDESCRIBED.to_string())
            })
            .collect()
    }

    /// `action` by `seat` in words, or `None` when the action is null (hidden from the
    /// reader).
    pub fn action(&self, seat: Seat, action: &Value) -> Option<String> {
        if action.is_null() {
            return None;
        }
        let text = self
            .ruleset
            .and_then(|ruleset| ruleset.describe_action(action, seat, &Names::new(&self.names)))
            .unwrap_or_else(|| UNDESCRIBED.to_string());
        Some(text)
    }
}

/// Waits a little before retrying a lost race: 2 to 20 ms times the attempt, jittered.
async fn backoff(attempt: u32) {
    let jitter = crate::auth::random_bytes::<1>()
        .map(|bytes| u64::from(bytes[0] % 10))
        .unwrap_or(5);
    tokio::time::sleep(Duration::from_millis(
        (2 + 2 * jitter) * u64::from(attempt + 1),
    ))
    .await;
}

/// What one change to a game commits: the next record and what is stored with it.
pub struct Change<T> {
    /// The record after the change. [`update`] sets its `version` and `updated_at`.
    pub next: GameRecord,
    /// The log entry the change appends, if any.
    pub entry: Option<LogEntry>,
    /// The idempotency record kept with it, if any.
    pub idempotency: Option<IdempotencyRecord>,
    /// The notifications it causes (the transactional outbox).
    pub outbox: Vec<OutboxMessage>,
    /// What the handler answers once the change is committed.
    pub value: T,
}

impl<T> Change<T> {
    /// A change of the record alone.
    pub fn record(next: GameRecord, value: T) -> Change<T> {
        Change {
            next,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
            value,
        }
    }
}

/// The preconditions of a change.
#[derive(Default)]
pub struct Guard {
    /// The client's `If-Match` (checked on every attempt: 412 once the game has moved on).
    pub if_match: IfMatch,
    /// A seat's `Idempotency-Key`: if that seat already committed a change under it, the
    /// first response is returned instead (checked before anything else, on every attempt).
    pub replay: Option<Replay>,
}

impl Guard {
    /// Only at `version`: what a worker or a bot uses for a change it decided at that
    /// version (a lost race is then `StaleVersion`, not a retry on a state it did not see).
    pub fn at(version: u64) -> Guard {
        Guard {
            if_match: IfMatch::Tags(vec![(false, version.to_string())]),
            replay: None,
        }
    }
}

/// Whether a change made under [`Guard::at`] was committed: `false` when the game moved on
/// first (`412`/`409`), so the caller looks again; other errors are errors.
pub fn committed_unless_moved_on<T>(
    outcome: Result<Updated<T>, ApiError>,
) -> Result<bool, ApiError> {
    match outcome {
        Ok(Updated::Committed { .. }) => Ok(true),
        Ok(Updated::Replayed(_)) => Err(ApiError::Internal(
            "a change without an idempotency key was replayed".into(),
        )),
        Err(ApiError::StaleVersion { .. } | ApiError::Conflict { .. }) => Ok(false),
        Err(error) => Err(error),
    }
}

/// A request that may repeat an earlier one.
pub struct Replay {
    /// The seat sending it.
    pub seat: u8,
    /// Its `Idempotency-Key`.
    pub key: String,
    /// The action it carries, normalised: a key reused with another action is refused (422
    /// `idempotency-key-reused`) rather than answered with the first move's response.
    pub action: Value,
}

/// How a change ended.
pub enum Updated<T> {
    /// It was committed; the game is now at `version`.
    Committed {
        /// The handler's value.
        value: T,
        /// The committed version.
        version: u64,
    },
    /// The idempotency key had been used: the first response, unchanged.
    Replayed(String),
}

/// The one optimistic-concurrency loop (DESIGN.md §4): checks the guard, computes the change
/// from the record, commits it conditioned on the record's version and, on a lost race,
/// reloads and tries again (at most [`MAX_ATTEMPTS`] times, jittered), then answers 409
/// `version-conflict`. `change` runs on each attempt's record and may refuse with any
/// problem; nothing is committed then.
///
/// `record` is the game as the handler loaded it (to authenticate the caller): the first
/// attempt uses it as it is.
pub async fn update<T>(
    ctx: &AppCtx,
    record: GameRecord,
    guard: &Guard,
    change: impl FnMut(&GameRecord) -> Result<Change<T>, ApiError>,
) -> Result<Updated<T>, ApiError> {
    let id = record.id.clone();
    let updated = update_in(
        ctx.store.as_ref(),
        &ctx.webhooks.wake,
        record,
        guard,
        change,
    )
    .await?;
    if let Updated::Committed { .. } = updated {
        // Nobody listening is fine.
        let _ = ctx.changes.send(id);
    }
    Ok(updated)
}

/// [`update`] over a store directly (the webhook worker has no [`AppCtx`]); `wake` is told
/// when a committed change queued notifications.
pub async fn update_in<T>(
    store: &dyn store::GameStore,
    wake: &tokio::sync::Notify,
    mut record: GameRecord,
    guard: &Guard,
    mut change: impl FnMut(&GameRecord) -> Result<Change<T>, ApiError>,
) -> Result<Updated<T>, ApiError> {
    for attempt in 0..MAX_ATTEMPTS {
        if attempt > 0 {
            backoff(attempt).await;
            record = store
                .load(&record.id)
                .await?
                .ok_or(ApiError::GameNotFound)?;
        }
        if let Some(replay) = &guard.replay {
            if let Some(first) = store
                .idempotency(&record.id, replay.seat, &replay.key)
                .await?
            {
                same_request(store, &record.id, &first, replay).await?;
                return Ok(Updated::Replayed(first.response));
            }
        }
        if !guard.if_match.matches(record.version) {
            return Err(ApiError::StaleVersion {
                given: guard.if_match.describe(),
                current: record.version,
            });
        }
        let Change {
            mut next,
            entry,
            idempotency,
            outbox,
            value,
        } = change(&record)?;
        next.version = record.version + 1;
        next.updated_at = now_ms();
        let version = next.version;
        let notify = !outbox.is_empty();
        let commit = Commit {
            record: next,
            expected_version: record.version,
            entry,
            idempotency,
            outbox,
        };
        match store.commit(&commit).await {
            Ok(()) => {
                if notify {
                    wake.notify_one();
                }
                return Ok(Updated::Committed { value, version });
            }
            Err(StoreError::VersionConflict { .. }) => continue,
            Err(error) => return Err(error.into()),
        }
    }
    Err(ApiError::conflict(
        "version-conflict",
        "the game kept changing; nothing was applied, try again",
    ))
}

/// Refuses a repeated `Idempotency-Key` whose action differs from the one first sent with it
/// (the move logged at `first.seq`).
async fn same_request(
    store: &dyn store::GameStore,
    id: &str,
    first: &IdempotencyRecord,
    replay: &Replay,
) -> Result<(), ApiError> {
    let entries = store.log(id, first.seq.checked_sub(1), 1).await?;
    let logged = entries
        .first()
        .filter(|entry| entry.seq == first.seq)
        .ok_or_else(|| ApiError::Internal(format!("{id}: no log entry {}", first.seq)))?;
    let stored: StoredAction = serde_json::from_value(logged.action.clone())
        .map_err(|error| ApiError::Internal(format!("{id}: log entry {}: {error}", first.seq)))?;
    if stored.action == replay.action {
        return Ok(());
    }
    Err(ApiError::unprocessable(
        "idempotency-key-reused",
        format!(
            "this Idempotency-Key was first sent with another action (log entry {}); send a new key with a new move",
            first.seq
        ),
    ))
}

/// The `ETag` of a version.
pub fn etag(version: u64) -> String {
    format!("\"{version}\"")
}

/// Seat numbers of a set.
pub fn seat_numbers(set: game_core::SeatSet) -> Vec<u8> {
    set.iter().map(|seat| seat.0).collect()
}
