//! Setup randomness is pinned: the states a seed deals must never change (no added, dropped or
//! reordered draws), or recorded games stop replaying. The fingerprints were taken before setup
//! returned its events, so they also show that logging the deal changed nothing it deals.

use game_core::testing::setup_fingerprints;
use game_tulpenfieber::Tulpenfieber as G;

#[test]
fn setup_deals_the_pinned_states() {
    assert_eq!(setup_fingerprints::<G>(), PINNED);
}

/// Per seat count (fewest first), per seed; 0 where the default options refuse the count.
const PINNED: [u64; 12] = [
    1667563892457960978,
    1667563892457960978,
    1667563892457960978,
    13771316383351465845,
    13771316383351465845,
    13771316383351465845,
    1364721297671609851,
    1364721297671609851,
    1364721297671609851,
    2139570936001885105,
    2139570936001885105,
    2139570936001885105,
];
