//! Setup randomness is pinned: the states a seed deals must never change (no added, dropped or
//! reordered draws), or recorded games stop replaying. The fingerprints were taken before setup
//! returned its events, so they also show that logging the deal changed nothing it deals.

use game_core::testing::setup_fingerprints;
use game_tulipmania::Tulipmania as G;

#[test]
fn setup_deals_the_pinned_states() {
    assert_eq!(setup_fingerprints::<G>(), PINNED);
}

/// Per seat count (fewest first), per seed; 0 where the default options refuse the count.
const PINNED: [u64; 9] = [
    6748689156275390379,
    13888750379316525827,
    17009252240483480185,
    1599499109957392414,
    6458898951920080532,
    7976687561615026445,
    1389140596829523772,
    5259792646345333987,
    17210573787808322337,
];
