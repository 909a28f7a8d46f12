//! Webhook delivery when a receiver is slow (issue 13, hole 2): a receiver that accepts
//! connections and never answers must not delay notifications to other receivers, gets at most
//! the per-receiver number of attempts at once, and never two attempts of one notification at
//! the same time.

use crate::options_for;
use api_tests::webhooks::{Receiver, Tarpit};
use api_tests::{random_move, remove_db, spawn_app_at, temp_db, TestApp};
use serde_json::{json, Value};
use service::delivery::MAX_IN_FLIGHT_PER_RECEIVER;
use service::webhooks::{RetryPolicy, WebhookConfig};
use std::collections::BTreeSet;
use std::time::Duration;

/// Tulip Bubble with 3 seats.
const RULESET: &str = "tulip-bubble";
const SEATS: u8 = 3;

/// Subscribes with `token`; returns the created subscription.
async fn subscribe(app: &TestApp, id: &str, token: &str, url: &str, events: Value) -> Value {
    let reply = app
        .post(
            &format!("/v1/games/{id}/webhooks"),
            Some(token),
            &json!({ "url": url, "events": events }),
            &[],
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receiver_that_never_answers_does_not_delay_another_games_notifications() {
    let tarpit = Tarpit::start().await;
    let receiver = Receiver::start().await;
    let db = temp_db("webhooks-slow-receiver");
    // Dev mode (loopback receivers) with the production schedule, but for the attempt
    // timeout: 10 s in production, ten minutes here, so that the held attempts cannot end
    // while a busy machine runs the test (the property is that they hold nothing else up,
    // whatever their timeout).
    assert_eq!(
        RetryPolicy::default().attempt_timeout,
        Duration::from_secs(10)
    );
    let timeout = Duration::from_secs(600);
    let config = WebhookConfig {
        dev: true,
        retry: RetryPolicy {
            attempt_timeout: timeout,
            ..RetryPolicy::default()
        },
        ..WebhookConfig::default()
    };
    let app = spawn_app_at(&db, config).await;
    let options = options_for(RULESET, SEATS);
    let a = app.start_game(RULESET, SEATS, options.clone()).await;
    let b = app.start_game(RULESET, SEATS, options).await;

    // Game A: the admin and every seat subscribe to the tarpit, so a move in A queues several
    // notifications to it.
    subscribe(
        &app,
        &a.id,
        &a.admin_token,
        &tarpit.url("/a/admin"),
        json!(["action"]),
    )
    .await;
    for (seat, token) in a.tokens.iter().enumerate() {
        let url = tarpit.url(&format!("/a/seat/{seat}"));
        subscribe(&app, &a.id, token, &url, json!(["turn", "finished"])).await;
    }
    // Game B: its admin subscribes to a receiver that answers at once.
    subscribe(
        &app,
        &b.id,
        &b.admin_token,
        &receiver.url("/b/admin"),
        json!(["action"]),
    )
    .await;

    // Moves in A: their notifications are being attempted at the tarpit, which holds them.
    for step in 1..=3 {
        random_move(&app, &a, 5, step).await;
    }
    tarpit
        .wait_for_requests(30, MAX_IN_FLIGHT_PER_RECEIVER)
        .await;

    // A move in B is delivered while A's attempts are still held at the tarpit: none of them
    // has ended (each may take 10 s) and none has been attempted again. Both are facts about
    // the attempts, not about the clock, so a busy machine cannot decide this test; a waited
    // bound well under A's 10 s attempt timeout is only the failure message.
    random_move(&app, &b, 6, 1).await;
    let received = receiver
        .wait_for(30, "game B's action notification", |received| {
            !received.is_empty()
        })
        .await;
    assert_eq!(received[0].json()["data"]["game_id"], json!(b.id));
    assert_eq!(
        (tarpit.open(), tarpit.ids().len()),
        (MAX_IN_FLIGHT_PER_RECEIVER, MAX_IN_FLIGHT_PER_RECEIVER),
        "B's notification arrived only after A's held attempts ended (open, attempts)"
    );

    // Another move in B, delivered too: the worker has run more passes while A's attempts
    // were still held, and they stay the same attempts, none ended and none doubled.
    random_move(&app, &b, 6, 2).await;
    receiver
        .wait_for(60, "game B's second action notification", |received| {
            received.len() >= 2
        })
        .await;
    assert_eq!(
        tarpit.open(),
        MAX_IN_FLIGHT_PER_RECEIVER,
        "an attempt at the tarpit ended; each may take {timeout:?}"
    );
    let ids = tarpit.ids();
    let distinct: BTreeSet<&String> = ids.iter().collect();
    assert_eq!(
        distinct.len(),
        ids.len(),
        "a notification was attempted twice at once: {ids:?}"
    );
    assert_eq!(
        ids.len(),
        MAX_IN_FLIGHT_PER_RECEIVER,
        "three notifications are due at the tarpit; exactly its limit should be in flight"
    );
    assert!(
        tarpit.max_open() <= MAX_IN_FLIGHT_PER_RECEIVER,
        "{} connections at once to one receiver",
        tarpit.max_open()
    );
    drop(app);
    remove_db(&db);
}
