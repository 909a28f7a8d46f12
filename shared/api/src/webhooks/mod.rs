//! Webhooks (DESIGN.md §6): who is notified of what, the transactional outbox, and delivery.
//!
//! - A move (or the claim that starts a game) computes its notifications with
//!   [`notifications`] and commits them in the same atomic commit as the move: the outbox.
//! - A [`Deliverer`] makes delivery attempts: it signs ([`sign`]), re-checks the URL on fresh
//!   DNS answers ([`url`]), posts ([`deliver`]) and records the attempt and the next one (with
//!   [`RetryPolicy`]). Locally `beurs serve` runs [`Deliverer::run`] over the SQLite outbox,
//!   each attempt its own task within per-receiver and overall limits;
//!   on AWS `functions/notify` calls [`Deliverer::attempt`] from the table's stream and SQS.
//!
//! Architecture invariant: a notification's body is fixed when its move commits, from the
//! projections the recipient may see (a seat's own view; the spectator's for the admin), so
//! retries resend the same bytes and nothing hidden can leak into a payload later.

pub mod deliver;
pub mod sign;
pub mod url;

use crate::audit::StoredAction;
use crate::dto::{
    ActionData, FinishedData, Notification, ReminderData, TimeoutData, TurnData, WebhookEvent,
};
use crate::error::ApiError;
use crate::routes::project_events;
use crate::time::{now_ms, rfc3339};
use game_core::adapter::LoggedJson;
use game_core::{DynGame, Outcome, Seat, SeatSet, Viewer};
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use store::{
    Attempt, DeliveryStatus, GameRecord, GameStore, HookRecord, OutboxMessage, StoreError,
};
use tokio::sync::{mpsc, Notify};
use tokio::task::JoinSet;

/// The most subscriptions one game may have (all seats and the admin together).
pub const MAX_HOOKS_PER_GAME: usize = 16;

/// A seat's notification: the game is now waiting on it.
pub const TURN: &str = "turn";
/// The admin's notification: a move was made (public information only).
pub const ACTION: &str = "action";
/// The game is over (to seats and the admin).
pub const FINISHED: &str = "finished";

/// A seat's notification: its move clock runs out soon.
pub const REMINDER: &str = "reminder";
/// A seat's time ran out (to that seat and the admin).
pub const TIMEOUT: &str = "timeout";

/// The notification types a seat may subscribe to, and its default.
pub const SEAT_EVENTS: &[&str] = &[TURN, FINISHED, REMINDER, TIMEOUT];
/// The notification types the admin may subscribe to, and its default.
pub const ADMIN_EVENTS: &[&str] = &[ACTION, FINISHED, TIMEOUT];

/// When attempts are retried: exponential backoff with jitter (DESIGN.md §6).
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    /// The wait after the n-th failed attempt (before jitter); its length + 1 is the number of
    /// attempts.
    pub delays: Vec<Duration>,
    /// Each wait is multiplied by a random factor in `1 - jitter ..= 1 + jitter`.
    pub jitter: f64,
    /// The deadline of one attempt, connection to status line.
    pub attempt_timeout: Duration,
}

