//! `list-games` on an API Gateway event with a query string
//! (tests/fixtures/apigw/list-games.json: `ruleset`, `status=open`, `limit=2`).

use api_tests::apigw::{call, event, memory_ctx, reply};

#[tokio::test]
async fn list_games_pages_the_lobby_by_the_query_string() {
    let ctx = memory_ctx();
    for _ in 0..3 {
        let (status, _, _) = reply(call(&ctx, event("create-game", &[])).await.unwrap());
        assert_eq!(status, 201);
    }

    let response = call(&ctx, event("list-games", &[])).await.unwrap();

    let (status, _, body) = reply(response);
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["games"].as_array().unwrap().len(),
        2,
        "limit=2: {body}"
    );
    assert!(
        body["next_after"].is_string(),
        "a third game remains: {body}"
    );
}
