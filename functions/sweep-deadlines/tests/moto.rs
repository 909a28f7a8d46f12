//! The scheduled sweep against DynamoDB (moto): a clocked game on a `DynamoStore`, played
//! through the HTTP API, whose player never moves; the function's handler, invoked as the
//! schedule invokes it, finds the game through the due index and applies the timeout once.
//! The clock is an hour long and the schedule runs at the times the test chooses
//! (`handle_at`): no clock of the machine races the test's requests.

use api_tests::spawn_app_with;
use serde_json::{json, Value};
use std::sync::Arc;
use store::dynamo::testing;
use store::GameStore;

/// What EventBridge Scheduler sends with the template's schedule (the handler ignores it).
fn scheduled_event() -> Value {
    json!({})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheduled_sweep_drops_a_timed_out_seat_on_dynamodb() {
    let store = testing::store().await;
    let app = spawn_app_with(Arc::new(store.clone())).await;
    let clock = json!({"per_move": "PT1H", "on_timeout": "drop", "remind_at": 0});
    let created = app
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": "tulip-bubble", "seats": 3, "clock": clock}),
            &[],
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    let id = created.json()["id"].as_str().expect("id").to_string();
    for (seat, body) in [
        (0, json!({"name": "Absent"})),
        (1, json!({"bot": "random"})),
        (2, json!({"bot": "random"})),
    ] {
        let claimed = app
            .post(&format!("/v1/games/{id}/seats/{seat}"), None, &body, &[])
            .await;
        assert_eq!(claimed.status, 201, "{}", claimed.text());
    }
    let envelope = app.get(&format!("/v1/games/{id}"), None).await.json();
    assert_eq!(envelope["waiting_on"], json!([0]), "{envelope}");

    // Before the deadline nothing is due: the sweep reads the index and does nothing.
    let ctx = api_tests::test_ctx(Arc::new(store.clone()));
    let deadline = store
        .load(&id)
        .await
        .expect("loads")
        .expect("exists")
        .due_at
        .expect("a deadline");
    let idle = sweep_deadlines::handle_at(&ctx, scheduled_event(), || deadline - 1)
        .await
        .expect("a sweep");
    assert_eq!(idle["games"], 0, "{idle}");

    // The schedule runs once the hour is up.
    let done = sweep_deadlines::handle_at(&ctx, scheduled_event(), || deadline)
        .await
        .expect("a sweep");
    assert_eq!(done["timeouts"], 1, "{done}");
    assert!(done["bot_moves"].as_u64() > Some(0), "{done}");

    // The dropped seat's bot and the others play the game to the end: the sweep drives them
    // (within the tests' drive budget; with the server's 5 s a long game takes the next
    // scheduled sweeps, which the loop below stands for). The timeout stays counted once,
    // and the game leaves the due index.
    let mut finished = app.get(&format!("/v1/games/{id}"), None).await.json();
    for _ in 0..100 {
        if finished["status"] == "finished" {
            break;
        }
        sweep_deadlines::handle(&ctx, scheduled_event())
            .await
            .expect("a sweep");
        finished = app.get(&format!("/v1/games/{id}"), None).await.json();
    }
    assert_eq!(finished["status"], "finished", "{finished}");
    assert_eq!(finished["seats"][0]["resigned"], true);
    assert_eq!(finished["clock"]["seats"][0]["timeouts"], 1, "{finished}");
    let due = store
        .due_games(service::time::now_ms(), 100)
        .await
        .expect("due games");
    assert!(!due.contains(&id), "a finished game is still due");
    let again = sweep_deadlines::handle(&ctx, scheduled_event())
        .await
        .expect("a sweep");
    assert_eq!(
        again["timeouts"], 0,
        "the timeout was applied twice: {again}"
    );
}
