//! The edge around every route: request ids, the HTTP details of preconditions and
//! authentication, strict paths, and CORS for browser front-ends on other origins.

use crate::first_action;
use api_tests::{spawn_app, Reply, TestApp};
use serde_json::json;
use std::sync::Arc;

fn assert_problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.text());
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
    assert_eq!(reply.json()["code"], code, "{}", reply.text());
}

/// The seat to act first in a new Tulipmania game, its token and the game's version.
async fn seller(app: &TestApp) -> (String, String, u64) {
    let game = app.start_game("tulipmania-1637", 3, json!({})).await;
    let envelope = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json();
    let seat = envelope["to_act"][0].as_u64().expect("someone acts") as usize;
    let version = envelope["version"].as_u64().expect("a version");
    (game.id, game.tokens[seat].clone(), version)
}

#[tokio::test]
async fn if_match_is_compared_strongly_and_a_malformed_one_is_a_400() {
    let app = spawn_app().await;
    let (id, token, version) = seller(&app).await;
    let action = first_action(&app, &id, &token).await;
    let path = format!("/v1/games/{id}/actions");
    let weak = format!("W/\"{version}\"");
    let unquoted = version.to_string();
    for (if_match, status, code) in [
        (weak.as_str(), 412, "stale-version"),
        (unquoted.as_str(), 400, "malformed-request"),
        ("\"1", 400, "malformed-request"),
    ] {
        let reply = app
            .post(
                &path,
                Some(&token),
                &json!({ "action": action }),
                &[("if-match", if_match)],
            )
            .await;
        assert_problem(&reply, status, code);
        assert_eq!(
            app.record(&id).await.version,
            version,
            "If-Match {if_match}"
        );
    }
    // The strong tag the ETag gave is a match.
    let strong = format!("\"{version}\"");
    let reply = app
        .post(
            &path,
            Some(&token),
            &json!({ "action": action }),
            &[("if-match", strong.as_str())],
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
}

#[tokio::test]
async fn a_401_names_the_bearer_scheme() {
    let app = spawn_app().await;
    let (id, _, _) = seller(&app).await;
    let reply = app
        .get(
            &format!("/v1/games/{id}/legal-actions"),
            Some("bt_seat_nobody"),
        )
        .await;
    assert_problem(&reply, 401, "unauthorized");
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
    let reply = app
        .get(&format!("/v1/games/{id}/legal-actions"), None)
        .await;
    assert_problem(&reply, 401, "unauthorized");
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
}

#[tokio::test]
async fn paths_are_matched_exactly() {
    let app = spawn_app().await;
    let game = app.start_game("tulip-bubble", 3, json!({})).await;
    let open = app
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": "tulip-bubble", "seats": 3}),
            &[],
        )
        .await
        .json();
    let open_id = open["id"].as_str().expect("an id");
    // A sign or spaces in a seat number is not a seat.
    for seat in ["+2", "%2B1", "01x", "-0", "%200"] {
        let reply = app
            .post(
                &format!("/v1/games/{open_id}/seats/{seat}"),
                None,
                &json!({"name": "x"}),
                &[],
            )
            .await;
        assert_problem(&reply, 404, "seat-not-found");
    }
    assert!(app
        .record(open_id)
        .await
        .seats
        .iter()
        .all(|seat| seat.name.is_none()));
    // Trailing slashes are other paths.
    for path in [
        "/v1/rulesets/".to_string(),
        "/v1/games/".to_string(),
        format!("/v1/games/{}/", game.id),
        format!("/v1/games/{}/log/", game.id),
    ] {
        assert_problem(&app.get(&path, None).await, 404, "route-not-found");
    }
}

#[tokio::test]
async fn the_root_points_to_the_reference() {
    let app = spawn_app().await;
    let reply = app.get("/", None).await;
    assert!((300..400).contains(&reply.status), "{}", reply.status);
    assert_eq!(reply.header("location"), Some("/docs"));
    let docs = app.get("/docs", None).await;
    assert_eq!(docs.status, 200);
    assert!(docs.text().contains("openapi.json"));
}

