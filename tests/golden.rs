//! Golden replays (as 18xx.games does with its fixtures): finished games of every ruleset,
//! recorded as complete audits under `tests/fixtures/<ruleset>/`, must replay with today's
//! code to the same events, state hashes and outcome. A rules change that alters how a
//! recorded game replays fails here, naming the fixture and the first entry that differs.
//!
//! Each ruleset's `index.json` lists its fixtures: file, seats, options label, the ending the
//! game reached (`Outcome::reason`) and the number of log entries. The fixtures must cover
//! every ruleset of `service::registry()` and every seat count it supports.
//!
//! Every ruleset has at least one recorded game in which seats took moves back: its undo
//! entries must replay too (the random stream of each later move is its place among the
//! moves still standing, docs/api.md "Undo").
//!
//! `UPDATE_GOLDEN=1 cargo test -p api-tests --test golden` regenerates every fixture by
//! playing seeded random games through the real API in-process (`CONFIGURATIONS` below).
//! The server secret is random, so each regeneration records different games. Regenerate
//! only for an intended rules change, and bump that ruleset's `RULES_VERSION` with it.
//! `UPDATE_GOLDEN=new` records only the configurations that have no fixture yet, and leaves
//! the recorded ones as they are.

use api_tests::{random_move, spawn_app, TestApp};
use game_core::GameRng;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One recorded game to generate: a ruleset, a seat count and options, and optionally the
/// ending to look for (bot seeds `seed..seed + tries` are tried; the first game that ends that
/// way is kept, none if no game does).
struct Configuration {
    ruleset: &'static str,
    seats: u8,
    /// A short kebab-case name of the options, used in the file name.
    label: &'static str,
    options: Value,
    /// `Some(reason)`: keep only a game whose `Outcome::reason` is this.
    ending: Option<&'static str>,
    /// The first bot seed.
    seed: u64,
    /// How many bot seeds to try for `ending`.
    tries: u64,
    /// The most moves a game may take before it is abandoned.
    max_moves: usize,
    /// Keep only a game in which some seat took a move back.
    undos: bool,
}

/// The index entry of one fixture.
fn index_entry(file: &str, configuration: &Configuration, ending: &str, entries: usize) -> Value {
    json!({
        "file": file,
        "seats": configuration.seats,
        "label": configuration.label,
        "ending": ending,
        "entries": entries,
    })
}

fn any(
    ruleset: &'static str,
    seats: u8,
    label: &'static str,
    options: Value,
    seed: u64,
) -> Configuration {
    Configuration {
        ruleset,
        seats,
        label,
        options,
        ending: None,
        seed,
        tries: 1,
        max_moves: 6_000,
        undos: false,
    }
}

/// A game of `ruleset` in which some seat took a move back (after each move the mover tries
/// to take it back one time in three).
fn with_undos(ruleset: &'static str, seats: u8, options: Value) -> Configuration {
    Configuration {
        ruleset,
        seats,
        label: "with-undos",
        options,
        ending: None,
        seed: 200,
        tries: 20,
        max_moves: 6_000,
        undos: true,
    }
}

fn ending(
    ruleset: &'static str,
    seats: u8,
    label: &'static str,
    options: Value,
    reason: &'static str,
    tries: u64,
) -> Configuration {
    Configuration {
        ruleset,
        seats,
        label,
        options,
        ending: Some(reason),
        seed: 100,
        tries,
        max_moves: 6_000,
        undos: false,
    }
}

