//! Move clocks (issue 17): a per-move deadline or a chess-style time bank per seat, chosen at
//! creation; reminders before a deadline; what happens when one passes.
//!
//! The clock lives in the game record (`GameRecord::clock`, JSON the store does not read) and
//! changes only inside commits: every commit that changes whom the game waits on calls
//! [`on_commit`], which starts the clocks of seats the game starts waiting on, stops (and, for a
//! bank, charges) the clocks of seats that moved, and sets `GameRecord::due_at`, the next
//! moment the game needs the deadline worker ([`crate::deadlines`]). Nothing here reads a
//! wall clock: `now` is the commit's time, so the clock is as durable and as consistent as
//! the commit that carries it.

use crate::error::{Code, Error};
use crate::time::rfc3339;
use game_core::{DynGame, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use store::GameRecord;
use utoipa::ToSchema;

/// The longest clock accepted: a year, in milliseconds.
const MAX_MS: u64 = 366 * 24 * 3_600 * 1_000;

/// A seat's vacation allowance when the clock's options name none: a week per game.
pub const DEFAULT_VACATION_MS: u64 = 7 * 24 * 3_600 * 1_000;

/// The least a vacation takes from the allowance, however short: going away and back costs
/// something, so a seat cannot fill the log with vacations for free.
pub const MIN_VACATION_MS: u64 = 60_000;

fn default_vacation_ms() -> u64 {
    DEFAULT_VACATION_MS
}

/// The clock a game is created with (`clock` in `POST /v1/games`). Give `per_move` or `bank`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockOptions {
    /// A deadline for each move: the time a seat has from the moment the game starts waiting
    /// on it. An ISO 8601 duration of days, hours, minutes and seconds (`PT24H`, `P2D`,
    /// `PT90S`), from 1 second to 366 days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        example = "PT24H",
        pattern = "^P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+S)?)?$"
    )]
    pub per_move: Option<String>,
    /// A time bank per seat for the whole game (chess style): it runs down while the game
    /// waits on the seat. An ISO 8601 duration like `per_move`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        example = "P3D",
        pattern = "^P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+S)?)?$"
    )]
    pub bank: Option<String>,
    /// With `bank`: added to a seat's bank after each of its moves (default none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        example = "PT1H",
        pattern = "^P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+S)?)?$"
    )]
    pub increment: Option<String>,
    /// A `reminder` webhook goes to the seat once per wait when this fraction of its time is
    /// left (default 0.25; 0 sends none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0.0, maximum = 0.95, example = 0.25)]
    pub remind_at: Option<f64>,
    /// What happens when a seat's time runs out (default `bot`).
    #[serde(default)]
    pub on_timeout: TimeoutPolicy,
    /// Each seat's vacation allowance for the whole game: the time its clock may stand still
    /// while its player is away (`POST /v1/games/{id}/seats/{seat}/vacation`). An ISO 8601
    /// duration like `per_move`, up to 366 days; `PT0S` allows none (default `P7D`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(
        example = "P7D",
        pattern = "^P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+S)?)?$"
    )]
    pub vacation: Option<String>,
}

/// What a seat's timeout does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutPolicy {
    /// A `random` bot plays the seat's turn (until the game no longer waits on the seat); the
    /// player keeps the seat and its clock starts again at its next turn.
    #[default]
    Bot,
    /// The seat is dropped: it resigns, and a `random` bot plays it to the end (each ruleset's
    /// page in docs/rules says why the seat stays in the game).
    Drop,
    /// The seat passes where its legal actions offer a pass (each ruleset's page in docs/rules
    /// names its passing moves), and a `random` bot makes any move of the turn that cannot be
    /// a pass; the player keeps the seat, as with `bot`.
    Pass,
}

