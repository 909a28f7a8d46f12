//! Plays typed tables of Tulip Traders and counts their endings, their wins, and the reveal
//! prompts at which a seat that plays to a plan or a search held a complete portfolio: how
//! far the portfolio-seeking greedy player ([`game_tulip_traders::greedy`]) and the searching
//! bots get towards the `reveal` ending (docs/bots.md). No server, no clock: `basic`'s search
//! by its playout budget only.
//!
//! ```sh
//! cargo run --release -p game-tulip-traders --example tables -- 200 grrr
//! ```
//!
//! The table is one letter per seat: `g` greedy, `b` basic (the search with
//! `Budget::BASIC`), `r` random (a sensible random move, as the `random` bot plays).

use game_core::search::{self, Budget};
use game_core::testing::game_seed;
use game_core::{Game, GameRng, Seat};
use game_tulip_traders::{greedy, scoring, Action, Options, Phase, TulipTraders};
use std::collections::BTreeMap;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let table: Vec<char> = args
        .next()
        .unwrap_or_else(|| "brr".into())
        .chars()
        .collect();
    let seats = u8::try_from(table.len()).expect("at most four seats");
    let options = Options::default();
    let mut endings: BTreeMap<String, u64> = BTreeMap::new();
    let mut wins = vec![0u64; table.len()];
    let (mut could, mut did) = (0u64, 0u64);
    let mut lies = 0u64;
    for game in 0..games {
        let seed = game_seed(1637, game);
        let (mut state, _) =
            TulipTraders::setup(seats, &options, &mut GameRng::for_entry(seed, 0)).expect("a deal");
        let mut rng = GameRng::for_entry(game_seed(1638, game), 0);
        let mut step = 0;
        while state.outcome().is_none() {
            step += 1;
            assert!(step < 20_000, "game {game} does not end");
            let seat = state.waiting_on().iter().next().expect("someone to move");
            let action = match table[seat.index()] {
                'g' => Some(greedy::choose(&state, seat, &mut rng)),
                'b' => basic(&state, seat, &mut rng),
                _ => None,
            }
            .or_else(|| {
                let legal = state.legal_actions(seat);
                search::sensible_action(&state, seat, &legal, &mut rng)
            })
            .expect("a move");
            if state.phase == Phase::Reveal
                && table[seat.index()] != 'r'
                && scoring::bonus(&state.players[seat.index()].hand, &state.options) > 0
            {
                could += 1;
                did += u64::from(matches!(action, Action::RevealPortfolio {}));
            }
            let mut dice = GameRng::for_entry(seed, step);
            if state.apply(seat, action, &mut dice).is_err() {
                // A refused random draw: the next step draws again.
                continue;
            }
        }
        let outcome = state.outcome().expect("over");
        lies += u64::from(state.collapse_flag);
        *endings.entry(outcome.reason.clone()).or_default() += 1;
        for seat in outcome.winners.iter() {
            wins[seat.index()] += 1;
        }
    }
    println!(
        "{games} games, table {}: endings {endings:?}, wins by seat {wins:?}, \
         collapses by a lot of no tulips {lies}, non-random seats able to reveal {could}, \
         revealed {did}",
        table.iter().collect::<String>(),
    );
}

/// The `basic` bot's move: the search within its playout budget, in worlds re-dealt for
/// `seat`.
fn basic(state: &TulipTraders, seat: Seat, rng: &mut GameRng) -> Option<Action> {
    search::choose_for(state, seat, &Budget::BASIC, false, &mut || 0.0, rng)?.action
}
