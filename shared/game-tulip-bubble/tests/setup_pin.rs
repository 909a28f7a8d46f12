//! Setup randomness is pinned: the states a seed deals must never change (no added, dropped or
//! reordered draws), or recorded games stop replaying. The fingerprints were taken before setup
//! returned its events, so they also show that logging the deal changed nothing it deals.

use game_core::testing::setup_fingerprints;
use game_tulip_bubble::TulipBubble as G;

#[test]
fn setup_deals_the_pinned_states() {
    assert_eq!(setup_fingerprints::<G>(), PINNED);
}

/// Per seat count (fewest first), per seed; 0 where the default options refuse the count.
const PINNED: [u64; 9] = [
    6051009758990948417,
    15316996763544864289,
    15640004347972676800,
    14711940723865338997,
    17214235506447375655,
    1464675027625625958,
    2485558672415471585,
    11233268685322501949,
    6299368010583712742,
];
