//! How four-seat games end when every seat plays the greedy player (docs decision 11 of
//! docs/rules/tulip-traders.md), under the rules-v1 tables and the standard (v2) ones.
//!
//! `cargo run --release -p game-tulip-traders --example portfolio_endings [games]`
//! (default 1000 games per ruleset; seeds `game_seed(0..games, 0)`).

use game_core::testing::game_seed;
use game_core::{Game, GameRng};
use game_tulip_traders::greedy;
use game_tulip_traders::{Options, TulipTraders};
use std::collections::BTreeMap;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    let mut rulesets = vec![
        ("v1 (legacy)".to_string(), Options::legacy()),
        ("v2 (default)".to_string(), Options::default()),
    ];
    if let Ok(json) = std::env::var("TT_OPTIONS") {
        rulesets = vec![(json.clone(), serde_json::from_str(&json).expect("options"))];
    }
    for (name, options) in rulesets {
        let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
        let mut reveal_rounds: BTreeMap<u8, u64> = BTreeMap::new();
        let (mut rounds, mut actions) = (0u64, 0u64);
        for n in 0..games {
            let (game, steps) = play(&options, n);
            let reason = game.outcome().expect("the game is over").reason;
            if reason == "reveal" {
                *reveal_rounds.entry(game.round).or_default() += 1;
            }
            *reasons.entry(reason).or_default() += 1;
            rounds += u64::from(game.round);
            actions += steps;
        }
        println!("{name}: {games} four-seat games");
        for (reason, count) in &reasons {
            println!(
                "  {reason:<14} {count:>5}  {:5.1} %",
                100.0 * *count as f64 / games as f64
            );
        }
        println!("  reveals by round: {reveal_rounds:?}");
        println!(
            "  mean length: {:.2} rounds, {:.1} actions",
            rounds as f64 / games as f64,
            actions as f64 / games as f64
        );
    }
}

/// One greedy game: the final state and its number of actions.
fn play(options: &Options, n: u64) -> (TulipTraders, u64) {
    let seed = game_seed(n, 0);
    let mut game = TulipTraders::setup(4, options, &mut GameRng::for_entry(seed, 0))
        .expect("setup")
        .0;
    let mut bot = GameRng::for_entry(seed, u64::MAX);
    let mut steps = 0;
    while let Some(seat) = game.to_act().iter().next() {
        let action = greedy::choose(&game, seat, &mut bot);
        steps += 1;
        game.apply(seat, action, &mut GameRng::for_entry(seed, steps))
            .expect("the greedy player plays legal actions");
    }
    (game, steps)
}
