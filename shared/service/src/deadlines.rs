//! The deadline worker: what happens to a game without anyone asking, when its time comes.
//!
//! Every commit sets `GameRecord::due_at` ([`crate::clock::on_commit`]): the next deadline or
//! reminder of its move clock, or "now" while the game waits on a bot. [`sweep`] visits the
//! games the store finds due ([`store::GameStore::due_games`]) and, for each ([`tick`]):
//!
//! 1. plays the bots the game waits on (a bot move a crash left unplayed);
//! 2. applies the clock's timeout policy to each waited-on seat whose deadline passed: a
//!    `random` bot plays that seat's turn (`bot`), logged as chosen by the clock, or the seat
//!    resigns and a bot plays it to the end (`drop`); the seat and the admin get a `timeout`
//!    webhook;
//! 3. sends the `reminder` webhooks that are due.
//!
//! Before the timeouts it ends the vacations whose allowance ran out; a clock that stands
//! still (the admin paused the game, or its seat is on vacation) has no deadline and no
//! reminder until it runs again.
//!
//! Every step is a commit conditioned on the version it was decided at, like a player's move,
//! so two sweeps (two processes, or a sweep racing a player) apply a timeout once: the loser
//! of the race finds the seat's clock restarted and does nothing. Because deadlines live in
//! the store, a restarted server finds every overdue game at its first sweep. `beurs serve`
//! sweeps every half second ([`run`]).

use crate::bots::{self, BotInput};
use crate::clock::{Clock, TimeoutPolicy};
use crate::ctx::AppCtx;
use crate::dto::{Author, BotKind, WebhookEvent};
use crate::error::Error;
use crate::game::{
    clock_notifications, committed_unless_moved_on, engine_of, load_record, on_record_change,
    ruleset_of, update, Change, Guard, Moved,
};
use crate::time::now_ms;
use game_core::Seat;
use std::time::Duration;
use store::{GameRecord, Status};

/// The most games one sweep visits (the rest wait for the next sweep, most overdue first).
pub const SWEEP_BATCH: usize = 100;

/// The most moves a timed-out seat's turn may take when a bot plays it.
const MAX_TURN_MOVES: u32 = 500;

/// What a sweep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Games visited.
    pub games: usize,
    /// Timeouts applied (one per seat and wait).
    pub timeouts: usize,
    /// Reminders sent (one per seat and wait, whatever the number of subscriptions).
    pub reminders: usize,
    /// Moves bots made (for bot seats, and for timed-out seats).
    pub bot_moves: u32,
    /// Vacations ended because their allowance ran out.
    pub vacations_ended: usize,
    /// Finished games deleted because their retention period had passed.
    pub deleted: usize,
}

impl SweepReport {
    /// Adds `other` to this report.
    pub fn add(&mut self, other: SweepReport) {
        self.games += other.games;
        self.timeouts += other.timeouts;
        self.reminders += other.reminders;
        self.bot_moves += other.bot_moves;
        self.vacations_ended += other.vacations_ended;
        self.deleted += other.deleted;
    }
}

/// Visits every game due at `now` (at most [`SWEEP_BATCH`]). A game that fails is logged and
/// left for the next sweep; the others go on.
pub async fn sweep(ctx: &AppCtx, now: u64) -> Result<SweepReport, Error> {
    let mut report = SweepReport::default();
    for id in ctx.store.due_games(now, SWEEP_BATCH).await? {
        match tick(ctx, &id, now).await {
            Ok(done) => report.add(done),
            Err(error) => tracing::error!(game = %id, %error, "the deadline worker failed"),
        }
    }
    if let Some(period) = ctx.retention {
        report.deleted += retire(ctx, now, period).await?;
    }
    Ok(report)
}

