//! Random seeded games: time per action, and one JSON round trip of a mid-game state.

// criterion_group! and criterion_main! generate undocumented functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_core::testing::game_seed;
use game_core::{Game, GameRng, LegalAction, Seat};
use game_tulip_traders::{Action, Options, TulipTraders};

/// Plays one random game (concrete legal entries only); returns the number of actions.
fn play(seed: u64) -> usize {
    let seed = game_seed(seed, 0);
    let mut game = TulipTraders::setup(4, &Options::default(), &mut GameRng::for_entry(seed, 0))
        .unwrap()
        .0;
    let mut bot = GameRng::for_entry(seed, u64::MAX);
    let mut steps = 0;
    while let Some(seat) = game.to_act().iter().next() {
        let action = pick(&game, seat, &mut bot);
        steps += 1;
        game.apply(seat, action, &mut GameRng::for_entry(seed, steps as u64))
            .unwrap();
    }
    steps
}

fn pick(game: &TulipTraders, seat: Seat, bot: &mut GameRng) -> Action {
    let concrete: Vec<Action> = game
        .legal_actions(seat)
        .into_iter()
        .filter_map(|entry| match entry {
            LegalAction::Action { action } => Some(action),
            LegalAction::Schema { .. } => None,
        })
        .collect();
    concrete[bot.index(concrete.len())].clone()
}

fn mid_game() -> TulipTraders {
    let seed = game_seed(7, 0);
    let mut game = TulipTraders::setup(4, &Options::default(), &mut GameRng::for_entry(seed, 0))
        .unwrap()
        .0;
    let mut bot = GameRng::for_entry(seed, u64::MAX);
    for step in 1..40 {
        let Some(seat) = game.to_act().iter().next() else {
            break;
        };
        let action = pick(&game, seat, &mut bot);
        game.apply(seat, action, &mut GameRng::for_entry(seed, step))
            .unwrap();
    }
    game
}

fn benches(c: &mut Criterion) {
    // The same 20 seeded games every iteration; the throughput is their total action count,
    // so criterion's elements/s is actions per second (time per action = 1 / that).
    let actions: usize = (0..20).map(play).sum();
    println!(
        "20 games, {actions} actions ({:.1} per game)",
        actions as f64 / 20.0
    );
    let mut group = c.benchmark_group("tulip_traders");
    group.throughput(Throughput::Elements(actions as u64));
    group.bench_function("random_games_4p_per_action", |b| {
        b.iter(|| (0..20).map(play).sum::<usize>())
    });
    group.finish();
    let state = mid_game();
    c.bench_function("tulip_traders_state_json_round_trip", |b| {
        b.iter(|| {
            let json = serde_json::to_string(&state).unwrap();
            let back: TulipTraders = serde_json::from_str(&json).unwrap();
            back
        })
    });
}

criterion_group!(group, benches);
criterion_main!(group);
