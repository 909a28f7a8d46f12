//! A bounded cache of loaded engine states, so that the three requests of a typical turn (read
//! the game, list the legal actions, submit a move) parse a game's state once, not three times,
//! and the state a move produced is not parsed again at all.
//!
//! Keyed by game id and record version. A version names exactly one stored record (every
//! change is a commit conditioned on the previous version), so a cached state can never be
//! stale: a reader that loaded version 7 gets the state of version 7 or parses it itself.

use game_core::DynGame;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

/// How many games' states a process keeps by default (a few KiB each).
pub const DEFAULT_CAPACITY: usize = 1024;

/// Loaded states by game, at most `capacity` games, the longest-cached evicted first.
pub struct StateCache {
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    games: HashMap<String, (u64, Arc<dyn DynGame>)>,
    /// Game ids in the order they entered the cache.
    order: VecDeque<String>,
}

impl StateCache {
    /// An empty cache of at most `capacity` games (0 keeps nothing).
    pub fn new(capacity: usize) -> StateCache {
        StateCache {
            capacity,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// The state of game `id` at record version `version`, if cached.
    pub fn get(&self, id: &str, version: u64) -> Option<Arc<dyn DynGame>> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        match inner.games.get(id) {
            Some((cached, engine)) if *cached == version => Some(Arc::clone(engine)),
            _ => None,
        }
    }

    /// Keeps `engine` as game `id`'s state at `version`, unless a later version is already
    /// kept (a slow reader must not replace the state a move just made).
    pub fn insert(&self, id: &str, version: u64, engine: Arc<dyn DynGame>) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((cached, kept)) = inner.games.get_mut(id) {
            if *cached <= version {
                *cached = version;
                *kept = engine;
            }
            return;
        }
        inner.games.insert(id.to_owned(), (version, engine));
        inner.order.push_back(id.to_owned());
        while inner.games.len() > self.capacity {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            inner.games.remove(&oldest);
        }
    }

    /// How many games are cached.
    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .games
            .len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for StateCache {
    fn default() -> StateCache {
        StateCache::new(DEFAULT_CAPACITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::{DynRuleset, Registry};

    fn engine(registry: &Registry, seed: u8) -> Arc<dyn DynGame> {
        let ruleset: &dyn DynRuleset = registry.get("tulip-bubble").unwrap();
        let options = ruleset.normalize_options(&serde_json::json!({})).unwrap();
        Arc::from(ruleset.deal(3, &options, [seed; 32]).unwrap().game)
    }

    #[test]
    fn a_state_is_found_only_at_its_version() {
        let registry = crate::registry();
        let cache = StateCache::new(4);
        let first = engine(&registry, 1);
        cache.insert("g_a", 3, first.clone());
        assert!(cache.get("g_a", 2).is_none());
        assert!(cache.get("g_a", 4).is_none());
        assert!(cache.get("g_b", 3).is_none());
        let found = cache.get("g_a", 3).expect("cached");
        assert_eq!(found.state_json(), first.state_json());
    }

    #[test]
    fn a_later_version_is_not_replaced_by_an_earlier_one() {
        let registry = crate::registry();
        let cache = StateCache::new(4);
        let (old, new) = (engine(&registry, 1), engine(&registry, 2));
        cache.insert("g_a", 5, new.clone());
        cache.insert("g_a", 4, old);
        assert!(cache.get("g_a", 4).is_none());
        assert_eq!(cache.get("g_a", 5).unwrap().state_json(), new.state_json());
    }

    #[test]
    fn the_longest_cached_game_is_evicted_first() {
        let registry = crate::registry();
        let cache = StateCache::new(2);
        let state = engine(&registry, 1);
        cache.insert("g_a", 1, state.clone());
        cache.insert("g_b", 1, state.clone());
        // A new version of a cached game does not make room.
        cache.insert("g_a", 2, state.clone());
        assert_eq!(cache.len(), 2);
        cache.insert("g_c", 1, state.clone());
        assert_eq!(cache.len(), 2);
        assert!(cache.get("g_a", 2).is_none());
        assert!(cache.get("g_b", 1).is_some());
        assert!(cache.get("g_c", 1).is_some());
        let none = StateCache::new(0);
        none.insert("g_a", 1, state);
        assert!(none.is_empty());
    }
}
