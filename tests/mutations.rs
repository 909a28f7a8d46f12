//! Mutated legal actions, for every registered ruleset and seat count, through the same
//! type-erased adapter the API uses.
//!
//! Random games are played with seeded bots; at regular states each listed action of the
//! acting seat is mutated (another seat, numbers pushed out of range, unknown strings,
//! dropped or extra fields, another `type` tag, wrong JSON types) and submitted to a copy.
//! Every mutant must be either refused, with a stable kebab-case rule code or a parse error,
//! leaving the state's JSON byte-identical, or accepted as a legal move: by a seat that may
//! act, normalised to one of the listed actions (when the seat's list is all concrete), and
//! replaying to the same state. Nothing may panic.

use game_core::adapter::ActionError;
use game_core::{DynGame, DynRuleset, GameRng, Seat};
use serde_json::{json, Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Games per (ruleset, seat count), steps per game, and how often a state is mutated.
const GAMES: u64 = 3;
const MAX_STEPS: usize = 200;
const MUTATE_EVERY: usize = 5;
/// Listed actions mutated per mutated state.
const ACTIONS_PER_STATE: usize = 3;

/// How many mutants were tried and what became of them.
#[derive(Debug, Default)]
struct Tally {
    refused_rule: u64,
    refused_parse: u64,
    accepted: u64,
}

/// Numbers just outside (or far outside) any range a field could have.
fn bad_numbers(original: &Value) -> Vec<Value> {
    let mut numbers = vec![
        json!(-1),
        json!(i64::MIN),
        json!(i64::MAX),
        json!(u64::MAX),
        json!(4_294_967_296u64),
        json!(65_536),
        json!(256),
        json!(1e300),
        json!(-0.5),
        json!(0.5),
    ];
    if let Some(n) = original.as_i64() {
        numbers.extend([json!(n + 1), json!(n - 1), json!(n * 10 + 7)]);
    }
    numbers
}

/// Values of every JSON type but the original's.
fn wrong_types(original: &Value) -> Vec<Value> {
    let candidates = [
        Value::Null,
        json!(true),
        json!(7),
        json!("7"),
        json!([]),
        json!([1, "a"]),
        json!({}),
        json!({"type": "x"}),
    ];
    candidates
        .into_iter()
        .filter(|candidate| std::mem::discriminant(candidate) != std::mem::discriminant(original))
        .collect()
}

fn bad_strings(original: &str) -> Vec<Value> {
    vec![
        json!(""),
        json!("no-such-thing"),
        json!(original.to_uppercase()),
        json!(format!("{original}x")),
        json!(format!(" {original}")),
        json!("tulip\u{0}"),
        json!("🌷"),
        json!("a".repeat(300)),
    ]
}

/// Every mutant of `action` by value: each field (at any depth) replaced, dropped, or given a
/// wrong type, plus extra fields, other tags and wrong top-level types.
fn mutants(action: &Value, tags: &[&str]) -> Vec<Value> {
    let mut out = Vec::new();
    mutate_within(
        action,
        &mut |replacement| out.push(replacement),
        &mut Vec::new(),
        action,
    );
    if let Some(object) = action.as_object() {
        for field in object.keys() {
            let mut dropped = object.clone();
            dropped.remove(field);
            out.push(Value::Object(dropped));
        }
        for (name, value) in [
            ("extra", json!(1)),
            ("seat", json!(0)),
            ("type2", json!("x")),
        ] {
            let mut extended = object.clone();
            extended.insert(name.to_string(), value);
            out.push(Value::Object(extended));
        }
        for tag in tags
            .iter()
            .map(|tag| json!(tag))
            .chain([json!("TYPE"), json!(3)])
        {
            if object.get("type") != Some(&tag) {
                let mut retagged = object.clone();
                retagged.insert("type".into(), tag);
                out.push(Value::Object(retagged));
            }
        }
    }
    out.extend([
        Value::Null,
        json!(42),
        json!("type"),
        json!([action]),
        json!({"action": action}),
        Value::Object(Map::new()),
    ]);
    out
}

/// Calls `emit` with a copy of `root` for each replacement of each value inside it.
fn mutate_within(
    root: &Value,
    emit: &mut dyn FnMut(Value),
    path: &mut Vec<PathStep>,
    here: &Value,
) {
    let replacements: Vec<Value> = match here {
        Value::Number(_) => bad_numbers(here)
            .into_iter()
            .chain(wrong_types(here))
            .collect(),
        Value::String(text) => bad_strings(text)
            .into_iter()
            .chain(wrong_types(here))
            .collect(),
        Value::Bool(flag) => [json!(!flag)]
            .into_iter()
            .chain(wrong_types(here))
            .collect(),
        Value::Array(items) => {
            let mut options = wrong_types(here);
            options.push(json!([]));
            if let Some(first) = items.first() {
                let mut doubled = items.clone();
                doubled.push(first.clone());
                options.push(Value::Array(doubled));
                options.push(Value::Array(items[1..].to_vec()));
            }
            options
        }
        Value::Object(_) => wrong_types(here),
        Value::Null => vec![json!(0), json!("")],
    };
    // The top level is mutated by `mutants` itself.
    if !path.is_empty() {
        for replacement in replacements {
            emit(replaced(root, path, replacement));
        }
    }
    match here {
        Value::Object(object) => {
            for (name, value) in object {
                path.push(PathStep::Field(name.clone()));
                mutate_within(root, emit, path, value);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, value) in items.iter().enumerate() {
                path.push(PathStep::Item(index));
                mutate_within(root, emit, path, value);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone)]
enum PathStep {
    Field(String),
    Item(usize),
}

fn replaced(root: &Value, path: &[PathStep], replacement: Value) -> Value {
    let mut copy = root.clone();
    let mut slot = &mut copy;
    for step in path {
        slot = match step {
            PathStep::Field(name) => &mut slot[name.as_str()],
            PathStep::Item(index) => &mut slot[*index],
        };
    }
    *slot = replacement;
    copy
}

/// The dice stream of one log entry; every trial apply draws from a fresh copy of it.
#[derive(Clone, Copy)]
struct Stream([u8; 32], u64);

impl Stream {
    fn rng(self) -> GameRng {
        GameRng::for_entry(self.0, self.1)
    }
}

fn is_kebab(code: &str) -> bool {
    !code.is_empty()
        && code.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit())
        })
}

