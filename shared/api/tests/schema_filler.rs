//! Issue 54, defect 5: a client that fills the legal-action schemas exactly, knowing nothing
//! of any game, is rarely refused. For every ruleset, at its fewest and its most seats, games
//! are played from the listings the API serves (`legal_actions_listed`); at every step, each
//! `{label, schema}` entry of the seat to move is filled [`FILLS_PER_ENTRY`] times by the
//! generic sampler ([`game_core::sample`], every value drawn uniformly, `x-refused-with`
//! ignored) and tried on a copy of the game. The share of refused fills must stay under
//! [`MAX_REFUSED_SHARE`] in every ruleset; the test prints each ruleset's share and the codes
//! that refused. Each accepted fill is also held to its entry's `sealed` flag.

use game_core::adapter::ActionError;
use game_core::testing::game_seed;
use game_core::words::Names;
use game_core::{DynGame, DynRuleset, GameRng, Seat};
use serde_json::Value;
use std::collections::BTreeMap;

/// Games played per ruleset and seat count.
const GAMES: u64 = 12;
/// Fills tried per schema entry and step.
const FILLS_PER_ENTRY: u64 = 2;
/// The most a generic filler may be refused (issue 54: under 5 %).
const MAX_REFUSED_SHARE: f64 = 0.05;
/// A bound on a game's length, far above any ruleset's longest game.
const MAX_STEPS: usize = 20_000;

/// What the fills of one ruleset met.
#[derive(Debug, Default)]
struct Fills {
    tried: u64,
    refused: u64,
    /// Refusals by code, with one refused fill of each as an example.
    codes: BTreeMap<&'static str, (u64, String)>,
    /// Fills the sampler could not make (a schema outside its subset).
    unfillable: u64,
}

impl Fills {
    fn share(&self) -> f64 {
        if self.tried == 0 {
            0.0
        } else {
            self.refused as f64 / self.tried as f64
        }
    }
}

/// The listing the API serves `seat`, as JSON entries.
fn listing(game: &dyn DynGame, seat: Seat, names: &Names) -> Vec<Value> {
    let raw = game.legal_actions_listed(seat, names);
    match serde_json::from_str(raw.get()) {
        Ok(Value::Array(entries)) => entries,
        other => panic!("a listing is an array: {other:?}"),
    }
}

fn code(error: &ActionError) -> &'static str {
    match error {
        ActionError::Malformed(_) => "malformed",
        ActionError::Rule { code, .. } => code,
    }
}

/// Plays `games` games of `ruleset` at `seats`, filling every schema entry met.
fn fill(ruleset: &dyn DynRuleset, seats: u8, games: u64, fills: &mut Fills) {
    let unnamed = vec![None; usize::from(seats)];
    let names = Names::new(&unnamed);
    for index in 0..games {
        let seed = game_seed(54, index);
        let mut game = ruleset
            .setup(seats, &serde_json::json!({}), seed)
            .expect("a deal with the default options");
        let mut chooser = GameRng::for_entry(game_seed(55, index), 0);
        let mut step = 0;
        while game.outcome().is_none() {
            step += 1;
            assert!(
                step < MAX_STEPS,
                "{} at {seats} seats, game {index}: no end",
                ruleset.id()
            );
            let waiting: Vec<Seat> = game.waiting_on().iter().collect();
            let seat = *chooser.choose(&waiting).expect("someone to move");
            let entries = listing(game.as_ref(), seat, &names);
            let mut filler = GameRng::for_entry(game_seed(56, index), step as u64);
            let mut accepted: Vec<Value> = Vec::new();
            for entry in &entries {
                let Some(schema) = entry.get("schema") else {
                    continue;
                };
                for _ in 0..FILLS_PER_ENTRY {
                    let Some(action) = game_core::sample::sample(schema, &mut filler) else {
                        fills.unfillable += 1;
                        continue;
                    };
                    fills.tried += 1;
                    let mut copy = game.clone_box();
                    let mut dice = GameRng::for_entry(seed, step as u64);
                    match copy.apply_json(seat, &action, &mut dice) {
                        Ok(_) => {
                            // The entry says `sealed` exactly when its moves are.
                            let sealed = ruleset.is_sealed(&action, seat) == Some(true);
                            assert_eq!(
                                entry.get("sealed") == Some(&Value::Bool(true)),
                                sealed,
                                "{}: the entry {:?} and its move {action} disagree on being sealed",
                                ruleset.id(),
                                entry["label"]
                            );
                            accepted.push(action);
                        }
                        Err(error) => {
                            fills.refused += 1;
                            let seen = fills
                                .codes
                                .entry(code(&error))
                                .or_insert_with(|| (0, action.to_string()));
                            seen.0 += 1;
                        }
                    }
                }
            }
            // The move: a ready action or an accepted fill, at random.
            let mut moves: Vec<Value> = entries
                .iter()
                .filter_map(|entry| entry.get("action").cloned())
                .collect();
            moves.extend(accepted);
            let action = chooser
                .choose(&moves)
                .unwrap_or_else(|| {
                    panic!(
                        "{} at {seats} seats, game {index}, step {step}: {seat} has nothing \
                         the filler could play among {entries:?}",
                        ruleset.id()
                    )
                })
                .clone();
            let mut dice = GameRng::for_entry(seed, step as u64);
            game.apply_json(seat, &action, &mut dice)
                .unwrap_or_else(|error| panic!("{action} was accepted on a copy: {error}"));
        }
    }
}

#[test]
fn a_generic_schema_filler_is_refused_in_under_5_percent_of_fills_in_every_ruleset() {
    let registry = service::registry();
    let mut over = Vec::new();
    for ruleset in registry.iter() {
        // The fewest and the most seats the default options deal.
        let (fewest, most) = ruleset.seat_range();
        let dealt: Vec<u8> = (fewest..=most)
            .filter(|&seats| {
                ruleset
                    .setup(seats, &serde_json::json!({}), [0; 32])
                    .is_ok()
            })
            .collect();
        let mut fills = Fills::default();
        for seats in [dealt[0], dealt[dealt.len() - 1]] {
            fill(ruleset, seats, GAMES, &mut fills);
        }
        eprintln!(
            "{}: {} fills, {} refused ({:.2} %), {} unfillable; refused by code: {:?}",
            ruleset.id(),
            fills.tried,
            fills.refused,
            100.0 * fills.share(),
            fills.unfillable,
            fills.codes
        );
        assert_eq!(
            fills.unfillable,
            0,
            "{}: schemas outside the sampler's subset",
            ruleset.id()
        );
        if fills.share() >= MAX_REFUSED_SHARE {
            over.push(format!(
                "{}: {:.2} % of {} fills ({:?})",
                ruleset.id(),
                100.0 * fills.share(),
                fills.tried,
                fills.codes
            ));
        }
    }
    assert!(
        over.is_empty(),
        "refused in 5 % of fills or more: {over:#?}"
    );
}
