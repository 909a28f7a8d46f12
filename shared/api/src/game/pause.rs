//! Pauses and vacations (docs/api.md, "Pauses and vacations"): the admin stops every clock
//! of a game and starts them again; a seat's player goes away for a while within the seat's
//! vacation allowance, which stops its own clock. Play goes on meanwhile; only time stands
//! still.
//!
//! Each is a log entry of its own, a note (`{"type": "pause"}`, `{"type": "resume"}`,
//! `{"type": "vacation", "on": true|false}`), so a game's log tells when its clocks stood
//! still. A note changes no state and draws nothing: moves draw from the random stream of
//! their place among the moves ([`stream_index`]), which notes do not count, so a pause
//! cannot change a draw.

use super::{engine_of, update, Change, Guard, Updated};
use crate::audit::{state_hash, StoredAction};
use crate::clock::Clock;
use crate::ctx::AppCtx;
use crate::error::{ApiCode, ApiError};
use game_core::words::Names;
use game_core::{Seat, Visibility};
use serde_json::{json, Value};
use store::{GameRecord, LogEntry, Status};

/// The `type`s of the notes. No ruleset has an action of these types (a test checks).
pub const NOTES: [&str; 3] = ["pause", "resume", "vacation"];

/// Whether a logged action is a note rather than a move.
pub fn is_note(action: &Value) -> bool {
    action
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|kind| NOTES.contains(&kind))
}

/// The random stream of log entry `seq` when `notes` notes and `undone` undos came before
/// it: its place among the moves still standing ([`super::undo::stream_index`] after the
/// notes are left out).
pub fn stream_index(seq: u64, notes: u64, undone: u64) -> u64 {
    super::undo::stream_index(seq.saturating_sub(notes), undone)
}

/// A note in words, for the log: `seat` is the seat's whose vacation it is (none for the
/// admin's pause and resume).
pub fn note_text(seat: Option<Seat>, action: &Value, names: &Names) -> String {
    let kind = action.get("type").and_then(Value::as_str).unwrap_or("");
    let on = action.get("on").and_then(Value::as_bool).unwrap_or(false);
    let ran_out = action
        .get("ran_out")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    match (kind, seat) {
        ("pause", _) => "The admin paused every clock.".to_string(),
        ("resume", _) => "The admin started the clocks again.".to_string(),
        ("vacation", Some(seat)) if on => {
            format!(
                "{} went on vacation: their clock stands still.",
                names.seat(seat)
            )
        }
        ("vacation", Some(seat)) if ran_out => format!(
            "{}'s vacation ran out: their clock runs again.",
            names.seat(seat)
        ),
        ("vacation", Some(seat)) => format!(
            "{} is back from vacation: their clock runs again.",
            names.seat(seat)
        ),
        _ => "The clocks changed.".to_string(),
    }
}

/// What a note does to a game's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockChange {
    /// The admin pauses every clock.
    Pause,
    /// The admin starts them again.
    Resume,
    /// The seat goes on vacation.
    VacationStart(u8),
    /// The seat comes back from vacation (`ran_out`: its allowance ran out and the deadline
    /// worker ended it).
    VacationEnd {
        /// The seat.
        seat: u8,
        /// Whether the allowance ran out.
        ran_out: bool,
    },
}

impl ClockChange {
    /// Applies the change at `now`: `Ok(false)` when it changes nothing (pausing a paused
    /// game, a vacation already begun or not begun).
    fn apply(self, clock: &mut Clock, now: u64) -> Result<bool, ApiError> {
        match self {
            ClockChange::Pause => Ok(clock.pause(now)),
            ClockChange::Resume => Ok(clock.resume(now)),
            ClockChange::VacationStart(seat) => clock.start_vacation(usize::from(seat), now),
            ClockChange::VacationEnd { seat, .. } => Ok(clock.end_vacation(usize::from(seat), now)),
        }
    }

    /// The note the log keeps, and whose it is.
    fn note(self) -> (Option<u8>, Value) {
        match self {
            ClockChange::Pause => (None, json!({"type": "pause"})),
            ClockChange::Resume => (None, json!({"type": "resume"})),
            ClockChange::VacationStart(seat) => {
                (Some(seat), json!({"type": "vacation", "on": true}))
            }
            ClockChange::VacationEnd { seat, ran_out } => (
                Some(seat),
                json!({"type": "vacation", "on": false, "ran_out": ran_out}),
            ),
        }
    }
}

