//! The `sweep-deadlines` Lambda function: EventBridge Scheduler invokes it every minute
//! (infra/template.yaml), and it runs the same deadline worker `beurs serve` runs every half
//! second ([`service::deadlines::sweep`]) over the DynamoDB table: it finds the games due by now
//! with one `Query` of the sparse `GSI3` index, and applies their timeouts and reminders and
//! plays their bots, each as a conditional commit. Notifications it queues reach `notify`
//! through the table's stream, like those of any move.
//!
//! The schedule's payload is ignored: the function only needs the time, which it reads itself.

use serde_json::{json, Value};
use service::deadlines::{sweep, SweepReport, SWEEP_BATCH};
use service::Error;
use std::time::{Duration, Instant};

/// How long one invocation keeps sweeping while full batches come back (the function's
/// timeout is 60 s; what is left waits for the next minute, most overdue first).
pub const BUDGET: Duration = Duration::from_secs(40);

/// One scheduled invocation: sweeps at the current time until fewer than a batch of games
/// were due, or [`BUDGET`] is spent. Returns what was done, as the invocation's result.
pub async fn handle(ctx: &service::AppCtx, event: Value) -> Result<Value, Error> {
    handle_at(ctx, event, service::time::now_ms).await
}

/// [`handle`] with the clock it reads the time from (milliseconds since the Unix epoch), so
/// that a test can run the schedule at the time a deadline falls instead of waiting for it.
pub async fn handle_at(
    ctx: &service::AppCtx,
    _event: Value,
    now: impl Fn() -> u64,
) -> Result<Value, Error> {
    let started = Instant::now();
    let mut total = SweepReport::default();
    let mut sweeps = 0;
    loop {
        let report = sweep(ctx, now()).await?;
        sweeps += 1;
        total.add(report);
        if report.games < SWEEP_BATCH || started.elapsed() >= BUDGET {
            break;
        }
    }
    if total.games > 0 {
        tracing::info!(?total, sweeps, "deadline sweep");
    }
    Ok(json!({
        "sweeps": sweeps,
        "games": total.games,
        "timeouts": total.timeouts,
        "reminders": total.reminders,
        "bot_moves": total.bot_moves,
    }))
}
