//! Move clocks: a game whose player never moves still ends; reminders and timeouts arrive as
//! signed webhooks; a timeout survives a restart and is applied once when two workers race.
//!
//! One test runs a real ten-second clock with the server's own deadline worker. The others
//! run no deadline worker and sweep the deadlines themselves at the time the store says they
//! fall (`sweep_due`), with hour-long clocks: no clock of the machine races the test's own
//! requests, so a busy machine makes them slower, never different.

use api_tests::webhooks::{verify_with_reference, Receiver};
use api_tests::{
    remove_db, spawn_app_at, spawn_app_at_configured_without_deadline_worker,
    spawn_app_at_without_deadline_worker, temp_db, TestApp,
};
use serde_json::{json, Value};
use service::dice::Dice;
use service::webhooks::WebhookConfig;
use std::sync::Arc;
use std::time::Duration;

/// Dev mode (loopback receivers) and quick retries.
fn dev() -> WebhookConfig {
    WebhookConfig {
        dev: true,
        retry: service::webhooks::RetryPolicy::scaled(0.01),
        ..WebhookConfig::default()
    }
}

/// A Tulip Bubble game with `clock`: seat 0 is a player (returned: game id, seat 0's token,
/// admin token), seats 1 and 2 are random bots.
async fn game_with_clock(app: &TestApp, clock: Value) -> (String, String, String) {
    let (id, admin) = app
        .create_game(&json!({"ruleset": "tulip-bubble", "seats": 3, "clock": clock}))
        .await;
    let claimed = app
        .post(
            &format!("/v1/games/{id}/seats/0"),
            None,
            &json!({"name": "Absent"}),
            &[],
        )
        .await;
    assert_eq!(claimed.status, 201, "{}", claimed.text());
    let token = claimed.json()["player_token"]
        .as_str()
        .expect("token")
        .to_string();
    (id, token, admin)
}

/// Claims seats 1 and 2 for bots: the game starts.
async fn seat_bots(app: &TestApp, id: &str) {
    for seat in 1..3 {
        app.claim_bot(id, seat, "random").await;
    }
}

