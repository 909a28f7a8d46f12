//! `get-openapi` on API Gateway events for both of its routes
//! (tests/fixtures/apigw/get-openapi.json and get-docs.json).

use api_tests::apigw::{call, event, memory_ctx, reply};

#[tokio::test]
async fn get_openapi_serves_the_document() {
    let ctx = memory_ctx();

    let (status, _, body) = reply(call(&ctx, event("get-openapi", &[])).await.unwrap());

    assert_eq!(status, 200);
    assert!(body["openapi"].as_str().unwrap().starts_with("3."));
    assert!(body["paths"]["/v1/games/{id}/actions"].is_object());
}

#[tokio::test]
async fn get_docs_serves_html() {
    let ctx = memory_ctx();

    let (status, content_type, _) = reply(call(&ctx, event("get-docs", &[])).await.unwrap());

    assert_eq!(status, 200);
    assert!(content_type.starts_with("text/html"), "{content_type}");
}
