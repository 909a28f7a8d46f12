//! Benchmarks: the cost of one action in random games, with and without the random bot's
//! choice (the server's share is one `legal_actions` listing plus `apply`), and a JSON round
//! trip of a mid-game state.

use criterion::{criterion_main, Criterion};
use game_black_thursday::{Action, BlackThursday, Options};
use game_core::testing::game_seed;
use game_core::{sample, Game, GameRng, LegalAction, Seat};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A random listed action for a random seat that may act (schemas sampled until one applies).
fn random_move(
    state: &BlackThursday,
    bot: &mut GameRng,
    seed: [u8; 32],
    step: u64,
) -> (Seat, Action) {
    let seats: Vec<Seat> = state.to_act().iter().collect();
    let seat = *bot.choose(&seats).expect("someone may act");
    let legal = state.legal_actions(seat);
    let fallback = legal.iter().find_map(|entry| match entry {
        LegalAction::Action { action } => Some(action.clone()),
        LegalAction::Schema { .. } => None,
    });
    match &legal[bot.index(legal.len())] {
        LegalAction::Action { action } => (seat, action.clone()),
        LegalAction::Schema { schema, .. } => {
            for _ in 0..20 {
                let action: Action =
                    serde_json::from_value(sample::sample(schema, bot).expect("schema samples"))
                        .expect("sample is an action");
                if state
                    .clone()
                    .apply(seat, action.clone(), &mut GameRng::for_entry(seed, step))
                    .is_ok()
                {
                    return (seat, action);
                }
            }
            (seat, fallback.expect("a concrete entry"))
        }
    }
}

/// Times `iters` actions of random games. With `choice_timed`, the time covers the random
/// bot's choice (a listing, schema samples and their trial applies on copies) and `apply`;
/// without, the choice is made untimed and the time covers what the server does for a move
/// (one `legal_actions` listing for the seat, then `apply`).
fn random_games(iters: u64, choice_timed: bool) -> Duration {
    let mut total = Duration::ZERO;
    let mut done = 0u64;
    let mut index = 0u64;
    while done < iters {
        let seed = game_seed(7, index);
        index += 1;
        let mut state =
            BlackThursday::setup(4, &Options::default(), &mut GameRng::for_entry(seed, 0))
                .expect("setup")
                .0;
        let mut bot = GameRng::for_entry(game_seed(8, index), 0);
        let mut step = 0u64;
        while !state.to_act().is_empty() && done < iters {
            step += 1;
            let mut started = Instant::now();
            let (seat, action) = random_move(&state, &mut bot, seed, step);
            if !choice_timed {
                started = Instant::now();
                black_box(state.legal_actions(seat));
            }
            let result = state.apply(seat, action, &mut GameRng::for_entry(seed, step));
            total += started.elapsed();
            black_box(result.ok());
            done += 1;
        }
    }
    total
}

fn random_actions(c: &mut Criterion) {
    c.bench_function(
        "black_thursday/action (random choice + apply, 4 seats)",
        |b| b.iter_custom(|iters| random_games(iters, true)),
    );
    c.bench_function(
        "black_thursday/engine (legal_actions + apply, 4 seats)",
        |b| b.iter_custom(|iters| random_games(iters, false)),
    );
}

fn json_round_trip(c: &mut Criterion) {
    let seed = game_seed(11, 0);
    let mut state = BlackThursday::setup(4, &Options::default(), &mut GameRng::for_entry(seed, 0))
        .expect("setup")
        .0;
    let mut bot = GameRng::for_entry(seed, 99);
    for step in 1..=150 {
        if state.to_act().is_empty() {
            break;
        }
        let (seat, action) = random_move(&state, &mut bot, seed, step);
        state
            .apply(seat, action, &mut GameRng::for_entry(seed, step))
            .expect("listed action applies");
    }
    c.bench_function(
        "black_thursday/state JSON round trip (4 seats, mid-game)",
        |b| {
            b.iter(|| {
                let json = serde_json::to_string(black_box(&state)).expect("serializes");
                let back: BlackThursday = serde_json::from_str(&json).expect("deserializes");
                black_box(back)
            })
        },
    );
}

mod group {
    //! The benchmark group (a private module, so the generated function needs no docs).
    use super::{json_round_trip, random_actions};
    criterion::criterion_group!(benches, random_actions, json_round_trip);
}

criterion_main!(group::benches);