impl Default for RetryPolicy {
    /// 12 attempts: after 5 s, 30 s, 2 min, 10 min, 1 h, 3 h and then every 6 h, each ±20 %.
    /// The last attempt comes 34 h (at least 27 h with the jitter) after the first, so a
    /// receiver may be down for a day and lose nothing.
    fn default() -> RetryPolicy {
        const MINUTE: u64 = 60;
        const HOUR: u64 = 60 * MINUTE;
        let seconds = [5, 30, 2 * MINUTE, 10 * MINUTE, HOUR, 3 * HOUR];
        let mut delays: Vec<Duration> = seconds.iter().map(|&s| Duration::from_secs(s)).collect();
        delays.extend([Duration::from_secs(6 * HOUR); 5]);
        RetryPolicy {
            delays,
            jitter: 0.2,
            attempt_timeout: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// The same schedule with every wait multiplied by `factor` (tests and demos use small
    /// factors; the number of attempts is unchanged).
    pub fn scaled(factor: f64) -> RetryPolicy {
        let mut policy = RetryPolicy::default();
        for delay in &mut policy.delays {
            *delay = delay.mul_f64(factor.max(0.0));
        }
        policy
    }

    /// How many attempts a notification gets.
    pub fn max_attempts(&self) -> u32 {
        u32::try_from(self.delays.len() + 1).unwrap_or(u32::MAX)
    }

    /// The wait after failed attempt `attempt` (1-based), jittered by `unit` in `0.0..1.0`, or
    /// `None` when that was the last attempt.
    pub fn delay_after(&self, attempt: u32, unit: f64) -> Option<Duration> {
        let base = *self
            .delays
            .get(usize::try_from(attempt).ok()?.checked_sub(1)?)?;
        let factor = 1.0 + self.jitter * (2.0 * unit.clamp(0.0, 1.0) - 1.0);
        Some(base.mul_f64(factor.max(0.0)))
    }
}

/// How this server treats webhooks.
#[derive(Clone, Debug)]
pub struct WebhookConfig {
    /// Dev mode: plain `http` (and `https`) to loopback receivers is allowed.
    pub dev: bool,
    /// The retry schedule.
    pub retry: RetryPolicy,
    /// Poked after a commit that queued notifications, so a local worker delivers at once.
    pub wake: Arc<Notify>,
}

impl Default for WebhookConfig {
    fn default() -> WebhookConfig {
        WebhookConfig {
            dev: false,
            retry: RetryPolicy::default(),
            wake: Arc::new(Notify::new()),
        }
    }
}

/// What just happened to a game, from which its notifications follow.
pub struct Moment<'a> {
    /// The record after the change (its hooks are the subscribers).
    pub record: &'a GameRecord,
    /// The engine after the change.
    pub engine: &'a dyn DynGame,
    /// Who the game waited on before the change (nobody before it started).
    pub waiting_before: SeatSet,
    /// The move, for a move; `None` for the claim that started the game.
    pub action: Option<MomentAction<'a>>,
}

/// The move of a [`Moment`].
pub struct MomentAction<'a> {
    /// Its log position.
    pub seq: u64,
    /// Who made it.
    pub seat: u8,
    /// The action and who may read it.
    pub stored: &'a StoredAction,
    /// Its events, with their visibility.
    pub events: &'a [LoggedJson],
}