/// The clock's rules, parsed from [`ClockOptions`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockRules {
    /// Per-move time, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_move_ms: Option<u64>,
    /// Initial bank, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
    /// Bank increment per move, milliseconds.
    #[serde(default)]
    pub increment_ms: u64,
    /// The fraction of the time left at which to remind (0: never).
    pub remind_at: f64,
    /// What a timeout does.
    pub on_timeout: TimeoutPolicy,
    /// Each seat's vacation allowance, milliseconds (clocks stored before vacations existed
    /// get the default).
    #[serde(default = "default_vacation_ms")]
    pub vacation_ms: u64,
    /// The options as given (shown in the envelope).
    pub options: ClockOptions,
}

/// One seat's clock.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatClock {
    /// When the current wait on the seat started (none while the game does not wait on it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<u64>,
    /// When the current wait runs out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<u64>,
    /// Bank mode: the time left before the current wait, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
    /// Whether this wait's reminder was sent.
    #[serde(default)]
    pub reminded: bool,
    /// How many reminders were sent in all (a resumed `GET /v1/me/events` tells as many as
    /// were sent since its cursor).
    #[serde(default)]
    pub reminders: u32,
    /// How many times the seat timed out.
    #[serde(default)]
    pub timeouts: u32,
    /// Whether the current wait timed out and the clock is playing the seat's turn: its
    /// moves then do not restart the clock, so the worker plays the turn to its end (after a
    /// restart too) without counting it as another timeout.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    /// Since when the seat's clock stands still (the game is paused, or the seat is on
    /// vacation): when it runs again, its wait is moved on by the time it stood still.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frozen_at: Option<u64>,
    /// Since when the seat is on vacation, if it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation_at: Option<u64>,
    /// The vacation the seat has used up in earlier vacations, milliseconds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub vacation_used_ms: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// A game's clock, as the record keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    /// The rules.
    pub rules: ClockRules,
    /// Each seat's clock, by seat.
    pub seats: Vec<SeatClock>,
    /// Since when the admin has paused every clock, if they have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused_at: Option<u64>,
}

/// A game's clock as every caller sees it (`clock` in the game envelope).
#[derive(Debug, Serialize, ToSchema)]
pub struct ClockView {
    /// The clock the game was created with.
    pub options: ClockOptions,
    /// Since when every clock has been paused by the admin (RFC 3339); null while they run.
    pub paused_since: Option<String>,
    /// Each seat's clock, by seat.
    pub seats: Vec<SeatClockView>,
}

/// One seat's clock.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatClockView {
    /// The seat.
    pub seat: u8,
    /// When the seat's time runs out (RFC 3339), while the game waits on it and its clock
    /// runs; null while it stands still (see `left_ms`).
    pub deadline: Option<String>,
    /// While the game waits on the seat and its clock stands still (a pause, a vacation):
    /// the time its wait will have left when the clock runs again, milliseconds.
    pub left_ms: Option<u64>,
    /// Bank mode: the time left before the current wait, milliseconds.
    pub bank_ms: Option<u64>,
    /// How many times the seat timed out.
    pub timeouts: u32,
    /// Since when the seat is on vacation (RFC 3339); null when it is not.
    pub vacation_since: Option<String>,
    /// The vacation the seat has left in this game, milliseconds (while on vacation: as of
    /// the vacation's start).
    pub vacation_left_ms: u64,
}

/// `PT24H`, `P2D`, `PT90S`, `P1DT12H` → milliseconds: an ISO 8601 duration (jiff's parser)
/// of days, hours, minutes and whole seconds (no years, months or weeks: their length varies;
/// no fractions; not negative). A day is 24 hours.
pub fn parse_duration(text: &str) -> Option<u64> {
    let span = jiff::fmt::temporal::SpanParser::new()
        .parse_span(text)
        .ok()?;
    let calendar = span.get_years() != 0 || span.get_months() != 0 || span.get_weeks() != 0;
    let fraction =
        span.get_milliseconds() != 0 || span.get_microseconds() != 0 || span.get_nanoseconds() != 0;
    if calendar || fraction || span.is_negative() {
        return None;
    }
    let parts = [
        (i64::from(span.get_days()), 86_400_000u64),
        (i64::from(span.get_hours()), 3_600_000),
        (span.get_minutes(), 60_000),
        (span.get_seconds(), 1_000),
    ];
    parts.into_iter().try_fold(0u64, |total, (count, ms)| {
        total.checked_add(u64::try_from(count).ok()?.checked_mul(ms)?)
    })
}

