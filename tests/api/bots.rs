//! Issue 33: no table waits on a bot. One scripted player (seat 0) against `basic`, then
//! `strong`, bots in every other seat, in every ruleset, over HTTP. After every request the
//! player makes, the game's state is checked, not a timing: it is over, or it waits on the
//! player, never on a bot. In Black Thursday the player also opens trading sessions with the
//! bots, posts an offer, and does nothing until it has been answered: the answer must already
//! be there when the post returns.

use crate::options_for;
use api_tests::{spawn_app_configured, TestApp};
use game_core::sample::{sample_spread, Spread};
use game_core::GameRng;
use serde_json::{json, Value};
use service::bots::Allowance;
use service::dice::Dice;

/// What a `strong` bot may think here: a few dozen playouts (a few milliseconds), so that
/// the tests measure whether it moves, not how well (`beurs bots` measures that, with the
/// server's allowance). Counted in readings of its clock, not in time, so a busy machine
/// does not change its moves.
const TEST_ALLOWANCE: Allowance = Allowance::Readings(48);

/// The most games of Black Thursday played, under the dice seeds `0..`, looking for one in
/// which the player's offers were answered and a bot offered to the player.
const BLACK_THURSDAY_GAMES: u64 = 8;

/// What one game showed.
#[derive(Debug, Default)]
struct Seen {
    /// Requests the player made.
    moves: usize,
    /// Offers the player posted to bots, each answered before its post returned.
    offers_answered: usize,
    /// Offers by bots the player found waiting for its answer.
    bot_offers_awaiting: usize,
}

fn seats_of(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .expect("a list of seats")
        .iter()
        .filter_map(Value::as_u64)
        .collect()
}

/// A move a person might make from `legal` (the `random` bot's spread: bids near the
/// minimum), never an empty offer.
fn sensible_move(legal: &[Value], rng: &mut GameRng) -> Value {
    let mut legal = legal.to_vec();
    api_tests::rarely_undo(&mut legal, rng);
    for _ in 0..200 {
        let entry = rng.choose(&legal).expect("a legal action");
        let action = match entry.get("action") {
            Some(action) => action.clone(),
            None => match sample_spread(&entry["schema"], Spread::Sensible, rng) {
                Some(action) => action,
                None => continue,
            },
        };
        let empty_offer =
            action["type"] == "post_offer" && action["terms"].as_array().is_none_or(Vec::is_empty);
        if !empty_offer {
            return action;
        }
    }
    panic!("no sensible move in {legal:?}")
}

/// An offer from seat 0 in `session` that asks a bot for something: sampled from the listed
/// `post_offer` schema until seat 0 receives by one of its terms.
fn offer_to_bots(legal: &[Value], rng: &mut GameRng) -> Option<Value> {
    let schema = legal
        .iter()
        .find(|entry| entry["schema"]["properties"]["type"]["const"] == "post_offer")?;
    for _ in 0..500 {
        let offer = sample_spread(&schema["schema"], Spread::Sensible, rng)?;
        let receives = offer["terms"].as_array().is_some_and(|terms| {
            terms.iter().any(|term| {
                ["receiver", "to", "promisee"]
                    .iter()
                    .any(|role| term[role] == 0)
            })
        });
        if receives {
            return Some(offer);
        }
    }
    None
}

/// Plays one game of `ruleset` with the player in seat 0 and `bot` in every other seat.
async fn play_against(app: &TestApp, ruleset: &str, seats: u8, bot: &str, seed: u8) -> Seen {
    let (id, _) = app
        .create_game(
            &json!({"ruleset": ruleset, "seats": seats, "options": options_for(ruleset, seats)}),
        )
        .await;
    let token = crate::seat_player_and_bots(app, &id, seats, bot).await;
    let mut rng = GameRng::for_entry([seed; 32], 0);
    let mut seen = Seen::default();
    // The turn (by its number in the view) in which the player last opened a session.
    let mut opened_in_turn = None;
    for _ in 0..20_000 {
        let envelope = app
            .get(&format!("/v1/games/{id}"), Some(&token))
            .await
            .json();
        if envelope["status"] == "finished" {
            return seen;
        }
        let waiting = seats_of(&envelope["waiting_on"]);
        assert_eq!(
            waiting,
            vec![0],
            "{ruleset} with {bot} bots: after the player's request the game waits on {waiting:?}"
        );
        let view = &envelope["view"];
        let session = view["session"].clone();
        let session_open = session["status"] == "OPEN";
        if session_open && session["initiator"] != 0 {
            let newest = session["offers"]
                .as_array()
                .and_then(|offers| offers.iter().rev().find(|offer| offer["status"] == "LIVE"));
            if newest.is_some_and(|offer| offer["author"] != 0) {
                seen.bot_offers_awaiting += 1;
            }
        }
        let legal = app
            .get(&format!("/v1/games/{id}/legal-actions"), Some(&token))
            .await
            .json();
        let legal = legal["actions"].as_array().expect("actions").clone();
        let turn = view["turn"]["number"].clone();
        // Black Thursday: once a turn, open a session with the bots and offer them a trade.
        let opens = legal.iter().find_map(|entry| {
            let action = entry.get("action")?;
            (action["type"] == "open_session" && action["pass"] == false).then(|| action.clone())
        });
        let my_session_without_offers = session_open
            && session["initiator"] == 0
            && session["offers"].as_array().is_some_and(Vec::is_empty);
        let action = if let (Some(open), false) = (opens, opened_in_turn == Some(turn.clone())) {
            opened_in_turn = Some(turn);
            open
        } else if my_session_without_offers {
            offer_to_bots(&legal, &mut rng).unwrap_or_else(|| sensible_move(&legal, &mut rng))
        } else {
            sensible_move(&legal, &mut rng)
        };
        let reply = app.submit(&id, &token, &action).await;
        match reply.status {
            200 => seen.moves += 1,
            // A sample the rules refuse (a constraint no schema states): try another.
            422 => continue,
            status => panic!("{ruleset}: {action} got {status}: {}", reply.text()),
        }
        if action["type"] == "post_offer" {
            assert_answered(app, &id, &token, &action).await;
            seen.offers_answered += 1;
        }
    }
    panic!("{ruleset} with {bot} bots: game {id} did not finish")
}