/// The notifications `moment` causes, one per interested, enabled subscription, ready to be
/// committed with the change.
pub fn notifications(moment: &Moment<'_>, now: u64) -> Result<Vec<OutboxMessage>, ApiError> {
    let record = moment.record;
    let engine = moment.engine;
    let outcome = engine.outcome();
    let waiting_now = engine.waiting_on();
    let seats = |set: SeatSet| -> Vec<u8> { set.iter().map(|seat| seat.0).collect() };
    let mut messages = Vec::new();
    for hook in record.hooks.iter().filter(|hook| hook.disabled.is_none()) {
        let wants = |kind: WebhookEvent| hook.events.iter().any(|event| event == kind.as_str());
        let mut queue = |kind: WebhookEvent, body: String| -> Result<(), ApiError> {
            messages.push(message(record, hook, kind, body, now)?);
            Ok(())
        };
        let finished = |seat: Option<u8>, outcome: &Outcome, viewer: Viewer| FinishedData {
            game_id: record.id.clone(),
            ruleset: record.ruleset.clone(),
            version: record.version,
            seat,
            outcome: outcome.clone(),
            view: engine.view_json(viewer),
        };
        match hook.seat {
            Some(seat) => {
                let viewer = Viewer::Seat(Seat(seat));
                // A seat a bot plays (its player resigned) is not told it is its turn.
                let played_by_bot = record
                    .seats
                    .get(usize::from(seat))
                    .is_some_and(|seat| seat.bot.is_some());
                let entered = waiting_now.contains(Seat(seat))
                    && !moment.waiting_before.contains(Seat(seat))
                    && !played_by_bot;
                if wants(WebhookEvent::Turn) && outcome.is_none() && entered {
                    let data = TurnData {
                        game_id: record.id.clone(),
                        ruleset: record.ruleset.clone(),
                        version: record.version,
                        seat,
                        seq: record.log_len.saturating_sub(1),
                        to_act: seats(engine.to_act()),
                        waiting_on: seats(waiting_now),
                        deadline: crate::clock::deadline_of(record, seat),
                        view: engine.view_json(viewer),
                    };
                    queue(WebhookEvent::Turn, body(WebhookEvent::Turn, now, data))?;
                }
                if let (true, Some(outcome)) = (wants(WebhookEvent::Finished), &outcome) {
                    let data = finished(Some(seat), outcome, viewer);
                    queue(
                        WebhookEvent::Finished,
                        body(WebhookEvent::Finished, now, data),
                    )?;
                }
            }
            None => {
                if let (true, Some(action)) = (wants(WebhookEvent::Action), &moment.action) {
                    let public = action.stored.visibility.shows(Viewer::Spectator);
                    let data = ActionData {
                        game_id: record.id.clone(),
                        ruleset: record.ruleset.clone(),
                        version: record.version,
                        seq: action.seq,
                        seat: action.seat,
                        action: if public {
                            action.stored.action.clone()
                        } else {
                            Value::Null
                        },
                        events: project_events(action.events, Viewer::Spectator),
                        status: record.status.into(),
                        to_act: seats(engine.to_act()),
                    };
                    queue(WebhookEvent::Action, body(WebhookEvent::Action, now, data))?;
                }
                if let (true, Some(outcome)) = (wants(WebhookEvent::Finished), &outcome) {
                    let data = finished(None, outcome, Viewer::Spectator);
                    queue(
                        WebhookEvent::Finished,
                        body(WebhookEvent::Finished, now, data),
                    )?;
                }
            }
        }
    }
    Ok(messages)
}

/// A pending notification of `kind` with `body` for `hook`, due at once.
fn message(
    record: &GameRecord,
    hook: &HookRecord,
    kind: WebhookEvent,
    body: String,
    now: u64,
) -> Result<OutboxMessage, ApiError> {
    Ok(OutboxMessage {
        id: sign::new_message_id()?,
        game_id: record.id.clone(),
        hook_id: hook.id.clone(),
        event: kind.as_str().to_string(),
        body,
        created_at: now,
        status: DeliveryStatus::Pending,
        attempts: Vec::new(),
        next_attempt_at: Some(now),
    })
}

/// The notifications of a move clock's event for `seat` in `record` (the record as it will
/// be committed): a `reminder` to the seat's subscriptions, or a `timeout` to the seat's and
/// the admin's. Only public facts: the deadline, or the policy applied.
pub fn clock_notifications(
    record: &GameRecord,
    seat: u8,
    kind: WebhookEvent,
    now: u64,
) -> Result<Vec<OutboxMessage>, ApiError> {
    let clock = crate::clock::Clock::of(record)?;
    let payload = match (kind, &clock) {
        (WebhookEvent::Reminder, _) => {
            let Some(deadline) = crate::clock::deadline_of(record, seat) else {
                return Ok(Vec::new());
            };
            let data = ReminderData {
                game_id: record.id.clone(),
                ruleset: record.ruleset.clone(),
                version: record.version,
                seat,
                deadline,
            };
            body(kind, now, data)
        }
        (WebhookEvent::Timeout, Some(clock)) => {
            let data = TimeoutData {
                game_id: record.id.clone(),
                ruleset: record.ruleset.clone(),
                version: record.version,
                seat,
                policy: clock.rules.on_timeout,
            };
            body(kind, now, data)
        }
        _ => return Ok(Vec::new()),
    };
    record
        .hooks
        .iter()
        .filter(|hook| hook.disabled.is_none())
        .filter(|hook| match hook.seat {
            Some(subscriber) => subscriber == seat,
            None => kind == WebhookEvent::Timeout,
        })
        .filter(|hook| hook.events.iter().any(|event| event == kind.as_str()))
        .map(|hook| message(record, hook, kind, payload.clone(), now))
        .collect()
}

