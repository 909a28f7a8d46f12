//! [`AppCtx::from_env`]: the context of a Lambda function, over DynamoDB.
//!
//! Read once per cold start from the function's environment (infra/template.yaml sets it):
//! - `BEURS_TABLE` (required): the DynamoDB table.
//! - `BEURS_FINISHED_TTL_DAYS` (optional): let DynamoDB delete a finished game's record this
//!   many days after it finished; unset keeps finished games.
//! - `BEURS_OPERATOR_KEY` (optional): the operator's key, which manages apps over HTTP.
//! - `BEURS_REQUIRE_APP_KEY` (optional, `true`): only app keys create games.
//! - `BEURS_APP_CREATIONS_PER_HOUR`, `BEURS_APP_LIVE_GAMES` (optional): the apps' quotas.
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
    /// A limit that is not a whole number.
    #[error("{0} must be a whole number, not {1:?}")]
    BadLimit(&'static str, String),
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
        let mut limits = crate::apps::Limits {
            require_app_key: std::env::var("BEURS_REQUIRE_APP_KEY")
                .is_ok_and(|value| matches!(value.trim(), "1" | "true" | "yes")),
            ..crate::apps::Limits::default()
        };
        limits.creations_per_hour =
            env_limit("BEURS_APP_CREATIONS_PER_HOUR")?.unwrap_or(limits.creations_per_hour);
        limits.live_games = env_limit("BEURS_APP_LIVE_GAMES")?.unwrap_or(limits.live_games);
        // The keyless quotas are on unless set to 0, as with `beurs serve`: store-backed,
        // they hold across every instance (docs/aws.md, "Apps and limits").
        limits.keyless_creations_per_hour = Some(
            env_limit("BEURS_KEYLESS_CREATIONS_PER_HOUR")?
                .unwrap_or(crate::apps::KEYLESS_CREATIONS_PER_HOUR),
        )
        .filter(|quota| *quota > 0);
        limits.keyless_live_games =
            Some(env_limit("BEURS_KEYLESS_LIVE_GAMES")?.unwrap_or(crate::apps::KEYLESS_LIVE_GAMES))
                .filter(|quota| *quota > 0);
        let mut ctx = AppCtx::new(Arc::new(store)).with_limits(limits);
        if let Some(key) = std::env::var("BEURS_OPERATOR_KEY")
            .ok()
            .filter(|key| !key.trim().is_empty())
        {
            ctx = ctx.with_operator_key(key.trim());
        }
        Ok(ctx)
    }
}

/// The whole number in environment variable `name`, if it is set.
fn env_limit(name: &'static str) -> Result<Option<u32>, EnvError> {
    match std::env::var(name) {
        Ok(value) => value
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| EnvError::BadLimit(name, value)),
        Err(_) => Ok(None),
    }
}