/// Checks that every bot the player's just-posted offer (`action`) addressed has answered it:
/// the session is closed (agreed, or a bot left), the offer is no longer live (a breach
/// penalty failed it: found by `tools/luck/repeat` under dice seed 60), or each bot
/// participant accepted the offer or one posted after it (a counter), or posted a counter
/// itself.
async fn assert_answered(app: &TestApp, id: &str, token: &str, action: &Value) {
    let envelope = app
        .get(&format!("/v1/games/{id}"), Some(token))
        .await
        .json();
    let session = &envelope["view"]["session"];
    // Closed (agreed, or a bot left), and perhaps followed by later sessions: answered.
    if session["status"] != "OPEN" || session["id"] != action["session"] {
        return;
    }
    let offers = session["offers"].as_array().expect("offers");
    let mine = offers
        .iter()
        .rev()
        .find(|offer| offer["author"] == 0)
        .unwrap_or_else(|| panic!("the player's offer {action} is not in the session {session}"));
    // An offer id's number: offers are numbered in the order they were posted.
    let number = |offer: &Value| {
        offer
            .as_str()
            .and_then(|id| id.strip_prefix('o'))
            .and_then(|digits| digits.parse::<u32>().ok())
    };
    // An offer a breach penalty made invalid (`FAILED`: the coins it names moved) or its
    // author withdrew asks nothing of anyone: there is nothing to answer.
    if mine["status"] != "LIVE" {
        return;
    }
    let posted = number(&mine["id"]);
    for bot in seats_of(&session["participants"])
        .into_iter()
        .filter(|&seat| seat != 0)
    {
        // Accepted the player's offer, or one posted after it (its own counter or another
        // participant's).
        let accepted_since = number(&session["pointers"][bot as usize]) >= posted;
        let countered = offers
            .iter()
            .any(|offer| offer["author"] == bot && number(&offer["id"]) > posted);
        assert!(
            accepted_since || countered,
            "bot {bot} left the player's offer {} unanswered: {session}",
            mine["id"]
        );
    }
}

/// One game of `ruleset` against `bot`, on a server of its own whose dice (the deal, the
/// bots' draws) come from `seed`: the same game on every run and every machine.
async fn seeded_game(ruleset: &str, seats: u8, bot: &str, seed: u64) -> Seen {
    let app = spawn_app_configured(|ctx| {
        ctx.with_strong_allowance(TEST_ALLOWANCE)
            .with_dice(Dice::seeded(seed))
    })
    .await;
    play_against(&app, ruleset, seats, bot, seed as u8).await
}

/// Every ruleset but Black Thursday (its own tests below) against `bot`, two games each at
/// the fewest seats (at least three).
async fn every_ruleset_against(bot: &str) {
    for ruleset in service::registry().iter() {
        if ruleset.id() == "black-thursday" {
            continue;
        }
        let seats = ruleset.seat_range().0.max(3);
        for seed in 0..2 {
            let seen = seeded_game(ruleset.id(), seats, bot, seed).await;
            eprintln!(
                "{} against {bot} bots, dice seed {seed}: {seen:?}",
                ruleset.id()
            );
            assert!(seen.moves > 0, "{}: the player never moved", ruleset.id());
        }
    }
}

/// Black Thursday against `bot`: no game waits on a bot, the player's offers are answered in
/// their own request, and bots open sessions with the player and wait for its answer. Whether
/// a bot opens a session with the player depends on the deal, so the games under the dice
/// seeds `first..` are searched until one shows both sides of trading with bots.
async fn black_thursday_against(bot: &str) {
    let mut searched = Vec::new();
    let first = api_tests::dice_seed(0);
    for seed in first..first + BLACK_THURSDAY_GAMES {
        let seen = seeded_game("black-thursday", 3, bot, seed).await;
        eprintln!("black-thursday against {bot} bots, dice seed {seed}: {seen:?}");
        assert!(seen.moves > 0, "black-thursday: the player never moved");
        if seen.offers_answered > 0 && seen.bot_offers_awaiting > 0 {
            return;
        }
        searched.push(seen);
    }
    panic!(
        "{bot} bots: under dice seeds {first}..{}, no game of Black Thursday had both an offer \
         of the player's answered and a bot's offer awaiting the player: {searched:?}",
        first + BLACK_THURSDAY_GAMES
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_game_waits_on_a_basic_bot_after_the_players_request() {
    every_ruleset_against("basic").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_game_waits_on_a_strong_bot_after_the_players_request() {
    every_ruleset_against("strong").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn black_thursday_basic_bots_trade_with_the_player_both_ways() {
    black_thursday_against("basic").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn black_thursday_strong_bots_trade_with_the_player_both_ways() {
    black_thursday_against("strong").await;
}
