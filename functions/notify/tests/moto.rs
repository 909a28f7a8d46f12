//! The AWS delivery path against moto (DynamoDB, its stream, and SQS on one local endpoint):
//! a game played through the HTTP API on a `DynamoStore` with a webhook subscription to a
//! loopback receiver; the stream records moto wrote for that move (read with the DynamoDB
//! Streams API, as Lambda reads them) are handed to `notify`, and so are the SQS messages it
//! sent to its retry queue (read back from moto).
//!
//! Every test is bounded: one attempt times out after 5 s, an SQS read waits at most 10 s, and
//! each test as a whole is cut off after 3 minutes.

use api_tests::webhooks::{verify_with_reference, Receiver};
use api_tests::{random_move, spawn_app_with_webhooks, StartedGame, TestApp};
use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_sqs::types::QueueAttributeName;
use notify::{MessageKey, Notifier, Outcome, Queues};
use serde_json::{json, Value};
use service::webhooks::{RetryPolicy, WebhookConfig};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use store::dynamo::{keys, testing};
use store::{DeliveryStatus, DynamoStore, GameStore, OutboxMessage};

/// Runs a test body with a deadline, so that a hang fails instead of blocking the run.
async fn bounded(body: impl Future<Output = ()>) {
    tokio::time::timeout(Duration::from_secs(180), body)
        .await
        .expect("the test finished within 3 minutes");
}

/// A retry schedule for tests: `delays` exactly (no jitter). An attempt may take a minute: no
/// test here is about a slow receiver, and the tests count attempts exactly.
fn policy(delays: &[u64]) -> RetryPolicy {
    RetryPolicy {
        delays: delays.iter().map(|&s| Duration::from_secs(s)).collect(),
        jitter: 0.0,
        attempt_timeout: Duration::from_secs(60),
    }
}

/// Everything one test uses: the API on a fresh table, a receiver, the admin's subscription
/// to `action`, both queues, and a notifier with the test's schedule (dev mode: the receiver
/// is on loopback).
struct World {
    app: TestApp,
    store: DynamoStore,
    receiver: Receiver,
    sqs: aws_sdk_sqs::Client,
    queues: Queues,
    notifier: Notifier,
    game: StartedGame,
    secret: String,
    hook: String,
}

impl World {
    async fn new(delays: &[u64]) -> World {
        let store = testing::store().await;
        let webhooks = WebhookConfig {
            dev: true,
            retry: policy(delays),
            ..WebhookConfig::default()
        };
        let app = spawn_app_with_webhooks(Arc::new(store.clone()), webhooks.clone()).await;
        let receiver = Receiver::start().await;
        let sqs = sqs_client().await;
        let queues = Queues {
            retry: create_queue(&sqs, "retry").await,
            dead_letter: create_queue(&sqs, "dead").await,
        };
        let notifier = Notifier::new(
            store.clone(),
            Arc::new(store.clone()),
            webhooks,
            sqs.clone(),
            queues.clone(),
        );
        let game = app.start_game("tulip-bubble", 3, json!({})).await;
        let body = json!({ "url": receiver.url("/admin"), "events": ["action"] });
        let path = format!("/v1/games/{}/webhooks", game.id);
        let created = app.post(&path, Some(&game.admin_token), &body, &[]).await;
        assert_eq!(created.status, 201, "{}", created.text());
        let created = created.json();
        World {
            secret: created["secret"].as_str().expect("a secret").into(),
            hook: created["id"].as_str().expect("an id").into(),
            app,
            store,
            receiver,
            sqs,
            queues,
            notifier,
            game,
        }
    }

    /// Makes one move through the API: the subscription gets one `action` notification, in the
    /// outbox. Returns it and its key.
    async fn move_once(&self) -> (OutboxMessage, MessageKey) {
        random_move(&self.app, &self.game, 5, 1)
            .await
            .expect("the game is on");
        let messages = self.messages().await;
        assert_eq!(messages.len(), 1, "one move, one notification");
        let message = messages[0].clone();
        assert_eq!(message.status, DeliveryStatus::Pending);
        let key = MessageKey {
            pk: keys::game_pk(&self.game.id),
            sk: keys::outbox_sk(&message),
        };
        (message, key)
    }

