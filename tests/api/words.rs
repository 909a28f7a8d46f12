//! The server's words, which every client shows: each legal move's button label and each log
//! entry's headline and details (issue 34), pinned per ruleset over whole games.

use crate::test_options;
use api_tests::{random_move, spawn_app, StartedGame, TestApp};
use game_core::words::check_sentence;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const NAMES: [&str; 5] = ["Anna", "Ben", "Cas", "Dirk", "Eva"];

/// The verbs each ruleset's labels start with: a label is an imperative for a button, never
/// the log's past tense ("Anna rolled the dice.").
fn verbs(ruleset: &str) -> &'static [&'static str] {
    match ruleset {
        "tulipmania-1637" => &[
            "Offer", "Keep", "Choose", "Pass", "Play", "Draw", "Take", "Buy",
        ],
        "tulip-bubble" => &[
            "Sell", "Repay", "Finish", "Buy", "Do", "Bid", "Place", "Leave", "Pay",
        ],
        "tulip-traders" => &[
            "Abstain", "Invest", "Discard", "Add", "Move", "Leave", "Offer", "Buy", "Accuse",
            "Sell", "Return", "Reveal", "Do",
        ],
        "tulpenfieber" => &[
            "Set", "Roll", "Reroll", "Turn", "Place", "Claim", "End", "Start",
        ],
        "black-thursday" => &[
            "Place", "Flip", "Leave", "Turn", "Move", "Sell", "Buy", "Trade", "Open", "Offer",
            "Counter", "Withdraw", "Accept", "Take", "Claim", "Concede", "Vote", "Waive",
        ],
        other => panic!("no verbs for {other}"),
    }
}

/// Whether `text` names a seat by number ("Seat 2", "seat 0") instead of by its name.
fn names_a_seat_number(text: &str) -> bool {
    let lower = text.to_lowercase();
    (0..10).any(|digit| lower.contains(&format!("seat {digit}")))
}

async fn start_named(app: &TestApp, ruleset: &str, seats: u8) -> StartedGame {
    let names = &NAMES[..usize::from(seats)];
    app.start_game_named(ruleset, names, test_options(ruleset))
        .await
}

/// Checks every ready move's label in `game` now, for every seat; returns how many.
async fn check_labels(app: &TestApp, game: &StartedGame, ruleset: &str) -> usize {
    let mut checked = 0;
    for (seat, token) in game.tokens.iter().enumerate() {
        let legal = app
            .get(&format!("/v1/games/{}/legal-actions", game.id), Some(token))
            .await;
        assert_eq!(legal.status, 200, "{}", legal.text());
        for entry in legal.json()["actions"].as_array().expect("actions") {
            checked += check_pick(entry);
            let Some(label) = entry.get("label").filter(|_| entry.get("action").is_some()) else {
                continue;
            };
            // The undo move is the API's own, with one label in every ruleset.
            if entry["action"]["type"] == "undo" {
                assert_eq!(label, "Take back your last move");
                continue;
            }
            let label = label.as_str().expect("a label is a string");
            let text = entry["text"].as_str().expect("text");
            check_sentence(label, &entry["action"]);
            assert!(
                verbs(ruleset)
                    .iter()
                    .any(|verb| label.starts_with(&format!("{verb} "))),
                "{ruleset}: the label {label:?} does not start with one of its verbs"
            );
            assert!(!label.ends_with('.'), "{label:?} reads as a sentence");
            assert_ne!(label, text, "the label is the log sentence");
            assert!(
                !label.starts_with(NAMES[seat]),
                "{label:?} names its own seat as a log sentence does"
            );
            assert!(!names_a_seat_number(label), "{label:?} numbers a seat");
            checked += 1;
        }
    }
    checked
}

