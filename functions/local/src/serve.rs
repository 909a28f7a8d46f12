//! `beurs serve`: every route on one port, over SQLite (or DynamoDB).
//!
//! The accept loop is hyper-util's connection builder around the axum app rather than
//! `axum::serve`, because it must bound what a client can hold (docs/decisions.md #1):
//! a deadline for a request's head that also closes idle keep-alive connections, a cap on
//! open connections, and accept errors (EMFILE) that pause accepting instead of ending it.

use anyhow::Context;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

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
    /// Origins allowed to call the API from a browser; empty: any origin.
    pub cors_origins: Vec<String>,
    /// What one client may hold.
    pub limits: Limits,
}

/// What the server lets connections hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open connections at most; further clients wait in the listen backlog.
    pub max_connections: usize,
    /// How long a connection may take to send a request's head, and how long an idle
    /// keep-alive connection is kept, before it is closed.
    pub header_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
        }
    }
}

/// Opens the store and serves until the process is stopped.
pub async fn run(config: Config) -> anyhow::Result<()> {
    init_tracing();
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
    // The deadline worker: move clocks' reminders and timeouts, and bot moves a crash left
    // unplayed. Deadlines are in the store, so a restart finds every overdue game.
    tokio::spawn(api::deadlines::run(ctx.clone(), Duration::from_millis(500)));
    let edge = api::edge::EdgeConfig {
        cors_origins: config.cors_origins.clone(),
    };
    serve_with(listener, ctx, &edge, &config.limits).await
}

/// Serves connections from `listener` forever, with the default edge and limits.
pub async fn serve(listener: TcpListener, ctx: Arc<api::AppCtx>) -> anyhow::Result<()> {
    serve_with(
        listener,
        ctx,
        &api::edge::EdgeConfig::default(),
        &Limits::default(),
    )
    .await
}

/// Serves connections from `listener` forever. Nothing a client does ends the loop: a
/// failed accept (out of file descriptors, a connection reset before it was accepted) is
/// logged and accepting resumes shortly after.
pub async fn serve_with(
    listener: TcpListener,
    ctx: Arc<api::AppCtx>,
    edge: &api::edge::EdgeConfig,
    limits: &Limits,
) -> anyhow::Result<()> {
    let app = api::edge::app(ctx, edge);
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut builder = auto::Builder::new(TokioExecutor::new()).http1_only();
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let builder = Arc::new(builder);
    loop {
        let slot = slots
            .clone()
            .acquire_owned()
            .await
            .context("the connection semaphore closed")?;
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) => {
                drop(slot);
                tracing::warn!(%error, "accept failed; accepting again shortly");
                // EMFILE and friends clear only when connections close: do not spin.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        let builder = builder.clone();
        tokio::spawn(async move {
            // Client disconnects, timeouts and protocol errors end this connection only.
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(slot);
        });
    }
}

/// Binds `addr` and returns the listener and its actual address (for port 0).
pub async fn bind(addr: &str) -> anyhow::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}

/// Logs for `beurs serve`: human-readable lines on stderr, filtered by `RUST_LOG` (default
/// `info`: one line per request with its id, route, status and latency). The Lambda
/// functions log JSON through `lambda_http`'s subscriber instead.
pub fn init_tracing() {
    use std::io::IsTerminal;
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .try_init();
}