    /// The subscription's notifications as stored, newest first.
    async fn messages(&self) -> Vec<OutboxMessage> {
        self.store
            .messages(&self.game.id, &self.hook, None, 10)
            .await
            .expect("the outbox is readable")
            .messages
    }

    /// The table's stream so far, as the Lambda event a stream event source would deliver.
    async fn stream_event(&self) -> Value {
        stream_event(self.store.table()).await
    }

    /// Hands `event` to the function, which must report no failed record.
    async fn invoke(&self, event: Value) {
        let response = self.notifier.handle(event).await.expect("a batch response");
        assert_eq!(response, json!({ "batchItemFailures": [] }));
    }
}

/// An SQS client for the test endpoint (moto serves SQS beside DynamoDB).
async fn sqs_client() -> aws_sdk_sqs::Client {
    let config = aws_config::defaults(BehaviorVersion::latest())
        .endpoint_url(testing::endpoint())
        .credentials_provider(Credentials::new(
            "beurs-test",
            "beurs-test",
            None,
            None,
            "t",
        ))
        .region(Region::new("us-east-1"))
        .load()
        .await;
    aws_sdk_sqs::Client::new(&config)
}

/// A new queue with a name no other test uses; its URL.
async fn create_queue(sqs: &aws_sdk_sqs::Client, label: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos())
        .unwrap_or(0);
    let name = format!("beurs-{label}-{}-{nanos}", std::process::id());
    sqs.create_queue()
        .queue_name(name)
        .send()
        .await
        .expect("create a queue")
        .queue_url()
        .expect("a queue URL")
        .to_string()
}

/// Receives from `queue` until a message comes (long polls of up to 10 s, for up to a
/// minute in all): for a message the test expects, which a busy machine may deliver late.
async fn receive_expected(sqs: &aws_sdk_sqs::Client, queue: &str) -> Vec<(String, String)> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let received = receive(sqs, queue, 10).await;
        if !received.is_empty() || tokio::time::Instant::now() >= deadline {
            return received;
        }
    }
}

/// Receives every message now visible in `queue` (waiting up to `wait` seconds for the first),
/// deleting them. Returns (message id, body) pairs.
async fn receive(sqs: &aws_sdk_sqs::Client, queue: &str, wait: i32) -> Vec<(String, String)> {
    let received = sqs
        .receive_message()
        .queue_url(queue)
        .max_number_of_messages(10)
        .wait_time_seconds(wait)
        .send()
        .await
        .expect("receive from a queue");
    let mut messages = Vec::new();
    for message in received.messages() {
        if let Some(handle) = message.receipt_handle() {
            sqs.delete_message()
                .queue_url(queue)
                .receipt_handle(handle)
                .send()
                .await
                .expect("delete a received message");
        }
        messages.push((
            message.message_id().unwrap_or_default().to_string(),
            message.body().unwrap_or_default().to_string(),
        ));
    }
    messages
}

/// How many messages `queue` holds that are still delayed.
async fn delayed(sqs: &aws_sdk_sqs::Client, queue: &str) -> u64 {
    let attributes = sqs
        .get_queue_attributes()
        .queue_url(queue)
        .attribute_names(QueueAttributeName::ApproximateNumberOfMessagesDelayed)
        .send()
        .await
        .expect("queue attributes");
    attributes
        .attributes()
        .and_then(|map| map.get(&QueueAttributeName::ApproximateNumberOfMessagesDelayed))
        .and_then(|count| count.parse().ok())
        .expect("a count of delayed messages")
}

