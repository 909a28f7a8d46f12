//! Function URLs (and cargo-lambda's emulator, which imitates one) send the raw path and no
//! path parameters: the router finds the route and its parameters from the path alone, as
//! `beurs serve` does.

use api_tests::apigw::{call, memory_ctx, reply};

/// A function URL event as cargo-lambda's emulator sends it, parsed as the runtime parses it.
fn function_url_event(method: &str, path: &str) -> lambda_http::Request {
    let body = if path.contains("/seats/") {
        r#"{"name": "x"}"#
    } else {
        r#"{"action": {"type": "pass"}}"#
    };
    let event = serde_json::json!({
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": "",
        "headers": {"accept": "application/json", "content-type": "application/json"},
        "requestContext": {
            "routeKey": "$default",
            "stage": "$default",
            "requestId": "beurs-unit-test",
            "domainName": "localhost",
            "http": {"method": method, "path": path, "protocol": "http",
                     "sourceIp": "127.0.0.1", "userAgent": "cargo-lambda"},
            "timeEpoch": 0
        },
        "pathParameters": {},
        "body": body,
        "isBase64Encoded": false
    });
    lambda_http::request::from_str(&event.to_string()).expect("a payload 2.0 event")
}

#[tokio::test]
async fn every_game_route_finds_its_parameters_in_the_path() {
    let ctx = memory_ctx();
    let cases = [
        ("GET", "/v1/games/g_nosuchgame000000000000"),
        ("GET", "/v1/games/g_nosuchgame000000000000/legal-actions"),
        ("GET", "/v1/games/g_nosuchgame000000000000/log"),
        ("GET", "/v1/games/g_nosuchgame000000000000/audit"),
        ("POST", "/v1/games/g_nosuchgame000000000000/seats/0"),
        ("POST", "/v1/games/g_nosuchgame000000000000/actions"),
    ];
    for (method, path) in cases {
        let response = call(&ctx, function_url_event(method, path)).await.unwrap();
        let request_id = response
            .headers()
            .get("x-request-id")
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        let (status, content_type, body) = reply(response);
        // A 404 `game-not-found` (not `route-not-found`) shows the route matched and its
        // parameters came from the path.
        assert_eq!(status, 404, "{method} {path}: {body}");
        assert_eq!(body["code"], "game-not-found", "{method} {path}: {body}");
        assert_eq!(content_type, "application/problem+json");
        assert_eq!(body["instance"], path);
        assert_eq!(body["request_id"].as_str(), request_id.as_deref());
    }
}

#[tokio::test]
async fn an_unknown_path_is_a_route_not_found_problem() {
    let ctx = memory_ctx();
    let (status, _, body) = reply(
        call(&ctx, function_url_event("GET", "/v1/nothing-here"))
            .await
            .unwrap(),
    );
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["code"], "route-not-found");
}
