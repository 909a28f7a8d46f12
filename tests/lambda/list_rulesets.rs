//! `list-rulesets` on an API Gateway event (tests/fixtures/apigw/list-rulesets.json).

use api_tests::apigw::{call, event, memory_ctx, reply};

#[tokio::test]
async fn list_rulesets_lists_every_registered_game() {
    let ctx = memory_ctx();

    let (status, _, body) = reply(call(&ctx, event("list-rulesets", &[])).await.unwrap());

    assert_eq!(status, 200, "{body}");
    let listed = body.to_string();
    for ruleset in service::registry().iter() {
        assert!(
            listed.contains(ruleset.id()),
            "{} is missing: {body}",
            ruleset.id()
        );
    }
}
