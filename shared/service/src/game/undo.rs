//! Taking a move back (docs/api.md, "Undo"): the API's own move `{"type": "undo"}`, which
//! restores the state before the seat's most recent move while that move could not have let
//! anyone peek.
//!
//! A move may be taken back when the engine says so ([`game_core::takeback_allowed`]: it
//! drew nothing, showed nothing hidden, and its ruleset allows it) and the seat's player made
//! it (not a bot or the clock). The record keeps such moves with the state before each
//! ([`store::Takeback`]), as long as they are one seat's most recent moves: any other move
//! empties the list, so a takeback never crosses another seat's move. An undo is a log entry
//! of its own; nothing is erased. Moves draw from the random stream of their place among the
//! moves still standing ([`crate::log::Place::stream`]), so a move made after an undo draws exactly what it
//! would have drawn had the undone move never been made.

use super::{ruleset_of, seat_names, Change, Moved};
use crate::ctx::AppCtx;
use crate::dto::Author;
use crate::error::{Code, Error};
use crate::log::{OwnEntry, StoredAction, MAX_TAKEBACKS};
use crate::time::now_ms;
use game_core::words::Names;
use game_core::{Seat, Visibility};
use serde_json::{json, Value};
use store::{GameRecord, Status, Takeback};

/// The undo move as a client sends it: `{"type": "undo"}` and nothing else.
pub fn check_undo(action: &Value) -> Result<(), Error> {
    match action.as_object() {
        Some(object) if object.len() == 1 => Ok(()),
        _ => Err(Error::Malformed(
            "the undo move is {\"type\": \"undo\"}, with no other field".into(),
        )),
    }
}

/// The takebacks after one more move: `seat`'s move at `seq`, made from `before`, joins them
/// if it may be taken back and its player made it; any other move empties them.
pub fn after_move(
    takebacks: &mut Vec<Takeback>,
    seat: u8,
    seq: u64,
    before: &str,
    undoable: bool,
    by: Option<Author>,
) {
    if !undoable || by.is_some() || takebacks.last().is_some_and(|last| last.seat != seat) {
        takebacks.clear();
    }
    if undoable && by.is_none() {
        if takebacks.len() == MAX_TAKEBACKS {
            takebacks.remove(0);
        }
        takebacks.push(Takeback {
            seq,
            seat,
            state: before.to_string(),
        });
    }
}

/// The undo entry `seat` may add to its legal actions now, if any: `{"action": {"type":
/// "undo"}, "label", "text", "sealed"}`, like every ready move.
pub fn legal_entry(record: &GameRecord, seat: u8) -> Option<Value> {
    let last = record.takebacks.last()?;
    (record.status == Status::Active && last.seat == seat).then(|| {
        let names = seat_names(record);
        json!({
            "action": OwnEntry::Undo { taken: None }.action(),
            "label": "Take back your last move",
            "text": undo_text(Seat(seat), &Names::new(&names)),
            "sealed": false,
        })
    })
}

/// The undo in words, for the log.
pub fn undo_text(seat: Seat, names: &Names) -> String {
    format!("{} took back their last move.", names.seat(seat))
}

/// Takes back `seat`'s most recent move: the record returns to the state before it, and the
/// log gets an entry of its own. Refused (409 `cannot-undo`, nothing changed) when the seat
/// has no move it may take back.
pub fn take_back(
    ctx: &AppCtx,
    record: &GameRecord,
    seat: u8,
    key: Option<&str>,
) -> Result<Change<Moved>, Error> {
    super::moved::require_active(record)?;
    let takeback = match record.takebacks.last() {
        Some(last) if last.seat == seat => last.clone(),
        _ => {
            return Err(Error::refused(
                Code::CannotUndo,
                "you have no move to take back: a move can be taken back only until another \
                 seat acts, and never once it rolled, drew, revealed or sealed something",
            ))
        }
    };
    // Who the game waits on as it stands, so that a seat whose turn the undo gives back is
    // told, like after any move.
    let waiting_before = super::engine_of(ctx, record)?
        .ok_or_else(|| Error::Internal("active game without state".into()))?
        .waiting_on();
    let engine = ruleset_of(ctx, record)?
        .load(&takeback.state)
        .map_err(|error| Error::Internal(format!("a takeback does not load: {error}")))?;
    let now = now_ms();
    let mut next = record.clone();
    next.version += 1;
    next.log_len += 1;
    next.updated_at = now;
    next.takebacks.pop();
    next.undone += 1;
    next.state = Some(takeback.state.clone());
    crate::clock::on_commit(&mut next, Some(engine.as_ref()), Some(Seat(seat)), now)?;
    let stored = StoredAction {
        action: OwnEntry::Undo {
            taken: Some(takeback.seq),
        }
        .action(),
        visibility: Visibility::Public,
        by: None,
    };
    super::moved::committed(
        ctx,
        next,
        engine,
        super::moved::Committed {
            seat,
            key,
            stored,
            events: &[],
            waiting_before,
            now,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn takeback(seq: u64, seat: u8) -> Takeback {
        Takeback {
            seq,
            seat,
            state: format!("before {seq}"),
        }
    }

    #[test]
    fn a_seats_moves_stack_up_and_any_other_move_clears_them() {
        let mut takebacks = Vec::new();
        after_move(&mut takebacks, 1, 4, "before 4", true, None);
        after_move(&mut takebacks, 1, 5, "before 5", true, None);
        assert_eq!(takebacks, [takeback(4, 1), takeback(5, 1)]);
        // Another seat's move that may be taken back replaces them with its own.
        after_move(&mut takebacks, 2, 6, "before 6", true, None);
        assert_eq!(takebacks, [takeback(6, 2)]);
        // A move the seat's player did not make, or that may not be taken back, clears them.
        after_move(&mut takebacks, 2, 7, "before 7", true, Some(Author::Clock));
        assert!(takebacks.is_empty());
        after_move(&mut takebacks, 2, 8, "before 8", true, None);
        after_move(&mut takebacks, 2, 9, "before 9", false, None);
        assert!(takebacks.is_empty());
    }

    #[test]
    fn only_the_most_recent_moves_are_kept() {
        let mut takebacks = Vec::new();
        for seq in 1..=(MAX_TAKEBACKS as u64 + 3) {
            after_move(&mut takebacks, 0, seq, &format!("before {seq}"), true, None);
        }
        assert_eq!(takebacks.len(), MAX_TAKEBACKS);
        assert_eq!(takebacks[0], takeback(4, 0));
    }

    #[test]
    fn the_undo_move_is_exactly_its_type() {
        assert!(check_undo(&json!({"type": "undo"})).is_ok());
        assert!(check_undo(&json!({"type": "undo", "move": 3})).is_err());
    }
}
