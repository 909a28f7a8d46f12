//! Issue 33: bots play plausibly. 200 games per ruleset with a `random` bot in every seat (the
//! bot whose sampler the searching bots' candidates and playouts share): no bid or price
//! above the bound docs/bots.md documents, and every ending the bots reached before issue 33
//! is still reached. The same 200 deals are played again as the `random` bot played then
//! (numbers drawn uniformly from their whole range), and every ending those games reach must
//! be among today's. Where random play can no longer reach an ending (Tulip Bubble's Black
//! Tulip), a `basic` bot that follows the game's plan among `random` ones does.

use game_core::sample::Spread;
use game_core::testing::game_seed;
use game_core::{DynRuleset, GameRng, Outcome, Seat};
use serde_json::Value;
use service::bots::{Allowance, BotInput, SAMPLES};
use service::dto::BotKind;
use std::collections::BTreeMap;

/// How many games each ruleset plays.
const GAMES: u64 = 200;

/// What the bots did over a ruleset's games.
#[derive(Debug, Default)]
struct Played {
    /// Every integer the bots chose, by action type and field (a bid's `amount`, a lot's
    /// `declared` value), with the smallest value the rules allowed at that moment.
    numbers: BTreeMap<String, Vec<(i64, i64)>>,
    /// How the games ended, by the outcome's reason.
    endings: BTreeMap<String, u64>,
    /// Offers posted with no terms.
    empty_offers: u64,
    /// Offers posted with the terms of an earlier offer of the same session.
    repeated_offers: u64,
    /// Sessions their initiator left before anyone offered anything.
    sessions_left_empty: u64,
    /// Trading sessions opened (not with `pass`).
    sessions_opened: u64,
    /// The best score of each game.
    best_scores: Vec<i64>,
    /// Wins by seat (a shared win counts for each winner).
    wins: Vec<u64>,
    /// Whether a game ended as the caller waited for (and the games stopped there).
    done: bool,
}

/// The smallest value `schema` (an integer, or an `anyOf` of integers) allows.
fn minimum_of(schema: &Value) -> Option<i64> {
    schema["minimum"].as_i64().or_else(|| {
        schema["anyOf"]
            .as_array()?
            .iter()
            .filter_map(|option| option["minimum"].as_i64())
            .min()
    })
}

/// Who plays a seat.
#[derive(Clone, Copy)]
enum Player {
    /// One of the API's bots.
    Bot(BotKind),
    /// The `random` bot as it played before issue 33 (`BotKind::choose` at `aec4c07^`): a
    /// legal entry at random, its numbers drawn uniformly from their whole range
    /// ([`Spread::Uniform`]); once [`SAMPLES`] draws were refused, the first complete action
    /// listed. It plays today's rules.
    BeforeIssue33,
}

