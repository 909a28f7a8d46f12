//! `submit-action` on API Gateway events with a base64 body, `If-Match` and `Idempotency-Key`
//! headers (tests/fixtures/apigw/submit-action.json).

use api_tests::apigw::{base64_body, call, event, memory_ctx, next_move, reply, started_game};

#[tokio::test]
async fn submit_action_applies_a_listed_move_once_and_replays_its_key() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;
    let (token, version, body) = next_move(&ctx, &game).await;
    let body = base64_body(&body.to_string());
    let version = version.to_string();
    let substitutions = [
        ("id", game.id.as_str()),
        ("token", token.as_str()),
        ("body", body.as_str()),
        ("version", version.as_str()),
    ];

    let first = call(&ctx, event("submit-action", &substitutions))
        .await
        .unwrap();
    let again = call(&ctx, event("submit-action", &substitutions))
        .await
        .unwrap();

    let (status, _, first) = reply(first);
    assert_eq!(status, 200, "{first}");
    assert_eq!(
        first["version"].as_u64().unwrap().to_string(),
        (version.parse::<u64>().unwrap() + 1).to_string()
    );
    let (status, _, again) = reply(again);
    assert_eq!(status, 200, "a repeated Idempotency-Key replays: {again}");
    assert_eq!(again, first);
}

#[tokio::test]
async fn submit_action_with_a_stale_if_match_is_412() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;
    let (token, version, body) = next_move(&ctx, &game).await;
    let body = base64_body(&body.to_string());
    let stale = (version + 3).to_string();
    let substitutions = [
        ("id", game.id.as_str()),
        ("token", token.as_str()),
        ("body", body.as_str()),
        ("version", stale.as_str()),
    ];

    let response = call(&ctx, event("submit-action", &substitutions))
        .await
        .unwrap();

    let (status, content_type, problem) = reply(response);
    assert_eq!(status, 412, "{problem}");
    assert_eq!(content_type, "application/problem+json");
}

#[tokio::test]
async fn submit_action_with_a_body_that_is_not_json_is_400() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;
    let (token, version, _) = next_move(&ctx, &game).await;
    let body = base64_body("{\"action\": ");
    let version = version.to_string();
    let substitutions = [
        ("id", game.id.as_str()),
        ("token", token.as_str()),
        ("body", body.as_str()),
        ("version", version.as_str()),
    ];

    let response = call(&ctx, event("submit-action", &substitutions))
        .await
        .unwrap();

    let (status, _, problem) = reply(response);
    assert_eq!(status, 400, "{problem}");
}