fn invalid(message: impl Into<String>) -> Error {
    Error::refused(Code::InvalidClock, message)
}

/// A duration option within 1 s ..= 366 days.
fn duration(name: &str, text: &str) -> Result<u64, Error> {
    match parse_duration(text) {
        Some(ms) if (1_000..=MAX_MS).contains(&ms) => Ok(ms),
        Some(_) => Err(invalid(format!(
            "{name} must be from 1 second to 366 days, not {text}"
        ))),
        None => Err(invalid(format!(
            "{name} must be an ISO 8601 duration of days, hours, minutes and seconds (PT24H, P2D, PT90S), not {text:?}"
        ))),
    }
}

impl ClockOptions {
    /// The rules these options give, or 422 `invalid-clock`.
    pub fn rules(&self) -> Result<ClockRules, Error> {
        let per_move_ms = self
            .per_move
            .as_deref()
            .map(|text| duration("per_move", text))
            .transpose()?;
        let bank_ms = self
            .bank
            .as_deref()
            .map(|text| duration("bank", text))
            .transpose()?;
        let increment_ms = match (&self.increment, bank_ms) {
            (Some(text), Some(_)) => parse_duration(text)
                .filter(|&ms| ms <= MAX_MS)
                .ok_or_else(|| invalid(format!("increment must be a duration, not {text:?}")))?,
            (Some(_), None) => return Err(invalid("increment goes with bank")),
            (None, _) => 0,
        };
        if per_move_ms.is_some() == bank_ms.is_some() {
            return Err(invalid("give exactly one of per_move and bank"));
        }
        let vacation_ms = match &self.vacation {
            None => DEFAULT_VACATION_MS,
            Some(text) => parse_duration(text)
                .filter(|&ms| ms <= MAX_MS)
                .ok_or_else(|| {
                    invalid(format!(
                    "vacation must be a duration of at most 366 days (PT0S for none), not {text:?}"
                ))
                })?,
        };
        let remind_at = self.remind_at.unwrap_or(0.25);
        if !(0.0..=0.95).contains(&remind_at) {
            return Err(invalid("remind_at must be from 0 to 0.95"));
        }
        Ok(ClockRules {
            per_move_ms,
            bank_ms,
            increment_ms,
            remind_at,
            on_timeout: self.on_timeout,
            vacation_ms,
            options: self.clone(),
        })
    }
}

impl Clock {
    /// A new clock for `n_seats` seats, none running.
    pub fn new(rules: ClockRules, n_seats: usize) -> Clock {
        let seat = SeatClock {
            bank_ms: rules.bank_ms,
            ..SeatClock::default()
        };
        Clock {
            rules,
            seats: vec![seat; n_seats],
            paused_at: None,
        }
    }

    /// The clock of `record`, if it has one.
    pub fn of(record: &GameRecord) -> Result<Option<Clock>, Error> {
        record
            .clock
            .as_ref()
            .map(|json| {
                serde_json::from_value(json.clone()).map_err(|error| {
                    Error::Internal(format!("game {} clock does not load: {error}", record.id))
                })
            })
            .transpose()
    }

    /// The time a wait gives `seat`, from its start.
    fn allowance(&self, seat: &SeatClock) -> u64 {
        match self.rules.per_move_ms {
            Some(per_move) => per_move,
            None => seat.bank_ms.unwrap_or(0),
        }
    }

