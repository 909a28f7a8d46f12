//! Applying a move to a stored game: the engine's step, the log entry, the reply, the clock
//! and the notifications it causes, as one [`Change`] for the commit loop.

use super::{engine_of, notifications, project_events, Change, Moment, MomentAction, Narrator};
use crate::audit::{state_hash, StoredAction};
use crate::ctx::AppCtx;
use crate::dto::{ActionResult, Author, SubmitAction};
use crate::error::{ApiCode, ApiError};
use crate::time::now_ms;
use game_core::adapter::{ActionError, LoggedJson};
use game_core::{DynGame, GameRng, RuleKind, Seat, SeatSet, Viewer};
use store::{GameRecord, IdempotencyRecord, LogEntry, Status};

/// What a committed move answers (the response body) and the state it made.
pub type Moved = (String, Box<dyn DynGame>);

/// Applies the move to a copy of the game and builds the commit and the reply (a player's
/// move, or a bot's: [`crate::bots`]).
pub fn apply(
    ctx: &AppCtx,
    record: &GameRecord,
    seat: u8,
    body: &SubmitAction,
    key: Option<&str>,
    by: Option<Author>,
) -> Result<Change<Moved>, ApiError> {
    if super::undo::is_undo(&body.action) && by.is_none() {
        super::undo::check_undo(&body.action)?;
        return super::undo::take_back(ctx, record, seat, key);
    }
    require_active(record)?;
    let mut engine = engine_of(ctx, record)?
        .ok_or_else(|| ApiError::Internal("active game without state".into()))?
        .clone_box();
    let seq = record.log_len;
    let waiting_before = engine.waiting_on();
    let mut rng = GameRng::for_entry(
        ctx.seeds.seed_of(record)?,
        super::pause::stream_index(seq, record.notes, record.undone),
    );
    let applied = engine
        .apply_json(Seat(seat), &body.action, &mut rng)
        .map_err(|error| match error {
            ActionError::Malformed(message) => ApiError::BadRequest(message),
            ActionError::Rule {
                code,
                message,
                kind: RuleKind::Turn | RuleKind::GameOver,
            } => ApiError::Conflict {
                code,
                message,
                hints: Box::new(hints(engine.as_ref(), seat)),
            },
            ActionError::Rule { code, message, .. } => ApiError::Unprocessable {
                code,
                message,
                hints: Box::new(hints(engine.as_ref(), seat)),
            },
        })?;

    let now = now_ms();
    let state = engine.state_json();
    let mut next = record.clone();
    next.version += 1;
    next.log_len += 1;
    next.updated_at = now;
    next.status = if engine.outcome().is_some() {
        Status::Finished
    } else {
        Status::Active
    };
    super::undo::after_move(
        &mut next.takebacks,
        seat,
        seq,
        record.state.as_deref().unwrap_or_default(),
        applied.undoable,
        by,
    );
    next.state = Some(state);
    crate::clock::on_commit(&mut next, Some(engine.as_ref()), Some(Seat(seat)), now)?;
    let stored = StoredAction {
        action: applied.action,
        visibility: applied.action_visibility,
        by,
    };
    committed(
        ctx,
        next,
        engine,
        Committed {
            seat,
            key,
            stored,
            events: &applied.events,
            waiting_before,
            now,
        },
    )
}

/// Refuses a move on a game that is not being played: 409 `game-not-active` before it
/// starts, `game-over` once it has ended.
pub(super) fn require_active(record: &GameRecord) -> Result<(), ApiError> {
    match record.status {
        Status::Open => Err(ApiError::refused(
            ApiCode::GameNotActive,
            "the game has not started: seats are still free",
        )),
        Status::Finished => Err(ApiError::refused(ApiCode::GameOver, "the game is over")),
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
) -> Result<Change<Moved>, ApiError> {
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
    let response = serde_json::to_string(&result).expect("serializes");
    let idempotency = key.map(|key| IdempotencyRecord {
        seat,
        key: key.to_string(),
        seq,
        response: response.clone(),
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
        value: (response, engine),
        subscriptions_only: false,
    })
}

/// What a refused move's problem tells the client to recover with: who may act, who the game
/// waits on, and the kinds of move `seat` may make now (its legal actions' `type`s, each once,
/// in the order they are listed).
fn hints(engine: &dyn DynGame, seat: u8) -> crate::error::Hints {
    let seats = |set: SeatSet| set.iter().map(|seat| seat.0).collect();
    let mut expected: Vec<String> = Vec::new();
    for entry in engine.legal_actions(Seat(seat)) {
        let kind = entry
            .pointer("/action/type")
            .or_else(|| entry.pointer("/schema/properties/type/const"))
            .and_then(serde_json::Value::as_str);
        if let Some(kind) = kind.filter(|kind| !expected.iter().any(|seen| seen == kind)) {
            expected.push(kind.to_string());
        }
    }
    crate::error::Hints {
        to_act: seats(engine.to_act()),
        waiting_on: seats(engine.waiting_on()),
        expected,
        phase: Some(engine.phase()),
    }
}
