//! Plays typed tables of Tulip Bubble and counts their endings and wins: how the greedy
//! player ([`game_tulip_bubble::greedy`]) and the searching bots that follow it fare
//! (docs/bots.md). No server, no clock: `basic`'s search by its playout budget only.
//!
//! ```sh
//! cargo run --release -p game-tulip-bubble --example tables -- 200 grr
//! ```
//!
//! The table is one letter per seat: `g` greedy, `b` basic (the search with
//! `Budget::BASIC`), `r` random (a sensible random move, as the `random` bot plays); see
//! [`game_core::testing::play_table`].

use game_core::testing::{play_table, TablePlayer};
use game_core::Game;
use game_tulip_bubble::{greedy, Options, TulipBubble};
use std::collections::BTreeMap;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let letters = args.next().unwrap_or_else(|| "grr".into());
    let table = TablePlayer::table(&letters)
        .unwrap_or_else(|letter| panic!("{letter:?} is not g (greedy), b (basic) or r (random)"));
    let finals = play_table::<TulipBubble>(
        games,
        &table,
        &Options::default(),
        |state, seat, _| greedy::choose(state, seat),
        |_, _, _| {},
    );
    let mut endings: BTreeMap<String, u64> = BTreeMap::new();
    let mut wins = vec![0u64; table.len()];
    let mut best = Vec::new();
    for state in &finals {
        let outcome = state.outcome().expect("over");
        for seat in outcome.winners.iter() {
            wins[seat.index()] += 1;
        }
        best.push(outcome.scores.iter().copied().max().unwrap_or(0));
        *endings.entry(outcome.reason).or_default() += 1;
    }
    best.sort_unstable();
    println!(
        "{games} games, table {}: endings {endings:?}, wins by seat {wins:?}, best score \
         min/median/max {}/{}/{}",
        letters,
        best[0],
        best[best.len() / 2],
        best[best.len() - 1]
    );
}
