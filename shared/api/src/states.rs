//! A bounded cache of loaded engine states, so that the three requests of a typical turn (read
//! the game, list the legal actions, submit a move) parse a game's state once, not three times,
//! and the state a move produced is not parsed again at all.
//!
//! Keyed by game id and record version ([`store::VersionCache`]): a version names exactly one
//! stored record, so a cached state can never be stale.

use game_core::DynGame;
use std::sync::Arc;

/// How many games' states a process keeps by default (a few KiB each).
pub const DEFAULT_CAPACITY: usize = 1024;

/// Loaded states by game, each at one record version.
pub type StateCache = store::VersionCache<Arc<dyn DynGame>>;