/// Plays up to `games` games of `ruleset`, one seat per player of `table`, and stops after the
/// first game whose outcome is `done`.
fn play(
    ruleset: &dyn DynRuleset,
    table: &[Player],
    games: u64,
    done: impl Fn(&Outcome) -> bool,
) -> Played {
    let seats = u8::try_from(table.len()).expect("a table of a few seats");
    let mut played = Played {
        wins: vec![0; table.len()],
        ..Played::default()
    };
    for game in 0..games {
        let seed = game_seed(33, game);
        let mut engine = ruleset
            .setup(seats, &serde_json::json!({}), seed)
            .expect("a deal");
        let mut rng = GameRng::for_entry(game_seed(34, game), 0);
        let mut step = 0;
        while engine.outcome().is_none() {
            step += 1;
            assert!(step < 50_000, "{} game {game} does not end", ruleset.id());
            let seat = engine.waiting_on().iter().next().expect("someone to move");
            let mut input = BotInput::of(engine.as_ref(), seat);
            let player = table[seat.index()];
            if let Player::Bot(bot) = player {
                input.think(bot, engine.as_ref(), false, Allowance::CPU_ONLY, &mut rng);
            }
            let mut dice = GameRng::for_entry(seed, step);
            let moved = (0..=SAMPLES).find_map(|attempt| {
                let action = match player {
                    Player::Bot(_) => input.attempt(attempt, &mut rng),
                    Player::BeforeIssue33 => {
                        input.attempt_drawing(attempt, Spread::Uniform, &mut rng)
                    }
                }?;
                engine.apply_json(seat, &action, &mut dice).ok()?;
                Some(action)
            });
            let action = moved.unwrap_or_else(|| panic!("{}: no move", ruleset.id()));
            let kind = action["type"].as_str().unwrap_or_default();
            let session = &input.view["session"];
            let offers = session["offers"].as_array().cloned().unwrap_or_default();
            match kind {
                "post_offer" => {
                    played.empty_offers +=
                        u64::from(action["terms"].as_array().is_some_and(Vec::is_empty));
                    played.repeated_offers +=
                        u64::from(offers.iter().any(|offer| offer["terms"] == action["terms"]));
                }
                "leave_session" => {
                    played.sessions_left_empty +=
                        u64::from(session["initiator"] == seat.0 && offers.is_empty());
                }
                "open_session" => {
                    played.sessions_opened += u64::from(action["pass"] == false);
                }
                _ => {}
            }
            // The integers of the move, beside the smallest the listed schema allowed.
            let schema = input
                .legal
                .iter()
                .find(|entry| entry["schema"]["properties"]["type"]["const"] == kind);
            if let (Some(fields), Some(schema)) = (action.as_object(), schema) {
                for (field, value) in fields {
                    let (Some(value), Some(minimum)) = (
                        value.as_i64(),
                        minimum_of(&schema["schema"]["properties"][field]),
                    ) else {
                        continue;
                    };
                    played
                        .numbers
                        .entry(format!("{kind}.{field}"))
                        .or_default()
                        .push((value, minimum));
                }
            }
        }
        let outcome = engine.outcome().expect("the game ended");
        played
            .best_scores
            .push(outcome.scores.iter().copied().max().unwrap_or(0));
        for winner in outcome.winners.iter() {
            played.wins[winner.index()] += 1;
        }
        played.done = done(&outcome);
        *played.endings.entry(outcome.reason).or_default() += 1;
        if played.done {
            break;
        }
    }
    played
}

/// The smallest, median and largest of `values`.
fn spread(values: &mut [i64]) -> (i64, i64, i64) {
    values.sort_unstable();
    (
        values[0],
        values[values.len() / 2],
        values[values.len() - 1],
    )
}

/// Plays `ruleset` at three seats with `random` bots and checks that every ending in
/// `endings` was reached, and every ending the pre-issue-33 sampler reached on the same
/// deals, except those in `elsewhere` (another test's bots reach them).
fn play_to_every_ending(id: &str, endings: &[&str], elsewhere: &[&str]) -> Played {
    let registry = service::registry();
    let ruleset = registry.get(id).expect("registered");
    let played = play(ruleset, &[Player::Bot(BotKind::Random); 3], GAMES, |_| {
        false
    });
    let mut best = played.best_scores.clone();
    let before = play(ruleset, &[Player::BeforeIssue33; 3], GAMES, |_| false);
    // The largest number the old sampler chose, by action and field.
    let largest: BTreeMap<&String, i64> = before
        .numbers
        .iter()
        .map(|(field, values)| {
            (
                field,
                values.iter().map(|&(value, _)| value).max().unwrap_or(0),
            )
        })
        .collect();
    let before = before.endings;
    eprintln!(
        "{id}: endings {:?}, best score of a game (min / median / max) {:?}; before issue \
         33: {before:?}, its largest numbers {largest:?}",
        played.endings,
        spread(&mut best)
    );
    for ending in endings
        .iter()
        .copied()
        .chain(before.keys().map(String::as_str))
        .filter(|ending| !elsewhere.contains(ending))
    {
        assert!(
            played.endings.contains_key(ending),
            "{id}: no game ended by {ending}: {:?} (before issue 33, the same deals: {before:?})",
            played.endings
        );
    }
    played
}

