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
use game_core::Game;
use game_tulip_traders::{greedy, scoring, Action, Options, Phase, TulipTraders};
use std::collections::BTreeMap;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let letters = args.next().unwrap_or_else(|| "grrr".into());
    let table = TablePlayer::table(&letters)
        .unwrap_or_else(|letter| panic!("{letter:?} is not g (greedy), b (basic) or r (random)"));
    // By seat: the reveal prompts at which it held a complete portfolio, and its reveals.
    let mut could = vec![0u64; table.len()];
    let mut did = vec![0u64; table.len()];
    let finals = play_table::<TulipTraders>(
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
    let mut endings: BTreeMap<String, u64> = BTreeMap::new();
    let mut wins = vec![0u64; table.len()];
    for state in &finals {
        let outcome = state.outcome().expect("over");
        for seat in outcome.winners.iter() {
            wins[seat.index()] += 1;
        }
        *endings.entry(outcome.reason).or_default() += 1;
    }
    let no_tulip_collapses = finals.iter().filter(|state| state.collapse_flag).count();
    let mut last_rounds: BTreeMap<u8, u64> = BTreeMap::new();
    for state in &finals {
        *last_rounds.entry(state.round).or_default() += 1;
    }
    println!(
        "{games} games, table {letters}: endings {endings:?}, games by their last round \
         {last_rounds:?}, wins by seat {wins:?}, \
         collapses by a lot of no tulips {no_tulip_collapses}, reveal prompts at which each \
         seat held a complete portfolio {could:?}, reveals by seat {did:?}",
    );
}
