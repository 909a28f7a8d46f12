//! Plays typed tables of Tulip Bubble and counts their endings and wins: how the greedy
//! player ([`game_tulip_bubble::greedy`]) and the searching bots that follow it fare
//! (docs/bots.md). No server, no clock: `basic`'s search by its playout budget only.
//!
//! ```sh
//! cargo run --release -p game-tulip-bubble --example tables -- 200 grr
//! ```
//!
//! The table is one letter per seat: `g` greedy, `b` basic (the search with
//! `Budget::BASIC`), `r` random (a sensible random move, as the `random` bot plays).

use game_core::search::{self, Budget};
use game_core::testing::game_seed;
use game_core::{Game, GameRng, Seat};
use game_tulip_bubble::{greedy, Options, Phase, TulipBubble};
use std::collections::BTreeMap;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let table: Vec<char> = args
        .next()
        .unwrap_or_else(|| "grr".into())
        .chars()
        .collect();
    let seats = u8::try_from(table.len()).expect("at most five seats");
    let mut endings: BTreeMap<&str, u64> = BTreeMap::new();
    let mut wins = vec![0u64; table.len()];
    let mut best = Vec::new();
    for game in 0..games {
        let seed = game_seed(1637, game);
        let (mut state, _) =
            TulipBubble::setup(seats, &Options::default(), &mut GameRng::for_entry(seed, 0))
                .expect("a deal");
        let mut rng = GameRng::for_entry(game_seed(1638, game), 0);
        let mut step = 0;
        while !state.is_over() {
            step += 1;
            assert!(step < 20_000, "game {game} does not end");
            let seat = state.waiting_on().iter().next().expect("someone to move");
            let action = match table[seat.index()] {
                'g' => greedy::choose(&state, seat),
                'b' => basic(&state, seat, &mut rng),
                _ => None,
            }
            .or_else(|| {
                let legal = state.legal_actions(seat);
                search::sensible_action(&state, seat, &legal, &mut rng)
            })
            .expect("a move");
            let mut dice = GameRng::for_entry(seed, step);
            if state.apply(seat, action, &mut dice).is_err() {
                // A refused random draw: the next step draws again.
                continue;
            }
        }
        let outcome = state.outcome().expect("over");
        if let Phase::GameOver { reason, .. } = &state.phase {
            *endings.entry(reason.as_str()).or_default() += 1;
        }
        for seat in outcome.winners.iter() {
            wins[seat.index()] += 1;
        }
        best.push(outcome.scores.iter().copied().max().unwrap_or(0));
    }
    best.sort_unstable();
    println!(
        "{games} games, table {}: endings {endings:?}, wins by seat {wins:?}, best score \
         min/median/max {}/{}/{}",
        table.iter().collect::<String>(),
        best[0],
        best[best.len() / 2],
        best[best.len() - 1]
    );
}

/// The `basic` bot's move: the search within its playout budget, in worlds re-dealt for
/// `seat`.
fn basic(state: &TulipBubble, seat: Seat, rng: &mut GameRng) -> Option<game_tulip_bubble::Action> {
    search::choose_for(state, seat, &Budget::BASIC, false, &mut || 0.0, rng)?.action
}