    /// After a commit at `now` in which `mover` moved (none for the deal, a resignation or a
    /// replacement): stops the clocks of seats that moved or are no longer waited on (a bank
    /// is charged the wait and credited the increment), then starts the clocks of seats the
    /// game waits on whose clock is not running.
    pub fn advance(&mut self, waiting: SeatSet, mover: Option<Seat>, now: u64) {
        let increment = self.rules.increment_ms;
        let banked = self.rules.bank_ms.is_some();
        for index in 0..self.seats.len() {
            let seat = Seat(index as u8);
            let waited = waiting.contains(seat);
            let clock = &mut self.seats[index];
            if let Some(started) = clock.started_at {
                let playing_its_timeout = waited && clock.timed_out;
                if !waited || (mover == Some(seat) && !playing_its_timeout) {
                    if banked {
                        // Time the clock stood still is not charged.
                        let until = clock
                            .frozen_at
                            .map_or(now, |since| since.max(started).min(now));
                        let waited_ms = until.saturating_sub(started);
                        let left = clock.bank_ms.unwrap_or(0).saturating_sub(waited_ms);
                        let credit = if mover == Some(seat) { increment } else { 0 };
                        clock.bank_ms = Some(left.saturating_add(credit).min(MAX_MS));
                    }
                    clock.started_at = None;
                    clock.deadline = None;
                    clock.reminded = false;
                    clock.timed_out = false;
                }
            }
            if waited && self.seats[index].started_at.is_none() {
                let allowance = self.allowance(&self.seats[index]);
                let clock = &mut self.seats[index];
                clock.started_at = Some(now);
                clock.deadline = Some(now.saturating_add(allowance));
                clock.timed_out = false;
            }
        }
    }

    /// Whether `seat`'s clock stands still: the game is paused, or the seat is on vacation.
    pub fn is_frozen(&self, seat: usize) -> bool {
        self.paused_at.is_some()
            || self
                .seats
                .get(seat)
                .is_some_and(|clock| clock.vacation_at.is_some())
    }

    /// Whether `seat`'s deadline has passed at `now` (never while its clock stands still).
    pub fn expired(&self, seat: usize, now: u64) -> bool {
        !self.is_frozen(seat)
            && self
                .seats
                .get(seat)
                .and_then(|clock| clock.deadline)
                .is_some_and(|deadline| deadline <= now)
    }

    /// Stops `seat`'s clock at `now`, unless it already stands still.
    fn freeze(&mut self, seat: usize, now: u64) {
        let clock = &mut self.seats[seat];
        clock.frozen_at.get_or_insert(now);
    }

    /// Runs `seat`'s clock again at `now` if nothing holds it any more: its wait is moved on
    /// by the time it stood still (a wait that began meanwhile begins now).
    fn thaw(&mut self, seat: usize, now: u64) {
        if self.is_frozen(seat) {
            return;
        }
        let clock = &mut self.seats[seat];
        let Some(since) = clock.frozen_at.take() else {
            return;
        };
        if let Some(started) = clock.started_at {
            let shift = now.saturating_sub(since.max(started));
            clock.started_at = Some(started.saturating_add(shift));
            clock.deadline = clock
                .deadline
                .map(|deadline| deadline.saturating_add(shift));
        }
    }

    /// The admin pauses every clock at `now`; `false` if they were paused already.
    pub fn pause(&mut self, now: u64) -> bool {
        if self.paused_at.is_some() {
            return false;
        }
        self.paused_at = Some(now);
        for seat in 0..self.seats.len() {
            self.freeze(seat, now);
        }
        true
    }

    /// The admin runs every clock again at `now` (a seat on vacation stays still); `false` if
    /// they were not paused.
    pub fn resume(&mut self, now: u64) -> bool {
        if self.paused_at.take().is_none() {
            return false;
        }
        for seat in 0..self.seats.len() {
            self.thaw(seat, now);
        }
        true
    }

    /// The vacation `seat` has left at `now` (counting the one it is on).
    pub fn vacation_left(&self, seat: usize, now: u64) -> u64 {
        let clock = &self.seats[seat];
        let on = clock
            .vacation_at
            .map_or(0, |since| now.saturating_sub(since));
        self.rules
            .vacation_ms
            .saturating_sub(clock.vacation_used_ms)
            .saturating_sub(on)
    }

