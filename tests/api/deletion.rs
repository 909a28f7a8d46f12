//! Deleting a game (`DELETE /v1/games/{id}`, docs/api.md "Deleting a game") and the
//! retention of finished games: after a deletion every read of the game is a 404 and the
//! store holds nothing of it, on SQLite and on DynamoDB; retention deletes a finished game
//! once its period has passed and leaves live games alone.

use crate::test_options;
use api_tests::{some_action, spawn_app_with_webhooks, temp_db, StartedGame, TestApp};
use serde_json::json;
use service::webhooks::WebhookConfig;
use std::sync::Arc;
use std::time::Duration;
use store::{GameRecord, GameStore, SqliteStore, Status};

const RULESET: &str = "tulipmania-1637";

/// Dev mode, so that a subscription to a loopback address is accepted; no delivery worker
/// runs, so its notifications stay pending in the outbox.
fn dev() -> WebhookConfig {
    WebhookConfig {
        dev: true,
        ..WebhookConfig::default()
    }
}

async fn delete(app: &TestApp, id: &str, token: Option<&str>) -> api_tests::Reply {
    let auth = token.map(|token| format!("Bearer {token}"));
    let headers: Vec<(&str, &str)> = auth
        .iter()
        .map(|value| ("authorization", value.as_str()))
        .collect();
    app.send("DELETE", &format!("/v1/games/{id}"), &headers, Vec::new())
        .await
}

/// A started game with something under every kind of item: a subscription whose
/// notifications wait in the outbox, a few moves in the log, and one made under an
/// Idempotency-Key. Returns the game and its subscription's id.
async fn a_game_with_everything(app: &TestApp) -> (StartedGame, String) {
    let game = app.start_game(RULESET, 3, test_options(RULESET)).await;
    let hook = app
        .post(
            &format!("/v1/games/{}/webhooks", game.id),
            Some(&game.tokens[0]),
            &json!({"url": "http://127.0.0.1:9/hook"}),
            &[],
        )
        .await;
    assert_eq!(hook.status, 201, "{}", hook.text());
    let hook_id = hook.json()["id"]
        .as_str()
        .expect("a subscription id")
        .to_owned();
    let envelope = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json();
    let seat = envelope["to_act"][0].as_u64().expect("someone acts") as usize;
    let legal = app
        .get(
            &format!("/v1/games/{}/legal-actions", game.id),
            Some(&game.tokens[seat]),
        )
        .await
        .json();
    let moved = app
        .post(
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[seat]),
            &json!({"action": some_action(&legal)}),
            &[("idempotency-key", "deleted-move-1")],
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text());
    for step in 0..4 {
        api_tests::random_move(app, &game, 56, step).await;
    }
    (game, hook_id)
}

/// Everything of `id` the store can be asked for, as counts: the record, the log entries,
/// the kept answer of seat `seat`'s keyed move, the subscription's notifications.
async fn stored(store: &dyn GameStore, id: &str, seat: u8, hook: &str) -> [usize; 4] {
    [
        usize::from(store.load(id).await.unwrap().is_some()),
        store.log(id, None, 10_000).await.unwrap().len(),
        usize::from(
            store
                .idempotency(id, seat, "deleted-move-1")
                .await
                .unwrap()
                .is_some(),
        ),
        store
            .messages(id, hook, None, 1_000)
            .await
            .unwrap()
            .messages
            .len(),
    ]
}

