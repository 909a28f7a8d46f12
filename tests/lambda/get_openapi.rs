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

#[tokio::test]
async fn get_play_serves_the_web_client_and_its_files() {
    let ctx = memory_ctx();

    let (status, content_type, _) = reply(call(&ctx, event("get-play", &[])).await.unwrap());
    assert_eq!(status, 200);
    assert!(content_type.starts_with("text/html"), "{content_type}");

    for (file, expected) in [("play.js", "text/javascript"), ("play.css", "text/css")] {
        let request = event("get-play-file", &[("file", file)]);
        let (status, content_type, _) = reply(call(&ctx, request).await.unwrap());
        assert_eq!(status, 200, "{file}");
        assert!(content_type.starts_with(expected), "{file}: {content_type}");
    }
    let request = event("get-play-file", &[("file", "secrets.txt")]);
    let (status, _, body) = reply(call(&ctx, request).await.unwrap());
    assert_eq!(status, 404);
    assert_eq!(body["code"], "route-not-found");
}