    /// `seat` goes on vacation at `now`: its clock stands still until it comes back or its
    /// allowance runs out. `Ok(false)` if it is on vacation already; 409 `no-vacation-left`
    /// when its allowance is used up.
    pub fn start_vacation(&mut self, seat: usize, now: u64) -> Result<bool, Error> {
        if self.seats[seat].vacation_at.is_some() {
            return Ok(false);
        }
        if self.vacation_left(seat, now) == 0 {
            return Err(Error::refused(
                Code::NoVacationLeft,
                "this seat has used up its vacation in this game",
            ));
        }
        self.seats[seat].vacation_at = Some(now);
        self.freeze(seat, now);
        Ok(true)
    }

    /// `seat` comes back from vacation at `now` (at the latest, when its allowance runs out);
    /// `false` if it was not on vacation. The allowance is charged the time away, at least
    /// [`MIN_VACATION_MS`].
    pub fn end_vacation(&mut self, seat: usize, now: u64) -> bool {
        let Some(since) = self.seats[seat].vacation_at else {
            return false;
        };
        let left = self
            .rules
            .vacation_ms
            .saturating_sub(self.seats[seat].vacation_used_ms);
        let away = now.saturating_sub(since).min(left);
        let charged = away.max(MIN_VACATION_MS).min(left);
        let clock = &mut self.seats[seat];
        clock.vacation_at = None;
        clock.vacation_used_ms = clock.vacation_used_ms.saturating_add(charged);
        // The clock runs again from the vacation's end, even when the sweep comes later.
        self.thaw(seat, since.saturating_add(away));
        true
    }

    /// When `seat`'s vacation runs out, if it is on one.
    pub fn vacation_ends_at(&self, seat: usize) -> Option<u64> {
        let clock = self.seats.get(seat)?;
        let since = clock.vacation_at?;
        let left = self
            .rules
            .vacation_ms
            .saturating_sub(clock.vacation_used_ms);
        Some(since.saturating_add(left))
    }

    /// When `seat`'s reminder is due in its current wait, if one will be sent.
    pub fn reminder_at(&self, seat: usize) -> Option<u64> {
        let clock = self.seats.get(seat)?;
        if clock.reminded || self.rules.remind_at <= 0.0 || self.is_frozen(seat) {
            return None;
        }
        let (started, deadline) = (clock.started_at?, clock.deadline?);
        // A timed-out wait's deadline may be pulled back to its start, never before it; the
        // arithmetic saturates all the same (a stored clock is not trusted to be sane).
        let left = (deadline.saturating_sub(started) as f64 * self.rules.remind_at) as u64;
        Some(deadline.saturating_sub(left))
    }

    /// The earliest deadline, reminder or end of a vacation still to come (a clock that
    /// stands still has no deadline until it runs again).
    pub fn next_event(&self) -> Option<u64> {
        (0..self.seats.len())
            .flat_map(|seat| {
                let deadline = self.seats[seat].deadline.filter(|_| !self.is_frozen(seat));
                [
                    deadline,
                    self.reminder_at(seat),
                    self.vacation_ends_at(seat),
                ]
            })
            .flatten()
            .min()
    }

    /// The clock as callers see it.
    pub fn view(&self) -> ClockView {
        ClockView {
            options: self.rules.options.clone(),
            paused_since: self.paused_at.map(rfc3339),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(seat, clock)| {
                    let frozen = self.is_frozen(seat);
                    let left_ms = match (frozen, clock.started_at, clock.deadline) {
                        (true, Some(started), Some(deadline)) => {
                            let since = clock.frozen_at.unwrap_or(started).max(started);
                            Some(deadline.saturating_sub(since))
                        }
                        _ => None,
                    };
                    SeatClockView {
                        seat: seat as u8,
                        deadline: clock.deadline.filter(|_| !frozen).map(rfc3339),
                        left_ms,
                        bank_ms: clock.bank_ms,
                        timeouts: clock.timeouts,
                        vacation_since: clock.vacation_at.map(rfc3339),
                        vacation_left_ms: self
                            .rules
                            .vacation_ms
                            .saturating_sub(clock.vacation_used_ms),
                    }
                })
                .collect(),
        }
    }

    /// Stores the clock in `record`.
    pub fn save(&self, record: &mut GameRecord) {
        record.clock = Some(serde_json::to_value(self).expect("a clock serializes"));
    }
}

