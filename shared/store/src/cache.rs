//! [`VersionCache`]: a bounded map from game id to one value at one record version.
//!
//! A record version names exactly one stored record (every change is a commit conditioned on
//! the previous version), so a value kept for `(game, version)` can never be stale: a reader
//! that asks for version 7 gets what was kept for version 7, or nothing. The SQLite store keeps
//! parsed records this way; the API keeps loaded engine states.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

/// Values by game id, each at one version; at most `capacity` games, the longest-cached
/// evicted first.
pub struct VersionCache<T> {
    capacity: usize,
    inner: Mutex<Inner<T>>,
}

struct Inner<T> {
    games: HashMap<String, (u64, T)>,
    /// Game ids in the order they entered the cache.
    order: VecDeque<String>,
}

impl<T: Clone> VersionCache<T> {
    /// An empty cache of at most `capacity` games (0 keeps nothing).
    pub fn new(capacity: usize) -> VersionCache<T> {
        VersionCache {
            capacity,
            inner: Mutex::new(Inner {
                games: HashMap::new(),
                order: VecDeque::new(),
            }),
        }
    }

    /// The value kept for game `id` at `version`, if any.
    pub fn get(&self, id: &str, version: u64) -> Option<T> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        match inner.games.get(id) {
            Some((kept, value)) if *kept == version => Some(value.clone()),
            _ => None,
        }
    }

    /// Keeps `value` as game `id`'s value at `version`, unless a later version is already
    /// kept (a slow reader must not replace what a newer commit left).
    pub fn insert(&self, id: &str, version: u64, value: T) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((kept, old)) = inner.games.get_mut(id) {
            if *kept <= version {
                *kept = version;
                *old = value;
            }
            return;
        }
        inner.games.insert(id.to_owned(), (version, value));
        inner.order.push_back(id.to_owned());
        while inner.games.len() > self.capacity {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            inner.games.remove(&oldest);
        }
    }

    /// Forgets game `id` (it is gone from the store).
    pub fn remove(&self, id: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if inner.games.remove(id).is_some() {
            inner.order.retain(|kept| kept != id);
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

impl<T> std::fmt::Debug for VersionCache<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionCache")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::VersionCache;

    #[test]
    fn a_value_is_found_only_at_its_version() {
        let cache = VersionCache::new(4);
        cache.insert("g_a", 3, "three");
        assert_eq!(cache.get("g_a", 2), None);
        assert_eq!(cache.get("g_a", 4), None);
        assert_eq!(cache.get("g_b", 3), None);
        assert_eq!(cache.get("g_a", 3), Some("three"));
    }

    #[test]
    fn a_later_version_is_not_replaced_by_an_earlier_one() {
        let cache = VersionCache::new(4);
        cache.insert("g_a", 5, "five");
        cache.insert("g_a", 4, "four");
        assert_eq!(cache.get("g_a", 4), None);
        assert_eq!(cache.get("g_a", 5), Some("five"));
        cache.insert("g_a", 6, "six");
        assert_eq!(cache.get("g_a", 6), Some("six"));
    }

    #[test]
    fn the_longest_cached_game_is_evicted_first() {
        let cache = VersionCache::new(2);
        cache.insert("g_a", 1, 'a');
        cache.insert("g_b", 1, 'b');
        // A new version of a cached game does not make room.
        cache.insert("g_a", 2, 'a');
        assert_eq!(cache.len(), 2);
        cache.insert("g_c", 1, 'c');
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get("g_a", 2), None);
        assert_eq!(cache.get("g_b", 1), Some('b'));
        assert_eq!(cache.get("g_c", 1), Some('c'));
        cache.remove("g_b");
        assert_eq!(cache.get("g_b", 1), None);
        cache.insert("g_d", 1, 'd');
        assert_eq!(
            cache.len(),
            2,
            "a removed game leaves the eviction order too"
        );
        let none = VersionCache::new(0);
        none.insert("g_a", 1, 'a');
        assert!(none.is_empty());
    }
}
