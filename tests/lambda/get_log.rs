//! `get-log` on an API Gateway event with a query string (tests/fixtures/apigw/get-log.json:
//! `after=0`, `limit=10`).

use api_tests::apigw::{call, event, memory_ctx, reply, started_game};

#[tokio::test]
async fn get_log_pages_after_the_setup_entry() {
    let ctx = memory_ctx();
    let game = started_game(&ctx).await;

    let request = event("get-log", &[("id", &game.id), ("token", &game.tokens[0])]);
    let (status, _, body) = reply(call(&ctx, request).await.unwrap());

    assert_eq!(status, 200, "{body}");
    // Only the setup (seq 0) exists, and `after=0` skips it.
    assert_eq!(body["entries"].as_array().map(Vec::len), Some(0), "{body}");
}