#[tokio::test]
async fn every_answer_carries_a_request_id_and_problems_repeat_it() {
    let app = spawn_app().await;
    let ok = app.get("/v1/rulesets", None).await;
    let problem = app.get("/v1/games/g_nosuchgame000000000000", None).await;
    let another = app.get("/v1/games/g_nosuchgame000000000000", None).await;
    let ids: Vec<&str> = [&ok, &problem, &another]
        .iter()
        .map(|reply| reply.header("x-request-id").expect("x-request-id"))
        .collect();
    assert!(
        ids.iter().all(|id| id.starts_with("req_") && id.len() > 20),
        "{ids:?}"
    );
    assert_ne!(ids[1], ids[2], "each request has its own id");
    assert_problem(&problem, 404, "game-not-found");
    assert_eq!(problem.json()["request_id"], ids[1]);
    assert_eq!(
        problem.json()["instance"],
        "/v1/games/g_nosuchgame000000000000"
    );
}

#[tokio::test]
async fn a_wrong_method_is_a_405_problem_with_allow() {
    let app = spawn_app().await;
    let reply = app.send("DELETE", "/v1/rulesets", &[], Vec::new()).await;
    assert_problem(&reply, 405, "method-not-allowed");
    assert_eq!(reply.header("allow"), Some("GET,HEAD"));
}

/// A server whose edge allows only `origins`.
async fn app_with_origins(origins: &[&str]) -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let ctx = Arc::new(service::AppCtx::new(Arc::new(store::MemoryStore::new())));
    let edge = api::edge::EdgeConfig {
        cors_origins: origins.iter().map(|origin| origin.to_string()).collect(),
        requests: None,
    };
    let server = tokio::spawn(async move {
        let _ = local::serve::serve_with(listener, ctx, &edge, &Default::default()).await;
    });
    (addr, server)
}

fn preflight(origin: &str) -> Vec<(&str, &str)> {
    vec![
        ("origin", origin),
        ("access-control-request-method", "POST"),
        (
            "access-control-request-headers",
            "authorization, content-type, if-match, if-none-match, idempotency-key, last-event-id",
        ),
    ]
}

#[tokio::test]
async fn any_origin_may_call_by_default_and_preflights_are_answered() {
    let app = spawn_app().await;
    let reply = app
        .send(
            "OPTIONS",
            "/v1/games/g_x/actions",
            &preflight("https://play.example"),
            Vec::new(),
        )
        .await;
    assert!(
        reply.status == 200 || reply.status == 204,
        "{}",
        reply.status
    );
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let methods = reply.header("access-control-allow-methods").unwrap_or("");
    assert!(
        methods.contains("POST") && methods.contains("DELETE"),
        "{methods}"
    );
    let headers = reply
        .header("access-control-allow-headers")
        .unwrap_or("")
        .to_ascii_lowercase();
    // Every request header docs/api.md tells a browser to send (issue 54: a stream resumed
    // from another origin sends Last-Event-ID).
    for needed in [
        "authorization",
        "content-type",
        "if-match",
        "if-none-match",
        "idempotency-key",
        "last-event-id",
    ] {
        assert!(headers.contains(needed), "{needed} not allowed: {headers}");
    }
    // A simple request from a page gets the header too, and may read the ETag and request id.
    let reply = app
        .send(
            "GET",
            "/v1/rulesets",
            &[("origin", "https://play.example")],
            Vec::new(),
        )
        .await;
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let exposed = reply
        .header("access-control-expose-headers")
        .unwrap_or("")
        .to_ascii_lowercase();
    // Every response header docs/api.md tells a browser to read.
    for needed in [
        "etag",
        "location",
        "retry-after",
        "x-request-id",
        "idempotent-replay",
    ] {
        assert!(exposed.contains(needed), "{needed} not exposed: {exposed}");
    }
}

#[tokio::test]
async fn configured_origins_are_the_only_ones_allowed() {
    let (addr, server) = app_with_origins(&["https://play.example"]).await;
    let allowed = api_tests::request(
        addr,
        "OPTIONS",
        "/v1/games",
        &preflight("https://play.example"),
        Vec::new(),
    )
    .await;
    assert_eq!(
        allowed.header("access-control-allow-origin"),
        Some("https://play.example")
    );
    let refused = api_tests::request(
        addr,
        "OPTIONS",
        "/v1/games",
        &preflight("https://evil.example"),
        Vec::new(),
    )
    .await;
    assert_eq!(refused.header("access-control-allow-origin"), None);
    let simple = api_tests::request(
        addr,
        "GET",
        "/v1/rulesets",
        &[("origin", "https://evil.example")],
        Vec::new(),
    )
    .await;
    assert_eq!(simple.status, 200);
    assert_eq!(simple.header("access-control-allow-origin"), None);
    server.abort();
}
