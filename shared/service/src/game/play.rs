//! Applying a move to a stored game: the engine's step, the log entry, the reply, the clock
//! and the notifications it causes, as one [`Change`] for the commit loop.

use super::moved::{committed, require_active, Committed, Moved};
use super::{engine_of, Change};
use crate::ctx::AppCtx;
use crate::dto::{Author, SubmitAction};
use crate::error::{Code, Error};
use crate::log::{play_move, Entry, Place, StoredAction};
use crate::time::now_ms;
use game_core::adapter::ActionError;
use game_core::{DynGame, RuleKind, Seat, SeatSet};
use store::{GameRecord, Status};

/// Applies the move to a copy of the game and builds the commit and the reply (a player's
/// move, or a bot's: [`crate::bots`]).
pub fn apply(
    ctx: &AppCtx,
    record: &GameRecord,
    seat: u8,
    body: &SubmitAction,
    key: Option<&str>,
    by: Option<Author>,
) -> Result<Change<Moved>, Error> {
    if by.is_none() {
        refuse_bot_seat(record, seat)?;
    }
    if Entry::of(&body.action).is_undo() && by.is_none() {
        super::undo::check_undo(&body.action)?;
        return super::undo::take_back(ctx, record, seat, key);
    }
    require_active(record)?;
    let mut engine = engine_of(ctx, record)?
        .ok_or_else(|| Error::Internal("active game without state".into()))?
        .clone_box();
    let seq = record.log_len;
    let waiting_before = engine.waiting_on();
    let place = Place {
        seq,
        notes: record.notes,
        undone: record.undone,
    };
    let applied = play_move(
        engine.as_mut(),
        ctx.seeds.seed_of(record)?,
        place,
        seat,
        &body.action,
    )
    .map_err(|error| match error {
        ActionError::Malformed(message) => Error::Malformed(message),
        ActionError::Rule {
            code,
            message,
            kind: RuleKind::Turn | RuleKind::GameOver,
        } => Error::NotNow {
            code,
            message,
            hints: Box::new(hints(engine.as_ref(), seat)),
        },
        ActionError::Rule { code, message, .. } => Error::Illegal {
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

/// Refuses a move by a seat a bot plays: its player resigned (409 `seat-resigned`).
fn refuse_bot_seat(record: &GameRecord, seat: u8) -> Result<(), Error> {
    match record.seats.get(usize::from(seat)) {
        Some(seat_record) if seat_record.bot.is_some() => Err(Error::refused(
            Code::SeatResigned,
            format!("seat {seat} resigned: a bot plays it now"),
        )),
        _ => Ok(()),
    }
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
