//! Criterion benchmarks: time per action over seeded random games, and one JSON round trip
//! of a mid-game state.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use game_core::testing::game_seed;
use game_core::{Game, GameRng, LegalAction};
use game_tulpenfieber::{Options, Tulpenfieber};
use std::hint::black_box;

/// Plays one random game to the end; returns the final state and the number of actions.
fn random_game(n_seats: u8, index: u64) -> (Tulpenfieber, u64) {
    let seed = game_seed(99, index);
    let mut state = Tulpenfieber::setup(
        n_seats,
        &Options::default(),
        &mut GameRng::for_entry(seed, 0),
    )
    .expect("setup");
    let mut bot = GameRng::for_entry(game_seed(7, index), 0);
    let mut steps = 0u64;
    while let Some(seat) = state.to_act().iter().next() {
        steps += 1;
        let legal = state.legal_actions(seat);
        let LegalAction::Action { action } = bot.choose(&legal).expect("a legal action").clone()
        else {
            unreachable!("every entry is concrete")
        };
        state
            .apply(seat, action, &mut GameRng::for_entry(seed, steps))
            .expect("listed actions apply");
    }
    (state, steps)
}

/// A state in the middle of a 4-player game (after 100 actions).
fn mid_game() -> Tulpenfieber {
    let seed = game_seed(5, 5);
    let mut state = Tulpenfieber::setup(4, &Options::default(), &mut GameRng::for_entry(seed, 0))
        .expect("setup");
    let mut bot = GameRng::for_entry(seed, 1);
    for step in 1..=100u64 {
        let Some(seat) = state.to_act().iter().next() else {
            break;
        };
        let legal = state.legal_actions(seat);
        let LegalAction::Action { action } = bot.choose(&legal).expect("a legal action").clone()
        else {
            unreachable!("every entry is concrete")
        };
        state
            .apply(seat, action, &mut GameRng::for_entry(seed, step))
            .expect("listed actions apply");
    }
    state
}

fn bench(c: &mut Criterion) {
    for n_seats in [1u8, 2, 4] {
        let (_, steps) = (0..20)
            .map(|i| random_game(n_seats, i))
            .fold((None, 0), |(_, total), (s, n)| (Some(s), total + n));
        eprintln!(
            "{n_seats} seats: {:.1} actions per game on average",
            steps as f64 / 20.0
        );
        let mut index = 0u64;
        c.bench_function(&format!("random game, {n_seats} seats"), |b| {
            b.iter(|| {
                index += 1;
                black_box(random_game(n_seats, index))
            })
        });
    }
    let state = mid_game();
    c.bench_function("state json round trip (4 seats, mid-game)", |b| {
        b.iter(|| {
            let json = serde_json::to_string(black_box(&state)).expect("serialize");
            let back: Tulpenfieber = serde_json::from_str(&json).expect("deserialize");
            black_box(back)
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
