//! `notify`: webhook deliveries on AWS (DESIGN.md §6, docs/aws.md "Webhooks on AWS").
//!
//! One Lambda function with two event sources:
//!
//! - **the table's stream** (filtered to `INSERT`s of `SK = OUT#…` items, the outbox rows a
//!   move commits, and `REMOVE`s of `META` items): each new notification gets its first
//!   attempt at once; a game whose record was removed (the TTL forgot a finished game, or
//!   its admin deleted it) has the rest of its items deleted
//!   ([`store::DynamoStore::delete_partition`]);
//! - **the retry queue** (SQS): a notification still pending after an attempt is sent back to
//!   the queue as `{"pk", "sk"}` with `DelaySeconds` set to when its next attempt is due. SQS
//!   delays stop at 15 minutes and the schedule goes to 6 hours, so a message that arrives
//!   early is sent back with the time that remains, until it is due.
//!
//! Either way a trigger is only a key: the state lives in the OUT item, which every trigger
//! reads afresh ([`store::DynamoStore::message_at`]) and which
//! [`service::delivery::Deliverer::attempt`] updates. So a duplicate trigger (SQS and the stream
//! both deliver at least once) finds the message delivered, or not due yet, and makes no
//! second attempt, except when two copies run at the very same moment (then the receiver sees
//! the same `webhook-id` twice, which Standard Webhooks receivers deduplicate).
//!
//! A notification whose attempts are used up ends `failed` in the table (listable under
//! `…/deliveries`) and is also sent to the dead-letter queue with the reason, for operators.
//! Records that fail for a transient reason (DynamoDB or SQS unavailable) are reported as
//! batch item failures, so the source retries those alone; a retry message that keeps failing
//! goes to the dead-letter queue by the retry queue's redrive policy.

use aws_lambda_events::event::dynamodb;
use aws_lambda_events::event::sqs::{SqsEvent, SqsMessage};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use service::delivery::Deliverer;
use service::time::now_ms;
use service::webhooks::WebhookConfig;
use std::sync::Arc;
use store::{DeliveryStatus, DynamoStore, GameStore, OutboxMessage, StoreError};

/// The longest delay SQS accepts for one message (15 minutes).
pub const MAX_DELAY_SECONDS: i32 = 900;

/// A message due within this many milliseconds counts as due: SQS delays are whole seconds
/// (rounded up here) and two Lambda hosts' clocks may differ slightly, so waiting another
/// round trip for less than this would only add latency.
pub const DUE_SLACK_MS: u64 = 1_000;

/// The prefix of the outbox rows' sort keys (`shared/store/src/dynamo/keys.rs`, pattern 9).
const OUTBOX_PREFIX: &str = "OUT#";

/// What a trigger carries: the key of one OUT item. The retry queue's message body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageKey {
    /// `GAME#<id>`.
    pub pk: String,
    /// `OUT#<hook>#<created_at:013>#<msg>`.
    pub sk: String,
}

/// Where retries and exhausted deliveries go: SQS queue URLs.
#[derive(Clone, Debug)]
pub struct Queues {
    /// The retry queue (this function's SQS event source).
    pub retry: String,
    /// The dead-letter queue (exhausted deliveries, poison messages).
    pub dead_letter: String,
}

