//! Setup randomness is pinned: the states a seed deals must never change (no added, dropped or
//! reordered draws), or recorded games stop replaying. The fingerprints were taken before setup
//! returned its events, so they also show that logging the deal changed nothing it deals.

use game_core::testing::{game_seed, setup_fingerprints};
use game_core::{DynRuleset, Erased};
use game_tulip_traders::{Options, TulipTraders as G};

/// The default (rules v2, docs decision 11) deal: the round-1 draw and the v2 tables in the state.
#[test]
fn setup_deals_the_pinned_states() {
    assert_eq!(setup_fingerprints::<G>(), PINNED);
}

/// The rules-v1 deal, with the options object a v1 game stored: still the fingerprints the
/// v1 code pinned as its default.
#[test]
fn legacy_setup_deals_the_v1_pinned_states() {
    let ruleset = Erased::<G>::default();
    let options = serde_json::to_value(Options::legacy()).unwrap();
    let mut prints = Vec::new();
    for seats in 2..=4 {
        for seed in [[0; 32], [7; 32], game_seed(1637, 3)] {
            prints.push(
                ruleset
                    .setup(seats, &options, seed)
                    .map_or(0, |game| fnv1a(&game.state_json())),
            );
        }
    }
    assert_eq!(prints, PINNED_V1);
}

fn fnv1a(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Per seat count (fewest first), per seed; 0 where the default options refuse the count.
const PINNED: [u64; 9] = [
    0,
    0,
    0,
    4169714828817752432,
    17507905193238190147,
    11508031291940143988,
    6497152718065089810,
    11740750139704933326,
    10366531902181543163,
];

/// The rules-v1 pin, unchanged from before docs decision 11.
const PINNED_V1: [u64; 9] = [
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