/// Brings `next` (a record about to be committed at `now`, with `engine` its state, `None`
/// before the deal) up to date: its clock, if it has one, and its `due_at`: the next deadline
/// or reminder, or `now` when the game waits on a bot (so a bot left unplayed by a crash is
/// found by the deadline worker), or nothing once the game is over.
pub fn on_commit(
    next: &mut GameRecord,
    engine: Option<&dyn DynGame>,
    mover: Option<Seat>,
    now: u64,
) -> Result<(), Error> {
    let Some(engine) = engine.filter(|engine| engine.outcome().is_none()) else {
        // Not started, or over: nothing is pending. A finished game's clocks stop.
        if let Some(mut clock) = Clock::of(next)? {
            clock.advance(SeatSet::default(), mover, now);
            clock.save(next);
        }
        next.due_at = None;
        return Ok(());
    };
    let waiting = engine.waiting_on();
    let mut due = None;
    if let Some(mut clock) = Clock::of(next)? {
        clock.advance(waiting, mover, now);
        due = clock.next_event();
        clock.save(next);
    }
    // Waiting on a bot: every request drives the bots it leaves due, so this is a bot that a
    // crash or the drive's time budget left unplayed, and the worker must play it (alone or
    // beside a player: no table waits on a bot).
    let waits_on_a_bot = waiting.iter().any(|seat| {
        next.seats
            .get(usize::from(seat.0))
            .is_some_and(|seat| seat.bot.is_some())
    });
    if waits_on_a_bot {
        due = Some(now);
    }
    next.due_at = due;
    Ok(())
}

