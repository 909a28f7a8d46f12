//! `list-webhooks` on an API Gateway event with a bearer token
//! (tests/fixtures/apigw/list-webhooks.json).

use api_tests::apigw::{call, event, reply, started_game};
use api_tests::apigw_webhooks::{dev_memory_ctx, subscribed};

#[tokio::test]
async fn list_webhooks_shows_the_callers_own_subscriptions_without_secrets() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;
    let mine = subscribed(&ctx, &game.id, &game.tokens[0], &["turn", "finished"]).await;
    subscribed(&ctx, &game.id, &game.tokens[2], &["turn"]).await;
    subscribed(&ctx, &game.id, &game.admin_token, &["action"]).await;

    let request = event(
        "list-webhooks",
        &[("id", &game.id), ("token", &game.tokens[0])],
    );
    let (status, _, body) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 200, "{body}");
    let hooks = body["webhooks"].as_array().expect("a list");
    assert_eq!(hooks.len(), 1, "only seat 0's own: {body}");
    assert_eq!(hooks[0]["id"], mine.as_str());
    assert!(hooks[0].get("secret").is_none(), "{body}");
}

#[tokio::test]
async fn list_webhooks_without_a_token_is_401() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;

    let request = event(
        "list-webhooks",
        &[("id", &game.id), ("token", "not-a-token")],
    );
    let (status, content_type, problem) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 401, "{problem}");
    assert_eq!(content_type, "application/problem+json");
}