/// Why a record could not be handled (it is reported as a batch item failure and retried).
#[derive(Debug, thiserror::Error)]
pub enum NotifyError {
    /// Reading or updating the outbox failed.
    #[error("store: {0}")]
    Store(#[from] StoreError),
    /// Sending to a queue failed.
    #[error("sqs: {0}")]
    Sqs(String),
    /// The invocation was neither a DynamoDB stream batch nor an SQS batch.
    #[error("not a DynamoDB stream or SQS event: {0}")]
    Event(String),
}

/// Why the function's configuration is unusable (the cold start fails with it).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A required variable is unset or empty.
    #[error("{0} is not set")]
    Missing(&'static str),
    /// The API context (`BEURS_TABLE`, `BEURS_FINISHED_TTL_DAYS`) is unusable.
    #[error(transparent)]
    Env(#[from] service::EnvError),
}

/// What handling one trigger did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// There is no such OUT item (deleted with its game): nothing to do.
    Gone,
    /// The message was no longer pending (delivered, failed or cancelled): nothing to do.
    Settled(DeliveryStatus),
    /// Not due yet: sent back to the retry queue with this delay, without an attempt.
    Waiting {
        /// The SQS delay, at most [`MAX_DELAY_SECONDS`].
        delay_seconds: i32,
    },
    /// Attempted and delivered.
    Delivered {
        /// Attempts so far, this one included.
        attempts: usize,
    },
    /// Attempted, failed, and re-queued for the next attempt.
    Retrying {
        /// Attempts so far, this one included.
        attempts: usize,
        /// The SQS delay, at most [`MAX_DELAY_SECONDS`].
        delay_seconds: i32,
    },
    /// Attempted and ended without delivery for a reason that is not exhaustion (410 Gone
    /// disabled the subscription; a deleted subscription cancels): no dead letter.
    Ended {
        /// `Failed` or `Cancelled`.
        status: DeliveryStatus,
        /// Attempts so far.
        attempts: usize,
    },
    /// The last attempt failed: the message is `failed` and was sent to the dead-letter queue.
    DeadLettered {
        /// Attempts made, all of them.
        attempts: usize,
    },
    /// A retry message whose body is not a [`MessageKey`]: sent to the dead-letter queue.
    Rejected,
    /// A game's record was removed: every item left of the game was deleted.
    Forgotten,
}

/// The answer to a batch: the records to retry (`ReportBatchItemFailures`), by SQS message id
/// or stream sequence number. The same JSON shape serves both sources.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchResponse {
    /// The records that failed and must be retried.
    pub batch_item_failures: Vec<ItemFailure>,
}

/// One record to retry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemFailure {
    /// The SQS message id, or the stream record's sequence number.
    pub item_identifier: String,
}

/// The tasks of one batch, one per record, and which record each task handles.
#[derive(Default)]
struct Tasks {
    set: tokio::task::JoinSet<(String, Result<Outcome, NotifyError>)>,
    ids: std::collections::HashMap<tokio::task::Id, String>,
}

impl Tasks {
    /// Runs `work` for the record `id`.
    fn spawn(
        &mut self,
        id: String,
        work: impl std::future::Future<Output = Result<Outcome, NotifyError>> + Send + 'static,
    ) {
        let task_id = id.clone();
        let handle = self.set.spawn(async move { (task_id, work.await) });
        self.ids.insert(handle.id(), id);
    }

    /// The next finished task.
    async fn join_next(
        &mut self,
    ) -> Option<Result<(String, Result<Outcome, NotifyError>), tokio::task::JoinError>> {
        self.set.join_next().await
    }
}

/// The function's state, built once per cold start.
#[derive(Clone)]
pub struct Notifier {
    /// Where the OUT items are read by key.
    messages: DynamoStore,
    /// Makes and records the attempts.
    deliverer: Deliverer,
    /// The SQS client.
    sqs: aws_sdk_sqs::Client,
    /// The queues.
    queues: Arc<Queues>,
}

impl Notifier {
    /// A notifier reading OUT items from `messages`, recording attempts in `store` (the same
    /// table; the API's store, so that its settings such as the TTL apply to its writes), with
    /// `webhooks` (dev mode, retry schedule) and the `queues` reached through `sqs`.
    pub fn new(
        messages: DynamoStore,
        store: Arc<dyn GameStore>,
        webhooks: WebhookConfig,
        sqs: aws_sdk_sqs::Client,
        queues: Queues,
    ) -> Notifier {
        Notifier {
            messages,
            deliverer: Deliverer {
                store,
                config: webhooks,
            },
            sqs,
            queues: Arc::new(queues),
        }
    }