/// Submits `action` by `seat` to a copy of `state` and checks the outcome.
fn check_mutant(
    ruleset: &dyn DynRuleset,
    state: &dyn DynGame,
    seat: Seat,
    action: &Value,
    rng: Stream,
    tally: &mut Tally,
) {
    let before = state.state_json();
    let shape = ruleset.parse_action(action);
    let mut copy = state.clone_box();
    let result = catch_unwind(AssertUnwindSafe(|| {
        copy.apply_json(seat, action, &mut rng.rng())
    }))
    .unwrap_or_else(|_| panic!("{}: {action} by {seat:?} panicked", ruleset.id()));
    let context = || format!("{}: {action} by {seat:?}", ruleset.id());
    match result {
        Err(ActionError::Malformed(message)) => {
            tally.refused_parse += 1;
            assert!(!message.is_empty(), "{}: an empty parse error", context());
            assert!(shape.is_err(), "{}: parse_action accepts it", context());
            assert_eq!(
                copy.state_json(),
                before,
                "{}: refused but changed",
                context()
            );
        }
        Err(ActionError::Rule { code, message, .. }) => {
            tally.refused_rule += 1;
            assert!(is_kebab(code), "{}: rule code {code:?}", context());
            assert!(
                !message.is_empty(),
                "{}: rule {code} has no message",
                context()
            );
            assert!(
                shape.is_ok(),
                "{}: parsed by apply, not by parse_action",
                context()
            );
            assert_eq!(
                copy.state_json(),
                before,
                "{}: refused ({code}) but changed",
                context()
            );
        }
        Ok(applied) => {
            tally.accepted += 1;
            assert!(
                state.to_act().contains(seat),
                "{}: accepted from a seat that may not act",
                context()
            );
            let legal = state.legal_actions(seat);
            let all_concrete = legal.iter().all(|entry| entry.get("action").is_some());
            if all_concrete {
                assert!(
                    legal.iter().any(|entry| entry["action"] == applied.action),
                    "{}: accepted as {}, which is not listed",
                    context(),
                    applied.action
                );
            }
            // What the log would store replays to the very same state.
            let mut replay = state.clone_box();
            replay
                .apply_json(seat, &applied.action, &mut rng.rng())
                .unwrap_or_else(|error| {
                    panic!("{}: the normalised form fails: {error}", context())
                });
            assert_eq!(
                replay.state_json(),
                copy.state_json(),
                "{}: replays differently",
                context()
            );
        }
    }
}

/// A bot move: a random seat of `to_act`, a random listed or sampled action that applies.
fn bot_move(state: &mut Box<dyn DynGame>, bot: &mut GameRng, rng: Stream) -> bool {
    let acting: Vec<Seat> = state.to_act().iter().collect();
    let Some(&seat) = bot.choose(&acting) else {
        return false;
    };
    let legal = state.legal_actions(seat);
    for _ in 0..20 {
        let Some(action) = game_core::testing::random_action_json(&legal, bot) else {
            break;
        };
        let mut copy = state.clone_box();
        if copy.apply_json(seat, &action, &mut rng.rng()).is_ok() {
            *state = copy;
            return true;
        }
    }
    let concrete: Vec<&Value> = legal
        .iter()
        .filter_map(|entry| entry.get("action"))
        .collect();
    let action = bot
        .choose(&concrete)
        .unwrap_or_else(|| panic!("{seat:?} may act but nothing it lists applies"));
    state
        .apply_json(seat, action, &mut rng.rng())
        .unwrap_or_else(|error| panic!("listed action {action} refused: {error}"));
    true
}

