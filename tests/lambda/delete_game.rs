//! `delete-game` on API Gateway events with a path parameter and a bearer token
//! (tests/fixtures/apigw/delete-game.json).

use api_tests::apigw::{call, event, reply, started_game};
use api_tests::apigw_webhooks::dev_memory_ctx;

#[tokio::test]
async fn delete_game_deletes_once_and_only_for_the_admin() {
    let ctx = dev_memory_ctx();
    let game = started_game(&ctx).await;
    let as_seat = event(
        "delete-game",
        &[("id", game.id.as_str()), ("token", game.tokens[0].as_str())],
    );
    let (status, _, problem) = reply(call(&ctx, as_seat).await.unwrap());
    assert_eq!(status, 403, "{problem}");
    assert!(ctx.store.load(&game.id).await.unwrap().is_some());

    let as_admin = [
        ("id", game.id.as_str()),
        ("token", game.admin_token.as_str()),
    ];
    let (status, _, body) = reply(call(&ctx, event("delete-game", &as_admin)).await.unwrap());
    assert_eq!(status, 204, "{body}");
    assert!(ctx.store.load(&game.id).await.unwrap().is_none());
    assert!(ctx.store.log(&game.id, None, 100).await.unwrap().is_empty());

    let (status, _, problem) = reply(call(&ctx, event("delete-game", &as_admin)).await.unwrap());
    assert_eq!(status, 404, "{problem}");
}