/// Subscribes `token` to `events` at `path` of `receiver`; returns the secret.
async fn subscribe(
    app: &TestApp,
    id: &str,
    token: &str,
    receiver: &Receiver,
    path: &str,
    events: &[&str],
) -> String {
    let reply = app
        .post(
            &format!("/v1/games/{id}/webhooks"),
            Some(token),
            &json!({"url": receiver.url(path), "events": events}),
            &[],
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["secret"].as_str().expect("secret").to_string()
}

/// Polls game `id` (as a spectator) until `done` holds, for up to `seconds`.
async fn wait_until(app: &TestApp, id: &str, seconds: u64, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(seconds);
    loop {
        let envelope = app.get(&format!("/v1/games/{id}"), None).await.json();
        if done(&envelope) {
            return envelope;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not within {seconds} s: {envelope}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The deadline worker of another process over the same store, swept when game `id`'s next
/// deadline or reminder falls (its `due_at`), as if the clock had run until then. With
/// `remind_at: 0` (no reminder), that is the deadline of the seat it waits on.
async fn sweep_due(app: &TestApp, id: &str) -> service::deadlines::SweepReport {
    sweep_due_with(app, id, Dice::Os).await
}

/// [`sweep_due`] by a worker whose bots and clock draw from `dice`.
async fn sweep_due_with(app: &TestApp, id: &str, dice: Dice) -> service::deadlines::SweepReport {
    let due = app
        .record(id)
        .await
        .due_at
        .expect("the game has a deadline");
    let worker = api_tests::test_ctx(Arc::clone(&app.store)).with_dice(dice);
    service::deadlines::sweep(&worker, due)
        .await
        .expect("a sweep")
}

/// Every log entry of game `id` (one page of up to 200 is enough for these checks).
async fn log(app: &TestApp, id: &str) -> Vec<Value> {
    let log = app
        .get(&format!("/v1/games/{id}/log?limit=200"), None)
        .await;
    assert_eq!(log.status, 200, "{}", log.text());
    log.json()["entries"].as_array().expect("entries").clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_second_clock_finishes_a_game_whose_player_never_moves() {
    let db = temp_db("clock-drop");
    let app = spawn_app_at(&db, dev()).await;
    let receiver = Receiver::start().await;
    // Ten seconds, the reminder at five: the worker looks every 50 ms, so a busy machine
    // still finds the five-second window between them.
    let clock = json!({"per_move": "PT10S", "on_timeout": "drop", "remind_at": 0.5});
    let (id, token, admin) = game_with_clock(&app, clock).await;
    let seat_secret = subscribe(
        &app,
        &id,
        &token,
        &receiver,
        "/seat0",
        &["turn", "reminder", "timeout"],
    )
    .await;
    let admin_secret = subscribe(&app, &id, &admin, &receiver, "/admin", &["timeout"]).await;
    seat_bots(&app, &id).await;

    // The bots played until the game waited on the player, whose clock now runs.
    let started = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(started["status"], "active", "{started}");
    assert_eq!(started["waiting_on"], json!([0]), "{started}");
    assert!(
        started["clock"]["seats"][0]["deadline"].is_string(),
        "{started}"
    );
    assert_eq!(started["clock"]["options"]["per_move"], "PT10S");

    // Nobody moves: a reminder at half time, the timeout at ten seconds, then the bot that
    // plays the dropped seat and the two others finish the game.
    let finished = wait_until(&app, &id, 120, |game| game["status"] == "finished").await;
    assert_eq!(finished["seats"][0]["resigned"], true);
    assert_eq!(finished["seats"][0]["bot"], "random");
    assert_eq!(finished["clock"]["seats"][0]["timeouts"], 1);
    let entries = log(&app, &id).await;
    assert!(
        entries
            .iter()
            .any(|entry| entry["seat"] == 0 && entry["by"] == "bot"),
        "the bot played the dropped seat"
    );

    let received = receiver
        .wait_for(60, "the reminder and both timeouts", |received| {
            received
                .iter()
                .filter(|r| r.json()["type"] == "timeout")
                .count()
                == 2
                && received.iter().any(|r| r.json()["type"] == "reminder")
        })
        .await;
    let of_type = |kind: &str| -> Vec<&api_tests::webhooks::Received> {
        received
            .iter()
            .filter(|r| r.json()["type"] == kind)
            .collect()
    };
    let reminders = of_type("reminder");
    assert_eq!(reminders.len(), 1, "one reminder per wait");
    assert_eq!(reminders[0].path, "/seat0");
    assert_eq!(reminders[0].json()["data"]["seat"], 0);
    let timeouts = of_type("timeout");
    let paths: Vec<&str> = timeouts.iter().map(|r| r.path.as_str()).collect();
    assert!(
        paths.contains(&"/seat0") && paths.contains(&"/admin"),
        "{paths:?}"
    );
    assert!(timeouts
        .iter()
        .all(|r| r.json()["data"]["policy"] == "drop"));
    // The seat's first turn notification carried its deadline.
    let turn = of_type("turn");
    assert!(
        turn[0].json()["data"]["deadline"].is_string(),
        "{}",
        turn[0].body
    );
    let mut signed: Vec<(String, api_tests::webhooks::Received)> = Vec::new();
    for delivery in received {
        let secret = if delivery.path == "/admin" {
            admin_secret.clone()
        } else {
            seat_secret.clone()
        };
        signed.push((secret, delivery));
    }
    verify_with_reference(&signed);
    drop(app);
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_turn_is_played_by_the_clock_and_the_player_keeps_the_seat() {
    let db = temp_db("clock-bot");
    let app = spawn_app_at_without_deadline_worker(&db, dev()).await;
    let (id, token, _) = game_with_clock(&app, json!({"per_move": "PT1H", "remind_at": 0})).await;
    seat_bots(&app, &id).await;
    let started = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(started["waiting_on"], json!([0]), "{started}");
    let first_deadline = app.record(&id).await.due_at.expect("a deadline");

    // The hour runs out: the clock plays seat 0's turn, and the bots play until the game
    // waits on seat 0 again (or is over).
    let swept = sweep_due(&app, &id).await;
    assert_eq!(swept.timeouts, 1, "{swept:?}");
    let timed_out = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(timed_out["clock"]["seats"][0]["timeouts"], 1, "{timed_out}");
    assert_eq!(
        timed_out["seats"][0]["bot"],
        Value::Null,
        "the player keeps the seat"
    );
    assert_eq!(timed_out["seats"][0]["resigned"], false);
    let entries = log(&app, &id).await;
    let by_clock: Vec<&Value> = entries.iter().filter(|e| e["by"] == "clock").collect();
    assert!(!by_clock.is_empty(), "no move was made by the clock");
    assert!(by_clock.iter().all(|entry| entry["seat"] == 0));

    // Back on the player's turn, its token still moves, with a fresh deadline.
    if timed_out["status"] == "active" {
        assert_eq!(timed_out["waiting_on"], json!([0]), "{timed_out}");
        let fresh = app.record(&id).await.due_at.expect("a deadline");
        assert!(
            fresh > first_deadline,
            "a fresh deadline: {fresh} after {first_deadline}"
        );
        let legal = app
            .get(&format!("/v1/games/{id}/legal-actions"), Some(&token))
            .await
            .json();
        let action = api_tests::some_action(&legal);
        let moved = app.submit(&id, &token, &action).await;
        assert_eq!(moved.status, 200, "{}", moved.text());
        let last = log(&app, &id).await;
        assert!(
            last.iter().any(|entry| entry["seat"] == 0
                && entry["by"].is_null()
                && entry["seq"].as_u64() > by_clock.last().and_then(|e| e["seq"].as_u64())),
            "the player's own move is not marked"
        );
    }
    drop(app);
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_the_pass_policy_the_clock_passes_where_the_rules_offer_a_pass() {
    // The deal, the bots and the clock's moves come from chosen dice (each sweep a worker of
    // its own, seeded by the sweep's number): the clock reaches a pass in the same game on
    // every run.
    let db = temp_db("clock-pass");
    let app = spawn_app_at_configured_without_deadline_worker(&db, dev(), |ctx| {
        ctx.with_dice(Dice::seeded(263))
    })
    .await;
    let (id, _token, _) = game_with_clock(
        &app,
        json!({"per_move": "PT1H", "on_timeout": "pass", "remind_at": 0}),
    )
    .await;
    seat_bots(&app, &id).await;
    let started = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(started["waiting_on"], json!([0]), "{started}");
    assert_eq!(sweep_due_with(&app, &id, Dice::seeded(0)).await.timeouts, 1);
    let timed_out = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(
        timed_out["clock"]["options"]["on_timeout"], "pass",
        "{timed_out}"
    );
    assert_eq!(
        timed_out["seats"][0]["bot"],
        Value::Null,
        "the player keeps the seat"
    );
    // Tulip Bubble's selling turns always offer `end_selling_turn`, a pass: the clock passes
    // there and never sells for the absent seat (a random bot would).
    let passes = ["end_selling_turn", "auction_pass"];
    let by_clock = |entries: &[Value]| -> Vec<Value> {
        entries
            .iter()
            .filter(|entry| entry["by"] == "clock")
            .cloned()
            .collect()
    };
    // Every hour the player does not move, the clock moves for it.
    let mut clock_moves = Vec::new();
    for sweep in 1..80 {
        clock_moves = by_clock(&log(&app, &id).await);
        let passed = clock_moves
            .iter()
            .any(|entry| passes.contains(&entry["action"]["type"].as_str().unwrap_or("")));
        if passed || app.record(&id).await.status != store::Status::Active {
            break;
        }
        assert_eq!(
            sweep_due_with(&app, &id, Dice::seeded(sweep))
                .await
                .timeouts,
            1
        );
    }
    assert!(
        clock_moves
            .iter()
            .any(|entry| passes.contains(&entry["action"]["type"].as_str().unwrap_or(""))),
        "the clock never passed: {clock_moves:?}"
    );
    for entry in &clock_moves {
        assert_eq!(entry["seat"], 0);
        let kind = entry["action"]["type"].as_str().unwrap_or("");
        assert!(
            !["sell_to_market", "sell_to_collector", "buy_back"].contains(&kind),
            "the clock sold for the absent seat: {entry}"
        );
    }
    drop(app);
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_due_while_the_server_was_down_is_applied_once_by_racing_workers() {
    let db = temp_db("clock-restart");
    let app = spawn_app_at_without_deadline_worker(&db, dev()).await;
    let (id, _token, _) = game_with_clock(&app, json!({"per_move": "PT1H", "remind_at": 0})).await;
    seat_bots(&app, &id).await;
    let started = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(started["waiting_on"], json!([0]), "{started}");
    // The server stops before the deadline ...
    drop(app);
    let before = {
        let store = store::SqliteStore::open(&db).expect("reopen");
        store::GameStore::load(&store, &id)
            .await
            .expect("loads")
            .expect("exists")
    };
    // ... and is down when the hour runs out.
    let due = before.due_at.expect("a deadline");
    assert!(
        due > service::time::now_ms(),
        "the deadline is an hour away"
    );

    // ... and two workers (two restarted processes) find the overdue game at once.
    let worker = || {
        let store: Arc<dyn store::GameStore> =
            Arc::new(store::SqliteStore::open(&db).expect("reopen"));
        api_tests::test_ctx(store)
    };
    let (first, second) = (worker(), worker());
    let (a, b) = tokio::join!(
        service::deadlines::sweep(&first, due),
        service::deadlines::sweep(&second, due)
    );
    let (a, b) = (a.expect("a sweep"), b.expect("a sweep"));
    assert_eq!(a.timeouts + b.timeouts, 1, "{a:?} {b:?}");

    let store = store::SqliteStore::open(&db).expect("reopen");
    let after = store::GameStore::load(&store, &id)
        .await
        .expect("loads")
        .expect("exists");
    let clock: Value = after.clock.clone().expect("a clock");
    assert_eq!(clock["seats"][0]["timeouts"], 1, "{clock}");
    let entries = store::GameStore::log(&store, &id, Some(before.log_len - 1), 1_000)
        .await
        .expect("log");
    assert!(!entries.is_empty(), "the timed-out turn was played");
    assert!(entries.iter().all(|entry| entry.seq >= before.log_len));
    // Nothing of the game before the timeout was lost.
    assert!(after.log_len > before.log_len);
    assert!(after.version > before.version);
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_clock_is_refused_and_nothing_is_created() {
    let db = temp_db("clock-bad");
    let app = spawn_app_at(&db, dev()).await;
    for clock in [
        json!({}),
        json!({"per_move": "24 hours"}),
        json!({"per_move": "PT1S", "bank": "P1D"}),
        json!({"bank": "P1D", "remind_at": 2}),
    ] {
        let reply = app
            .post(
                "/v1/games",
                None,
                &json!({"ruleset": "tulip-bubble", "seats": 3, "clock": clock}),
                &[],
            )
            .await;
        assert_eq!(reply.status, 422, "{clock}: {}", reply.text());
        assert_eq!(reply.json()["code"], "invalid-clock");
    }
    let unknown = app
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": "tulip-bubble", "seats": 3, "clock": {"per_move": "PT1M", "sudden_death": true}}),
            &[],
        )
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.text());
    let lobby = app.get("/v1/games", None).await.json();
    assert_eq!(lobby["games"], json!([]), "a refused game was created");
    drop(app);
    remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_move_a_crash_left_unplayed_is_played_by_the_deadline_worker() {
    let db = temp_db("clock-crash");
    let app = spawn_app_at(&db, dev()).await;
    let game = app.start_game("tulip-bubble", 3, json!({})).await;
    let id = game.id.clone();
    drop(app);
    // What a resignation leaves if its process dies before its bot moves: the seats the game
    // waits on are a bot's, due now, and nobody has played them.
    let store: Arc<dyn store::GameStore> = Arc::new(store::SqliteStore::open(&db).expect("reopen"));
    let before = store.load(&id).await.expect("loads").expect("exists");
    let mut next = before.clone();
    next.version += 1;
    for seat in &mut next.seats {
        seat.bot = Some("random".into());
        seat.resigned = true;
    }
    next.due_at = Some(service::time::now_ms());
    store
        .commit(&store::Commit {
            record: next,
            expected_version: before.version,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
        })
        .await
        .expect("commits");

    // A restarted server's worker finds the game due and plays its bots.
    let app = spawn_app_at(&db, dev()).await;
    let finished = wait_until(&app, &id, 30, |game| game["status"] == "finished").await;
    assert!(finished["outcome"].is_object(), "{finished}");
    let after = store.load(&id).await.expect("loads").expect("exists");
    assert_eq!(after.due_at, None, "a finished game is not due");
    drop(app);
    remove_db(&db);
}

/// Every event of a one-batch `GET /v1/me/events` for `token`, resumed from `last`.
async fn my_events(
    app: &TestApp,
    token: &str,
    last: Option<&str>,
) -> Vec<api_tests::sse::SseEvent> {
    let mut headers = vec![("authorization", format!("Bearer {token}"))];
    if let Some(last) = last {
        headers.push(("last-event-id", last.to_string()));
    }
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let mut stream = api_tests::sse::EventStream::open(app.addr, "/v1/me/events", &headers)
        .await
        .stream();
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        events.push(event);
    }
    events
}

/// Issue 54: a reminder that falls while a seat's `me` stream is away is told when it comes
/// back with `Last-Event-ID`, once: a second resume from the first's last event tells it no
/// more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_in_the_gap_is_told_once_on_resuming_my_stream() {
    let db = temp_db("clock-remind-gap");
    let app = spawn_app_at_configured_without_deadline_worker(&db, dev(), |ctx| {
        ctx.with_streams(service::streams::Streams::new(
            service::streams::StreamMode::OneBatch,
        ))
    })
    .await;
    let (id, token, _) = game_with_clock(&app, json!({"per_move": "PT1H", "remind_at": 0.5})).await;
    seat_bots(&app, &id).await;
    let started = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(started["waiting_on"], json!([0]), "{started}");

    let before = my_events(&app, &token, None).await;
    let cursor = before
        .iter()
        .rev()
        .find_map(|e| e.id.clone())
        .expect("an event id");
    assert!(
        before.iter().all(|e| e.event != "reminder"),
        "no reminder yet: {:?}",
        before.iter().map(|e| &e.event).collect::<Vec<_>>()
    );

    // Away: half the hour passes, and the reminder falls.
    let swept = sweep_due(&app, &id).await;
    assert_eq!((swept.reminders, swept.timeouts), (1, 0), "{swept:?}");

    let resumed = my_events(&app, &token, Some(&cursor)).await;
    let names: Vec<&str> = resumed.iter().map(|e| e.event.as_str()).collect();
    assert_eq!(
        names.iter().filter(|name| **name == "reminder").count(),
        1,
        "the reminder in the gap, once: {names:?}"
    );
    let again_from = resumed
        .iter()
        .rev()
        .find_map(|e| e.id.clone())
        .expect("an event id");
    let again = my_events(&app, &token, Some(&again_from)).await;
    assert!(
        again.iter().all(|e| e.event != "reminder"),
        "told again: {:?}",
        again.iter().map(|e| &e.event).collect::<Vec<_>>()
    );
    drop(app);
    remove_db(&db);
}
