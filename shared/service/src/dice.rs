//! Where the server draws what players must not be able to predict: game ids, each game's
//! server secret (and so its deal), and its bots' dice.
//!
//! A server draws them from the operating system ([`Dice::Os`]). A test that needs a
//! particular situation (a deal in which an undo gives a turn back, a bot that opens a trading
//! session) chooses a seed instead ([`Dice::seeded`]): every draw is then a function of that
//! seed and of how many draws came before it, so the same requests meet the same deals and the
//! same bot moves on any machine, whatever the server would have drawn.

use crate::error::Error;
use game_core::GameRng;
use std::sync::atomic::{AtomicU64, Ordering};

/// The source of game ids, server secrets and bots' dice (see the module documentation).
#[derive(Debug, Default)]
pub enum Dice {
    /// The operating system's CSPRNG: every server's.
    #[default]
    Os,
    /// The `n`th draw is the ChaCha20 stream `n` of `seed`: the same on every run that draws
    /// in the same order (a test's requests, made one after the other).
    Seeded {
        /// The seed the test chose.
        seed: [u8; 32],
        /// How many draws were made.
        drawn: AtomicU64,
    },
}

impl Dice {
    /// Draws from a seed a test chose: the seed's bytes are `seed` in little-endian order,
    /// then zeros.
    pub fn seeded(seed: u64) -> Dice {
        let mut bytes = [0; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        Dice::Seeded {
            seed: bytes,
            drawn: AtomicU64::new(0),
        }
    }

    /// `N` unpredictable bytes (or, seeded, the next draw's first `N` bytes).
    pub fn bytes<const N: usize>(&self) -> Result<[u8; N], Error> {
        match self {
            Dice::Os => {
                let mut bytes = [0; N];
                getrandom::fill(&mut bytes).map_err(|error| {
                    Error::Internal(format!("OS random source failed: {error}"))
                })?;
                Ok(bytes)
            }
            Dice::Seeded { seed, drawn } => {
                let mut stream = GameRng::for_entry(*seed, drawn.fetch_add(1, Ordering::Relaxed));
                let mut bytes = [0; N];
                for chunk in bytes.chunks_mut(8) {
                    let word = stream.next_u64().to_le_bytes();
                    chunk.copy_from_slice(&word[..chunk.len()]);
                }
                Ok(bytes)
            }
        }
    }

    /// A fresh random number generator (a bot's dice, a timeout's random move).
    pub fn rng(&self) -> Result<GameRng, Error> {
        Ok(GameRng::for_entry(self.bytes::<32>()?, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_dice_repeat_under_their_seed_and_differ_between_draws_and_seeds() {
        let draws =
            |dice: Dice| -> Vec<[u8; 20]> { (0..3).map(|_| dice.bytes::<20>().unwrap()).collect() };
        let first = draws(Dice::seeded(7));
        assert_eq!(
            first,
            draws(Dice::seeded(7)),
            "the same seed, the same draws"
        );
        assert_ne!(first[0], first[1], "each draw its own");
        assert_ne!(first, draws(Dice::seeded(8)), "another seed, other draws");
        assert_ne!(
            Dice::Os.bytes::<32>().unwrap(),
            Dice::Os.bytes::<32>().unwrap()
        );
    }
}
