//! The one optimistic-concurrency loop (DESIGN.md §4) and the preconditions of a change.

use crate::ctx::AppCtx;
use crate::dto::ActionResult;
use crate::error::{Code, Error};
use crate::log::{Entry, StoredAction};
use crate::time::now_ms;
use serde_json::Value;
use std::time::Duration;
use store::{Commit, GameRecord, IdempotencyRecord, LogEntry, OutboxMessage, StoreError};

/// How many times a write is retried after losing a race (DESIGN.md §4).
pub const MAX_ATTEMPTS: u32 = 5;

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
    /// Whether it changes only the game's webhook subscriptions: the version moves (the
    /// store's guard against lost updates), but a move guarded by the version before it still
    /// applies ([`GameRecord::played_at`]).
    pub subscriptions_only: bool,
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
            subscriptions_only: false,
        }
    }

    /// A change of the record's webhook subscriptions alone.
    pub fn subscriptions(next: GameRecord, value: T) -> Change<T> {
        Change {
            subscriptions_only: true,
            ..Change::record(next, value)
        }
    }
}

/// What the game's version must be for a change to be committed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Precondition {
    /// Any version: the change is computed again from each attempt's record, so a lost race
    /// is retried.
    #[default]
    None,
    /// Exactly this version: what a worker or a bot uses for a change it decided at that
    /// version (a lost race is then `StaleVersion`, not a retry on a state it did not see).
    AtVersion(u64),
    /// A client's `If-Match` header (412 once the game has moved on past its tags).
    Tags(VersionTags),
}

impl Precondition {
    /// Whether `record` satisfies it. A client's `If-Match` also holds at the version of
    /// the record's last play ([`GameRecord::played_at`]): nothing a move depends on changed
    /// since, only subscriptions. A worker's `AtVersion` is exact.
    pub fn matches(&self, record: &GameRecord) -> bool {
        match self {
            Precondition::None => true,
            Precondition::AtVersion(expected) => *expected == record.version,
            Precondition::Tags(if_match) => {
                if_match.matches(record.version)
                    || (record.played_at != 0 && if_match.matches(record.played_at))
            }
        }
    }

    /// Whether it is an `If-Match` that names weak tags alone (which never match).
    pub fn only_weak(&self) -> bool {
        matches!(self, Precondition::Tags(if_match) if if_match.only_weak())
    }

    /// The version it asked for, as the 412's message names it.
    pub fn describe(&self) -> String {
        match self {
            Precondition::None => String::new(),
            Precondition::AtVersion(version) => format!("\"{version}\""),
            Precondition::Tags(if_match) => if_match.describe(),
        }
    }
}

/// The preconditions of a change.
#[derive(Default)]
pub struct Guard {
    /// The version the game must be at (checked on every attempt).
    pub precondition: Precondition,
    /// A seat's `Idempotency-Key`: if that seat already committed a change under it, the
    /// first response is returned instead (checked before anything else, on every attempt).
    pub replay: Option<Replay>,
}

impl Guard {
    /// Only at `version` ([`Precondition::AtVersion`]).
    pub fn at(version: u64) -> Guard {
        Guard {
            precondition: Precondition::AtVersion(version),
            replay: None,
        }
    }
}

/// Whether a change made under [`Guard::at`] was committed: `false` when the game moved on
/// first (`412`/`409`), so the caller looks again; other errors are errors.
pub fn committed_unless_moved_on<T>(outcome: Result<Updated<T>, Error>) -> Result<bool, Error> {
    match outcome {
        Ok(Updated::Committed { .. }) => Ok(true),
        Ok(Updated::Replayed(_)) => Err(Error::Internal(
            "a change without an idempotency key was replayed".into(),
        )),
        Err(error) if error.moved_on() => Ok(false),
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
        /// The game as committed.
        record: Box<GameRecord>,
    },
    /// The idempotency key had been used: the first move's answer, as it was kept (only
    /// moves are made under a key).
    Replayed(Box<ActionResult>),
}

