//! A move made: the commit that records it (its log entry, the mover's reply, the
//! notifications it causes), shared by a game's moves ([`super::play`]) and the undo move
//! ([`super::undo`]).

use super::{notifications, project_events, Change, Moment, MomentAction, Narrator};
use crate::ctx::AppCtx;
use crate::dto::ActionResult;
use crate::error::{Code, Error};
use crate::log::{state_hash, StoredAction};
use game_core::adapter::LoggedJson;
use game_core::{DynGame, Seat, SeatSet, Viewer};
use store::{GameRecord, IdempotencyRecord, LogEntry, Status};

/// What a committed move answers its mover, and the state it made.
pub struct Moved {
    /// The answer to the seat that moved (also kept under its Idempotency-Key).
    pub result: ActionResult,
    /// The state the move made.
    pub engine: Box<dyn DynGame>,
}

/// Refuses a move on a game that is not being played: 409 `game-not-active` before it
/// starts, `game-over` once it has ended.
pub(super) fn require_active(record: &GameRecord) -> Result<(), Error> {
    match record.status {
        Status::Open => Err(Error::refused(
            Code::GameNotActive,
            "the game has not started: seats are still free",
        )),
        Status::Finished => Err(Error::refused(Code::GameOver, "the game is over")),
        Status::Active => Ok(()),
    }
}

/// A move (a game's action, or an undo) already made on `next`, the record it leaves.
pub(super) struct Committed<'a> {
    /// The seat that moved.
    pub seat: u8,
    /// The request's Idempotency-Key, if any.
    pub key: Option<&'a str>,
    /// The action as the log keeps it.
    pub stored: StoredAction,
    /// The events it caused.
    pub events: &'a [LoggedJson],
    /// The seats the game waited on before the move.
    pub waiting_before: SeatSet,
    /// When it was made.
    pub now: u64,
}

/// The commit of a move made on `next` (its last log entry, `log_len - 1`) leaving `engine`:
/// the log entry, the mover's reply (also kept under its Idempotency-Key) and the
/// notifications it causes.
pub(super) fn committed(
    ctx: &AppCtx,
    mut next: GameRecord,
    engine: Box<dyn DynGame>,
    done: Committed<'_>,
) -> Result<Change<Moved>, Error> {
    let Committed {
        seat,
        key,
        stored,
        events,
        waiting_before,
        now,
    } = done;
    let seq = next.log_len - 1;
    let entry = LogEntry {
        seq,
        seat: Some(seat),
        action: serde_json::to_value(&stored).expect("serializes"),
        events: serde_json::to_value(events).expect("serializes"),
        idempotency_key: key.map(str::to_string),
        state_hash: state_hash(next.state.as_deref().unwrap_or_default()),
        at: now,
    };
    let viewer = Viewer::Seat(Seat(seat));
    let shown = project_events(events, viewer);
    let result = ActionResult {
        ruleset: next.ruleset.clone(),
        version: next.version,
        seq,
        event_texts: Narrator::new(ctx, &next).events(&shown),
        events: shown,
        view: engine.view_raw(viewer),
        status: next.status.into(),
        to_act: super::seat_numbers(engine.to_act()),
        waiting_on: super::seat_numbers(engine.waiting_on()),
        outcome: engine.outcome(),
        legal_actions: None,
    };
    let idempotency = key.map(|key| IdempotencyRecord {
        seat,
        key: key.to_string(),
        seq,
        response: serde_json::to_string(&result).expect("serializes"),
    });
    super::count_turns(&mut next, engine.as_ref(), waiting_before);
    let outbox = notifications(
        &Moment {
            record: &next,
            engine: engine.as_ref(),
            waiting_before,
            action: Some(MomentAction {
                seq,
                seat,
                stored: &stored,
                events,
            }),
        },
        now,
    )?;
    Ok(Change {
        next,
        entry: Some(entry),
        idempotency,
        outbox,
        value: Moved { result, engine },
        subscriptions_only: false,
    })
}