/// Tulip Bubble: no bid above ƒ40 (the dearest tulip's top price), under the ƒ60 the three
/// seats start with together. `random` bots never reach the Black Tulip (more than ƒ120 in
/// cash); the next test has a bot that does.
#[test]
fn tulip_bubble_bids_stay_within_the_tables_starting_cash() {
    let played = play_to_every_ending("tulip-bubble", &["bust"], &["black_tulip"]);
    assert_bids_within_the_bound(&played, 500);
}

/// Tulip Bubble's Black Tulip: a `basic` bot, whose playouts follow the game's greedy plan,
/// buys it itself among two `random` bots within 200 games, its bids still within ƒ40.
#[test]
fn a_basic_bot_reaches_the_black_tulip_with_bids_within_the_bound() {
    let registry = service::registry();
    let ruleset = registry.get("tulip-bubble").expect("registered");
    let table = [BotKind::Basic, BotKind::Random, BotKind::Random].map(Player::Bot);
    let claimed_by_basic =
        |outcome: &Outcome| outcome.reason == "black_tulip" && outcome.winners.contains(Seat(0));
    let played = play(ruleset, &table, GAMES, claimed_by_basic);
    let games = played.best_scores.len();
    eprintln!(
        "tulip-bubble, basic + 2 random: {games} games, endings {:?}, wins {:?}",
        played.endings, played.wins
    );
    assert!(
        played.done,
        "the basic bot never bought the Black Tulip: {:?}",
        played.endings
    );
    assert_bids_within_the_bound(&played, 0);
}

/// No Tulip Bubble bid above ƒ40, and more than `at_least` bids.
fn assert_bids_within_the_bound(played: &Played, at_least: usize) {
    let bids = &played.numbers["auction_bid.amount"];
    let mut amounts: Vec<i64> = bids.iter().map(|&(amount, _)| amount).collect();
    let (low, median, high) = spread(&mut amounts);
    eprintln!(
        "tulip-bubble: {} bids, ƒ{low} / ƒ{median} / ƒ{high} (min / median / max)",
        bids.len()
    );
    assert!(high <= 40, "a bid of ƒ{high}");
    assert!(bids.len() > at_least, "only {} bids", bids.len());
}

/// Tulip Traders: a declared value is at most 31 above the lowest the rules allow.
#[test]
fn tulip_traders_declared_values_stay_near_the_minimum() {
    let played = play_to_every_ending("tulip-traders", &["collapse", "round_limit"], &[]);
    let declared = &played.numbers["offer_lot.declared"];
    assert!(declared.len() > 200, "only {} lots", declared.len());
    for &(value, minimum) in declared {
        assert!(
            (minimum..minimum + 32).contains(&value),
            "declared {value} where the minimum was {minimum}"
        );
    }
}

/// Black Thursday: no empty offer, no offer repeated in its session, no session opened and
/// left with nothing offered, and at most 3 action points in a term.
#[test]
fn black_thursday_bots_trade_without_degenerate_loops() {
    let played = play_to_every_ending("black-thursday", &["building_emptied"], &[]);
    eprintln!(
        "black-thursday: {} sessions opened, {} left empty by their initiator",
        played.sessions_opened, played.sessions_left_empty
    );
    assert!(played.sessions_opened > 100, "{}", played.sessions_opened);
    assert_eq!(played.empty_offers, 0);
    assert_eq!(played.repeated_offers, 0);
    assert_eq!(played.sessions_left_empty, 0);
    if let Some(amounts) = played.numbers.get("post_offer.amount") {
        assert!(amounts.iter().all(|&(amount, _)| amount <= 3));
    }
}

#[test]
fn tulipmania_games_reach_both_endings_of_the_default_rules() {
    play_to_every_ending("tulipmania-1637", &["final_burst", "all_decline"], &[]);
}

#[test]
fn tulpenfieber_games_reach_every_ending() {
    play_to_every_ending(
        "tulpenfieber",
        &[
            "row_four_complete",
            "row_five_three_adjacent",
            "row_five_four_tiles",
        ],
        &[],
    );
}
