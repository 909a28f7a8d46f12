//! Plays typed tables of Tulip Traders and counts their endings, their lengths in rounds,
//! their wins, the collapses that a lot of no tulips caused, and by seat the reveal prompts
//! at which it held a complete portfolio and its reveals: how far the portfolio-seeking greedy player
//! ([`game_tulip_traders::greedy`]) and the searching bots get towards the `reveal` ending
//! (docs/bots.md). No server, no clock: `basic`'s search by its playout budget only.
//!
//! ```sh
//! cargo run --release -p game-tulip-traders --example tables -- 200 grrr
//! ```
//!
//! The table is one letter per seat: `g` greedy, `b` basic (the search with
//! `Budget::BASIC`), `r` random (a sensible random move, as the `random` bot plays); see
//! [`game_core::testing::play_table`].

use game_core::testing::{play_table, TablePlayer};
use game_tulip_traders::{greedy, scoring, Action, Options, Phase, TulipTraders};
use std::collections::BTreeMap;

fn main() {
    let (games, letters, table) = TablePlayer::from_args("grrr");
    // By seat: the reveal prompts at which it held a complete portfolio, and its reveals.
    let mut could = vec![0u64; table.len()];
    let mut did = vec![0u64; table.len()];
    let played = play_table::<TulipTraders>(
        games,
        &table,
        &Options::default(),
        |state, seat, rng| Some(greedy::choose(state, seat, rng)),
        |state, seat, action| {
            if state.phase == Phase::Reveal
                && scoring::bonus(&state.players[seat.index()].hand, &state.options) > 0
            {
                could[seat.index()] += 1;
                did[seat.index()] += u64::from(matches!(action, Action::RevealPortfolio {}));
            }
        },
    );
    let finals = &played.finals;
    let no_tulip_collapses = finals.iter().filter(|state| state.collapse_flag).count();
    let mut last_rounds: BTreeMap<u8, u64> = BTreeMap::new();
    for state in finals {
        *last_rounds.entry(state.round).or_default() += 1;
    }
    println!(
        "{games} games, table {letters}: endings {:?}, games by their last round \
         {last_rounds:?}, wins by seat {:?}, \
         collapses by a lot of no tulips {no_tulip_collapses}, reveal prompts at which each \
         seat held a complete portfolio {could:?}, reveals by seat {did:?}",
        played.endings, played.wins,
    );
}