fn deal(ruleset: &dyn DynRuleset, seats: u8, seed: [u8; 32]) -> Box<dyn DynGame> {
    ruleset
        .setup(seats, &Value::Null, seed)
        .or_else(|_| ruleset.setup(seats, &json!({"allow_two_players": true}), seed))
        .unwrap_or_else(|error| panic!("{} with {seats} seats: {error}", ruleset.id()))
}

/// Mutates the listed actions of every seat in `to_act`, and sends them from the other seats.
fn mutate_state(
    ruleset: &dyn DynRuleset,
    state: &dyn DynGame,
    tags: &[&str],
    bot: &mut GameRng,
    rng: Stream,
    tally: &mut Tally,
) {
    let seats = state.n_seats();
    for seat in state.to_act().iter() {
        let legal = state.legal_actions(seat);
        let mut actions: Vec<Value> = Vec::new();
        for _ in 0..ACTIONS_PER_STATE {
            if let Some(action) = game_core::testing::random_action_json(&legal, bot) {
                actions.push(action);
            }
        }
        for action in &actions {
            for other in (0..seats).map(Seat).filter(|other| *other != seat) {
                check_mutant(ruleset, state, other, action, rng, tally);
            }
            for mutant in mutants(action, tags) {
                check_mutant(ruleset, state, seat, &mutant, rng, tally);
            }
        }
    }
}

#[test]
fn mutated_legal_actions_are_refused_cleanly_or_legal() {
    let started = std::time::Instant::now();
    let registry = service::registry();
    for ruleset in registry.iter() {
        let tags = ruleset.action_types();
        assert!(!tags.is_empty(), "{}: no action types", ruleset.id());
        let (min, max) = ruleset.seat_range();
        let mut tally = Tally::default();
        for seats in min..=max {
            for game in 0..GAMES {
                let seed = game_core::testing::game_seed(0x7u64 << 32 | u64::from(seats), game);
                let mut bot = GameRng::for_entry(seed, u64::MAX);
                let mut state = deal(ruleset, seats, seed);
                for step in 1..=MAX_STEPS {
                    let rng = Stream(seed, step as u64);
                    if step % MUTATE_EVERY == 1 {
                        mutate_state(ruleset, state.as_ref(), tags, &mut bot, rng, &mut tally);
                    }
                    if !bot_move(&mut state, &mut bot, rng) {
                        // Finished: whatever any seat sends now is refused.
                        for seat in (0..seats).map(Seat) {
                            for tag in tags {
                                let action = json!({"type": tag});
                                check_mutant(
                                    ruleset,
                                    state.as_ref(),
                                    seat,
                                    &action,
                                    rng,
                                    &mut tally,
                                );
                            }
                        }
                        break;
                    }
                }
            }
        }
        eprintln!("{}: {tally:?}", ruleset.id());
        assert!(
            tally.refused_rule > 0 && tally.refused_parse > 0,
            "{}: the mutants did not reach both kinds of refusal: {tally:?}",
            ruleset.id()
        );
    }
    eprintln!("mutation test took {:?}", started.elapsed());
}

/// Found by this test: a Black Thursday `open_session` naming a seat beyond the table
/// (`{"type": "open_session", "with": [0, 27]}`) overflowed a shift while the seats were
/// gathered into a set, before they were checked. It must be a `bad-params` refusal.
#[test]
fn black_thursday_open_session_with_a_seat_beyond_the_table_is_refused() {
    let registry = service::registry();
    let ruleset = registry.get("black-thursday").expect("registered");
    let seed = game_core::testing::game_seed(27, 0);
    let mut state = deal(ruleset, 3, seed);
    let mut bot = GameRng::for_entry(seed, u64::MAX);
    let mut checked = 0;
    for step in 1..=2_000u64 {
        for seat in state.to_act().iter() {
            let opens = state
                .legal_actions(seat)
                .iter()
                .any(|entry| entry["action"]["type"] == "open_session");
            if !opens {
                continue;
            }
            for with in [json!([0, 27]), json!([27]), json!([16]), json!([255, 1])] {
                let action = json!({"type": "open_session", "with": with});
                let before = state.state_json();
                let mut copy = state.clone_box();
                match copy.apply_json(seat, &action, &mut GameRng::for_entry(seed, step)) {
                    Err(ActionError::Rule { code, .. }) => assert_eq!(code, "bad-params"),
                    other => panic!("{action} by {seat:?}: {other:?}"),
                }
                assert_eq!(copy.state_json(), before);
                checked += 1;
            }
        }
        if checked >= 8 || !bot_move(&mut state, &mut bot, Stream(seed, step)) {
            break;
        }
    }
    assert!(
        checked >= 8,
        "no state offered open_session to check against"
    );
}
