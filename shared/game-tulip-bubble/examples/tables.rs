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

fn main() {
    let (games, letters, table) = TablePlayer::from_args("grr");
    let played = play_table::<TulipBubble>(
        games,
        &table,
        &Options::default(),
        |state, seat, _| greedy::choose(state, seat),
        |_, _, _| {},
    );
    let mut best: Vec<i64> = played
        .finals
        .iter()
        .map(|state| {
            let outcome = state.outcome().expect("over");
            outcome.scores.iter().copied().max().unwrap_or(0)
        })
        .collect();
    best.sort_unstable();
    println!(
        "{games} games, table {letters}: endings {:?}, wins by seat {:?}, best score \
         min/median/max {}/{}/{}",
        played.endings,
        played.wins,
        best[0],
        best[best.len() / 2],
        best[best.len() - 1]
    );
}
