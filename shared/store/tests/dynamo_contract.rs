//! Runs the store contract (`store::testing::contract`) against DynamoStore on a real
//! DynamoDB API: a moto server this test process starts (or `BEURS_TEST_DYNAMODB_URL`), and
//! checks what each operation costs in DynamoDB requests.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use store::dynamo::testing::{store, store_with, CallCounter};
use store::testing::{contract, sample_record};
use store::{Commit, GameStore, ListQuery, LogEntry, Status};

// Multi-threaded, so that the racing commits really are concurrent requests.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamo_store_meets_the_contract() {
    let store = store().await;
    contract(&store).await;
    // Each run uses its own ids, so a second run on the same table passes too.
    contract(&store).await;
}

/// An id unique to this run, so that the tests can share a table (`BEURS_TEST_DYNAMODB_TABLE`).
fn unique_id(name: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos())
        .unwrap_or(0);
    format!("g_{name}_{}_{nanos:x}", std::process::id())
}

#[tokio::test]
async fn dynamo_store_pays_one_request_per_operation() {
    let counter = CallCounter::default();
    let store = store_with(&counter).await;
    counter.take(); // Creating the table.
    let record = sample_record(&unique_id("cost"));
    store.create(&record).await.unwrap();
    assert_eq!(counter.take(), ["PutItem"]);

    let loaded = store.load(&record.id).await.unwrap().unwrap();
    let mut next = loaded.clone();
    next.version += 1;
    next.log_len += 1;
    next.status = Status::Active;
    let entry = LogEntry {
        seq: 0,
        seat: Some(0),
        action: serde_json::json!({ "type": "bid" }),
        events: serde_json::json!([]),
        idempotency_key: None,
        state_hash: "00".repeat(32),
        at: 1,
    };
    store
        .commit(&Commit {
            record: next,
            expected_version: 0,
            entry: Some(entry),
            idempotency: None,
            outbox: Vec::new(),
        })
        .await
        .unwrap();
    assert_eq!(
        counter.take(),
        ["GetItem", "TransactWriteItems"],
        "a move is one read and one transactional write"
    );

    store.log(&record.id, None, 10).await.unwrap();
    store
        .list_open(&ListQuery {
            ruleset: Some("tulipmania".into()),
            cursor: None,
            limit: 10,
        })
        .await
        .unwrap();
    assert_eq!(
        counter.take(),
        ["Query", "Query"],
        "log and lobby are one Query each"
    );
}

#[tokio::test]
async fn finished_games_get_a_ttl_only_when_configured() {
    let counter = CallCounter::default();
    let store = store_with(&counter)
        .await
        .with_finished_ttl(Duration::from_secs(7 * 86_400));
    let mut record = sample_record(&unique_id("ttl"));
    record.status = Status::Finished;
    store.create(&record).await.unwrap();

    // The TTL attribute is not part of the record, so read the raw item.
    let client = store::dynamo::testing::client(&counter).await;
    let item = client
        .get_item()
        .table_name(store.table())
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("GAME#{}", record.id)),
        )
        .key(
            "SK",
            aws_sdk_dynamodb::types::AttributeValue::S("META".into()),
        )
        .send()
        .await
        .unwrap();
    let expires_at = item.item().unwrap().get("expires_at").cloned();
    assert_eq!(
        expires_at,
        Some(aws_sdk_dynamodb::types::AttributeValue::N(
            (record.updated_at / 1_000 + 7 * 86_400).to_string()
        ))
    );
}