/// The whole body of a notification of `kind` carrying `data`.
fn body<D: Serialize>(kind: WebhookEvent, now: u64, data: D) -> String {
    let notification = Notification {
        kind,
        timestamp: rfc3339(now),
        data,
    };
    serde_json::to_string(&notification).expect("a payload serializes")
}

/// Makes delivery attempts and records them in the store.
#[derive(Clone)]
pub struct Deliverer {
    /// Where the outbox and the subscriptions are.
    pub store: Arc<dyn GameStore>,
    /// Dev mode, the schedule and the wake-up signal.
    pub config: WebhookConfig,
}

impl Deliverer {
    /// Makes one attempt at `message` (which must be pending) and saves the outcome: delivered
    /// on 2xx; failed and the subscription disabled on 410 Gone; otherwise pending again at the
    /// next time of the schedule, or failed when the attempts are used up. A deleted or
    /// disabled subscription cancels the message without an attempt. Returns the message as
    /// saved.
    pub async fn attempt(&self, mut message: OutboxMessage) -> Result<OutboxMessage, StoreError> {
        let record = self.store.load(&message.game_id).await?;
        let hook = record
            .as_ref()
            .and_then(|record| record.hooks.iter().find(|hook| hook.id == message.hook_id))
            .filter(|hook| hook.disabled.is_none())
            .cloned();
        let Some(hook) = hook else {
            message.status = DeliveryStatus::Cancelled;
            message.next_attempt_at = None;
            self.store.update_message(&message).await?;
            return Ok(message);
        };

        let now = now_ms();
        let number = u32::try_from(message.attempts.len() + 1).unwrap_or(u32::MAX);
        let result = self.post(&hook, &message).await;
        message.attempts.push(Attempt {
            attempt: number,
            at: now,
            status_code: result.as_ref().ok().copied(),
            error: result.as_ref().err().cloned(),
        });
        match result {
            Ok(status) if (200..300).contains(&status) => {
                message.status = DeliveryStatus::Delivered;
                message.next_attempt_at = None;
            }
            Ok(410) => {
                message.status = DeliveryStatus::Failed;
                message.next_attempt_at = None;
                self.disable(&message.game_id, &hook.id, now).await?;
            }
            _ => match self.config.retry.delay_after(number, unit_random()) {
                Some(delay) => {
                    message.next_attempt_at = Some(
                        now.saturating_add(u64::try_from(delay.as_millis()).unwrap_or(u64::MAX)),
                    );
                }
                None => {
                    message.status = DeliveryStatus::Failed;
                    message.next_attempt_at = None;
                }
            },
        }
        self.store.update_message(&message).await?;
        Ok(message)
    }

    /// Checks the URL again on fresh DNS answers, signs and posts, all within the attempt's
    /// deadline (a slow DNS answer counts against it too).
    async fn post(&self, hook: &HookRecord, message: &OutboxMessage) -> Result<u16, String> {
        let timeout = self.config.retry.attempt_timeout;
        let deadline = tokio::time::Instant::now() + timeout;
        let target = url::parse(&hook.url, self.config.dev).map_err(|error| error.to_string())?;
        let addrs = tokio::time::timeout_at(deadline, url::resolve(&target, self.config.dev))
            .await
            .map_err(|_| format!("no DNS answer within {} ms", timeout.as_millis()))?
            .map_err(|error| format!("refused before connecting: {error}"))?;
        let timestamp = now_ms() / 1000;
        let signature = sign::signature(&hook.secret, &message.id, timestamp, &message.body)
            .ok_or_else(|| "the subscription's secret is malformed".to_string())?;
        let signed = deliver::Signed {
            id: &message.id,
            timestamp,
            signature,
            body: &message.body,
        };
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        deliver::post(&target, &addrs, &signed, left).await
    }