    /// The notifier of the Lambda function, from its environment: `BEURS_TABLE` (and the
    /// rest of what [`service::AppCtx::from_env`] reads), `BEURS_RETRY_QUEUE_URL` and
    /// `BEURS_DEAD_LETTER_QUEUE_URL`. Production settings: no dev mode, the default schedule.
    pub async fn from_env() -> Result<Notifier, ConfigError> {
        let variable = |name: &'static str| {
            std::env::var(name)
                .ok()
                .filter(|value| !value.is_empty())
                .ok_or(ConfigError::Missing(name))
        };
        let queues = Queues {
            retry: variable("BEURS_RETRY_QUEUE_URL")?,
            dead_letter: variable("BEURS_DEAD_LETTER_QUEUE_URL")?,
        };
        let table = variable("BEURS_TABLE")?;
        let ctx = service::AppCtx::from_env().await?;
        let messages = DynamoStore::from_env(table).await;
        let config = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
        Ok(Notifier::new(
            messages,
            ctx.store,
            WebhookConfig::default(),
            aws_sdk_sqs::Client::new(&config),
            queues,
        ))
    }

    /// Handles one invocation, whichever its source: a DynamoDB stream batch or an SQS batch
    /// (told apart by the records' `eventSource`). Returns the batch response as JSON.
    pub async fn handle(&self, event: Value) -> Result<Value, NotifyError> {
        let source = event
            .get("Records")
            .and_then(Value::as_array)
            .map(|records| {
                records
                    .first()
                    .and_then(|record| record.get("eventSource"))
                    .and_then(Value::as_str)
            });
        let response = match source {
            Some(Some("aws:dynamodb")) => {
                let event = serde_json::from_value(event)
                    .map_err(|error| NotifyError::Event(error.to_string()))?;
                self.handle_stream(event).await
            }
            Some(Some("aws:sqs")) => {
                let event = serde_json::from_value(event)
                    .map_err(|error| NotifyError::Event(error.to_string()))?;
                self.handle_sqs(event).await
            }
            // An empty batch: nothing to do.
            Some(None) if event["Records"].as_array().is_some_and(Vec::is_empty) => {
                BatchResponse::default()
            }
            _ => {
                return Err(NotifyError::Event(
                    "expected `Records` from aws:dynamodb or aws:sqs".into(),
                ))
            }
        };
        serde_json::to_value(response).map_err(|error| NotifyError::Event(error.to_string()))
    }

    /// A stream batch: the first attempt of every new notification in it, and the deletion
    /// of what is left of every game whose record was removed, concurrently. Other records
    /// are skipped (the event source's filter lets none through; this is the second line).
    pub async fn handle_stream(&self, event: dynamodb::Event) -> BatchResponse {
        let mut tasks = Tasks::default();
        for record in event.records {
            let id = record.change.sequence_number.clone().unwrap_or_default();
            let this = self.clone();
            if let Some(key) = outbox_insert(&record) {
                tasks.spawn(id, async move { this.advance(&key).await });
            } else if let Some(game) = game_removed(&record) {
                tasks.spawn(id, async move {
                    this.messages.delete_partition(&game).await?;
                    Ok(Outcome::Forgotten)
                });
            }
        }
        self.collect(tasks).await
    }

    /// An SQS batch from the retry queue: each message advanced once, concurrently. A body
    /// that is not a [`MessageKey`] can never succeed: it goes to the dead-letter queue.
    pub async fn handle_sqs(&self, event: SqsEvent) -> BatchResponse {
        let mut tasks = Tasks::default();
        for message in event.records {
            let id = message.message_id.clone().unwrap_or_default();
            let this = self.clone();
            tasks.spawn(id, async move { this.handle_sqs_message(message).await });
        }
        self.collect(tasks).await
    }

    async fn handle_sqs_message(&self, message: SqsMessage) -> Result<Outcome, NotifyError> {
        let body = message.body.unwrap_or_default();
        match serde_json::from_str::<MessageKey>(&body) {
            Ok(key) => self.advance(&key).await,
            Err(error) => {
                let letter = json!({
                    "reason": format!("the retry message is not {{pk, sk}}: {error}"),
                    "body": body,
                });
                self.send(&self.queues.dead_letter, &letter, 0).await?;
                Ok(Outcome::Rejected)
            }
        }
    }

    /// Waits for every record's task; failed ones (an error, or a panic) become batch item
    /// failures, logged.
    async fn collect(&self, mut tasks: Tasks) -> BatchResponse {
        let mut response = BatchResponse::default();
        while let Some(joined) = tasks.join_next().await {
            let (id, error) = match joined {
                Ok((_, Ok(_))) => continue,
                Ok((id, Err(error))) => (id, error.to_string()),
                Err(error) => match tasks.ids.remove(&error.id()) {
                    Some(id) => (id, format!("the task failed: {error}")),
                    None => continue,
                },
            };
            eprintln!("notify: record {id} failed and will be retried: {error}");
            response.batch_item_failures.push(ItemFailure {
                item_identifier: id,
            });
        }
        response
    }

    /// Moves one notification on: reads it; if it is pending and due, makes one attempt; then
    /// re-queues it (still pending), dead-letters it (attempts used up) or leaves it (done).
    pub async fn advance(&self, key: &MessageKey) -> Result<Outcome, NotifyError> {
        let Some(message) = self.messages.message_at(&key.pk, &key.sk).await? else {
            return Ok(Outcome::Gone);
        };
        if message.status != DeliveryStatus::Pending {
            return Ok(Outcome::Settled(message.status));
        }
        let now = now_ms();
        let due = message.next_attempt_at.unwrap_or(now);
        if due > now.saturating_add(DUE_SLACK_MS) {
            let delay_seconds = delay_seconds(due, now);
            self.requeue(key, delay_seconds).await?;
            return Ok(Outcome::Waiting { delay_seconds });
        }
        let saved = self.deliverer.attempt(message).await?;
        let attempts = saved.attempts.len();
        match saved.status {
            DeliveryStatus::Pending => {
                let next = saved.next_attempt_at.unwrap_or_else(now_ms);
                let delay_seconds = delay_seconds(next, now_ms());
                self.requeue(key, delay_seconds).await?;
                Ok(Outcome::Retrying {
                    attempts,
                    delay_seconds,
                })
            }
            DeliveryStatus::Delivered => Ok(Outcome::Delivered { attempts }),
            DeliveryStatus::Failed if exhausted(&saved) => {
                self.send(&self.queues.dead_letter, &dead_letter(key, &saved), 0)
                    .await?;
                Ok(Outcome::DeadLettered { attempts })
            }
            status => Ok(Outcome::Ended { status, attempts }),
        }
    }

    /// Sends `key` to the retry queue, to arrive in `delay_seconds`.
    async fn requeue(&self, key: &MessageKey, delay_seconds: i32) -> Result<(), NotifyError> {
        let body =
            serde_json::to_value(key).map_err(|error| NotifyError::Sqs(error.to_string()))?;
        self.send(&self.queues.retry, &body, delay_seconds).await
    }

    /// Sends `body` (JSON) to the queue at `url`, with a delay.
    async fn send(&self, url: &str, body: &Value, delay_seconds: i32) -> Result<(), NotifyError> {
        self.sqs
            .send_message()
            .queue_url(url)
            .message_body(body.to_string())
            .delay_seconds(delay_seconds.clamp(0, MAX_DELAY_SECONDS))
            .send()
            .await
            .map(|_| ())
            .map_err(|error| {
                NotifyError::Sqs(format!(
                    "sending to {url}: {}",
                    aws_sdk_sqs::error::DisplayErrorContext(error)
                ))
            })
    }
}

