//! The outbox's delivery worker (DESIGN.md §6): a [`Deliverer`] makes delivery attempts and
//! records them. Locally `beurs serve` runs [`Deliverer::run`] over the SQLite outbox, each
//! attempt its own task within per-receiver and overall limits; on AWS `functions/notify`
//! calls [`Deliverer::attempt`] from the table's stream and SQS.

use crate::ctx::AppCtx;
use crate::game;
use crate::time::{now_ms, rfc3339};
use crate::webhooks::{deliver, sign, url, WebhookConfig};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use store::{Attempt, DeliveryStatus, GameStore, HookRecord, OutboxMessage, StoreError};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

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
        let updated = game::update_in(
            self.store.as_ref(),
            &self.config.wake,
            record,
            &game::Guard::default(),
            |record| {
                let mut next = record.clone();
                let hook = next
                    .hooks
                    .iter_mut()
                    .find(|hook| hook.id == hook_id)
                    .ok_or(crate::error::Error::HookNotFound)?;
                hook.disabled = Some(format!(
                    "the receiver answered 410 Gone at {}",
                    rfc3339(now)
                ));
                Ok(game::Change::subscriptions(next, ()))
            },
        )
        .await;
        match updated {
            Ok(_) => Ok(()),
            Err(crate::error::Error::Internal(detail)) => Err(StoreError::Backend(detail)),
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

impl AppCtx {
    /// A delivery worker over this context's store and webhook configuration.
    pub fn deliverer(&self) -> Deliverer {
        Deliverer {
            store: self.store.clone(),
            config: self.webhooks.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::WebhookEvent;

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
            events: vec![WebhookEvent::Action.as_str().into()],
            secret: sign::new_secret().unwrap(),
            created_at: 0,
            disabled: None,
            format: store::HookFormat::Standard,
            link: None,
        };
        let mut record = store::testing::sample_record("g_backlog");
        record.hooks = vec![hook("wh_slow", slow), hook("wh_other", closed)];
        store.create(&record).await.unwrap();
        let message = |hook: &str, id: String, due: u64| OutboxMessage {
            id,
            game_id: record.id.clone(),
            hook_id: hook.into(),
            event: WebhookEvent::Action.as_str().into(),
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
}