/// The deadline of `seat` in `record`'s clock, as RFC 3339 (for the `turn` webhook).
pub fn deadline_of(record: &GameRecord, seat: u8) -> Option<String> {
    let clock = Clock::of(record).ok()??;
    // A clock that stands still has no deadline yet: it moves when the clock runs again.
    if clock.is_frozen(usize::from(seat)) {
        return None;
    }
    clock.seats.get(usize::from(seat))?.deadline.map(rfc3339)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(json: serde_json::Value) -> ClockOptions {
        serde_json::from_value(json).expect("clock options")
    }

    #[test]
    fn durations_parse_days_hours_minutes_and_seconds() {
        assert_eq!(parse_duration("PT24H"), Some(86_400_000));
        assert_eq!(parse_duration("P2D"), Some(172_800_000));
        assert_eq!(parse_duration("PT90S"), Some(90_000));
        assert_eq!(parse_duration("P1DT1H1M1S"), Some(90_061_000));
        for bad in [
            "",
            "P",
            "PT",
            "24H",
            "PT1.5S",
            "PT1S1H",
            "P1W",
            "PT-1S",
            "PTH",
            "-PT1S",
            "P1Y",
            "P1M",
            "PT1H extra",
            "2 hours",
        ] {
            assert_eq!(parse_duration(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn options_need_exactly_one_kind_and_sane_values() {
        assert!(options(serde_json::json!({"per_move": "PT2S"}))
            .rules()
            .is_ok());
        assert!(
            options(serde_json::json!({"bank": "P1D", "increment": "PT1H"}))
                .rules()
                .is_ok()
        );
        for bad in [
            serde_json::json!({}),
            serde_json::json!({"per_move": "PT2S", "bank": "P1D"}),
            serde_json::json!({"per_move": "PT2S", "increment": "PT1S"}),
            serde_json::json!({"per_move": "PT0S"}),
            serde_json::json!({"per_move": "P400D"}),
            serde_json::json!({"per_move": "PT2S", "remind_at": 1.0}),
        ] {
            let error = options(bad.clone()).rules().expect_err("refused");
            assert_eq!(error.code(), "invalid-clock", "{bad}");
        }
    }

    /// A wait whose deadline lies before its start (a stored clock written by a sweep whose
    /// clock reading was older than the wait) reminds at its deadline and does not panic.
    #[test]
    fn a_deadline_before_its_start_reminds_at_the_deadline() {
        let rules = options(serde_json::json!({"per_move": "PT10S"}))
            .rules()
            .unwrap();
        let mut clock = Clock::new(rules, 1);
        clock.advance(SeatSet::only(Seat(0)), None, 5_000);
        clock.seats[0].deadline = Some(4_990);
        assert_eq!(clock.reminder_at(0), Some(4_990));
        assert_eq!(clock.next_event(), Some(4_990));
    }

    #[test]
    fn a_per_move_clock_starts_with_each_wait_and_restarts_after_each_move() {
        let rules = options(serde_json::json!({"per_move": "PT10S"}))
            .rules()
            .unwrap();
        let mut clock = Clock::new(rules, 2);
        clock.advance(SeatSet::only(Seat(0)), None, 1_000);
        assert_eq!(clock.seats[0].deadline, Some(11_000));
        assert_eq!(clock.seats[1].deadline, None);
        // The reminder comes when a quarter of the time is left.
        assert_eq!(clock.reminder_at(0), Some(8_500));
        assert_eq!(clock.next_event(), Some(8_500));
        // Seat 0 moves and is still waited on: a new deadline from the move.
        clock.advance(SeatSet::only(Seat(0)), Some(Seat(0)), 4_000);
        assert_eq!(clock.seats[0].deadline, Some(14_000));
        // Seat 0 moves and the game waits on seat 1.
        clock.advance(SeatSet::only(Seat(1)), Some(Seat(0)), 5_000);
        assert_eq!(clock.seats[0].deadline, None);
        assert_eq!(clock.seats[1].deadline, Some(15_000));
    }

    #[test]
    fn a_timed_out_turn_keeps_its_expired_clock_until_the_seat_is_no_longer_waited_on() {
        let rules = options(serde_json::json!({"per_move": "PT1S"}))
            .rules()
            .unwrap();
        let mut clock = Clock::new(rules, 2);
        clock.advance(SeatSet::only(Seat(0)), None, 0);
        clock.seats[0].timed_out = true;
        // The clock's move for seat 0, which is still waited on: the deadline stays passed.
        clock.advance(SeatSet::only(Seat(0)), Some(Seat(0)), 1_500);
        assert_eq!(clock.seats[0].deadline, Some(1_000));
        assert!(clock.seats[0].timed_out);
        // The turn ends: the flag goes, and the next wait gets a fresh deadline.
        clock.advance(SeatSet::only(Seat(1)), Some(Seat(0)), 1_600);
        assert!(!clock.seats[0].timed_out);
        clock.advance(SeatSet::only(Seat(0)), Some(Seat(1)), 2_000);
        assert_eq!(clock.seats[0].deadline, Some(3_000));
    }

    /// A paused game's clocks do not run and resume exactly: a wait is moved on by the
    /// pause, a bank is not charged for it, and no deadline or reminder falls due meanwhile.
    #[test]
    fn a_pause_stops_every_clock_and_a_resume_moves_the_waits_on_exactly() {
        let rules = options(serde_json::json!({"per_move": "PT10S"}))
            .rules()
            .unwrap();
        let mut clock = Clock::new(rules, 2);
        clock.advance(SeatSet::only(Seat(0)), None, 1_000);
        assert!(clock.pause(4_000));
        assert!(!clock.pause(5_000), "pausing twice changes nothing");
        assert!(!clock.expired(0, 50_000), "no timeout while paused");
        assert_eq!(clock.reminder_at(0), None);
        assert_eq!(clock.next_event(), None, "the worker has nothing to do");
        assert_eq!(clock.view().seats[0].left_ms, Some(7_000));
        assert_eq!(clock.view().seats[0].deadline, None);
        // A wait that begins during the pause begins when it ends.
        clock.advance(SeatSet::from_iter([Seat(0), Seat(1)]), None, 6_000);
        assert!(clock.resume(104_000));
        assert_eq!(
            clock.seats[0].deadline,
            Some(111_000),
            "7 s left, from the resume"
        );
        assert_eq!(
            clock.seats[1].deadline,
            Some(114_000),
            "a whole wait, from the resume"
        );
        assert!(!clock.resume(105_000), "resuming twice changes nothing");
    }

    #[test]
    fn a_paused_bank_is_not_charged_for_the_pause() {
        let rules = options(serde_json::json!({"bank": "PT60S", "remind_at": 0}))
            .rules()
            .unwrap();
        let mut clock = Clock::new(rules, 2);
        clock.advance(SeatSet::only(Seat(0)), None, 0);
        clock.pause(10_000);
        // Seat 0 moves while the clocks stand still: charged only what ran before the pause.
        clock.advance(SeatSet::only(Seat(1)), Some(Seat(0)), 500_000);
        assert_eq!(clock.seats[0].bank_ms, Some(50_000));
        clock.resume(600_000);
        assert_eq!(clock.seats[1].deadline, Some(660_000));
    }

    /// A vacation stops only its seat's clock, for at most the seat's allowance.
    #[test]
    fn a_vacation_stops_only_its_seat_and_ends_with_its_allowance() {
        let rules = options(serde_json::json!({"per_move": "PT10S", "vacation": "PT100S"}))
            .rules()
            .unwrap();
        let mut clock = Clock::new(rules, 2);
        clock.advance(SeatSet::from_iter([Seat(0), Seat(1)]), None, 0);
        assert!(clock.start_vacation(0, 2_000).unwrap());
        assert!(!clock.start_vacation(0, 3_000).unwrap(), "already away");
        assert!(
            !clock.expired(0, 20_000),
            "the seat on vacation does not time out"
        );
        assert!(clock.expired(1, 20_000), "the other seat's clock runs");
        assert_eq!(clock.vacation_ends_at(0), Some(102_000));
        assert_eq!(clock.next_event(), Some(7_500), "seat 1's reminder");
        // Back after 30 s: 8 s of the wait left; the allowance is charged the minute a
        // vacation costs at least, so 40 s of it are left.
        assert!(clock.end_vacation(0, 32_000));
        assert_eq!(clock.seats[0].deadline, Some(40_000));
        assert_eq!(clock.vacation_left(0, 40_000), 40_000);
        // Away again, past the allowance: the vacation ends when it runs out.
        assert!(clock.start_vacation(0, 35_000).unwrap());
        assert!(clock.end_vacation(0, 500_000));
        assert_eq!(clock.vacation_left(0, 500_000), 0);
        assert_eq!(clock.seats[0].deadline, Some(40_000 + 40_000));
        let refused = clock.start_vacation(0, 600_000).unwrap_err();
        assert_eq!(refused.code(), "no-vacation-left");
    }

    #[test]
    fn a_bank_is_charged_the_wait_and_credited_the_increment() {
        let rules =
            options(serde_json::json!({"bank": "PT60S", "increment": "PT5S", "remind_at": 0}))
                .rules()
                .unwrap();
        let mut clock = Clock::new(rules, 2);
        clock.advance(SeatSet::only(Seat(0)), None, 0);
        assert_eq!(clock.seats[0].deadline, Some(60_000));
        assert_eq!(clock.reminder_at(0), None, "remind_at 0 sends none");
        clock.advance(SeatSet::only(Seat(1)), Some(Seat(0)), 20_000);
        assert_eq!(clock.seats[0].bank_ms, Some(45_000), "60 - 20 + 5");
        clock.advance(SeatSet::only(Seat(0)), Some(Seat(1)), 30_000);
        assert_eq!(clock.seats[0].deadline, Some(75_000));
        assert_eq!(clock.seats[1].bank_ms, Some(55_000), "60 - 10 + 5");
    }
}
