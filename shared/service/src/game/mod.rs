//! The game service: everything that reads or changes a stored game, below the HTTP routes.
//!
//! The routes extract a request, call the service and reply; the bots ([`crate::bots`]), the
//! deadline worker ([`crate::deadlines`]) and the webhook delivery worker
//! ([`crate::delivery`]) call the same service and never the routes. It owns loading a game
//! and its engine ([`load_record`], [`engine_of`]), the one optimistic-concurrency loop with
//! its typed preconditions ([`update`], [`Guard`], [`Precondition`]), applying a move
//! ([`apply`]) with the clock ([`crate::clock::on_commit`]) and the notifications it causes
//! ([`notifications`], the transactional outbox), and putting a game's actions and events
//! into words ([`Narrator`]).

mod commit;
pub mod games;
mod moved;
mod narrate;
mod notify;
pub mod pause;
mod play;
pub mod undo;

pub use commit::{
    committed_unless_moved_on, update, update_in, Change, Guard, Precondition, Replay, Updated,
    VersionTags, MAX_ATTEMPTS,
};
pub use moved::Moved;
pub use narrate::Narrator;
pub use notify::{clock_notifications, count_turns, notifications, Moment, MomentAction};
pub use play::apply;

use crate::auth::is_game_id;
use crate::ctx::AppCtx;
use crate::error::Error;
use game_core::adapter::LoggedJson;
use game_core::{DynGame, DynRuleset, Viewer};
use serde_json::Value;
use std::sync::Arc;
use store::GameRecord;

/// Loads a game, or 404. Ids that cannot exist are refused without a lookup.
pub async fn load_record(ctx: &AppCtx, id: &str) -> Result<GameRecord, Error> {
    if !is_game_id(id) {
        return Err(Error::GameNotFound);
    }
    ctx.store.load(id).await?.ok_or(Error::GameNotFound)
}

/// The ruleset of a stored game, if this server still plays the game's rules version
/// (410 `rules-version-retired` otherwise: docs/api.md, rules versions).
pub fn ruleset_of<'a>(ctx: &'a AppCtx, record: &GameRecord) -> Result<&'a dyn DynRuleset, Error> {
    let ruleset = ctx.registry.get(&record.ruleset).ok_or_else(|| {
        Error::Internal(format!(
            "game {} has unknown ruleset {}",
            record.id, record.ruleset
        ))
    })?;
    if !ruleset.serves_rules_version(record.rules_version) {
        return Err(Error::RulesVersionRetired {
            version: record.rules_version,
            current: ruleset.rules_version(),
        });
    }
    Ok(ruleset)
}

/// The engine state of a started game, shared with the other requests that read the same
/// version ([`crate::states`]).
pub fn engine_of(ctx: &AppCtx, record: &GameRecord) -> Result<Option<Arc<dyn DynGame>>, Error> {
    let Some(state) = &record.state else {
        return Ok(None);
    };
    let ruleset = ruleset_of(ctx, record)?;
    if let Some(engine) = ctx.states.get(&record.id, record.version) {
        return Ok(Some(engine));
    }
    let engine: Arc<dyn DynGame> = Arc::from(ruleset.load(state).map_err(|error| {
        Error::Internal(format!("game {} state does not load: {error}", record.id))
    })?);
    ctx.states
        .insert(&record.id, record.version, Arc::clone(&engine));
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

/// The seats' display names by seat index (`None` for a seat nobody has named), as
/// [`game_core::words::Names`] takes them.
pub fn seat_names(record: &GameRecord) -> Vec<Option<String>> {
    record.seats.iter().map(|seat| seat.name.clone()).collect()
}

/// Seat numbers of a set.
pub fn seat_numbers(set: game_core::SeatSet) -> Vec<u8> {
    set.iter().map(|seat| seat.0).collect()
}

/// [`crate::clock::on_commit`] for a change that is not a move (a resignation, a replacement, a reminder, a
/// timeout's drop): the game's state is `record`'s, and nobody moved.
pub fn on_record_change(
    ctx: &AppCtx,
    record: &GameRecord,
    next: &mut GameRecord,
    now: u64,
) -> Result<(), Error> {
    let engine = engine_of(ctx, record)?;
    crate::clock::on_commit(next, engine.as_deref(), None, now)
}

/// A change's answer, and what went wrong playing the bots that moved after it (for the
/// request's log line: the change stands whatever the bots did).
pub struct Done<T> {
    /// The answer to the caller.
    pub answer: T,
    /// Why the bots did not all move, if they did not.
    pub bots_failed: Option<String>,
}