    /// Marks a subscription disabled (its receiver answered 410 Gone), through the one
    /// optimistic-concurrency seam. A game or subscription deleted meanwhile, or a game that
    /// kept changing, leaves nothing to do: the next 410 disables it.
    async fn disable(&self, game_id: &str, hook_id: &str, now: u64) -> Result<(), StoreError> {
        let Some(record) = self.store.load(game_id).await? else {
            return Ok(());
        };
        let updated = crate::routes::update_in(
            self.store.as_ref(),
            &self.config.wake,
            record,
            &crate::routes::Guard::default(),
            |record| {
                let mut next = record.clone();
                let hook = next
                    .hooks
                    .iter_mut()
                    .find(|hook| hook.id == hook_id)
                    .ok_or(crate::error::ApiError::HookNotFound)?;
                hook.disabled = Some(format!(
                    "the receiver answered 410 Gone at {}",
                    rfc3339(now)
                ));
                Ok(crate::routes::Change::record(next, ()))
            },
        )
        .await;
        match updated {
            Ok(_) => Ok(()),
            Err(crate::error::ApiError::Internal(detail)) => Err(StoreError::Backend(detail)),
            Err(_) => Ok(()),
        }
    }

    /// Drains the outbox forever: at once when woken by a commit or when an attempt ends,
    /// otherwise every `poll`. Pending notifications left by an earlier run are picked up on
    /// start.
    ///
    /// Each attempt runs as its own task, so a slow receiver holds only its own slots: at most
    /// [`MAX_IN_FLIGHT_PER_RECEIVER`] attempts at once to one receiver (the host and port of
    /// the subscription's URL) and [`MAX_IN_FLIGHT`] in all, and never two at once for one
    /// notification. The outbox is unchanged by this: a notification stays pending until its
    /// attempt is recorded, so a crash or restart mid-attempt retries it (at least once).
    /// One worker per outbox is assumed, as `beurs serve` runs it.
    pub async fn run(self, poll: Duration) {
        let (release, mut released) = mpsc::unbounded_channel();
        let mut worker = Worker {
            slots: Slots::default(),
            receivers: HashMap::new(),
            tasks: JoinSet::new(),
            release,
        };
        loop {
            // Slots are freed only here, between passes, and only after the attempt saved its
            // outcome: a pass never sees a notification as free while an attempt at it could
            // still record over it.
            while let Ok(slot) = released.try_recv() {
                worker.slots.release(&slot);
            }
            while let Some(joined) = worker.tasks.try_join_next() {
                if let Err(error) = joined {
                    eprintln!("webhooks: a delivery task failed: {error}");
                }
            }
            let again = match self.start_due(&mut worker).await {
                Ok(again) => again,
                Err(error) => {
                    eprintln!("webhooks: reading the outbox failed: {error}");
                    false
                }
            };
            if again {
                continue;
            }
            tokio::select! {
                Some(slot) = released.recv() => worker.slots.release(&slot),
                () = self.config.wake.notified() => {}
                () = tokio::time::sleep(poll) => {}
            }
        }
    }

