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

/// The seeds of started games, by game: a started game's seed never changes (its inputs, the
/// server secret, the seats' entropies, the id, ruleset, rules version and options, are fixed
/// once its last seat is claimed), so a process derives it once rather than for every move.
pub struct SeedCache(store::VersionCache<Arc<(String, [u8; 32])>>);

impl SeedCache {
    /// An empty cache of at most `capacity` games.
    pub fn new(capacity: usize) -> SeedCache {
        SeedCache(store::VersionCache::new(capacity))
    }

    /// The seed of `record`, a started game ([`crate::seed::seed_of_record`]). A kept seed is
    /// used only while the record's server secret is the one it was derived with. (A seed
    /// does not change with the record's version, so every game is kept at version 0.)
    pub fn seed_of(&self, record: &store::GameRecord) -> Result<[u8; 32], crate::error::Error> {
        if let Some(kept) = self.0.get(&record.id, 0) {
            if kept.0 == record.server_secret {
                return Ok(kept.1);
            }
        }
        let seed = crate::seed::seed_of_record(record)?;
        self.0.insert(
            &record.id,
            0,
            Arc::new((record.server_secret.clone(), seed)),
        );
        Ok(seed)
    }

    /// Forgets game `id`'s seed (the game was deleted).
    pub fn forget(&self, id: &str) {
        self.0.remove(id);
    }
}

#[cfg(test)]
mod tests {
    use super::SeedCache;
    use crate::seed::seed_of_record;

    #[test]
    fn a_kept_seed_is_the_derived_seed_and_follows_the_secret() {
        let cache = SeedCache::new(4);
        let mut record = store::testing::sample_record("g_seeded");
        let derived = seed_of_record(&record).expect("seed");
        assert_eq!(cache.seed_of(&record).expect("seed"), derived);
        assert_eq!(cache.seed_of(&record).expect("seed"), derived, "kept");
        record.server_secret = "ab".repeat(32);
        let other = seed_of_record(&record).expect("seed");
        assert_ne!(other, derived);
        assert_eq!(
            cache.seed_of(&record).expect("seed"),
            other,
            "another secret, another seed"
        );
    }
}
