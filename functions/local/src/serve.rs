//! `beurs serve`: every route on one port, over SQLite (or DynamoDB).
//!
//! The accept loop is hyper-util's connection builder around the axum app rather than
//! `axum::serve`, because it must bound what a client can hold (docs/decisions.md #1):
//! a deadline for a request's head that also closes idle keep-alive connections, a cap on
//! open connections, and accept errors (EMFILE) that pause accepting instead of ending it.
//!
//! SIGTERM or SIGINT stops it gracefully (README.md, "Run it, test it"): it stops accepting,
//! answers waiting long-polls at once, lets the requests in flight finish (for at most
//! [`Limits::shutdown_grace`]), stops its workers and exits 0.

use anyhow::Context;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
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
    /// How long a finished game is kept after its last change; `None`: kept.
    pub retention: Option<Duration>,
    /// Whether games need app keys, and the apps' quotas.
    pub apps: service::apps::Limits,
    /// The request rate per app key and per client address; `None`: unlimited.
    pub requests: Option<api::edge::RequestRate>,
    /// The operator's key, which manages apps over HTTP; `None`: those routes are off.
    pub operator_key: Option<String>,
}

/// What the server lets connections hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open connections at most; further clients wait in the listen backlog.
    pub max_connections: usize,
    /// How long a connection may take to send a request's head, and how long an idle
    /// keep-alive connection is kept, before it is closed.
    pub header_timeout: Duration,
    /// After SIGTERM or SIGINT, how long the requests in flight may take to finish before
    /// the process exits anyway.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Opens the store and serves until SIGTERM or SIGINT, then stops gracefully.
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
    let webhooks = service::webhooks::WebhookConfig {
        dev: config.dev,
        ..Default::default()
    };
    let mut ctx = service::AppCtx::new(store).with_webhooks(webhooks);
    if let Some(period) = config.retention {
        ctx = ctx.with_retention(period);
    }
    ctx = ctx.with_limits(config.apps);
    if let Some(key) = &config.operator_key {
        ctx = ctx.with_operator_key(key);
    }
    let ctx = Arc::new(ctx);
    // The webhook worker drains the outbox in the background; notifications left pending by
    // an earlier run (a crash, a restart) are picked up on start.
    let delivery = tokio::spawn(ctx.deliverer().run(Duration::from_secs(1)));
    // The deadline worker: move clocks' reminders and timeouts, and bot moves a crash left
    // unplayed. Deadlines are in the store, so a restart finds every overdue game.
    let deadlines = tokio::spawn(service::deadlines::run(
        ctx.clone(),
        Duration::from_millis(500),
    ));
    let edge = api::edge::EdgeConfig {
        cors_origins: config.cors_origins.clone(),
        requests: config.requests,
    };
    let stopping = {
        let ctx = ctx.clone();
        async move {
            let signal = stop_signal().await;
            // Logged (stderr), not printed: whoever read the banner may have closed stdout.
            tracing::info!(signal, "stopping: finishing the requests in flight");
            // Long-polls answer now with the game as it is; their clients come back to
            // another server, or to this one when it restarts.
            ctx.stop();
        }
    };
    serve_until(listener, ctx, &edge, &config.limits, stopping).await?;
    // Both workers keep their work in the store (the outbox, the deadlines), committed
    // atomically: stopping them between two commits loses nothing, and a restart resumes.
    delivery.abort();
    deadlines.abort();
    tracing::info!("stopped");
    Ok(())
}

/// Waits for SIGTERM or SIGINT (Ctrl-C); returns its name.
async fn stop_signal() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut term), Ok(mut interrupt)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        // No signal handling (never on Linux): run until killed.
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = interrupt.recv() => "SIGINT",
    }
}

/// Serves connections from `listener` forever, with the default edge and limits.
pub async fn serve(listener: TcpListener, ctx: Arc<service::AppCtx>) -> anyhow::Result<()> {
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
    ctx: Arc<service::AppCtx>,
    edge: &api::edge::EdgeConfig,
    limits: &Limits,
) -> anyhow::Result<()> {
    serve_until(listener, ctx, edge, limits, std::future::pending()).await
}

/// Serves connections from `listener` until `stop` completes, then drains: accepts nothing
/// more, asks every open connection to close after the request it is serving (idle ones
/// close at once), and returns once they have, or after [`Limits::shutdown_grace`].
pub async fn serve_until(
    listener: TcpListener,
    ctx: Arc<service::AppCtx>,
    edge: &api::edge::EdgeConfig,
    limits: &Limits,
    stop: impl std::future::Future<Output = ()>,
) -> anyhow::Result<()> {
    let app = api::edge::app(ctx, edge);
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut builder = auto::Builder::new(TokioExecutor::new()).http1_only();
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let builder = Arc::new(builder);
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => {
                slot.context("the connection semaphore closed")?
            }
            () = &mut stop => break,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                drop(slot);
                tracing::warn!(%error, "accept failed; accepting again shortly");
                // EMFILE and friends clear only when connections close: do not spin.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(api::edge::for_peer(app.clone(), peer));
        let builder = builder.clone();
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            // Client disconnects, timeouts and protocol errors end this connection only.
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            let _ = watcher.watch(connection).await;
            drop(slot);
        });
    }
    // New clients are refused from here; open connections finish their request and close.
    drop(listener);
    let open = graceful.count();
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            open,
            grace_ms = limits.shutdown_grace.as_millis() as u64,
            "requests still running at the end of the grace period were cut"
        );
    }
    Ok(())
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