    /// One pass: starts an attempt at every due notification the limits allow. Returns whether
    /// to look again at once (the window was full and this pass made room in it).
    async fn start_due(&self, worker: &mut Worker) -> Result<bool, StoreError> {
        let limit = DUE_WINDOW + worker.slots.in_flight();
        let due = self.store.due_messages(now_ms(), limit).await?;
        let window_full = due.len() >= limit;
        let mut busy = Vec::new();
        let mut started = 0;
        for message in due {
            let receiver = self.receiver_of(&message, &mut worker.receivers).await?;
            match worker.slots.admit(&message.id, &receiver) {
                Admission::InFlight => {}
                // Every slot is taken: the next pass comes when one is freed.
                Admission::Full => return Ok(false),
                Admission::ReceiverBusy => busy.push(message),
                Admission::Start => {
                    started += 1;
                    let guard = Release {
                        slot: Some((message.id.clone(), receiver)),
                        to: worker.release.clone(),
                    };
                    let deliverer = self.clone();
                    worker.tasks.spawn(async move {
                        if let Err(error) = deliverer.attempt(message).await {
                            eprintln!("webhooks: recording an attempt failed: {error}");
                        }
                        // The slot is freed after the outcome is saved (or the task failed).
                        drop(guard);
                    });
                }
            }
        }
        if !window_full {
            // Every due notification was seen; those of busy receivers wait in the outbox for
            // a free slot of their receiver.
            return Ok(false);
        }
        // More are due than one pass reads, and those of busy receivers fill the window: move
        // them out of its way by one attempt's time (when their receiver has a slot again), so
        // that a receiver with a backlog cannot hide other receivers' notifications. This
        // postpones them without counting an attempt; the retry schedule is unchanged.
        let later = now_ms().saturating_add(
            u64::try_from(self.config.retry.attempt_timeout.as_millis()).unwrap_or(u64::MAX),
        );
        let parked = busy.len();
        for mut message in busy {
            message.next_attempt_at = Some(later.max(message.next_attempt_at.unwrap_or(0)));
            self.store.update_message(&message).await?;
        }
        Ok(started + parked > 0)
    }

    /// The receiver `message` goes to: the host and port of its subscription's URL. A message
    /// whose subscription is gone is its own receiver (its attempt cancels it without a call).
    async fn receiver_of(
        &self,
        message: &OutboxMessage,
        cache: &mut HashMap<(String, String), String>,
    ) -> Result<String, StoreError> {
        let key = (message.game_id.clone(), message.hook_id.clone());
        if let Some(receiver) = cache.get(&key) {
            return Ok(receiver.clone());
        }
        let record = self.store.load(&message.game_id).await?;
        let Some(hook) = record
            .as_ref()
            .and_then(|record| record.hooks.iter().find(|hook| hook.id == message.hook_id))
        else {
            return Ok(format!("(no subscription) {}", message.id));
        };
        // A subscription's URL never changes, so its receiver can be remembered (a bounded
        // number of them).
        let receiver = match url::parse(&hook.url, true) {
            Ok(target) => format!("{}:{}", target.host, target.port),
            Err(_) => hook.url.clone(),
        };
        if cache.len() >= RECEIVER_CACHE {
            cache.clear();
        }
        cache.insert(key, receiver.clone());
        Ok(receiver)
    }
}

/// The most delivery attempts the local worker runs at once, over all receivers.
pub const MAX_IN_FLIGHT: usize = 32;

/// The most delivery attempts the local worker runs at once to one receiver: the host and port
/// of the subscription's URL (whatever the game or subscription). Two, so that one slow
/// request does not hold up a receiver that answers the next at once.
pub const MAX_IN_FLIGHT_PER_RECEIVER: usize = 2;

/// How many due notifications besides those in flight the worker reads per pass.
const DUE_WINDOW: usize = 256;

/// How many subscriptions' receivers the worker remembers.
const RECEIVER_CACHE: usize = 4096;

/// The local worker's state between passes.
struct Worker {
    slots: Slots,
    /// The receiver of each `(game, subscription)` seen.
    receivers: HashMap<(String, String), String>,
    /// The attempts in flight (aborted if the worker is dropped).
    tasks: JoinSet<()>,
    /// Where finished attempts return their slots.
    release: mpsc::UnboundedSender<(String, String)>,
}

/// Returns an attempt's slot `(message, receiver)` to the worker when dropped: when the attempt
/// ends, fails or is aborted.
struct Release {
    slot: Option<(String, String)>,
    to: mpsc::UnboundedSender<(String, String)>,
}

impl Drop for Release {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            // The worker is gone if this fails; nothing is left to free.
            let _ = self.to.send(slot);
        }
    }
}

/// Which notifications have an attempt in flight, and how many each receiver has.
#[derive(Debug, Default)]
struct Slots {
    messages: HashSet<String>,
    receivers: HashMap<String, usize>,
}

