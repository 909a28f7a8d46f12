//! Webhook helpers for the Lambda tests of the webhook routes: a context whose webhooks run in dev mode (so a loopback URL
//! is accepted without DNS), and a subscription made through the `create-webhook` fixture.

use crate::apigw::{base64_body, call, event, reply};
use serde_json::{json, Value};
use std::sync::Arc;

/// A receiver URL on loopback that nothing listens on: accepted in dev mode, never called by
/// these tests (they do not run a delivery worker).
pub const LOOPBACK_URL: &str = "http://127.0.0.1:9/hooks/beurs";

/// A context over a fresh MemoryStore with webhooks in dev mode.
pub fn dev_memory_ctx() -> Arc<service::AppCtx> {
    let config = service::webhooks::WebhookConfig {
        dev: true,
        ..service::webhooks::WebhookConfig::default()
    };
    Arc::new(crate::test_ctx(Arc::new(store::MemoryStore::new())).with_webhooks(config))
}

/// Posts `body` as the holder of `token` to game `id` through the `create-webhook`
/// fixture and handler; returns the status and the body.
pub async fn subscribe(
    ctx: &Arc<service::AppCtx>,
    id: &str,
    token: &str,
    body: &Value,
) -> (u16, Value) {
    let body = base64_body(&body.to_string());
    let request = event(
        "create-webhook",
        &[("id", id), ("token", token), ("body", &body)],
    );
    let response = call(ctx, request).await.expect("handlers always answer");
    let (status, _, body) = reply(response);
    (status, body)
}

/// Subscribes the holder of `token` to `events` at [`LOOPBACK_URL`]; returns the new
/// subscription's id (panics unless it was created: a test failure).
pub async fn subscribed(
    ctx: &Arc<service::AppCtx>,
    id: &str,
    token: &str,
    events: &[&str],
) -> String {
    let (status, created) = subscribe(
        ctx,
        id,
        token,
        &json!({ "url": LOOPBACK_URL, "events": events }),
    )
    .await;
    assert_eq!(status, 201, "create-webhook: {created}");
    created["id"].as_str().expect("an id").to_string()
}
