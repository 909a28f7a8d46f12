//! The route handlers, one module per resource, and what they share.

pub mod actions;
pub mod docs;
pub mod games;
pub mod log;
pub mod rulesets;
pub mod seats;
pub mod webhooks;

use crate::auth::is_game_id;
use crate::error::ApiError;
use crate::AppCtx;
use game_core::adapter::LoggedJson;
use game_core::{DynGame, DynRuleset, Viewer};
use serde_json::Value;
use std::time::Duration;
use store::GameRecord;

/// How many times a write is retried after losing a race (DESIGN.md §4).
pub const MAX_ATTEMPTS: u32 = 5;

/// Loads a game, or 404. Ids that cannot exist are refused without a lookup.
pub async fn load_record(ctx: &AppCtx, id: &str) -> Result<GameRecord, ApiError> {
    if !is_game_id(id) {
        return Err(ApiError::GameNotFound);
    }
    ctx.store.load(id).await?.ok_or(ApiError::GameNotFound)
}

/// The ruleset of a stored game.
pub fn ruleset_of<'a>(
    ctx: &'a AppCtx,
    record: &GameRecord,
) -> Result<&'a dyn DynRuleset, ApiError> {
    ctx.registry.get(&record.ruleset).ok_or_else(|| {
        ApiError::Internal(format!(
            "game {} has unknown ruleset {}",
            record.id, record.ruleset
        ))
    })
}

/// The engine state of a started game.
pub fn engine_of(ctx: &AppCtx, record: &GameRecord) -> Result<Option<Box<dyn DynGame>>, ApiError> {
    let Some(state) = &record.state else {
        return Ok(None);
    };
    let engine = ruleset_of(ctx, record)?.load(state).map_err(|error| {
        ApiError::Internal(format!("game {} state does not load: {error}", record.id))
    })?;
    Ok(Some(engine))
}

/// The events `viewer` may see.
pub fn project_events(events: &[LoggedJson], viewer: Viewer) -> Vec<Value> {
    events
        .iter()
        .filter(|logged| logged.visibility.shows(viewer))
        .map(|logged| logged.event.clone())
        .collect()
}

/// Waits a little before retrying a lost race: 2 to 20 ms times the attempt, jittered.
pub async fn backoff(attempt: u32) {
    let jitter = crate::auth::random_bytes::<1>()
        .map(|bytes| u64::from(bytes[0] % 10))
        .unwrap_or(5);
    tokio::time::sleep(Duration::from_millis(
        (2 + 2 * jitter) * u64::from(attempt + 1),
    ))
    .await;
}

/// The `ETag` of a version.
pub fn etag(version: u64) -> String {
    format!("\"{version}\"")
}

/// Seat numbers of a set.
pub fn seat_numbers(set: game_core::SeatSet) -> Vec<u8> {
    set.iter().map(|seat| seat.0).collect()
}
