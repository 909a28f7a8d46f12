//! `create-webhook` on API Gateway events with a base64 JSON body and a bearer token
//! (tests/fixtures/apigw/create-webhook.json).

use api_tests::apigw::{memory_ctx, started_game};
use api_tests::apigw_webhooks::{dev_memory_ctx, subscribe, LOOPBACK_URL};
use serde_json::json;

#[tokio::test]
async fn create_webhook_subscribes_a_seat_and_shows_the_secret_once() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;

    let (status, created) = subscribe(
        &ctx,
        &game.id,
        &game.tokens[1],
        &json!({ "url": LOOPBACK_URL, "events": ["turn"] }),
    )
    .await;

    assert_eq!(status, 201, "{created}");
    assert_eq!(created["seat"], 1, "{created}");
    assert_eq!(created["events"], json!(["turn"]), "{created}");
    assert!(
        created["secret"]
            .as_str()
            .is_some_and(|secret| secret.starts_with("whsec_")),
        "{created}"
    );
    let record = ctx.store.load(&game.id).await.unwrap().unwrap();
    assert_eq!(record.hooks.len(), 1);
    assert_eq!(record.hooks[0].seat, Some(1));
}

#[tokio::test]
async fn create_webhook_refuses_plain_http_without_dev_mode() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;

    let (status, problem) = subscribe(
        &ctx,
        &game.id,
        &game.admin_token,
        &json!({ "url": LOOPBACK_URL }),
    )
    .await;

    assert_eq!(status, 422, "{problem}");
    assert!(ctx
        .store
        .load(&game.id)
        .await
        .unwrap()
        .unwrap()
        .hooks
        .is_empty());
}

#[tokio::test]
async fn create_webhook_refuses_an_event_the_caller_may_not_have() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;

    // A seat may not subscribe to every move (`action` is the admin's).
    let (status, problem) = subscribe(
        &ctx,
        &game.id,
        &game.tokens[0],
        &json!({ "url": LOOPBACK_URL, "events": ["action"] }),
    )
    .await;

    assert_eq!(status, 422, "{problem}");
}