/// The SQS event Lambda would deliver for `messages` (id, body) from `queue`.
fn sqs_event(queue: &str, messages: &[(String, String)]) -> Value {
    let records: Vec<Value> = messages
        .iter()
        .map(|(id, body)| {
            json!({
                "messageId": id,
                "receiptHandle": format!("handle-{id}"),
                "body": body,
                "attributes": {
                    "ApproximateReceiveCount": "1",
                    "SentTimestamp": "1795316497000",
                    "SenderId": "AIDAEXAMPLE",
                    "ApproximateFirstReceiveTimestamp": "1795316497001"
                },
                "messageAttributes": {},
                "md5OfBody": "",
                "eventSource": "aws:sqs",
                "eventSourceARN": format!("arn:aws:sqs:us-east-1:123456789012:{}",
                    queue.rsplit('/').next().unwrap_or(queue)),
                "awsRegion": "us-east-1"
            })
        })
        .collect();
    json!({ "Records": records })
}

/// One DynamoDB Streams API call to the test endpoint (moto routes it by `X-Amz-Target`).
async fn streams_call(operation: &str, body: Value) -> Value {
    let endpoint = testing::endpoint();
    let addr = endpoint
        .trim_start_matches("http://")
        .parse()
        .expect("the test endpoint is host:port");
    let target = format!("DynamoDBStreams_20120810.{operation}");
    let authorization = "AWS4-HMAC-SHA256 Credential=beurs-test/20261122/us-east-1/dynamodb/\
         aws4_request, SignedHeaders=host;x-amz-target, Signature=0";
    // moto's Streams API, not Beurs: its answers are not checked against Beurs's contract.
    let reply = api_tests::try_request_unchecked(
        addr,
        "POST",
        "/",
        &[
            ("content-type", "application/x-amz-json-1.0"),
            ("x-amz-target", &target),
            ("authorization", authorization),
        ],
        body.to_string().into_bytes(),
    )
    .await
    .unwrap_or_else(|error| panic!("{operation}: {error}"));
    assert_eq!(reply.status, 200, "{operation}: {}", reply.text());
    reply.json()
}

