//! `list-deliveries` on an API Gateway event with two path parameters, a query string
//! (`limit=10`) and a bearer token (tests/fixtures/apigw/list-deliveries.json).

use api_tests::apigw::{base64_body, call, event, next_move, reply, started_game};
use api_tests::apigw_webhooks::{dev_memory_ctx, subscribed};

#[tokio::test]
async fn list_deliveries_shows_the_notification_a_move_queued() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;
    let hook = subscribed(&ctx, &game.id, &game.admin_token, &["action"]).await;
    let (token, version, body) = next_move(&ctx, &game).await;
    let body = base64_body(&body.to_string());
    let version = version.to_string();
    let submitted = call(
        &ctx,
        event(
            "submit-action",
            &[
                ("id", &game.id),
                ("token", &token),
                ("body", &body),
                ("version", &version),
            ],
        ),
    )
    .await
    .unwrap();
    assert_eq!(reply(submitted).0, 200);

    let request = event(
        "list-deliveries",
        &[
            ("id", &game.id),
            ("hook", &hook),
            ("token", &game.admin_token),
        ],
    );
    let (status, _, body) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 200, "{body}");
    let deliveries = body["deliveries"].as_array().expect("a list");
    assert_eq!(deliveries.len(), 1, "one move, one `action`: {body}");
    assert_eq!(deliveries[0]["type"], "action", "{body}");
    assert_eq!(deliveries[0]["status"], "pending", "{body}");
    assert_eq!(deliveries[0]["attempts"].as_array().map(Vec::len), Some(0));
}

#[tokio::test]
async fn list_deliveries_of_an_unknown_subscription_is_404() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;

    let request = event(
        "list-deliveries",
        &[
            ("id", &game.id),
            ("hook", "wh_0123456789abcdef"),
            ("token", &game.admin_token),
        ],
    );
    let (status, _, problem) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 404, "{problem}");
}
