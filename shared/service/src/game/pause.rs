//! Pauses and vacations (docs/api.md, "Pauses and vacations"): the admin stops every clock
//! of a game and starts them again; a seat's player goes away for a while within the seat's
//! vacation allowance, which stops its own clock. Play goes on meanwhile; only time stands
//! still.
//!
//! Each is a log entry of its own, a note (`{"type": "pause"}`, `{"type": "resume"}`,
//! `{"type": "vacation", "on": true|false}`), so a game's log tells when its clocks stood
//! still. A note changes no state and draws nothing: moves draw from the random stream of
//! their place among the moves ([`crate::log::Place::stream`]), which notes do not count, so a pause
//! cannot change a draw.

use super::{engine_of, update, Change, Guard};
use crate::clock::Clock;
use crate::ctx::AppCtx;
use crate::error::{Code, Error};
use crate::log::{state_hash, OwnEntry, StoredAction};
use game_core::words::Names;
use game_core::{Seat, Visibility};
use serde_json::json;
use store::{GameRecord, LogEntry, Status};

/// A note in words, for the log: `seat` is the seat's whose vacation it is (none for the
/// admin's pause and resume).
pub fn note_text(seat: Option<Seat>, note: OwnEntry, names: &Names) -> String {
    match (note, seat) {
        (OwnEntry::Pause, _) => "The admin paused every clock.".to_string(),
        (OwnEntry::Resume, _) => "The admin started the clocks again.".to_string(),
        (OwnEntry::Vacation { on: true, .. }, Some(seat)) => format!(
            "{} went on vacation: their clock stands still.",
            names.seat(seat)
        ),
        (
            OwnEntry::Vacation {
                ran_out: Some(true),
                ..
            },
            Some(seat),
        ) => format!(
            "{}'s vacation ran out: their clock runs again.",
            names.seat(seat)
        ),
        (OwnEntry::Vacation { .. }, Some(seat)) => format!(
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
    fn apply(self, clock: &mut Clock, now: u64) -> Result<bool, Error> {
        match self {
            ClockChange::Pause => Ok(clock.pause(now)),
            ClockChange::Resume => Ok(clock.resume(now)),
            ClockChange::VacationStart(seat) => clock.start_vacation(usize::from(seat), now),
            ClockChange::VacationEnd { seat, .. } => Ok(clock.end_vacation(usize::from(seat), now)),
        }
    }

    /// The note the log keeps, and whose it is.
    fn note(self) -> (Option<u8>, OwnEntry) {
        match self {
            ClockChange::Pause => (None, OwnEntry::Pause),
            ClockChange::Resume => (None, OwnEntry::Resume),
            ClockChange::VacationStart(seat) => (
                Some(seat),
                OwnEntry::Vacation {
                    on: true,
                    ran_out: None,
                },
            ),
            ClockChange::VacationEnd { seat, ran_out } => (
                Some(seat),
                OwnEntry::Vacation {
                    on: false,
                    ran_out: Some(ran_out),
                },
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
) -> Result<GameRecord, Error> {
    let id = record.id.clone();
    // A change that changes nothing commits nothing (checked again on each attempt, where a
    // race that made it moot commits only the record as it is).
    super::moved::require_active(&record)?;
    if let Some(mut clock) = Clock::of(&record)? {
        if !change.apply(&mut clock, now)? {
            return Ok(record);
        }
    }
    let updated = update(ctx, record, guard, |record| {
        super::moved::require_active(record)?;
        let mut clock = Clock::of(record)?.ok_or_else(|| {
            Error::refused(
                Code::NoClock,
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
        let (seat, note) = change.note();
        let stored = StoredAction {
            action: note.action(),
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
    updated.committed("a clock change")?;
    super::load_record(ctx, &id).await
}

/// Ends the vacations of `id`'s seats whose allowance ran out by `now` (the deadline
/// worker); how many it ended.
pub async fn end_spent_vacations(ctx: &AppCtx, id: &str, now: u64) -> Result<usize, Error> {
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
    fn notes_read_as_sentences() {
        let names = vec![Some("Anna".to_string()), Some("Ben".to_string())];
        let names = Names::new(&names);
        let on = OwnEntry::Vacation {
            on: true,
            ran_out: None,
        };
        assert_eq!(
            note_text(Some(Seat(1)), on, &names),
            "Ben went on vacation: their clock stands still."
        );
        let ran_out = OwnEntry::Vacation {
            on: false,
            ran_out: Some(true),
        };
        assert_eq!(
            note_text(Some(Seat(0)), ran_out, &names),
            "Anna's vacation ran out: their clock runs again."
        );
        assert_eq!(
            note_text(None, OwnEntry::Pause, &names),
            "The admin paused every clock."
        );
    }
}
