//! Criterion benchmarks: time per action over seeded random games, and one JSON round trip
//! of a mid-game state.

// The criterion macros generate an undocumented public function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_core::testing::game_seed;
use game_core::{Game, GameRng, LegalAction, Seat};
use game_tulpenfieber::{Action, Options, Tulpenfieber};
use std::hint::black_box;

/// A random legal action: a listed one, or a sample of a listed schema (rerolls and bought
/// rolls are listed as schemas whose every instance is legal).
fn pick(state: &Tulpenfieber, seat: Seat, bot: &mut GameRng) -> Action {
    let legal = state.legal_actions(seat);
    match bot.choose(&legal).expect("a legal action") {
        LegalAction::Action { action } => action.clone(),
        LegalAction::Schema { schema, .. } => {
            let sample = game_core::sample::sample(schema, bot).expect("the schema can be sampled");
            serde_json::from_value(sample).expect("a sample is an action")
        }
    }
}

/// Plays random actions from setup until the game ends or `limit` actions were made;
/// returns the state and the number of actions.
fn play(n_seats: u8, index: u64, limit: u64) -> (Tulpenfieber, u64) {
    let seed = game_seed(99, index);
    let mut state = Tulpenfieber::setup(
        n_seats,
        &Options::default(),
        &mut GameRng::for_entry(seed, 0),
    )
    .expect("setup")
    .0;
    let mut bot = GameRng::for_entry(game_seed(7, index), 0);
    let mut steps = 0u64;
    while let Some(seat) = state.to_act().iter().next() {
        if steps == limit {
            break;
        }
        steps += 1;
        let action = pick(&state, seat, &mut bot);
        state
            .apply(seat, action, &mut GameRng::for_entry(seed, steps))
            .expect("listed actions apply");
    }
    (state, steps)
}

fn bench(c: &mut Criterion) {
    // One iteration plays the same 4 seeded random games, so the throughput (actions per
    // second) converts directly into time per action.
    let mut group = c.benchmark_group("random games");
    group.sample_size(10);
    for n_seats in [1u8, 2, 4] {
        let steps: u64 = (0..4).map(|i| play(n_seats, i, u64::MAX).1).sum();
        group.throughput(Throughput::Elements(steps));
        group.bench_function(format!("{n_seats} seats, 4 games ({steps} actions)"), |b| {
            b.iter(|| {
                (0..4)
                    .map(|i| black_box(play(n_seats, i, u64::MAX)).1)
                    .sum::<u64>()
            })
        });
    }
    group.finish();
    // A four-player game after 500 actions.
    let (state, _) = play(4, 5, 500);
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
