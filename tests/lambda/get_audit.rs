//! `get-audit` on an API Gateway event (tests/fixtures/apigw/get-audit.json).

use api_tests::apigw::{call, event, memory_ctx, reply, started_game};

#[tokio::test]
async fn get_audit_of_an_active_game_shows_the_commitment_not_the_secret() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;

    let request = event("get-audit", &[("id", &game.id)]);
    let (status, _, body) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seed_commitment"], game.seed_commitment.as_str());
    assert!(body["server_secret"].is_null(), "{body}");
}
