//! Criterion benchmarks: time per accepted action over seeded random games, and one JSON
//! round trip (serialize + deserialize) of a mid-game state.

// `criterion_group!` generates an undocumented `pub fn benches`.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_core::testing::game_seed;
use game_core::{Game, GameRng, LegalAction, Seat};
use game_tulipmania::{Options, Tulipmania};
use std::hint::black_box;

/// Plays one seeded random game (with the spec's suggested cap of 400 turns) and returns the
/// number of accepted actions and a state from the middle of the game.
fn play(n_seats: u8, index: u64) -> (u64, Tulipmania) {
    let seed = game_seed(7, index);
    let options = Options {
        max_turns: Some(400),
        ..Options::default()
    };
    let mut state = Tulipmania::setup(n_seats, &options, &mut GameRng::for_entry(seed, 0))
        .expect("setup")
        .0;
    let mut bot = GameRng::for_entry(game_seed(8, index), 0);
    let mut steps = 0u64;
    let mut middle = state.clone();
    while !state.to_act().is_empty() {
        let acting: Vec<Seat> = state.to_act().iter().collect();
        let seat = *bot.choose(&acting).expect("someone acts");
        let legal = state.legal_actions(seat);
        let LegalAction::Action { action } = bot.choose(&legal).expect("a legal action").clone()
        else {
            unreachable!("every entry is concrete")
        };
        steps += 1;
        state
            .apply(seat, action, &mut GameRng::for_entry(seed, steps))
            .expect("listed actions apply");
        if steps == 40 {
            middle = state.clone();
        }
    }
    (steps, middle)
}

fn per_action(c: &mut Criterion) {
    let mut group = c.benchmark_group("tulipmania random games");
    for n_seats in [3u8, 4, 5] {
        // One iteration plays the same 20 seeded games; the throughput is their total number
        // of accepted actions, so criterion's elements/s is actions per second.
        let actions: u64 = (0..20).map(|index| play(n_seats, index).0).sum();
        group.throughput(Throughput::Elements(actions));
        group.bench_function(
            format!("{n_seats} seats, 20 games, {actions} actions"),
            |b| {
                b.iter(|| {
                    (0..20)
                        .map(|index| black_box(play(n_seats, index)).0)
                        .sum::<u64>()
                })
            },
        );
    }
    group.finish();
}

fn json_round_trip(c: &mut Criterion) {
    let (_, middle) = play(4, 1);
    c.bench_function("state JSON round trip (4 seats, step 40)", |b| {
        b.iter(|| {
            let json = serde_json::to_string(black_box(&middle)).expect("serializes");
            let back: Tulipmania = serde_json::from_str(&json).expect("deserializes");
            black_box(back)
        })
    });
}

criterion_group!(benches, per_action, json_round_trip);
criterion_main!(benches);
