//! `list-legal-actions` on an API Gateway event (tests/fixtures/apigw/list-legal-actions.json).

use api_tests::apigw::{call, event, memory_ctx, reply, started_game};

#[tokio::test]
async fn list_legal_actions_answers_for_the_token_s_seat() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;

    let request = event(
        "list-legal-actions",
        &[("id", &game.id), ("token", &game.tokens[1])],
    );
    let (status, _, body) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seat"], 1);
    assert!(body["actions"].is_array());
}

#[tokio::test]
async fn list_legal_actions_without_a_valid_token_is_401() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;

    let request = event(
        "list-legal-actions",
        &[("id", &game.id), ("token", "bt_seat_forged")],
    );
    let (status, _, body) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 401, "{body}");
}