/// Every configuration that is recorded: every seat count of every ruleset, the options that
/// change the flow of play, and games that reach each ending (see docs/testing.md for the
/// endings random play does not reach).
fn configurations() -> Vec<Configuration> {
    let tm = "tulipmania-1637";
    let tb = "tulip-bubble";
    let tt = "tulip-traders";
    let tf = "tulpenfieber";
    let bt = "black-thursday";
    // Easier Tulpenfieber fields (fewer dice per side space) keep random games short.
    let tf_short = json!({"side_need": [1, 2, 2, 3, 3]});
    // Row 5 needs five equal dice: row 4 fills first.
    let tf_hard_top = json!({"side_need": [1, 1, 1, 1, 5]});
    // Any die matches any space: the fewest tiles a solo game can need.
    let tf_trivial = json!({"side_need": [1, 1, 1, 1, 1],
        "straight_sets": [[[1], [2], [3], [4], [5], [6]], [[1], [2], [3], [4], [5], [6]],
            [[1], [2], [3], [4], [5], [6]], [[1], [2], [3], [4], [5], [6]],
            [[1], [2], [3], [4], [5], [6]]]});
    vec![
        // Tulipmania 1637: endings final_burst, all_decline, turn_cap.
        any(tm, 3, "default", json!({"max_turns": 60}), 1),
        any(tm, 4, "default", json!({"max_turns": 60}), 2),
        any(tm, 5, "default", json!({"max_turns": 60}), 3),
        ending(
            tm,
            3,
            "turn-cap-12",
            json!({"max_turns": 12}),
            "turn_cap",
            5,
        ),
        ending(tm, 4, "uncapped", json!({}), "final_burst", 20),
        ending(tm, 3, "uncapped", json!({}), "all_decline", 60),
        ending(
            tm,
            3,
            "reject-on-commit-uncapped",
            json!({"illegal_card_policy": "reject_on_commit"}),
            "all_decline",
            60,
        ),
        any(
            tm,
            4,
            "reject-on-commit",
            json!({"max_turns": 60, "illegal_card_policy": "reject_on_commit"}),
            4,
        ),
        any(
            tm,
            3,
            "anchored-first-player-1",
            json!({"max_turns": 60, "idle_round_rule": "anchored", "first_player": 1}),
            5,
        ),
        any(
            tm,
            5,
            "bottom-stay",
            json!({"max_turns": 60, "bottom_descent": "stay"}),
            6,
        ),
        // Tulip Bubble: endings bust, black_tulip.
        any(tb, 3, "default", json!({}), 1),
        any(tb, 4, "default", json!({}), 2),
        any(tb, 5, "default", json!({}), 3),
        ending(tb, 4, "default", json!({}), "bust", 20),
        ending(
            tb,
            3,
            "no-black-tulip",
            json!({"black_tulip_threshold": 999_999}),
            "bust",
            10,
        ),
        ending(tb, 3, "default", json!({}), "black_tulip", 20),
        ending(
            tb,
            4,
            "black-tulip-over-40",
            json!({"black_tulip_threshold": 40}),
            "black_tulip",
            20,
        ),
        any(
            tb,
            3,
            "opening-market-response",
            json!({"opening_market_response": true, "start_player": 0}),
            4,
        ),
        any(tb, 4, "evil-leverage", json!({"evil_leverage": true}), 5),
        // Tulip Traders: endings sole_survivor, collapse, reveal, round_limit.
        any(tt, 2, "two-players", json!({"allow_two_players": true}), 1),
        any(tt, 3, "default", json!({}), 2),
        any(tt, 4, "default", json!({}), 3),
        ending(tt, 4, "default", json!({}), "collapse", 20),
        ending(tt, 3, "default", json!({}), "round_limit", 20),
        ending(tt, 3, "default", json!({}), "sole_survivor", 20),
        ending(
            tt,
            2,
            "two-players",
            json!({"allow_two_players": true}),
            "sole_survivor",
            20,
        ),
        ending(tt, 4, "default", json!({}), "reveal", 20),
        ending(
            tt,
            3,
            "hand-limit-8",
            json!({"round_table": [
                {"rv": 1, "rc": 2, "limit": 8}, {"rv": 1, "rc": 2, "limit": 8},
                {"rv": 2, "rc": 4, "limit": 8}, {"rv": 2, "rc": 4, "limit": 8},
                {"rv": 3, "rc": 6, "limit": 8}
            ]}),
            "reveal",
            40,
        ),
        any(
            tt,
            3,
            "auto-single-choice",
            json!({"auto_single_choice": true, "first_player": 0}),
            4,
        ),
        any(
            tt,
            4,
            "crisis-variants",
            json!({
                "crisis_arrival_wipes": false,
                "crisis_neighbour_booms": true,
                "sacks_to_supply": false,
                "max_bonuses_per_player": 3,
                "score_includes_cash": false
            }),
            5,
        ),
        // Tulpenfieber: row_four_complete, row_five_three_adjacent, row_five_four_tiles, and
        // the solo tiers solo_legendary, solo_very_good, solo_won, solo_lost.
        any(tf, 2, "default", json!({}), 1),
        any(tf, 1, "easy-field", tf_short.clone(), 2),
        any(tf, 3, "easy-field", tf_short.clone(), 3),
        any(tf, 4, "easy-field", tf_short.clone(), 4),
        ending(
            tf,
            2,
            "easy-field",
            tf_short.clone(),
            "row_four_complete",
            20,
        ),
        ending(
            tf,
            2,
            "easy-field",
            tf_short.clone(),
            "row_five_three_adjacent",
            20,
        ),
        ending(
            tf,
            2,
            "easy-field",
            tf_short.clone(),
            "row_five_four_tiles",
            20,
        ),
        ending(
            tf,
            2,
            "hard-row-5",
            tf_hard_top.clone(),
            "row_four_complete",
            20,
        ),
        ending(
            tf,
            1,
            "trivial-field",
            tf_trivial.clone(),
            "solo_legendary",
            30,
        ),
        ending(
            tf,
            1,
            "trivial-field",
            tf_trivial.clone(),
            "solo_very_good",
            30,
        ),
        ending(tf, 1, "trivial-field", tf_trivial.clone(), "solo_won", 30),
        ending(tf, 1, "default", json!({}), "solo_lost", 5),
        any(
            tf,
            3,
            "above-always-unlimited-claims",
            json!({"side_need": [1, 2, 2, 3, 3], "above_placement": "always",
                   "max_bonus_claims_per_turn": null, "wildcard_threshold": 7}),
            5,
        ),
        // A game with undo entries in every ruleset.
        with_undos(tm, 3, json!({"max_turns": 60})),
        with_undos(tb, 3, json!({})),
        with_undos(tt, 3, json!({})),
        with_undos(tf, 2, tf_short.clone()),
        with_undos(bt, 3, json!({})),
        // Black Thursday: one ending, building_emptied.
        any(bt, 3, "tower-1x15", json!({"layout": "tower_1x15"}), 1),
        any(bt, 4, "tower-1x15", json!({"layout": "tower_1x15"}), 2),
        any(bt, 3, "default", json!({}), 3),
        any(
            bt,
            4,
            "pyramid-handicap",
            json!({"layout": "tower_3x7_pyramid", "starting_coins": [3, 4, 5, 6]}),
            4,
        ),
    ]
}

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