/// The whole deletion, on `app` (over any store).
async fn a_deleted_game_is_gone_for_everyone(app: &TestApp) {
    let (game, hook) = a_game_with_everything(app).await;
    let before = app.store.log(&game.id, None, 10_000).await.unwrap();
    let keyed = before
        .iter()
        .find(|entry| entry.idempotency_key.as_deref() == Some("deleted-move-1"))
        .and_then(|entry| entry.seat)
        .expect("the keyed move is in the log");
    let held = stored(app.store.as_ref(), &game.id, keyed, &hook).await;
    assert!(
        held[0] == 1 && held[1] >= 2 && held[2] == 1 && held[3] >= 1,
        "the game holds a record, a log, a kept answer and notifications first: {held:?}"
    );

    // Nobody but the admin may delete it, and a refusal changes nothing.
    let anonymous = delete(app, &game.id, None).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text());
    let seat = delete(app, &game.id, Some(&game.tokens[0])).await;
    assert_eq!(seat.status, 403, "{}", seat.text());
    assert_eq!(
        stored(app.store.as_ref(), &game.id, keyed, &hook).await,
        held,
        "a refused deletion deletes nothing"
    );

    let deleted = delete(app, &game.id, Some(&game.admin_token)).await;
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    assert_eq!(
        stored(app.store.as_ref(), &game.id, keyed, &hook).await,
        [0, 0, 0, 0],
        "the store holds nothing of a deleted game"
    );

    let id = &game.id;
    let reads = [
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/log"),
        format!("/v1/games/{id}/audit"),
        format!("/v1/games/{id}/history/0"),
        format!("/v1/games/{id}/legal-actions"),
        format!("/v1/games/{id}/webhooks"),
        format!("/v1/games/{id}/webhooks/{hook}/deliveries"),
    ];
    for token in [None, Some(game.tokens[0].as_str()), Some(&game.admin_token)] {
        for path in &reads {
            let reply = app.get(path, token).await;
            assert_eq!(reply.status, 404, "GET {path}: {}", reply.text());
            assert_eq!(reply.json()["code"], "game-not-found", "GET {path}");
        }
    }
    let moved = app
        .submit(id, &game.tokens[0], &json!({"type": "pass"}))
        .await;
    assert_eq!(moved.status, 404, "{}", moved.text());
    let again = delete(app, id, Some(&game.admin_token)).await;
    assert_eq!(again.status, 404, "{}", again.text());
    // The game's tokens name a game that is gone.
    let mine = app.get("/v1/me/games", Some(&game.tokens[0])).await;
    assert_eq!(mine.status, 401, "{}", mine.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_game_is_gone_for_everyone_on_sqlite() {
    let db = temp_db("deletion");
    let store = Arc::new(SqliteStore::open(&db).expect("open SQLite"));
    let app = spawn_app_with_webhooks(store, dev()).await;
    a_deleted_game_is_gone_for_everyone(&app).await;
    api_tests::remove_db(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_game_is_gone_for_everyone_on_dynamodb() {
    let store = store::dynamo::testing::store().await;
    let app = spawn_app_with_webhooks(Arc::new(store), dev()).await;
    a_deleted_game_is_gone_for_everyone(&app).await;
}

/// A game of `status` last changed at `updated_at`, created straight in the store.
async fn stored_game(
    store: &dyn GameStore,
    name: &str,
    status: Status,
    updated_at: u64,
) -> GameRecord {
    let id = format!("g_retention{name}{}", rand_suffix());
    let mut record = store::testing::sample_record(&id);
    record.status = status;
    record.updated_at = updated_at;
    store.create(&record).await.expect("create");
    record
}

/// A suffix that keeps ids apart between runs on one database.
fn rand_suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .subsec_nanos();
    format!("{nanos:09}")
}

#[tokio::test]
async fn retention_deletes_finished_games_after_their_period_and_leaves_live_ones() {
    const DAY: u64 = 86_400_000;
    let db = temp_db("retention");
    let store: Arc<dyn GameStore> = Arc::new(SqliteStore::open(&db).expect("open SQLite"));
    let ctx = api_tests::test_ctx(store.clone()).with_retention(Duration::from_secs(7 * 86_400));
    let finished_at = 1_800_000_000_000;
    let finished = stored_game(store.as_ref(), "finished", Status::Finished, finished_at).await;
    let active = stored_game(
        store.as_ref(),
        "active",
        Status::Active,
        finished_at - 30 * DAY,
    )
    .await;
    let open = stored_game(store.as_ref(), "open", Status::Open, finished_at - 30 * DAY).await;

    let early = service::deadlines::sweep(&ctx, finished_at + 7 * DAY - 1)
        .await
        .expect("sweep");
    assert_eq!(
        early.deleted, 0,
        "a finished game is kept for its whole period"
    );
    assert!(store.load(&finished.id).await.unwrap().is_some());

    let due = service::deadlines::sweep(&ctx, finished_at + 7 * DAY + 1)
        .await
        .expect("sweep");
    assert_eq!(due.deleted, 1, "{due:?}");
    assert!(
        store.load(&finished.id).await.unwrap().is_none(),
        "the finished game is gone"
    );
    for live in [&active, &open] {
        assert!(
            store.load(&live.id).await.unwrap().is_some(),
            "a live game is never retired, however old: {}",
            live.id
        );
    }
    let without = api_tests::test_ctx(store.clone());
    let kept = stored_game(
        store.as_ref(),
        "kept",
        Status::Finished,
        finished_at - 365 * DAY,
    )
    .await;
    let report = service::deadlines::sweep(&without, finished_at + 365 * DAY)
        .await
        .expect("sweep");
    assert_eq!(
        (
            report.deleted,
            store.load(&kept.id).await.unwrap().is_some()
        ),
        (0, true),
        "without a retention period, finished games are kept"
    );
    api_tests::remove_db(&db);
}
