//! API Gateway (HTTP API, payload 2.0) events for the Lambda tests in `tests/lambda/`: JSON
//! fixtures in `tests/fixtures/apigw/`, with `{{name}}` placeholders for what only a running
//! game knows (its id, a token, a base64 body), parsed exactly as the Lambda runtime parses
//! them (`lambda_http::request::from_str`), and answered by the app every function serves.

use base64::Engine;
use http_body_util::BodyExt;
use lambda_http::{Body, Request, Response};
use serde_json::{json, Value};
use std::sync::Arc;
use tower::ServiceExt;

/// The fixture `tests/fixtures/apigw/<name>.json` with each `{{key}}` replaced by its value.
pub fn fixture(name: &str, substitutions: &[(&str, &str)]) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/apigw/");
    let path = format!("{path}{name}.json");
    let mut text =
        std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {path}: {error}"));
    for (key, value) in substitutions {
        text = text.replace(&format!("{{{{{key}}}}}"), value);
    }
    text
}

/// The fixture `name` (see [`fixture`]) as the request a Lambda handler receives.
pub fn event(name: &str, substitutions: &[(&str, &str)]) -> Request {
    let text = fixture(name, substitutions);
    assert!(
        !text.contains("{{"),
        "fixture {name} has a placeholder left: {text}"
    );
    lambda_http::request::from_str(&text)
        .unwrap_or_else(|error| panic!("fixture {name} is not an API Gateway event: {error}"))
}

/// `text`, base64-encoded, for a `{{body}}` placeholder (API Gateway encodes bodies so).
pub fn base64_body(text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(text)
}

/// A handler's response: status, content type and body (JSON when it parses, else a string).
pub fn reply(response: Response<Body>) -> (u16, String, Value) {
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes: Vec<u8> = match response.into_body() {
        Body::Empty => Vec::new(),
        Body::Text(text) => text.into_bytes(),
        Body::Binary(bytes) => bytes,
        _ => Vec::new(),
    };
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, content_type, body)
}

/// A context over a fresh MemoryStore, as the handler tests use it.
pub fn memory_ctx() -> Arc<service::AppCtx> {
    Arc::new(crate::test_ctx(Arc::new(store::MemoryStore::new())))
}

/// Answers `request` as a Lambda function does: the whole app (edge included) over `ctx`,
/// the response body read in full as the runtime reads it. The response is checked against
/// the OpenAPI document of the code under test (panics if it breaks it, see
/// [`crate::contract`]).
pub async fn call(
    ctx: &Arc<service::AppCtx>,
    request: Request,
) -> Result<Response<Body>, std::convert::Infallible> {
    let app = api::edge::app(ctx.clone(), &api::edge::EdgeConfig::default());
    let method = request.method().to_string();
    let path = request.uri().path().to_string();
    let response = app.oneshot(request).await?;
    let (mut parts, body) = response.into_parts();
    let mut bytes = body
        .collect()
        .await
        .expect("the app's bodies are in memory")
        .to_bytes();
    // API Gateway's events accept gzip, and the edge compresses for them (lambda_http then
    // sends the body base64-encoded): decoded here as the client's HTTP stack would.
    if parts
        .headers
        .get("content-encoding")
        .is_some_and(|value| value == "gzip")
    {
        use std::io::Read;
        let mut decoded = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut decoded)
            .expect("a gzip body");
        bytes = decoded.into();
        parts.headers.remove("content-encoding");
    }
    let headers: Vec<(String, String)> = parts
        .headers
        .iter()
        .map(|(name, value)| {
            let value = value.to_str().unwrap_or("").to_string();
            (name.as_str().to_string(), value)
        })
        .collect();
    crate::contract::assert_response(&crate::contract::Response {
        method: &method,
        path: &path,
        status: parts.status.as_u16(),
        headers: &headers,
        body: &bytes,
    });
    let body = if bytes.is_empty() {
        Body::Empty
    } else {
        Body::Binary(bytes.to_vec())
    };
    Ok(Response::from_parts(parts, body))
}

/// A game created and fully claimed through the `create-game` and `claim-seat` fixtures and
/// handlers: three seats of Tulip Bubble.
pub async fn started_game(ctx: &Arc<service::AppCtx>) -> crate::StartedGame {
    let response = call(ctx, event("create-game", &[]))
        .await
        .expect("handlers always answer");
    let (status, _, created) = reply(response);
    assert_eq!(status, 201, "create-game: {created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let mut tokens = Vec::new();
    for seat in 0..3 {
        let seat = seat.to_string();
        let request = event("claim-seat", &[("id", &id), ("seat", &seat)]);
        let response = call(ctx, request).await.expect("handlers always answer");
        let (status, _, claimed) = reply(response);
        assert_eq!(status, 201, "claim-seat {seat}: {claimed}");
        tokens.push(
            claimed["player_token"]
                .as_str()
                .expect("a token")
                .to_string(),
        );
    }
    crate::StartedGame {
        id,
        admin_token: created["admin_token"].as_str().expect("admin").to_string(),
        seed_commitment: created["seed_commitment"]
            .as_str()
            .expect("commitment")
            .to_string(),
        tokens,
    }
}

/// A seat that may act now in `game`, its token, the version and one of its legal actions
/// (a concrete one), read through the `get-game` and `list-legal-actions` handlers.
pub async fn next_move(
    ctx: &Arc<service::AppCtx>,
    game: &crate::StartedGame,
) -> (String, u64, Value) {
    let token = &game.tokens[0];
    let response = call(
        ctx,
        event("get-game", &[("id", &game.id), ("token", token)]),
    )
    .await
    .expect("handlers always answer");
    let (_, _, envelope) = reply(response);
    let seat = envelope["to_act"][0].as_u64().expect("someone acts") as usize;
    let token = game.tokens[seat].clone();
    let response = call(
        ctx,
        event("list-legal-actions", &[("id", &game.id), ("token", &token)]),
    )
    .await
    .expect("handlers always answer");
    let (status, _, legal) = reply(response);
    assert_eq!(status, 200, "list-legal-actions: {legal}");
    let action = crate::some_action(&legal);
    let version = legal["version"].as_u64().expect("a version");
    (token, version, json!({ "action": action }))
}
