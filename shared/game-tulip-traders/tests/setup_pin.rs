//! Setup randomness is pinned: the states a seed deals must never change (no added, dropped or
//! reordered draws), or recorded games stop replaying. The fingerprints were taken before setup
//! returned its events, so they also show that logging the deal changed nothing it deals.

use game_core::testing::game_seed;
use game_core::{DynRuleset, Erased};
use game_tulip_traders::TulipTraders as G;

fn fnv1a(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[test]
fn setup_deals_the_pinned_states() {
    let ruleset = Erased::<G>::default();
    let (min, max) = ruleset.seat_range();
    let mut fingerprints = Vec::new();
    for seats in min..=max {
        for seed in [[0; 32], [7; 32], game_seed(1637, 3)] {
            let fingerprint = ruleset
                .setup(seats, &serde_json::Value::Null, seed)
                .map_or(0, |game| fnv1a(&game.state_json()));
            fingerprints.push(fingerprint);
        }
    }
    assert_eq!(fingerprints, PINNED);
}

/// Per seat count (fewest first), per seed; 0 where the default options refuse the count.
const PINNED: [u64; 9] = [
    0,
    0,
    0,
    7747327740403278785,
    13602595089483828326,
    11151280024686912201,
    4491710957860928371,
    11311088855631156287,
    7318803498361969712,
];
