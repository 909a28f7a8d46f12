//! `beurs serve`: every route on one port, over SQLite.

use anyhow::Context;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Where to listen and where the database lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Listen address.
    pub addr: String,
    /// SQLite file.
    pub db: PathBuf,
    /// SQLite (`db`) or a DynamoDB table: see [`crate::store_choice`].
    pub store: crate::store_choice::StoreChoice,
    /// Dev mode: webhooks may call loopback receivers over plain http.
    pub dev: bool,
    /// Origins a browser front-end may call the API from (`--cors-origin`, repeatable, or
    /// `BEURS_CORS_ORIGINS`, comma-separated); empty (the default) allows no other origin.
    pub cors_origins: Vec<String>,
}

/// Opens the store and serves until the process is stopped.
pub async fn run(config: Config) -> anyhow::Result<()> {
    let (store, location) = config.store.open(&config.db).await?;
    let listener = TcpListener::bind(&config.addr)
        .await
        .with_context(|| format!("binding {}", config.addr))?;
    let addr = listener.local_addr()?;
    // Tests and scripts read this line to find the port when binding to port 0.
    println!("beurs listening on http://{addr} ({location})");
    if config.dev {
        println!("dev mode: webhooks may call http://127.0.0.1 and other loopback receivers");
    }
    let webhooks = api::webhooks::WebhookConfig {
        dev: config.dev,
        ..Default::default()
    };
    let ctx = Arc::new(api::AppCtx::new(store).with_webhooks(webhooks));
    // The webhook worker drains the outbox in the background; notifications left pending by
    // an earlier run (a crash, a restart) are picked up on start.
    tokio::spawn(ctx.deliverer().run(Duration::from_secs(1)));
    serve(listener, ctx).await
}

/// Serves connections from `listener` forever.
pub async fn serve(listener: TcpListener, ctx: Arc<api::AppCtx>) -> anyhow::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        let ctx = ctx.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let ctx = ctx.clone();
                async move { Ok::<_, std::convert::Infallible>(handle(&ctx, request).await) }
            });
            // Client disconnects and protocol errors end the connection only.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// One request: read the body (at most 64 KiB), convert, route, convert back.
///
/// The route runs in its own task so that a panic (a bug: client input must never cause one)
/// becomes a logged 500 problem instead of a dropped connection.
pub async fn handle(
    ctx: &Arc<api::AppCtx>,
    request: hyper::Request<Incoming>,
) -> hyper::Response<Full<Bytes>> {
    let (parts, body) = request.into_parts();
    let limit = api::http::MAX_BODY_BYTES;
    let response = match Limited::new(body, limit + 1).collect().await {
        Ok(collected) => {
            let bytes = collected.to_bytes();
            let body = if bytes.is_empty() {
                lambda_http::Body::Empty
            } else {
                match String::from_utf8(bytes.to_vec()) {
                    Ok(text) => lambda_http::Body::Text(text),
                    Err(error) => lambda_http::Body::Binary(error.into_bytes()),
                }
            };
            let path = parts.uri.path().to_string();
            let ctx = ctx.clone();
            let request = lambda_http::Request::from_parts(parts, body);
            match tokio::spawn(async move { api::route(&ctx, request).await }).await {
                Ok(response) => response,
                Err(error) => {
                    api::http::respond_internal(&path, &format!("handler panicked: {error}"))
                }
            }
        }
        Err(_) => {
            // Too large (or the client went away): answer 413 without reading further.
            let request = lambda_http::Request::from_parts(parts, lambda_http::Body::Empty);
            api::http::respond(
                &request,
                Err(api::error::ApiError::PayloadTooLarge { limit }),
            )
        }
    };
    let (parts, body) = response.into_parts();
    let bytes = match body {
        lambda_http::Body::Text(text) => Bytes::from(text),
        lambda_http::Body::Binary(bytes) => Bytes::from(bytes),
        _ => Bytes::new(),
    };
    hyper::Response::from_parts(parts, Full::new(bytes))
}

/// Binds `addr` and returns the listener and its actual address (for port 0).
pub async fn bind(addr: &str) -> anyhow::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}