const REGENERATE: &str = "If the change of rules is intended, bump that ruleset's RULES_VERSION; \
     if the ruleset still plays the old version, move its fixtures into \
     tests/fixtures/<ruleset>/rules-v<old>/ (they stay checked); then regenerate: \
     `UPDATE_GOLDEN=<ruleset> cargo test -p api-tests --test golden` and commit \
     tests/fixtures/<ruleset>/";

#[test]
fn recorded_games_replay_with_todays_rules() {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        regenerate();
    }
    let registry = service::registry();
    let mut failures = Vec::new();
    let mut covered: BTreeSet<(String, u8)> = BTreeSet::new();
    let mut with_undos: BTreeSet<String> = BTreeSet::new();
    let mut fixtures = 0;
    for ruleset in registry.iter() {
        let dir = fixtures_dir().join(ruleset.id());
        for entry in checked_index(&dir) {
            fixtures += 1;
            let file = entry["file"].as_str().expect("file");
            let name = format!("tests/fixtures/{}/{file}", ruleset.id());
            match check_fixture(&registry, ruleset.id(), &dir.join(file), &entry) {
                Err(failure) => failures.push(format!("{name}: {failure}")),
                Ok(audit) => {
                    covered.insert((
                        ruleset.id().to_string(),
                        entry["seats"].as_u64().unwrap() as u8,
                    ));
                    if undo_entries(&audit) > 0 {
                        with_undos.insert(ruleset.id().to_string());
                    }
                }
            }
        }
        // Games recorded under an earlier rules version that the ruleset still plays are
        // kept, frozen, in rules-v<N>/: today's code must still replay them exactly.
        for older in std::fs::read_dir(&dir).expect("the fixture directory") {
            let older = older.expect("entry").path();
            let Some(version) = older
                .file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_prefix("rules-v"))
                .and_then(|version| version.parse::<u32>().ok())
            else {
                continue;
            };
            for entry in checked_index(&older) {
                fixtures += 1;
                let file = entry["file"].as_str().expect("file");
                let name = format!("tests/fixtures/{}/rules-v{version}/{file}", ruleset.id());
                match check_fixture(&registry, ruleset.id(), &older.join(file), &entry) {
                    Err(failure) => failures.push(format!("{name}: {failure}")),
                    Ok(audit) if audit.rules_version != version => failures.push(format!(
                        "{name}: recorded under rules version {}, not {version}",
                        audit.rules_version
                    )),
                    Ok(_) => {}
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {fixtures} recorded games no longer replay with today's rules:\n  {}\n{REGENERATE}",
        failures.len(),
        failures.join("\n  ")
    );
    let mut missing = Vec::new();
    for ruleset in registry.iter() {
        let (min, max) = ruleset.seat_range();
        for seats in min..=max {
            if !covered.contains(&(ruleset.id().to_string(), seats)) {
                missing.push(format!("{} with {seats} seats", ruleset.id()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "no recorded game of {}. {REGENERATE}",
        missing.join(", ")
    );
    let without_undos: Vec<&str> = registry
        .iter()
        .map(|ruleset| ruleset.id())
        .filter(|id| !with_undos.contains(*id))
        .collect();
    assert!(
        without_undos.is_empty(),
        "no recorded game of {} takes a move back: `UPDATE_GOLDEN=new cargo test -p api-tests \
         --test golden` records the missing ones",
        without_undos.join(", ")
    );
}

/// How many of the audit's entries are undos.
fn undo_entries(audit: &service::audit::Audit) -> usize {
    audit
        .entries
        .iter()
        .filter(|entry| entry.action["type"] == "undo")
        .count()
}

/// The entries of `dir/index.json`, checked against the fixture files beside it.
fn checked_index(dir: &Path) -> Vec<Value> {
    let index_path = dir.join("index.json");
    let index: Vec<Value> = std::fs::read(&index_path)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_else(|| {
            panic!(
                "{} is missing or not a JSON list. {REGENERATE}",
                index_path.display()
            )
        });
    let listed: BTreeSet<String> = index
        .iter()
        .map(|entry| entry["file"].as_str().expect("file").to_string())
        .collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(dir)
        .expect("the fixture directory")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .into_string()
                .expect("utf-8")
        })
        .filter(|name| name.ends_with(".json") && name != "index.json")
        .collect();
    assert_eq!(
        listed,
        on_disk,
        "{}: the fixture files and index.json disagree. {REGENERATE}",
        dir.display()
    );
    index
}

/// Verifies one fixture against its index entry.
fn check_fixture(
    registry: &game_core::Registry,
    ruleset: &str,
    path: &Path,
    entry: &Value,
) -> Result<service::audit::Audit, String> {
    let bytes = std::fs::read(path).map_err(|error| format!("unreadable: {error}"))?;
    let audit: service::audit::Audit =
        serde_json::from_slice(&bytes).map_err(|error| format!("not an audit: {error}"))?;
    if audit.ruleset != ruleset {
        return Err(format!(
            "an audit of {} in the {ruleset} directory",
            audit.ruleset
        ));
    }
    if Some(u64::from(audit.seats)) != entry["seats"].as_u64() {
        return Err(format!(
            "{} seats, the index says {}",
            audit.seats, entry["seats"]
        ));
    }
    let verified = service::audit::verify(registry, &audit)
        .map_err(|error| format!("does not replay: {error}"))?;
    if Some(verified.entries as u64) != entry["entries"].as_u64() {
        return Err(format!(
            "{} entries replayed, the index says {}",
            verified.entries, entry["entries"]
        ));
    }
    let reason = audit
        .outcome
        .as_ref()
        .map(|outcome| outcome.reason.as_str());
    if reason != entry["ending"].as_str() {
        return Err(format!(
            "ended by {reason:?}, the index says {}",
            entry["ending"]
        ));
    }
    Ok(audit)
}

/// Rewrites every ruleset's fixtures and index from [`configurations`].
fn regenerate() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let app = spawn_app().await;
        // UPDATE_GOLDEN=<ruleset id> regenerates that ruleset only; `new`, the configurations
        // without a fixture; any other value, all.
        let only = std::env::var("UPDATE_GOLDEN").ok();
        let only_new = only.as_deref() == Some("new");
        let chosen = |ruleset: &str| {
            only.as_deref()
                .is_none_or(|only| only == ruleset || service::registry().get(only).is_none())
        };
        let mut indexes: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
        for ruleset in service::registry().iter() {
            if chosen(ruleset.id()) {
                let kept = if only_new {
                    checked_index(&fixtures_dir().join(ruleset.id()))
                } else {
                    Vec::new()
                };
                indexes.insert(ruleset.id(), kept);
            }
        }
        for configuration in configurations() {
            if !chosen(configuration.ruleset) {
                continue;
            }
            let recorded = indexes[configuration.ruleset].iter().any(|entry| {
                entry["seats"] == configuration.seats
                    && entry["label"] == configuration.label
                    && configuration
                        .ending
                        .is_none_or(|ending| entry["ending"] == ending)
            });
            if only_new && recorded {
                continue;
            }
            let found = record(&app, &configuration).await;
            let Some((ending, entries, audit)) = found else {
                eprintln!(
                    "golden: no game of {} with {} seats ({}) ended by {} in {} tries",
                    configuration.ruleset,
                    configuration.seats,
                    configuration.label,
                    configuration.ending.unwrap_or("anything"),
                    configuration.tries
                );
                continue;
            };
            let file = format!(
                "{}-seats-{}-{ending}.json",
                configuration.seats, configuration.label
            );
            let index = indexes
                .get_mut(configuration.ruleset)
                .expect("a registered ruleset");
            if index.iter().any(|entry| entry["file"] == file.as_str()) {
                continue;
            }
            let dir = fixtures_dir().join(configuration.ruleset);
            std::fs::create_dir_all(&dir).expect("create the fixture directory");
            if index.is_empty() {
                // The first fixture of the ruleset: clear the old ones.
                for old in std::fs::read_dir(&dir).expect("read the fixture directory") {
                    let old = old.expect("entry").path();
                    if old.extension().is_some_and(|ext| ext == "json") {
                        std::fs::remove_file(old).expect("remove an old fixture");
                    }
                }
            }
            std::fs::write(dir.join(&file), &audit).expect("write a fixture");
            eprintln!(
                "golden: {}/{file}: {entries} entries, {} bytes",
                configuration.ruleset,
                audit.len()
            );
            index.push(index_entry(&file, &configuration, &ending, entries));
        }
        for (ruleset, index) in indexes {
            let mut text = String::from("[\n");
            for (i, entry) in index.iter().enumerate() {
                text.push_str("  ");
                text.push_str(&entry.to_string());
                text.push_str(if i + 1 < index.len() { ",\n" } else { "\n" });
            }
            text.push_str("]\n");
            std::fs::write(fixtures_dir().join(ruleset).join("index.json"), text)
                .expect("write the index");
        }
    });
}