/// The key of a stream record that inserted an OUT item, or `None` for any other record.
pub fn outbox_insert(record: &dynamodb::EventRecord) -> Option<MessageKey> {
    if record.event_name != "INSERT" {
        return None;
    }
    // The keys in DynamoDB's JSON form: {"PK": {"S": "GAME#…"}, "SK": {"S": "OUT#…"}}.
    let keys = serde_json::to_value(&record.change.keys).ok()?;
    let string = |name: &str| keys.get(name)?.get("S")?.as_str().map(str::to_owned);
    let (pk, sk) = (string("PK")?, string("SK")?);
    sk.starts_with(OUTBOX_PREFIX)
        .then_some(MessageKey { pk, sk })
}

/// The game whose record (its `META` item) a stream record removed, or `None` for any other
/// record: the TTL removed a finished game's record, or its admin deleted the game.
pub fn game_removed(record: &dynamodb::EventRecord) -> Option<String> {
    if record.event_name != "REMOVE" {
        return None;
    }
    let keys = serde_json::to_value(&record.change.keys).ok()?;
    let string = |name: &str| keys.get(name)?.get("S")?.as_str().map(str::to_owned);
    let (pk, sk) = (string("PK")?, string("SK")?);
    if sk != "META" {
        return None;
    }
    pk.strip_prefix("GAME#").map(str::to_owned)
}

/// The SQS delay until `due` (Unix ms) from `now`: whole seconds rounded up, so that the
/// message never arrives before it is due, and at most [`MAX_DELAY_SECONDS`] (a message due
/// later is sent back again when it arrives).
pub fn delay_seconds(due: u64, now: u64) -> i32 {
    let seconds = due.saturating_sub(now).div_ceil(1000);
    i32::try_from(seconds).map_or(MAX_DELAY_SECONDS, |seconds| seconds.min(MAX_DELAY_SECONDS))
}

/// Whether a failed message failed because its attempts ran out (rather than because the
/// receiver answered 410 Gone, which disables the subscription: a decision, not a fault).
fn exhausted(message: &OutboxMessage) -> bool {
    message
        .attempts
        .last()
        .is_some_and(|last| last.status_code != Some(410))
}

