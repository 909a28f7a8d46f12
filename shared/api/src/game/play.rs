//! Applying a move to a stored game: the engine's step, the log entry, the reply, the clock
//! and the notifications it causes, as one [`Change`] for the commit loop.

use super::{engine_of, notifications, project_events, Change, Moment, MomentAction, Narrator};
use crate::audit::{state_hash, StoredAction};
use crate::ctx::AppCtx;
use crate::dto::{ActionResult, Author, SubmitAction};
use crate::error::{ApiCode, ApiError};
use crate::time::now_ms;
use game_core::adapter::ActionError;
use game_core::{DynGame, GameRng, RuleKind, Seat, Viewer};
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
    match record.status {
        Status::Open => {
            return Err(ApiError::refused(
                ApiCode::GameNotActive,
                "the game has not started: seats are still free",
            ))
        }
        Status::Finished => return Err(ApiError::refused(ApiCode::GameOver, "the game is over")),
        Status::Active => {}
    }
    let mut engine = engine_of(ctx, record)?
        .ok_or_else(|| ApiError::Internal("active game without state".into()))?
        .clone_box();
    let seq = record.log_len;
    let waiting_before = engine.waiting_on();
    let mut rng = GameRng::for_entry(ctx.seeds.seed_of(record)?, seq);
    let applied = engine
        .apply_json(Seat(seat), &body.action, &mut rng)
        .map_err(|error| match error {
            ActionError::Malformed(message) => ApiError::BadRequest(message),
            ActionError::Rule {
                code,
                message,
                kind: RuleKind::Turn | RuleKind::GameOver,
            } => ApiError::Conflict { code, message },
            ActionError::Rule { code, message, .. } => ApiError::Unprocessable { code, message },
        })?;

    let now = now_ms();
    let state = engine.state_json();
    let hash = state_hash(&state);
    let mut next = record.clone();
    next.version += 1;
    next.log_len += 1;
    next.updated_at = now;
    next.status = if engine.outcome().is_some() {
        Status::Finished
    } else {
        Status::Active
    };
    next.state = Some(state);
    crate::clock::on_commit(&mut next, Some(engine.as_ref()), Some(Seat(seat)), now)?;
    let stored_action = StoredAction {
        action: applied.action,
        visibility: applied.action_visibility,
        by,
    };
    let entry = LogEntry {
        seq,
        seat: Some(seat),
        action: serde_json::to_value(&stored_action).expect("serializes"),
        events: serde_json::to_value(&applied.events).expect("serializes"),
        idempotency_key: key.map(str::to_string),
        state_hash: hash,
        at: now,
    };
    let viewer = Viewer::Seat(Seat(seat));
    let events = project_events(&applied.events, viewer);
    let result = ActionResult {
        ruleset: next.ruleset.clone(),
        version: next.version,
        seq,
        event_texts: Narrator::new(ctx, &next).events(&events),
        events,
        view: engine.view_raw(viewer),
        status: next.status.into(),
        to_act: super::seat_numbers(engine.to_act()),
        waiting_on: super::seat_numbers(engine.waiting_on()),
        outcome: engine.outcome(),
    };
    let response = serde_json::to_string(&result).expect("serializes");
    let idempotency = key.map(|key| IdempotencyRecord {
        seat,
        key: key.to_string(),
        seq,
        response: response.clone(),
    });
    let outbox = notifications(
        &Moment {
            record: &next,
            engine: engine.as_ref(),
            waiting_before,
            action: Some(MomentAction {
                seq,
                seat,
                stored: &stored_action,
                events: &applied.events,
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
    })
}