/// Deletes the finished games last changed more than `period` before `now` (at most
/// [`SWEEP_BATCH`] a sweep), and says how many. A game deleted meanwhile by its admin is
/// not an error.
pub async fn retire(ctx: &AppCtx, now: u64, period: Duration) -> Result<usize, Error> {
    let before = now.saturating_sub(u64::try_from(period.as_millis()).unwrap_or(u64::MAX));
    let mut deleted = 0;
    for id in ctx.store.finished_before(before, SWEEP_BATCH).await? {
        match crate::game::games::forget(ctx, &id).await {
            Ok(()) => deleted += 1,
            Err(Error::GameNotFound) => {}
            Err(error) => tracing::error!(game = %id, %error, "a retention deletion failed"),
        }
    }
    Ok(deleted)
}

/// Sweeps every `period` until the process ends: `beurs serve`'s deadline worker.
pub async fn run(ctx: std::sync::Arc<AppCtx>, period: Duration) {
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match sweep(&ctx, now_ms()).await {
            Ok(report)
                if report.timeouts + report.reminders + report.vacations_ended + report.deleted
                    > 0 =>
            {
                tracing::info!(?report, "deadline sweep");
            }
            Ok(_) => {}
            Err(error) => tracing::error!(%error, "the deadline sweep failed"),
        }
    }
}

/// Does everything game `id` is due for at `now`.
pub async fn tick(ctx: &AppCtx, id: &str, now: u64) -> Result<SweepReport, Error> {
    let mut report = SweepReport {
        games: 1,
        ..SweepReport::default()
    };
    report.bot_moves += bots::drive(ctx, id).await?;
    // A vacation that ran out ends first, so its seat's clock runs again before timeouts.
    report.vacations_ended += crate::game::pause::end_spent_vacations(ctx, id, now).await?;
    timeouts(ctx, id, now, &mut report).await?;
    report.reminders += reminders(ctx, id, now).await?;
    settle(ctx, id, now).await?;
    Ok(report)
}

/// Applies the timeout policy to every waited-on seat whose deadline passed by `now`.
async fn timeouts(ctx: &AppCtx, id: &str, now: u64, report: &mut SweepReport) -> Result<(), Error> {
    for _ in 0..MAX_TURN_MOVES * 4 {
        let record = load_record(ctx, id).await?;
        if record.status != Status::Active {
            break;
        }
        let (Some(clock), Some(engine)) = (Clock::of(&record)?, engine_of(ctx, &record)?) else {
            break;
        };
        let waiting = engine.waiting_on();
        let seat_clock = |seat: &Seat| clock.seats.get(usize::from(seat.0));
        // A turn the clock is already playing goes on (even after a restart); otherwise the
        // first waited-on seat whose deadline passed times out now.
        // A clock that stands still (a pause, a vacation) waits for it to run again.
        let playing = waiting.iter().find(|seat| {
            !clock.is_frozen(usize::from(seat.0))
                && seat_clock(seat).is_some_and(|clock| clock.timed_out)
        });
        // A clock that stands still (a pause, a vacation) does not run out.
        let expired = waiting
            .iter()
            .find(|seat| clock.expired(usize::from(seat.0), now));
        let (seat, new_timeout) = match (playing, expired) {
            (Some(seat), _) => (seat, false),
            (None, Some(seat)) => (seat, true),
            (None, None) => break,
        };
        if record.seats[usize::from(seat.0)].bot.is_some() {
            // A bot plays this seat anyway (it resigned meanwhile).
            report.bot_moves += bots::drive(ctx, id).await?;
            continue;
        }
        match clock.rules.on_timeout {
            TimeoutPolicy::Bot | TimeoutPolicy::Pass => {
                let decorate = |change: &mut Change<Moved>| {
                    if new_timeout {
                        count_timeout(&mut change.next, seat, now, &mut change.outbox)?;
                    }
                    Ok(())
                };
                // Drawn only for a move the clock plays: a sweep that plays none draws nothing
                // (a test's seeded dice stay in step with its own requests).
                let mut rng = ctx.dice.rng()?;
                let mut input = BotInput::of(engine.as_ref(), seat);
                input.sample(engine.as_ref(), &mut rng);
                if clock.rules.on_timeout == TimeoutPolicy::Pass {
                    let ruleset = ruleset_of(ctx, &record)?;
                    input.legal = without_any_time(ruleset.any_time(), input.legal);
                    input.samples = without_any_time_moves(ruleset.any_time(), input.samples);
                    input.proposal = pass_in(ruleset.passes(), &input.legal);
                }
                let moved = bots::play_one(
                    ctx,
                    &record,
                    BotKind::Random,
                    &input,
                    &mut rng,
                    Author::Clock,
                    &decorate,
                )
                .await?;
                if moved {
                    report.bot_moves += 1;
                    report.timeouts += usize::from(new_timeout);
                    // The bots this move made due answer now, as after any move, not at the
                    // next sweep (a minute later on AWS).
                    report.bot_moves += bots::drive(ctx, id).await?;
                }
            }
            TimeoutPolicy::Drop => {
                if drop_seat(ctx, record, seat, now).await? {
                    report.timeouts += 1;
                    report.bot_moves += bots::drive(ctx, id).await?;
                }
            }
        }
    }
    Ok(())
}

