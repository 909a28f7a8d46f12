//! `create-game` on an API Gateway event (tests/fixtures/apigw/create-game.json).

use api_tests::apigw::{call, event, memory_ctx, reply};

#[tokio::test]
async fn create_game_answers_201_with_tokens_from_a_base64_body() {
    let ctx = memory_ctx();

    let response = call(&ctx, event("create-game", &[])).await.unwrap();

    let (status, content_type, body) = reply(response);
    assert_eq!(status, 201, "{body}");
    assert_eq!(content_type, "application/json");
    assert_eq!(body["ruleset"], "tulip-bubble");
    assert!(body["admin_token"]
        .as_str()
        .unwrap()
        .starts_with("bt_admin_"));
    assert_eq!(body["seed_commitment"].as_str().unwrap().len(), 64);
}