/// Plays games of `configuration` until one ends as wanted; returns its ending, entry count
/// and audit document.
async fn record(app: &TestApp, configuration: &Configuration) -> Option<(String, usize, Vec<u8>)> {
    for seed in configuration.seed..configuration.seed + configuration.tries {
        let game = app
            .start_game(
                configuration.ruleset,
                configuration.seats,
                configuration.options.clone(),
            )
            .await;
        let mut moves = 0;
        let mut finished = true;
        while let Some(seat) = random_move(app, &game, seed, moves as u64 + 1).await {
            moves += 1;
            // A `with-undos` game: the mover also tries to take its move back one time in
            // three (refused, and nothing changed, when the move may not be taken back).
            let coin = GameRng::for_entry([seed as u8; 32], (1 << 32) + moves as u64).below(3);
            if configuration.undos && coin == 0 {
                let undo = json!({"type": "undo"});
                if app.submit(&game.id, &game.tokens[seat], &undo).await.status == 200 {
                    moves += 1;
                }
            }
            if moves >= configuration.max_moves {
                finished = false;
                break;
            }
        }
        if !finished {
            continue;
        }
        let reply = app.full_audit(&game.id).await;
        assert_eq!(reply.status, 200, "{}", reply.text());
        let audit: service::audit::Audit = serde_json::from_slice(&reply.body).expect("an audit");
        let reason = audit
            .outcome
            .as_ref()
            .map(|outcome| outcome.reason.clone())
            .expect("a finished game has an outcome");
        if configuration
            .ending
            .is_some_and(|wanted| wanted != reason.as_str())
            || (configuration.undos && undo_entries(&audit) == 0)
        {
            continue;
        }
        let verified =
            service::audit::verify(&service::registry(), &audit).expect("the audit verifies");
        assert_eq!(verified.entries, moves + 1);
        return Some((reason, verified.entries, reply.body));
    }
    None
}