/// The dead-letter body of an exhausted message: enough to find it and to see why.
fn dead_letter(key: &MessageKey, message: &OutboxMessage) -> Value {
    let last = message.attempts.last();
    json!({
        "reason": format!("attempts exhausted: {} attempts failed", message.attempts.len()),
        "pk": key.pk,
        "sk": key.sk,
        "game_id": message.game_id,
        "hook_id": message.hook_id,
        "message_id": message.id,
        "event": message.event,
        "attempts": message.attempts.len(),
        "last_status_code": last.and_then(|attempt| attempt.status_code),
        "last_error": last.and_then(|attempt| attempt.error.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_round_up_to_whole_seconds_and_stop_at_fifteen_minutes() {
        assert_eq!(delay_seconds(1_000, 1_000), 0);
        assert_eq!(delay_seconds(1_001, 1_000), 1);
        assert_eq!(delay_seconds(6_000, 1_000), 5);
        assert_eq!(delay_seconds(900_000, 0), 900);
        assert_eq!(delay_seconds(6 * 3_600_000, 0), MAX_DELAY_SECONDS);
        assert_eq!(delay_seconds(u64::MAX, 0), MAX_DELAY_SECONDS);
        assert_eq!(delay_seconds(0, 5_000), 0, "overdue is now");
    }

    fn stream_record(event_name: &str, sk: &str) -> dynamodb::EventRecord {
        let record = json!({
            "eventID": "1",
            "eventName": event_name,
            "eventVersion": "1.1",
            "eventSource": "aws:dynamodb",
            "awsRegion": "eu-west-1",
            "dynamodb": {
                "ApproximateCreationDateTime": 1_795_316_497.0,
                "Keys": { "PK": { "S": "GAME#g_1" }, "SK": { "S": sk } },
                "SequenceNumber": "100",
                "SizeBytes": 60,
                "StreamViewType": "KEYS_ONLY"
            },
            "eventSourceARN": "arn:aws:dynamodb:eu-west-1:123456789012:table/t/stream/2026"
        });
        serde_json::from_value(record).unwrap()
    }

    #[test]
    fn only_inserts_of_outbox_rows_are_triggers() {
        let sk = "OUT#wh_1#0001795316497000#msg_1";
        assert_eq!(
            outbox_insert(&stream_record("INSERT", sk)),
            Some(MessageKey {
                pk: "GAME#g_1".into(),
                sk: sk.into()
            })
        );
        assert_eq!(outbox_insert(&stream_record("MODIFY", sk)), None);
        assert_eq!(outbox_insert(&stream_record("REMOVE", "META")), None);
        assert_eq!(outbox_insert(&stream_record("INSERT", "META")), None);
        assert_eq!(
            outbox_insert(&stream_record("INSERT", "LOG#0000000001")),
            None
        );
    }

    #[test]
    fn only_removals_of_a_record_forget_a_game() {
        assert_eq!(
            game_removed(&stream_record("REMOVE", "META")).as_deref(),
            Some("g_1")
        );
        assert_eq!(game_removed(&stream_record("MODIFY", "META")), None);
        assert_eq!(
            game_removed(&stream_record("REMOVE", "LOG#0000000001")),
            None
        );
        assert_eq!(
            game_removed(&stream_record("INSERT", "OUT#wh_1#0001795316497000#msg_1")),
            None
        );
    }

    #[test]
    fn a_410_is_not_exhaustion() {
        let mut message = OutboxMessage {
            id: "msg_1".into(),
            game_id: "g_1".into(),
            hook_id: "wh_1".into(),
            event: "turn".into(),
            body: "{}".into(),
            created_at: 0,
            status: DeliveryStatus::Failed,
            attempts: vec![store::Attempt {
                attempt: 1,
                at: 0,
                status_code: Some(503),
                error: None,
            }],
            next_attempt_at: None,
        };
        assert!(exhausted(&message));
        message.attempts[0].status_code = Some(410);
        assert!(!exhausted(&message));
    }

    #[test]
    fn batch_responses_have_lambdas_shape() {
        let response = BatchResponse {
            batch_item_failures: vec![ItemFailure {
                item_identifier: "m-1".into(),
            }],
        };
        assert_eq!(
            serde_json::to_value(response).unwrap(),
            json!({ "batchItemFailures": [{ "itemIdentifier": "m-1" }] })
        );
    }
}
