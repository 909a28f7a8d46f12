//! Setup randomness is pinned: the states a seed deals must never change (no added, dropped or
//! reordered draws), or recorded games stop replaying. The fingerprints were taken before setup
//! returned its events, so they also show that logging the deal changed nothing it deals.

use game_core::testing::setup_fingerprints;
use game_tulip_traders::TulipTraders as G;

#[test]
fn setup_deals_the_pinned_states() {
    assert_eq!(setup_fingerprints::<G>(), PINNED);
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