/// The first complete legal action whose `type` is one of `passes`.
fn pass_in(passes: &[&str], legal: &[serde_json::Value]) -> Option<serde_json::Value> {
    legal.iter().find_map(|entry| {
        let action = entry.get("action")?;
        let kind = action.get("type")?.as_str()?;
        passes.contains(&kind).then(|| action.clone())
    })
}

/// `legal` without the ruleset's any-time moves (`Game::ANY_TIME`: repaying a loan, say),
/// unless they are all the seat may do: a clock acting for an absent player under the `pass`
/// policy plays what the game waits for, and spends nothing it need not.
fn without_any_time(any_time: &[&str], legal: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    let is_any_time = |entry: &serde_json::Value| is_any_time_move(any_time, &entry["action"]);
    if legal.iter().all(is_any_time) {
        return legal;
    }
    legal
        .into_iter()
        .filter(|entry| !is_any_time(entry))
        .collect()
}

/// `moves` without the ruleset's any-time moves: the clock's samples under the `pass` policy
/// (when nothing else is left, the bot falls back to [`without_any_time`]'s list).
fn without_any_time_moves(
    any_time: &[&str],
    moves: Vec<serde_json::Value>,
) -> Vec<serde_json::Value> {
    moves
        .into_iter()
        .filter(|action| !is_any_time_move(any_time, action))
        .collect()
}

/// Whether `action`'s `type` is one of the ruleset's `any_time` moves.
fn is_any_time_move(any_time: &[&str], action: &serde_json::Value) -> bool {
    action["type"]
        .as_str()
        .is_some_and(|kind| any_time.contains(&kind))
}

/// Counts a timeout of `seat` in `next`'s clock and queues its `timeout` webhooks. If the
/// game still waits on the seat after the clock's first move, the wait stays timed out (its
/// deadline passed, the game due now), so the worker plays the rest of the turn at once, even
/// after a restart, without counting another timeout.
fn count_timeout(
    next: &mut GameRecord,
    seat: Seat,
    now: u64,
    outbox: &mut Vec<store::OutboxMessage>,
) -> Result<(), Error> {
    if let Some(mut clock) = Clock::of(next)? {
        if let Some(seat_clock) = clock.seats.get_mut(usize::from(seat.0)) {
            seat_clock.timeouts += 1;
            if seat_clock.started_at.is_some() {
                seat_clock.timed_out = true;
                // `now` is when the sweep began; the clock's own move may have started this
                // wait a few milliseconds later. The deadline is then the wait's start.
                let started = seat_clock.started_at.unwrap_or(0);
                seat_clock.deadline = seat_clock
                    .deadline
                    .map(|deadline| deadline.min(now).max(started));
                next.due_at = Some(now);
            }
        }
        clock.save(next);
    }
    outbox.extend(clock_notifications(
        next,
        seat.0,
        WebhookEvent::Timeout,
        now,
    )?);
    Ok(())
}

/// The `drop` policy: `seat` resigns (a `random` bot plays it from now on). `false` if the game
/// moved on first.
async fn drop_seat(ctx: &AppCtx, record: GameRecord, seat: Seat, now: u64) -> Result<bool, Error> {
    let guard = Guard::at(record.version);
    let outcome = update(ctx, record, &guard, |record| {
        let mut next = record.clone();
        next.version = record.version + 1;
        bots::hand_over(&mut next, seat.0, BotKind::Random);
        on_record_change(ctx, record, &mut next, now)?;
        let mut outbox = Vec::new();
        count_timeout(&mut next, seat, now, &mut outbox)?;
        Ok(Change {
            outbox,
            ..Change::record(next, ())
        })
    })
    .await;
    committed_unless_moved_on(outcome)
}