/// What [`Slots::admit`] decided.
#[derive(Debug, PartialEq, Eq)]
enum Admission {
    /// Start the attempt (its slot is taken).
    Start,
    /// An attempt at this notification is in flight: leave it.
    InFlight,
    /// Its receiver has [`MAX_IN_FLIGHT_PER_RECEIVER`] attempts in flight.
    ReceiverBusy,
    /// [`MAX_IN_FLIGHT`] attempts are in flight.
    Full,
}

impl Slots {
    /// Takes a slot for an attempt at `message` to `receiver` if the limits allow.
    fn admit(&mut self, message: &str, receiver: &str) -> Admission {
        if self.messages.contains(message) {
            return Admission::InFlight;
        }
        if self.messages.len() >= MAX_IN_FLIGHT {
            return Admission::Full;
        }
        let count = self.receivers.get(receiver).copied().unwrap_or(0);
        if count >= MAX_IN_FLIGHT_PER_RECEIVER {
            return Admission::ReceiverBusy;
        }
        self.receivers.insert(receiver.to_string(), count + 1);
        self.messages.insert(message.to_string());
        Admission::Start
    }

    /// Frees the slot `(message, receiver)`.
    fn release(&mut self, (message, receiver): &(String, String)) {
        self.messages.remove(message);
        if let Some(count) = self.receivers.get_mut(receiver) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.receivers.remove(receiver);
            }
        }
    }

    /// How many attempts are in flight.
    fn in_flight(&self) -> usize {
        self.messages.len()
    }
}

