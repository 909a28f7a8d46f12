//! The standings (spec §6.3–§6.5): the fewest common shares, then the fewest certificates.

use crate::event::Standing;
use crate::pieces::value_of;
use crate::state::BlackThursday;
use game_core::{Outcome, Seat};

impl BlackThursday {
    /// The scoring keys and ranks (spec §6.3–§6.5).
    pub fn standings(&self) -> Vec<Standing> {
        let keys: Vec<(u32, u32)> = self
            .players
            .iter()
            .map(|p| {
                (
                    p.coins.iter().map(|h| u32::from(value_of(h.coin))).sum(),
                    p.coins.len() as u32,
                )
            })
            .collect();
        keys.iter()
            .enumerate()
            .map(|(seat, &(common, certs))| Standing {
                seat: Seat(seat as u8),
                common,
                certs,
                rank: 1 + keys.iter().filter(|&&k| k < (common, certs)).count() as u8,
            })
            .collect()
    }

    /// The investors ranked by what they hold now: the fewest common shares, then the fewest
    /// certificates.
    pub(crate) fn ranked(&self, reason: &str) -> Outcome {
        let standings = self.standings();
        let scores = standings.iter().map(|s| i64::from(s.common)).collect();
        // Lower is better: negate for `from_keys`, which ranks higher keys first.
        let keys: Vec<Vec<i64>> = standings
            .iter()
            .map(|s| vec![-i64::from(s.common), -i64::from(s.certs)])
            .collect();
        Outcome::from_keys(scores, &keys, reason)
    }
}