/// Every record of `table`'s stream so far, read through the Streams API, wrapped as the event
/// Lambda delivers (it adds `eventSourceARN`; its creation time is a number of seconds).
async fn stream_event(table: &str) -> Value {
    let streams = streams_call("ListStreams", json!({ "TableName": table })).await;
    let arn = streams["Streams"][0]["StreamArn"]
        .as_str()
        .expect("the table has a stream")
        .to_string();
    let described = streams_call("DescribeStream", json!({ "StreamArn": arn })).await;
    let shard = described["StreamDescription"]["Shards"][0]["ShardId"].clone();
    let iterator = streams_call(
        "GetShardIterator",
        json!({ "StreamArn": arn, "ShardId": shard, "ShardIteratorType": "TRIM_HORIZON" }),
    )
    .await;
    let records = streams_call(
        "GetRecords",
        json!({ "ShardIterator": iterator["ShardIterator"] }),
    )
    .await;
    let mut records = records["Records"].as_array().expect("records").clone();
    for record in &mut records {
        record["eventSourceARN"] = json!(arn);
        if !record["dynamodb"]["ApproximateCreationDateTime"].is_number() {
            record["dynamodb"]["ApproximateCreationDateTime"] = json!(1_795_316_497.0);
        }
    }
    json!({ "Records": records })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_delivered_from_the_stream_signed_and_once() {
    bounded(async {
        let world = World::new(&[5]).await;
        let (message, _) = world.move_once().await;

        let event = world.stream_event().await;
        let inserts = event["Records"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|record| {
                record["eventName"] == "INSERT"
                    && record["dynamodb"]["Keys"]["SK"]["S"]
                        .as_str()
                        .is_some_and(|sk| sk.starts_with("OUT#"))
            })
            .count();
        assert_eq!(inserts, 1, "the move's commit wrote one OUT item: {event}");
        world.invoke(event).await;

        let received = world.receiver.received();
        assert_eq!(received.len(), 1, "one delivery: {received:?}");
        assert_eq!(received[0].id, message.id, "webhook-id is the message id");
        assert_eq!(received[0].json()["type"], "action");
        assert_eq!(received[0].body, message.body, "the committed bytes");
        verify_with_reference(&[(world.secret.clone(), received[0].clone())]);
        let stored = world.messages().await;
        assert_eq!(stored[0].status, DeliveryStatus::Delivered);
        assert_eq!(stored[0].attempts.len(), 1);
        assert!(receive(&world.sqs, &world.queues.retry, 0).await.is_empty());

        // The stream again (a redelivery, now with the attempt's MODIFY record): no second
        // delivery, no retry.
        world.invoke(world.stream_event().await).await;
        assert_eq!(world.receiver.received().len(), 1);
        assert!(receive(&world.sqs, &world.queues.retry, 0).await.is_empty());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_attempt_is_retried_through_sqs_with_the_same_webhook_id() {
    bounded(async {
        let world = World::new(&[1]).await;
        let (message, key) = world.move_once().await;
        world.receiver.answer(503);

        world.invoke(world.stream_event().await).await;

        let stored = world.messages().await;
        assert_eq!(stored[0].status, DeliveryStatus::Pending);
        assert_eq!(stored[0].attempts.len(), 1);
        assert_eq!(stored[0].attempts[0].status_code, Some(503));
        // The retry waits in SQS for its delay (1 s here), then shows up.
        let queued = receive_expected(&world.sqs, &world.queues.retry).await;
        assert_eq!(queued.len(), 1, "one retry queued: {queued:?}");
        let body: MessageKey = serde_json::from_str(&queued[0].1).expect("a key");
        assert_eq!(body, key);

        world.receiver.answer(204);
        world.invoke(sqs_event(&world.queues.retry, &queued)).await;

        let stored = world.messages().await;
        assert_eq!(stored[0].status, DeliveryStatus::Delivered);
        assert_eq!(stored[0].attempts.len(), 2);
        let received = world.receiver.received();
        let answers: Vec<u16> = received.iter().map(|r| r.answered).collect();
        assert_eq!(answers, [503, 204]);
        assert!(
            received.iter().all(|r| r.id == message.id),
            "same webhook-id"
        );
        let signed: Vec<_> = received
            .iter()
            .map(|r| (world.secret.clone(), r.clone()))
            .collect();
        verify_with_reference(&signed);
        assert!(receive(&world.sqs, &world.queues.retry, 0).await.is_empty());
        assert!(receive(&world.sqs, &world.queues.dead_letter, 0)
            .await
            .is_empty());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_that_arrives_before_it_is_due_is_sent_back_without_an_attempt() {
    bounded(async {
        // The next attempt is an hour away: longer than any SQS delay.
        let world = World::new(&[3600]).await;
        let (_, key) = world.move_once().await;
        world.receiver.answer(503);

        world.invoke(world.stream_event().await).await;
        assert_eq!(
            delayed(&world.sqs, &world.queues.retry).await,
            1,
            "requeued with a delay"
        );

        // What SQS hands back after its 15-minute maximum, while the attempt is still due
        // in 45 minutes: sent back again, capped at 900 s, and no attempt.
        let outcome = world.notifier.advance(&key).await.expect("advanced");
        assert_eq!(outcome, Outcome::Waiting { delay_seconds: 900 });
        let early = sqs_event(
            &world.queues.retry,
            &[("m-early".into(), serde_json::to_string(&key).unwrap())],
        );
        world.invoke(early).await;

        assert_eq!(delayed(&world.sqs, &world.queues.retry).await, 3);
        assert_eq!(world.receiver.received().len(), 1, "only the first attempt");
        assert_eq!(world.messages().await[0].attempts.len(), 1);
        assert_eq!(world.messages().await[0].status, DeliveryStatus::Pending);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exhausted_delivery_and_a_poison_message_end_in_the_dead_letter_queue() {
    bounded(async {
        // No delays: a single attempt.
        let world = World::new(&[]).await;
        let (message, key) = world.move_once().await;
        world.receiver.answer(503);

        world.invoke(world.stream_event().await).await;

        let stored = world.messages().await;
        assert_eq!(stored[0].status, DeliveryStatus::Failed);
        assert_eq!(stored[0].attempts.len(), 1);
        assert!(receive(&world.sqs, &world.queues.retry, 0).await.is_empty());
        let dead = receive_expected(&world.sqs, &world.queues.dead_letter).await;
        assert_eq!(dead.len(), 1, "{dead:?}");
        let letter: Value = serde_json::from_str(&dead[0].1).expect("JSON");
        assert_eq!(letter["message_id"], message.id.as_str());
        assert_eq!(letter["sk"], key.sk.as_str());
        assert_eq!(letter["last_status_code"], 503);
        assert!(
            letter["reason"]
                .as_str()
                .is_some_and(|reason| reason.starts_with("attempts exhausted")),
            "{letter}"
        );

        // A retry message that is not a key can never succeed: dead-lettered, not retried.
        let poison = sqs_event(&world.queues.retry, &[("m-bad".into(), "{\"pk\":".into())]);
        world.invoke(poison).await;
        let dead = receive_expected(&world.sqs, &world.queues.dead_letter).await;
        assert_eq!(dead.len(), 1, "{dead:?}");
        assert!(dead[0].1.contains("not {pk, sk}"), "{}", dead[0].1);
        assert_eq!(world.receiver.received().len(), 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_that_cannot_be_handled_is_reported_alone() {
    bounded(async {
        let world = World::new(&[5]).await;
        let (_, key) = world.move_once().await;
        // The same function with a retry queue that does not exist: its sends fail.
        let broken = Notifier::new(
            world.store.clone(),
            Arc::new(world.store.clone()),
            WebhookConfig {
                dev: true,
                retry: policy(&[5]),
                ..WebhookConfig::default()
            },
            world.sqs.clone(),
            Queues {
                retry: format!("{}-missing", world.queues.retry),
                dead_letter: world.queues.dead_letter.clone(),
            },
        );
        world.receiver.answer(503);
        let batch = sqs_event(
            &world.queues.retry,
            &[
                (
                    "m-gone".into(),
                    json!({ "pk": key.pk, "sk": "OUT#nothing" }).to_string(),
                ),
                ("m-real".into(), serde_json::to_string(&key).unwrap()),
            ],
        );

        let response = broken.handle(batch).await.expect("a batch response");

        // The attempt was made and recorded, but re-queueing failed: only that record is
        // retried; the key of a vanished item is done.
        assert_eq!(
            response,
            json!({ "batchItemFailures": [{ "itemIdentifier": "m-real" }] })
        );
        assert_eq!(world.messages().await[0].attempts.len(), 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_record_expires_is_deleted_whole_from_the_stream() {
    bounded(async {
        let world = World::new(&[5]).await;
        world.move_once().await;
        let id = world.game.id.clone();
        testing::expire_record(&world.store, &id).await;
        assert!(
            !world.store.log(&id, None, 100).await.unwrap().is_empty()
                && !world.messages().await.is_empty(),
            "the TTL removes the record alone: the log and the outbox are left"
        );

        // The stream's removal of the record, alone (the move's OUT insert would attempt a
        // delivery at the same time, which is another test's business).
        let mut event = world.stream_event().await;
        let records = event["Records"].as_array_mut().unwrap();
        records.retain(|record| {
            record["eventName"] == "REMOVE" && record["dynamodb"]["Keys"]["SK"]["S"] == "META"
        });
        assert_eq!(records.len(), 1, "one removal of the record: {event}");
        world.invoke(event).await;

        assert!(
            world.store.load(&id).await.unwrap().is_none()
                && world.store.log(&id, None, 100).await.unwrap().is_empty()
                && world.messages().await.is_empty(),
            "nothing of the game is left"
        );
        // A second removal (the stream delivers at least once) finds nothing to do.
        let mut again = world.stream_event().await;
        again["Records"].as_array_mut().unwrap().retain(|record| {
            record["eventName"] == "REMOVE" && record["dynamodb"]["Keys"]["SK"]["S"] == "META"
        });
        world.invoke(again).await;
    })
    .await;
}