/// A uniform number in `0.0..1.0` for jitter (not security relevant).
fn unit_random() -> f64 {
    crate::auth::random_bytes::<4>()
        .map(|bytes| f64::from(u32::from_le_bytes(bytes)) / (f64::from(u32::MAX) + 1.0))
        .unwrap_or(0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_schedule_spans_more_than_a_day_with_eight_or_more_attempts() {
        let policy = RetryPolicy::default();
        assert!(policy.max_attempts() >= 8);
        let shortest: Duration = (1..policy.max_attempts())
            .map(|n| policy.delay_after(n, 0.0).unwrap())
            .sum();
        assert!(
            shortest >= Duration::from_secs(24 * 3600),
            "even with the jitter at its lowest the attempts span {shortest:?}"
        );
        assert_eq!(policy.delay_after(1, 0.5), Some(Duration::from_secs(5)));
        assert_eq!(
            policy.delay_after(policy.max_attempts() - 1, 0.5),
            Some(Duration::from_secs(6 * 3600)),
            "the waits grow to about six hours"
        );
        assert_eq!(policy.delay_after(policy.max_attempts(), 0.5), None);
        assert_eq!(policy.delay_after(0, 0.5), None);
    }

    #[test]
    fn slots_bound_attempts_per_receiver_and_overall_and_per_message() {
        let mut slots = Slots::default();
        assert_eq!(slots.admit("m1", "slow:443"), Admission::Start);
        assert_eq!(slots.admit("m1", "slow:443"), Admission::InFlight);
        assert_eq!(slots.admit("m2", "slow:443"), Admission::Start);
        assert_eq!(slots.admit("m3", "slow:443"), Admission::ReceiverBusy);
        assert_eq!(slots.admit("m4", "fast:443"), Admission::Start);
        slots.release(&("m1".into(), "slow:443".into()));
        assert_eq!(slots.admit("m1", "slow:443"), Admission::Start);
        assert_eq!(slots.in_flight(), 3);
        for n in slots.in_flight()..MAX_IN_FLIGHT {
            assert_eq!(
                slots.admit(&format!("x{n}"), &format!("r{n}:443")),
                Admission::Start
            );
        }
        assert_eq!(slots.admit("late", "other:443"), Admission::Full);
        assert_eq!(slots.admit("m2", "slow:443"), Admission::InFlight);
        slots.release(&("m4".into(), "fast:443".into()));
        assert_eq!(slots.admit("late", "other:443"), Admission::Start);
        assert!(!slots.receivers.contains_key("fast:443"));
    }

    /// More notifications due at a receiver that never answers than the worker reads in one
    /// pass, all older than one for another receiver: that one is still attempted at once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_backlog_at_a_busy_receiver_does_not_hide_other_receivers_notifications() {
        // A receiver that accepts connections and never answers, counting them.
        let tarpit = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let slow = tarpit.local_addr().unwrap();
        let connections = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = connections.clone();
        let held = tokio::spawn(async move {
            let mut open = Vec::new();
            while let Ok((stream, _)) = tarpit.accept().await {
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                open.push(stream);
            }
        });
        // A port nobody listens on: an attempt there fails at once.
        let closed = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();

        let store = Arc::new(store::MemoryStore::new());
        let hook = |id: &str, addr: std::net::SocketAddr| HookRecord {
            id: id.into(),
            seat: None,
            url: format!("http://{addr}/hook"),
            events: vec![ACTION.into()],
            secret: sign::new_secret().unwrap(),
            created_at: 0,
            disabled: None,
        };
        let mut record = store::testing::sample_record("g_backlog");
        record.hooks = vec![hook("wh_slow", slow), hook("wh_other", closed)];
        store.create(&record).await.unwrap();
        let message = |hook: &str, id: String, due: u64| OutboxMessage {
            id,
            game_id: record.id.clone(),
            hook_id: hook.into(),
            event: ACTION.into(),
            body: "{}".into(),
            created_at: due,
            status: DeliveryStatus::Pending,
            attempts: Vec::new(),
            next_attempt_at: Some(due),
        };
        let backlog = DUE_WINDOW + MAX_IN_FLIGHT + 20;
        let mut outbox: Vec<OutboxMessage> = (0..backlog)
            .map(|n| {
                message(
                    "wh_slow",
                    format!("msg_slow_{n:04}"),
                    1_000 + u64::try_from(n).unwrap(),
                )
            })
            .collect();
        outbox.push(message("wh_other", "msg_other".into(), now_ms()));
        let mut next = record.clone();
        next.version += 1;
        store
            .commit(&store::Commit {
                record: next,
                expected_version: record.version,
                entry: None,
                idempotency: None,
                outbox,
            })
            .await
            .unwrap();

        let deliverer = Deliverer {
            store: store.clone(),
            config: WebhookConfig {
                dev: true,
                ..WebhookConfig::default()
            },
        };
        let worker = tokio::spawn(deliverer.run(Duration::from_millis(50)));
        let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
        loop {
            let other = store
                .messages(&record.id, "wh_other", None, 1)
                .await
                .unwrap()
                .messages;
            if !other[0].attempts.is_empty() {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the other receiver's notification waited behind the backlog"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(
            connections.load(std::sync::atomic::Ordering::SeqCst),
            MAX_IN_FLIGHT_PER_RECEIVER,
            "the busy receiver gets exactly its limit of attempts at once"
        );
        let slow = store
            .messages(&record.id, "wh_slow", None, backlog)
            .await
            .unwrap()
            .messages;
        assert!(
            slow.iter()
                .all(|message| message.attempts.is_empty()
                    && message.status == DeliveryStatus::Pending),
            "waiting for a slot is not an attempt"
        );
        worker.abort();
        held.abort();
    }

    #[test]
    fn jitter_stays_within_its_band() {
        let policy = RetryPolicy::default();
        let low = policy.delay_after(2, 0.0).unwrap();
        let high = policy.delay_after(2, 0.999_999).unwrap();
        assert_eq!(low, Duration::from_secs(24));
        assert!(high > Duration::from_secs(35) && high <= Duration::from_secs(36));
        let scaled = RetryPolicy::scaled(0.01);
        assert_eq!(scaled.delay_after(1, 0.5), Some(Duration::from_millis(50)));
        assert_eq!(scaled.max_attempts(), policy.max_attempts());
    }
}
