//! Setup randomness is pinned: the states a seed deals must never change (no added, dropped or
//! reordered draws), or recorded games stop replaying. The fingerprints were taken before setup
//! returned its events, so they also show that logging the deal changed nothing it deals.

use game_black_thursday::BlackThursday as G;
use game_core::testing::setup_fingerprints;

#[test]
fn setup_deals_the_pinned_states() {
    assert_eq!(setup_fingerprints::<G>(), PINNED);
}

/// Per seat count (fewest first), per seed; 0 where the default options refuse the count.
const PINNED: [u64; 6] = [
    3079735774787552232,
    13677419255886942173,
    13483888814121747088,
    8165678820732431576,
    9381903745300730757,
    4831901456262720306,
];