/// When `entry` is a schema whose choices have words (`x-enum-labels`: a pick of several
/// items, a lot's cards, a trade's certificates): a word for each choice, never a code;
/// returns how many such choices it checked.
fn check_pick(entry: &Value) -> usize {
    let mut checked = 0;
    let mut stack = vec![&entry["schema"]];
    while let Some(schema) = stack.pop() {
        match schema {
            Value::Object(object) => {
                if let Some(words) = object.get("x-enum-labels") {
                    let words = words.as_array().expect("words");
                    let values = object["enum"].as_array().expect("an enum beside its words");
                    assert_eq!(words.len(), values.len(), "a word per choice in {entry}");
                    for word in words {
                        let word = word.as_str().expect("words");
                        assert!(!word.trim().is_empty(), "an empty word in {entry}");
                        assert!(!word.contains(['#', '_', '{']), "{word:?} is a code");
                    }
                    checked += 1;
                }
                stack.extend(object.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    checked
}

/// Tulip Bubble's bid markers: one choice of tulips in words, not every combination, and a
/// move built from it plays.
#[tokio::test]
async fn bid_markers_are_one_choice_of_tulips_in_words() {
    let app = spawn_app().await;
    let game = start_named(&app, "tulip-bubble", 3).await;
    let seat = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json()["to_act"][0]
        .as_u64()
        .expect("someone bids") as usize;
    let token = &game.tokens[seat];
    let legal = app
        .get(&format!("/v1/games/{}/legal-actions", game.id), Some(token))
        .await
        .json();
    let entries = legal["actions"].as_array().expect("actions");
    assert_eq!(entries.len(), 1, "one entry for the bid markers: {legal}");
    let pick = &entries[0];
    assert_eq!(
        pick["label"],
        "Choose the tulips to put your bid markers on"
    );
    let cards = &pick["schema"]["properties"]["cards"];
    assert_eq!(cards["uniqueItems"], true);
    assert_eq!(cards["minItems"], 0);
    assert_eq!(
        cards["default"],
        json!([]),
        "nothing chosen until the player chooses"
    );
    let ids = cards["items"]["enum"].as_array().expect("the tulips");
    let words = cards["items"]["x-enum-labels"]
        .as_array()
        .expect("their words");
    assert_eq!(ids.len(), words.len());
    assert!(
        ids.len() >= 2 && cards["maxItems"].as_u64() >= Some(2),
        "{pick}"
    );
    for word in words {
        let word = word.as_str().expect("words");
        assert!(
            word.starts_with("the ")
                && (word.contains(" tulip (New Arrivals, ")
                    || word.contains(" tulip (Just Sold, "))
                && word.ends_with(" card)"),
            "{word:?}"
        );
    }
    let chosen = json!({"type": "place_bids", "cards": [ids[1], ids[0]]});
    let moved = app.submit(&game.id, token, &chosen).await;
    assert_eq!(moved.status, 200, "{}", moved.text());
    let log = whole_log(&app, &game.id, None).await;
    let headline = log.last().expect("the bids")["headline"]
        .as_str()
        .expect("words")
        .to_string();
    for word in [&words[0], &words[1]] {
        let tulip = word
            .as_str()
            .expect("words")
            .trim_start_matches("the ")
            .split(" tulip")
            .next()
            .expect("a tulip");
        assert!(headline.contains(tulip), "{headline:?} names {tulip}");
    }
}

/// Every entry of the whole log as `token` reads it (null: a spectator).
async fn whole_log(app: &TestApp, id: &str, token: Option<&str>) -> Vec<Value> {
    let mut entries = Vec::new();
    let mut after: Option<u64> = None;
    loop {
        let path = match after {
            Some(after) => format!("/v1/games/{id}/log?limit=200&after={after}"),
            None => format!("/v1/games/{id}/log?limit=200"),
        };
        let page = app.get(&path, token).await;
        assert_eq!(page.status, 200, "{}", page.text());
        let page = page.json();
        entries.extend(page["entries"].as_array().expect("entries").iter().cloned());
        match page["next_after"].as_u64() {
            Some(next) => after = Some(next),
            None => return entries,
        }
    }
}

/// Checks one reader's log: one headline per entry, told once.
fn check_log(ruleset: &str, entries: &[Value]) {
    let mut restated = 0;
    for entry in entries {
        let headline = entry["headline"].as_str().expect("a headline");
        check_sentence(headline, entry);
        assert!(
            !names_a_seat_number(headline),
            "{ruleset}: {headline:?} numbers a seat"
        );
        let details: Vec<&str> = entry["details"]
            .as_array()
            .expect("details")
            .iter()
            .map(|detail| detail.as_str().expect("a detail is a string"))
            .collect();
        let mut seen = BTreeSet::from([headline]);
        for detail in &details {
            check_sentence(detail, entry);
            assert!(
                !names_a_seat_number(detail),
                "{ruleset}: {detail:?} numbers a seat"
            );
            assert!(
                seen.insert(detail),
                "{ruleset}: {detail:?} is told twice in {entry}"
            );
        }
        // The action's own sentence is either the headline or gives way to an event that
        // says more; it never reappears among the details.
        if let Some(text) = entry["action_text"].as_str() {
            assert!(
                !details.contains(&text),
                "{ruleset}: {text:?} repeats in {entry}"
            );
            restated += usize::from(headline != text);
        }
        // Every event's sentence is in the entry once: as the headline or as a detail,
        // unless it restates the action the headline already tells.
        let texts = entry["event_texts"].as_array().expect("event texts");
        assert!(details.len() <= texts.len(), "{entry}");
        if entry["by"] == "bot" {
            assert!(
                headline.contains("(bot)") || headline.contains("bot"),
                "{headline:?}"
            );
        }
    }
    assert!(
        restated > 0,
        "{ruleset}: no headline told what an action showed"
    );
}

async fn check_ruleset(ruleset: &str, seats: u8) {
    let app = spawn_app().await;
    let game = start_named(&app, ruleset, seats).await;
    let mut labels = check_labels(&app, &game, ruleset).await;
    let mut moves = 0u64;
    while random_move(&app, &game, 34, moves + 1).await.is_some() {
        moves += 1;
        if moves.is_multiple_of(3) {
            labels += check_labels(&app, &game, ruleset).await;
        }
        assert!(moves < 20_000, "{ruleset} did not finish");
    }
    assert!(labels > 0, "{ruleset}: no label checked");
    check_log(ruleset, &whole_log(&app, &game.id, None).await);
    for token in &game.tokens {
        check_log(ruleset, &whole_log(&app, &game.id, Some(token)).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tulipmania_labels_and_log_tell_each_move_once() {
    check_ruleset("tulipmania-1637", 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tulip_bubble_labels_and_log_tell_each_move_once() {
    check_ruleset("tulip-bubble", 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tulip_traders_labels_and_log_tell_each_move_once() {
    check_ruleset("tulip-traders", 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tulpenfieber_labels_and_log_tell_each_move_once() {
    check_ruleset("tulpenfieber", 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn black_thursday_labels_and_log_tell_each_move_once() {
    check_ruleset("black-thursday", 3).await;
}

/// A Tulpenfieber roll's entry is one line with the faces rolled, not "Anna rolled the dice."
/// followed by the same roll again; its end of turn names the next player once.
#[tokio::test]
async fn a_roll_is_told_once_with_its_faces() {
    let app = spawn_app().await;
    let game = start_named(&app, "tulpenfieber", 2).await;
    let legal = app
        .get(
            &format!("/v1/games/{}/legal-actions", game.id),
            Some(&game.tokens[0]),
        )
        .await
        .json();
    let roll = &legal["actions"][0];
    assert_eq!(roll["action"], json!({"type": "roll"}));
    assert_eq!(roll["label"], "Roll the dice");
    assert_eq!(roll["text"], "Anna rolled the dice.");
    assert_eq!(
        app.submit(&game.id, &game.tokens[0], &roll["action"])
            .await
            .status,
        200
    );
    let log = whole_log(&app, &game.id, Some(&game.tokens[1])).await;
    let entry = log.last().expect("the roll");
    let headline = entry["headline"].as_str().expect("headline");
    assert!(
        headline.starts_with("Anna rolled ") && headline.contains("(roll 1)"),
        "{headline}"
    );
    assert_eq!(entry["details"], json!([]), "{entry}");
    assert_eq!(entry["action_text"], "Anna rolled the dice.");
}