impl<T> Updated<T> {
    /// The value, version and record of a change made without an idempotency key, which is
    /// always committed (only moves are made under a key, so only they can be replayed);
    /// `what` names the change in the internal error otherwise ("a claim").
    pub fn committed(self, what: &str) -> Result<(T, u64, Box<GameRecord>), Error> {
        match self {
            Updated::Committed {
                value,
                version,
                record,
            } => Ok((value, version, record)),
            Updated::Replayed(_) => Err(Error::Internal(format!(
                "{what} has no idempotency key to replay"
            ))),
        }
    }
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
    change: impl FnMut(&GameRecord) -> Result<Change<T>, Error>,
) -> Result<Updated<T>, Error> {
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
    mut change: impl FnMut(&GameRecord) -> Result<Change<T>, Error>,
) -> Result<Updated<T>, Error> {
    for attempt in 0..MAX_ATTEMPTS {
        if attempt > 0 {
            backoff(attempt).await;
            record = store.load(&record.id).await?.ok_or(Error::GameNotFound)?;
        }
        if let Some(replay) = &guard.replay {
            if let Some(first) = store
                .idempotency(&record.id, replay.seat, &replay.key)
                .await?
            {
                same_request(store, &record.id, &first, replay).await?;
                let answer = serde_json::from_str(&first.response).map_err(|error| {
                    Error::Internal(format!("a kept answer does not read back: {error}"))
                })?;
                return Ok(Updated::Replayed(Box::new(answer)));
            }
        }
        if !guard.precondition.matches(&record) {
            let given = guard.precondition.describe();
            let current = record.version;
            return Err(if guard.precondition.only_weak() {
                Error::WeakIfMatch { given, current }
            } else {
                Error::StaleVersion { given, current }
            });
        }
        let Change {
            mut next,
            entry,
            idempotency,
            outbox,
            value,
            subscriptions_only,
        } = change(&record)?;
        next.version = record.version + 1;
        next.updated_at = now_ms();
        if !subscriptions_only {
            next.played_at = next.version;
        } else if next.played_at == 0 {
            // A record from before `played_at` was kept: its last play was no later than now.
            next.played_at = record.version;
        }
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
                return Ok(Updated::Committed {
                    value,
                    version,
                    record: Box::new(commit.record),
                });
            }
            Err(StoreError::VersionConflict { .. }) => continue,
            Err(error) => return Err(error.into()),
        }
    }
    Err(Error::refused(
        Code::VersionConflict,
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
) -> Result<(), Error> {
    let entries = store.log(id, first.seq.checked_sub(1), 1).await?;
    let logged = entries
        .first()
        .filter(|entry| entry.seq == first.seq)
        .ok_or_else(|| Error::Internal(format!("{id}: no log entry {}", first.seq)))?;
    let stored: StoredAction = serde_json::from_value(logged.action.clone())
        .map_err(|error| Error::Internal(format!("{id}: log entry {}: {error}", first.seq)))?;
    // The logged undo names the move it took back (`{"type": "undo", "move": 12}`); the
    // client sends `{"type": "undo"}` alone, so a repeated undo is recognised by its kind.
    let same = if Entry::of(&replay.action).is_undo() {
        Entry::of(&stored.action).is_undo()
    } else {
        stored.action == replay.action
    };
    if same {
        return Ok(());
    }
    Err(Error::refused(
        Code::IdempotencyKeyReused,
        format!(
            "this Idempotency-Key was first sent with another action (log entry {}); send a new key with a new move",
            first.seq
        ),
    ))
}

/// The versions a client says it decided a change at: its `If-Match` tags (RFC 9110
/// §13.1.1), if it sent any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum VersionTags {
    /// No `If-Match`: no precondition.
    #[default]
    Absent,
    /// `If-Match: *`: the game must exist (it always does by then).
    Any,
    /// A list of entity tags; `true` marks a weak one (`W/"5"`), which never matches.
    Tags(Vec<(bool, String)>),
}

impl VersionTags {
    /// Whether a game at `version` satisfies the precondition. Comparison is strong: a weak
    /// tag never matches (RFC 9110 §13.1.1).
    pub fn matches(&self, version: u64) -> bool {
        match self {
            VersionTags::Absent | VersionTags::Any => true,
            VersionTags::Tags(tags) => {
                let current = version.to_string();
                tags.iter().any(|(weak, tag)| !weak && *tag == current)
            }
        }
    }

    /// Whether it names tags, all of them weak (`W/"5"`): such a precondition never holds.
    pub fn only_weak(&self) -> bool {
        matches!(self, VersionTags::Tags(tags) if tags.iter().all(|(weak, _)| *weak))
    }

    /// The tags as the client sent them, for the 412's message.
    pub fn describe(&self) -> String {
        match self {
            VersionTags::Absent => String::new(),
            VersionTags::Any => "*".into(),
            VersionTags::Tags(tags) => tags
                .iter()
                .map(|(weak, tag)| format!("{}\"{tag}\"", if *weak { "W/" } else { "" }))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}
