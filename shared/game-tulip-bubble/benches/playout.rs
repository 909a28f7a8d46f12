//! Benchmarks: the cost of one action in random games (its `legal_actions` listing plus
//! `apply`), and a JSON round trip of a mid-game state.

use criterion::{criterion_main, Criterion};
use game_core::testing::game_seed;
use game_core::{sample, Game, GameRng, LegalAction, Seat};
use game_tulip_bubble::{Action, Options, TulipBubble};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A random listed action for a random seat that may act (schemas are sampled).
fn random_move(state: &TulipBubble, bot: &mut GameRng) -> (Seat, Action) {
    let seats: Vec<Seat> = state.to_act().iter().collect();
    let seat = *bot.choose(&seats).expect("someone may act");
    let legal = state.legal_actions(seat);
    let action = match &legal[bot.index(legal.len())] {
        LegalAction::Action { action } => action.clone(),
        LegalAction::Schema { schema, .. } => {
            serde_json::from_value(sample::sample(schema, bot).expect("schema samples"))
                .expect("sample is an action")
        }
    };
    (seat, action)
}

fn random_actions(c: &mut Criterion) {
    c.bench_function(
        "tulip_bubble/action (legal_actions + apply, 4 seats)",
        |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                let mut done = 0u64;
                let mut index = 0u64;
                while done < iters {
                    let seed = game_seed(7, index);
                    index += 1;
                    let mut state = TulipBubble::setup(
                        4,
                        &Options::default(),
                        &mut GameRng::for_entry(seed, 0),
                    )
                    .expect("setup")
                    .0;
                    let mut bot = GameRng::for_entry(game_seed(8, index), 0);
                    let mut step = 0u64;
                    while !state.to_act().is_empty() && done < iters {
                        step += 1;
                        let started = Instant::now();
                        let (seat, action) = random_move(&state, &mut bot);
                        let result = state.apply(seat, action, &mut GameRng::for_entry(seed, step));
                        total += started.elapsed();
                        black_box(result.ok());
                        done += 1;
                    }
                }
                total
            })
        },
    );
}

fn json_round_trip(c: &mut Criterion) {
    let seed = game_seed(11, 0);
    let mut state = TulipBubble::setup(5, &Options::default(), &mut GameRng::for_entry(seed, 0))
        .expect("setup")
        .0;
    let mut bot = GameRng::for_entry(seed, 99);
    for step in 1..=60 {
        if state.to_act().is_empty() {
            break;
        }
        let (seat, action) = random_move(&state, &mut bot);
        state
            .apply(seat, action, &mut GameRng::for_entry(seed, step))
            .expect("listed action applies");
    }
    c.bench_function(
        "tulip_bubble/state JSON round trip (5 seats, mid-game)",
        |b| {
            b.iter(|| {
                let json = serde_json::to_string(black_box(&state)).expect("serializes");
                let back: TulipBubble = serde_json::from_str(&json).expect("deserializes");
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
