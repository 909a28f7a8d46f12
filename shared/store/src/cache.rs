//! [`VersionCache`]: a bounded map from game id to one value at one record version.
//!
//! A record version names exactly one stored record (every change is a commit conditioned on
//! the previous version), so a value kept for `(game, version)` can never be stale: a reader
//! that asks for version 7 gets what was kept for version 7, or nothing. The SQLite store keeps
//! parsed records this way; the API keeps loaded engine states.

use quick_cache::sync::{Cache, EntryAction, EntryResult};

/// Values by game id, each at one version; at most `capacity` games (quick_cache's S3-FIFO
/// chooses which to evict).
pub struct VersionCache<T> {
    capacity: usize,
    games: Cache<String, (u64, T)>,
}

impl<T: Clone> VersionCache<T> {
    /// An empty cache of at most `capacity` games (0 keeps nothing).
    pub fn new(capacity: usize) -> VersionCache<T> {
        VersionCache {
            capacity,
            games: Cache::new(capacity.max(1)),
        }
    }

    /// The value kept for game `id` at `version`, if any.
    pub fn get(&self, id: &str, version: u64) -> Option<T> {
        match self.games.get(id) {
            Some((kept, value)) if kept == version => Some(value),
            _ => None,
        }
    }

    /// Keeps `value` as game `id`'s value at `version`, unless a later version is already
    /// kept (a slow reader must not replace what a newer commit left).
    pub fn insert(&self, id: &str, version: u64, value: T) {
        if self.capacity == 0 {
            return;
        }
        let mut value = Some(value);
        // One step under the shard's lock, so two writers cannot interleave.
        let entry = self.games.entry(id, None, |_, (kept, old)| {
            if *kept <= version {
                *kept = version;
                *old = value.take().expect("the callback runs once");
            }
            EntryAction::Retain(())
        });
        if let (EntryResult::Vacant(guard), Some(value)) = (entry, value) {
            // Nobody else is filling this id: the guard is ours.
            let _ = guard.insert((version, value));
        }
    }

    /// Forgets game `id` (it is gone from the store).
    pub fn remove(&self, id: &str) {
        self.games.remove(id);
    }

    /// How many games are cached.
    pub fn len(&self) -> usize {
        self.games.len()
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
    fn at_most_capacity_games_are_kept() {
        let cache = VersionCache::new(8);
        for game in 0..100 {
            cache.insert(&format!("g_{game}"), 1, game);
            // A new version of a cached game does not take another place.
            cache.insert(&format!("g_{game}"), 2, game);
            assert!(cache.len() <= 8, "{} games kept", cache.len());
        }
        assert!(!cache.is_empty());
        assert_eq!(cache.get("g_99", 2), Some(99), "the newest game is kept");
        cache.remove("g_99");
        assert_eq!(cache.get("g_99", 2), None);
        let none = VersionCache::new(0);
        none.insert("g_a", 1, 'a');
        assert!(none.is_empty());
    }
}
