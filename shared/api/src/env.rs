//! [`AppCtx::from_env`]: the context of a Lambda function, over DynamoDB.
//!
//! Read once per cold start from the function's environment (infra/template.yaml sets it):
//! - `BEURS_TABLE` (required): the DynamoDB table.
//! - `BEURS_FINISHED_TTL_DAYS` (optional): let DynamoDB delete a finished game's record this
//!   many days after it finished; unset keeps finished games.
//! - the usual AWS variables (region, credentials, `AWS_ENDPOINT_URL` for another endpoint).

use crate::ctx::AppCtx;
use std::sync::Arc;
use std::time::Duration;
use store::DynamoStore;

/// Why a function's context could not be built from its environment.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    /// `BEURS_TABLE` is unset or empty.
    #[error("BEURS_TABLE is not set: it names the DynamoDB table")]
    MissingTable,
    /// `BEURS_FINISHED_TTL_DAYS` is not a whole number of days.
    #[error("BEURS_FINISHED_TTL_DAYS must be a whole number of days, not {0:?}")]
    BadTtl(String),
}

impl AppCtx {
    /// The context of a Lambda function: a [`DynamoStore`] on `BEURS_TABLE`, with every
    /// registered game. Build it once per cold start, outside the handler.
    pub async fn from_env() -> Result<AppCtx, EnvError> {
        let table = std::env::var("BEURS_TABLE")
            .ok()
            .filter(|table| !table.is_empty())
            .ok_or(EnvError::MissingTable)?;
        let mut store = DynamoStore::from_env(table).await;
        if let Ok(days) = std::env::var("BEURS_FINISHED_TTL_DAYS") {
            let days: u64 = days.trim().parse().map_err(|_| EnvError::BadTtl(days))?;
            store = store.with_finished_ttl(Duration::from_secs(days.saturating_mul(86_400)));
        }
        Ok(AppCtx::new(Arc::new(store)))
    }
}

/// JSON logs for a Lambda function that is not a route (`sweep-deadlines`): the same
/// `tracing` subscriber as [`run_lambda`] installs.
pub fn init_lambda_logs() {
    lambda_http::tracing::init_default_subscriber();
}

/// The whole body of a Lambda function's `main`: JSON logs (when the function's log format
/// is JSON) through `lambda_http`'s subscriber, the context from the environment, and the
/// router behind the edge, served by the Lambda runtime.
///
/// Every function mounts the whole router, not just its route: API Gateway sends each
/// function only its own routes, so the others are never reached, and a function URL or the
/// emulator routes by path exactly like `beurs serve` (docs/decisions.md #1 has the cost).
pub async fn run_lambda() -> Result<(), lambda_http::Error> {
    lambda_http::tracing::init_default_subscriber();
    // API Gateway buffers a response: a stream answers one batch per request.
    let streams = crate::streams::Streams::new(crate::streams::StreamMode::OneBatch);
    let ctx = Arc::new(AppCtx::from_env().await?.with_streams(streams));
    let app = crate::edge::app(ctx, &crate::edge::EdgeConfig::from_env());
    lambda_http::run(app).await
}