/// Sends the reminders due at `now`, in one commit; returns how many seats were reminded.
async fn reminders(ctx: &AppCtx, id: &str, now: u64) -> Result<usize, Error> {
    let record = load_record(ctx, id).await?;
    let Some(clock) = Clock::of(&record)? else {
        return Ok(0);
    };
    let due: Vec<usize> = (0..clock.seats.len())
        .filter(|&seat| clock.reminder_at(seat).is_some_and(|at| at <= now))
        .filter(|&seat| {
            clock.seats[seat]
                .deadline
                .is_some_and(|deadline| deadline > now)
        })
        .collect();
    if due.is_empty() || record.status != Status::Active {
        return Ok(0);
    }
    let guard = Guard::at(record.version);
    let outcome = update(ctx, record, &guard, |record| {
        let mut next = record.clone();
        next.version = record.version + 1;
        let mut clock =
            Clock::of(record)?.ok_or_else(|| Error::Internal("the clock went away".into()))?;
        for &seat in &due {
            clock.seats[seat].reminded = true;
            clock.seats[seat].reminders += 1;
        }
        clock.save(&mut next);
        on_record_change(ctx, record, &mut next, now)?;
        let mut outbox = Vec::new();
        for &seat in &due {
            outbox.extend(clock_notifications(
                &next,
                seat as u8,
                WebhookEvent::Reminder,
                now,
            )?);
        }
        Ok(Change {
            outbox,
            ..Change::record(next, ())
        })
    })
    .await;
    // If the game moved on first, the next sweep sees its new clock.
    Ok(if committed_unless_moved_on(outcome)? {
        due.len()
    } else {
        0
    })
}

/// A game still due after its visit (a stale `due_at`, or a finished game) gets its `due_at`
/// recomputed, so it leaves the index instead of being visited on every sweep.
async fn settle(ctx: &AppCtx, id: &str, now: u64) -> Result<(), Error> {
    let record = load_record(ctx, id).await?;
    if record.due_at.is_none_or(|due_at| due_at > now) {
        return Ok(());
    }
    let mut next = record.clone();
    on_record_change(ctx, &record, &mut next, now)?;
    if next.due_at == record.due_at {
        // A bot that cannot move keeps the game due; the error is in the log already.
        return Ok(());
    }
    let guard = Guard::at(record.version);
    match update(ctx, record, &guard, |_| {
        Ok(Change::record(next.clone(), ()))
    })
    .await
    {
        Ok(_) => Ok(()),
        Err(error) if error.moved_on() => Ok(()),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::{pass_in, without_any_time};
    use serde_json::json;

    /// The clock leaves any-time moves out while the seat has another move, and keeps them
    /// when they are all it has; a pass is found among what is left.
    #[test]
    fn any_time_moves_are_left_out_unless_they_are_all() {
        let pay = json!({"action": {"type": "choose_payment", "method": "cash"}});
        let repay = json!({"action": {"type": "buy_back", "tulip": "WB2#3"}});
        let bid = json!({"label": "bid", "schema": {}});
        let legal = vec![repay.clone(), pay.clone(), bid.clone()];
        assert_eq!(
            without_any_time(&["buy_back"], legal),
            vec![pay.clone(), bid]
        );
        assert_eq!(
            without_any_time(&["buy_back"], vec![repay.clone()]),
            vec![repay.clone()]
        );
        assert_eq!(
            without_any_time(&[], vec![repay.clone(), pay.clone()]),
            vec![repay, pay.clone()]
        );
        let pass = json!({"action": {"type": "end_selling_turn"}});
        assert_eq!(
            pass_in(&["end_selling_turn"], &[pay, pass.clone()]),
            Some(pass["action"].clone())
        );
    }
}