/// Changes the clock of `record`'s game as `change` says at `now` (a request's: the time;
/// the deadline worker's: its sweep's), with its note in the log, under `guard`; the game as
/// it then is. Nothing is committed when the change changes nothing.
/// Refused while the game is not being played (409 `game-not-active`, `game-over`) or has no
/// clock (409 `no-clock`).
pub async fn change_clock(
    ctx: &AppCtx,
    record: GameRecord,
    guard: &Guard,
    change: ClockChange,
    now: u64,
) -> Result<GameRecord, ApiError> {
    let id = record.id.clone();
    // A change that changes nothing commits nothing (checked again on each attempt, where a
    // race that made it moot commits only the record as it is).
    super::play::require_active(&record)?;
    if let Some(mut clock) = Clock::of(&record)? {
        if !change.apply(&mut clock, now)? {
            return Ok(record);
        }
    }
    let updated = update(ctx, record, guard, |record| {
        super::play::require_active(record)?;
        let mut clock = Clock::of(record)?.ok_or_else(|| {
            ApiError::refused(
                ApiCode::NoClock,
                "this game has no move clock: there is nothing to stop",
            )
        })?;
        if !change.apply(&mut clock, now)? {
            return Ok(Change::record(record.clone(), false));
        }
        let mut next = record.clone();
        next.version = record.version + 1;
        next.log_len = record.log_len + 1;
        next.notes = record.notes + 1;
        next.updated_at = now;
        clock.save(&mut next);
        let engine = engine_of(ctx, record)?;
        crate::clock::on_commit(&mut next, engine.as_deref(), None, now)?;
        let (seat, action) = change.note();
        let stored = StoredAction {
            action,
            visibility: Visibility::Public,
            by: None,
        };
        let entry = LogEntry {
            seq: record.log_len,
            seat,
            action: serde_json::to_value(&stored).expect("serializes"),
            events: json!([]),
            idempotency_key: None,
            state_hash: state_hash(next.state.as_deref().unwrap_or_default()),
            at: now,
        };
        Ok(Change {
            entry: Some(entry),
            ..Change::record(next, true)
        })
    })
    .await?;
    match updated {
        Updated::Committed { .. } => super::load_record(ctx, &id).await,
        Updated::Replayed(_) => Err(ApiError::Internal(
            "a clock change has no idempotency key to replay".into(),
        )),
    }
}

/// Ends the vacations of `id`'s seats whose allowance ran out by `now` (the deadline
/// worker); how many it ended.
pub async fn end_spent_vacations(ctx: &AppCtx, id: &str, now: u64) -> Result<usize, ApiError> {
    let record = super::load_record(ctx, id).await?;
    let Some(clock) = Clock::of(&record)? else {
        return Ok(0);
    };
    if record.status != Status::Active {
        return Ok(0);
    }
    let spent: Vec<u8> = (0..clock.seats.len())
        .filter(|&seat| clock.vacation_ends_at(seat).is_some_and(|at| at <= now))
        .map(|seat| seat as u8)
        .collect();
    let mut ended = 0;
    for seat in spent {
        let record = super::load_record(ctx, id).await?;
        let version = record.version;
        let guard = Guard::at(version);
        let change = ClockChange::VacationEnd {
            seat,
            ran_out: true,
        };
        match change_clock(ctx, record, &guard, change, now).await {
            // Counted only when it changed the game (the seat may have come back meanwhile).
            Ok(after) if after.version > version => ended += 1,
            Ok(_) => {}
            // The seat came back, or the game moved on: the next sweep looks again.
            Err(error) if error.moved_on() => {}
            Err(error) => return Err(error),
        }
    }
    Ok(ended)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_their_types_and_no_ruleset_has_an_action_of_those_types() {
        assert!(is_note(&json!({"type": "pause"})));
        assert!(is_note(&json!({"type": "vacation", "on": true})));
        assert!(!is_note(&json!({"type": "undo"})));
        for ruleset in crate::catalog::registry().iter() {
            for kind in NOTES.iter().chain([&super::super::undo::UNDO]) {
                assert!(
                    !ruleset.action_types().contains(kind),
                    "{} has an action {kind}",
                    ruleset.id()
                );
            }
        }
    }

    #[test]
    fn notes_take_no_place_in_the_random_streams() {
        // Moves 1-3, a pause (4) and a resume (5): entry 6 is the fourth move.
        assert_eq!(stream_index(6, 2, 0), 4);
        assert_eq!(stream_index(3, 0, 0), 3);
        // A note and an undo of move 2 (entry 4, after a pause at 3): entry 5 is the second.
        assert_eq!(stream_index(5, 1, 1), 2);
    }

    #[test]
    fn notes_read_as_sentences() {
        let names = vec![Some("Anna".to_string()), Some("Ben".to_string())];
        let names = Names::new(&names);
        let on = json!({"type": "vacation", "on": true});
        assert_eq!(
            note_text(Some(Seat(1)), &on, &names),
            "Ben went on vacation: their clock stands still."
        );
        let ran_out = json!({"type": "vacation", "on": false, "ran_out": true});
        assert_eq!(
            note_text(Some(Seat(0)), &ran_out, &names),
            "Anna's vacation ran out: their clock runs again."
        );
        assert_eq!(
            note_text(None, &json!({"type": "pause"}), &names),
            "The admin paused every clock."
        );
    }
}
