//! Turn order across the five games: a move by a seat the game is not waiting for is a 409
//! with a code of the one turn-order family (docs/api.md), and the deal itself is in the log.

use crate::{first_action, start_small};
use api_tests::{random_move, spawn_app};
use serde_json::Value;

/// The turn-order codes docs/api.md lists under 409.
const TURN_CODES: &[&str] = &[
    "not-your-turn",
    "already-committed",
    "not-participant",
    "not-juror",
    "already-voted",
    "not-author",
    "not-promisee",
    "not-accused",
];

/// Actions a seat may send at any time, even outside `to_act` (refused by the rules, 422).
const ANY_TIME: &[&str] = &["buy_back"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_out_of_turn_is_a_409_of_the_turn_family_in_every_ruleset() {
    let app = spawn_app().await;
    for ruleset in service::registry().iter() {
        let game = start_small(&app, ruleset).await;
        let mut refused = 0;
        for step in 0..60u64 {
            let envelope = app
                .get(&format!("/v1/games/{}", game.id), None)
                .await
                .json();
            if envelope["status"] != "active" {
                break;
            }
            let to_act: Vec<u64> = envelope["to_act"]
                .as_array()
                .expect("to_act")
                .iter()
                .filter_map(Value::as_u64)
                .collect();
            let idle = (0..game.tokens.len() as u64).find(|seat| !to_act.contains(seat));
            if let Some(idle) = idle {
                let actor = &game.tokens[to_act[0] as usize];
                let legal = app
                    .get(&format!("/v1/games/{}/legal-actions", game.id), Some(actor))
                    .await
                    .json();
                let actions = legal["actions"].as_array().expect("actions").clone();
                for action in actions.iter().filter_map(|entry| entry.get("action")) {
                    let kind = action["type"].as_str().unwrap_or("");
                    // The undo move is the API's, not a turn of the game's (tests/api/undo.rs).
                    if ANY_TIME.contains(&kind) || kind == "undo" {
                        continue;
                    }
                    let before = app.record(&game.id).await;
                    let reply = app
                        .post(
                            &format!("/v1/games/{}/actions", game.id),
                            Some(&game.tokens[idle as usize]),
                            &serde_json::json!({ "action": action }),
                            &[],
                        )
                        .await;
                    let problem = reply.json();
                    assert_eq!(
                        reply.status,
                        409,
                        "{}: seat {idle} sent {action} out of turn: {problem}",
                        ruleset.id()
                    );
                    let code = problem["code"].as_str().unwrap_or("");
                    assert!(
                        TURN_CODES.contains(&code),
                        "{}: {code} is not a turn-order code",
                        ruleset.id()
                    );
                    let after = app.record(&game.id).await;
                    assert_eq!(after.version, before.version);
                    assert_eq!(after.state, before.state);
                    refused += 1;
                }
            }
            if random_move(&app, &game, 7, step + 1).await.is_none() {
                break;
            }
        }
        assert!(
            refused > 0,
            "{}: never had an idle seat to try",
            ruleset.id()
        );
    }
}

/// Entry 0 of the log as `token`'s holder (or a spectator) sees it.
async fn deal_seen_by(app: &api_tests::TestApp, id: &str, token: Option<&str>) -> Vec<Value> {
    let log = app
        .get(&format!("/v1/games/{id}/log?limit=1"), token)
        .await
        .json();
    assert_eq!(log["entries"][0]["seq"], 0);
    log["entries"][0]["events"]
        .as_array()
        .expect("events")
        .clone()
}

#[tokio::test]
async fn the_deal_is_logged_and_each_seat_sees_its_own_hand() {
    let app = spawn_app().await;
    for ruleset in service::registry().iter() {
        let game = start_small(&app, ruleset).await;
        let public = deal_seen_by(&app, &game.id, None).await;
        assert!(
            !public.is_empty(),
            "{}: the deal logs nothing",
            ruleset.id()
        );
        let mut seen = Vec::new();
        for token in &game.tokens {
            let own = deal_seen_by(&app, &game.id, Some(token)).await;
            assert!(own.len() >= public.len().min(1), "{}", ruleset.id());
            seen.push(own);
        }
        // Where each seat is dealt a hidden hand, each seat's entry 0 is its own.
        if ["tulipmania-1637", "tulip-traders", "black-thursday"].contains(&ruleset.id()) {
            for (seat, own) in seen.iter().enumerate() {
                assert_ne!(
                    own,
                    &public,
                    "{}: seat {seat} sees no private deal",
                    ruleset.id()
                );
                for (other, theirs) in seen.iter().enumerate().skip(seat + 1) {
                    assert_ne!(
                        own,
                        theirs,
                        "{}: seats {seat} and {other} see the same deal",
                        ruleset.id()
                    );
                }
            }
        }
    }
}

#[tokio::test]
async fn a_moves_answer_says_who_acts_next_as_the_game_does() {
    let app = spawn_app().await;
    for ruleset in service::registry().iter() {
        let game = start_small(&app, ruleset).await;
        let envelope = app
            .get(&format!("/v1/games/{}", game.id), None)
            .await
            .json();
        let seat = envelope["to_act"][0].as_u64().expect("someone acts") as usize;
        let token = &game.tokens[seat];
        let action = first_action(&app, &game.id, token).await;
        let reply = app
            .post(
                &format!("/v1/games/{}/actions", game.id),
                Some(token),
                &serde_json::json!({ "action": action }),
                &[],
            )
            .await;
        assert_eq!(reply.status, 200, "{}", reply.text());
        let answer = reply.json();
        let after = app
            .get(&format!("/v1/games/{}", game.id), None)
            .await
            .json();
        for field in ["status", "to_act", "waiting_on", "outcome", "version"] {
            assert_eq!(answer[field], after[field], "{}: {field}", ruleset.id());
        }
    }
}
