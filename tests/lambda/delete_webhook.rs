//! `delete-webhook` on API Gateway events with two path parameters and a bearer token
//! (tests/fixtures/apigw/delete-webhook.json).

use api_tests::apigw::{call, event, reply, started_game};
use api_tests::apigw_webhooks::{dev_memory_ctx, subscribed};

#[tokio::test]
async fn delete_webhook_removes_the_subscription_once() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;
    let hook = subscribed(&ctx, &game.id, &game.admin_token, &["action"]).await;
    let substitutions = [
        ("id", game.id.as_str()),
        ("hook", hook.as_str()),
        ("token", game.admin_token.as_str()),
    ];

    let first = call(&ctx, event("delete-webhook", &substitutions))
        .await
        .unwrap();
    let again = call(&ctx, event("delete-webhook", &substitutions))
        .await
        .unwrap();

    let (status, _, body) = reply(first);
    assert_eq!(status, 204, "{body}");
    assert!(ctx
        .store
        .load(&game.id)
        .await
        .unwrap()
        .unwrap()
        .hooks
        .is_empty());
    let (status, _, problem) = reply(again);
    assert_eq!(status, 404, "{problem}");
}

#[tokio::test]
async fn delete_webhook_of_another_subscriber_is_404() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;
    let hook = subscribed(&ctx, &game.id, &game.tokens[1], &["turn"]).await;

    // Seat 0 may not delete seat 1's subscription, nor learn that it exists.
    let request = event(
        "delete-webhook",
        &[
            ("id", &game.id),
            ("hook", &hook),
            ("token", &game.tokens[0]),
        ],
    );
    let (status, _, problem) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 404, "{problem}");
    assert_eq!(
        ctx.store.load(&game.id).await.unwrap().unwrap().hooks.len(),
        1
    );
}
