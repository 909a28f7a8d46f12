//! The HTTP API on DynamoStore (a moto server the test starts, or `BEURS_TEST_DYNAMODB_URL`):
//! a complete random game, with the DynamoDB requests of every accepted move counted, and the
//! optimistic-concurrency answers (412 with a stale `If-Match`), and a player against bots.

use crate::options_for;
use api_tests::{spawn_app_with, StartedGame, TestApp};
use game_core::GameRng;
use serde_json::{json, Value};
use std::sync::Arc;
use store::dynamo::testing::{store_with, CallCounter};

/// The ruleset played: random games of it finish in a few hundred moves.
const RULESET: &str = "tulip-bubble";
const SEATS: u8 = 3;

async fn dynamo_app() -> (TestApp, CallCounter) {
    let counter = CallCounter::default();
    let store = store_with(&counter).await;
    (spawn_app_with(Arc::new(store)).await, counter)
}

/// One random move by a seat in `to_act`, from its listed legal actions (asking, half the
/// time, for the next ones with the answer); returns the DynamoDB operations the accepted
/// `POST …/actions` cost, or `None` once the game is over.
async fn random_move(
    app: &TestApp,
    counter: &CallCounter,
    game: &StartedGame,
    bot: &mut GameRng,
) -> Option<Vec<String>> {
    let envelope = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .json();
    if envelope["status"] == "finished" {
        return None;
    }
    let to_act: Vec<u64> = envelope["to_act"]
        .as_array()
        .expect("to_act")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let seat = *bot
        .choose(&to_act)
        .expect("an active game has someone to act") as usize;
    let token = &game.tokens[seat];
    let legal = app
        .get(&format!("/v1/games/{}/legal-actions", game.id), Some(token))
        .await;
    assert_eq!(legal.status, 200, "{}", legal.text());
    let actions = legal.json()["actions"].as_array().expect("actions").clone();
    for _ in 0..20 {
        let action =
            game_core::testing::random_action_json(&actions, bot).expect("a playable entry");
        let concrete = actions
            .iter()
            .any(|entry| entry.get("action") == Some(&action));
        // Half the moves ask for the mover's next legal actions with the answer: the
        // listing comes from the record the move committed, with no further request.
        let include = bot.below(2) == 0;
        let query = if include {
            "?include=legal_actions"
        } else {
            ""
        };
        counter.take();
        let reply = app
            .post(
                &format!("/v1/games/{}/actions{query}", game.id),
                Some(token),
                &json!({ "action": action }),
                &[],
            )
            .await;
        let calls = counter.take();
        match reply.status {
            200 => {
                let listed = reply.json().get("legal_actions").cloned();
                assert_eq!(listed.is_some(), include, "{}", reply.text());
                return Some(calls);
            }
            422 if !concrete => continue,
            status => panic!("listed action {action} got {status}: {}", reply.text()),
        }
    }
    panic!("no sampled action was accepted for seat {seat}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_random_game_on_dynamodb_costs_two_requests_per_move() {
    let (app, counter) = dynamo_app().await;
    let game = app
        .start_game(RULESET, SEATS, options_for(RULESET, SEATS))
        .await;
    let mut bot = GameRng::for_entry([42; 32], 0);

    let mut moves = 0usize;
    while let Some(calls) = random_move(&app, &counter, &game, &mut bot).await {
        assert_eq!(
            calls,
            ["GetItem", "TransactWriteItems"],
            "move {moves}: a plain move is one read and one transactional write"
        );
        moves += 1;
        assert!(moves < 5_000, "the game did not finish");
    }

    // The finished game is complete and verifiable from what DynamoDB kept.
    let reply = app.full_audit(&game.id).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    let audit: service::audit::Audit = serde_json::from_slice(&reply.body).expect("an audit");
    let verified =
        service::audit::verify(&service::registry(), &audit).expect("the audit verifies");
    assert_eq!(verified.entries, moves + 1);
    // The whole log, paged through with `after` (each page one Query).
    let mut entries = 0;
    let mut after: Option<u64> = None;
    loop {
        let query = after.map_or(String::new(), |after| format!("&after={after}"));
        let page = app
            .get(
                &format!("/v1/games/{}/log?limit=200{query}", game.id),
                Some(&game.tokens[0]),
            )
            .await;
        assert_eq!(page.status, 200, "{}", page.text());
        let page = page.json();
        entries += page["entries"].as_array().expect("entries").len();
        match page["next_after"].as_u64() {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    assert_eq!(entries, moves + 1, "setup plus every move");
    let record = app.record(&game.id).await;
    let record_bytes = serde_json::to_string(&record).expect("serializes").len();
    eprintln!(
        "{RULESET} with {SEATS} seats on DynamoDB: {moves} moves, 2 requests each; \
         final record {record_bytes} bytes"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_if_match_gets_412_on_dynamodb_and_a_key_replays() {
    let (app, counter) = dynamo_app().await;
    let game = app
        .start_game(RULESET, SEATS, options_for(RULESET, SEATS))
        .await;
    let envelope = app.get(&format!("/v1/games/{}", game.id), None).await;
    let version = envelope.json()["version"].as_u64().expect("a version");
    let seat = envelope.json()["to_act"][0].as_u64().expect("someone acts") as usize;
    let token = &game.tokens[seat];
    let legal = app
        .get(&format!("/v1/games/{}/legal-actions", game.id), Some(token))
        .await
        .json();
    let action = api_tests::some_action(&legal);
    let path = format!("/v1/games/{}/actions", game.id);
    let body = json!({ "action": action });

    let stale = format!("\"{}\"", version + 7);
    let refused = app
        .post(&path, Some(token), &body, &[("if-match", &stale)])
        .await;
    assert_eq!(refused.status, 412, "{}", refused.text());

    let current = format!("\"{version}\"");
    counter.take();
    let first = app
        .post(
            &path,
            Some(token),
            &body,
            &[("if-match", &current), ("idempotency-key", "dynamo-k1")],
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text());
    assert_eq!(
        counter.take(),
        ["GetItem", "GetItem", "TransactWriteItems"],
        "with a key: the record, the key, and one transaction"
    );
    let again = app
        .post(
            &path,
            Some(token),
            &body,
            &[("if-match", &current), ("idempotency-key", "dynamo-k1")],
        )
        .await;
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(
        again.body, first.body,
        "a replay returns the first response"
    );
    assert_eq!(app.record(&game.id).await.version, version + 1);
}

/// Tulipmania's sealed commit phase on DynamoStore: four seats commit at once without
/// `If-Match`. Lost races come back from DynamoDB as cancelled transactions; the API reloads
/// and retries them, so every seat's choice is applied exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_sealed_choices_on_dynamodb_are_each_applied_once() {
    let (app, counter) = dynamo_app().await;
    let app = Arc::new(app);
    let game = Arc::new(app.start_game("tulipmania-1637", 5, json!({})).await);
    let seller = app.open_commit_phase(&game).await;
    let version_before = app.record(&game.id).await.version;
    counter.take();

    let tasks: Vec<_> = (0..5usize)
        .filter(|&seat| seat != seller)
        .map(|seat| {
            let (app, game) = (app.clone(), game.clone());
            tokio::spawn(async move {
                let action = json!({ "action": { "type": "commit_card", "card": "pass" } });
                let path = format!("/v1/games/{}/actions", game.id);
                (
                    seat,
                    app.post(&path, Some(&game.tokens[seat]), &action, &[])
                        .await,
                )
            })
        })
        .collect();
    for task in tasks {
        let (seat, reply) = task.await.expect("task");
        assert_eq!(reply.status, 200, "seat {seat}: {}", reply.text());
    }

    let writes = counter
        .take()
        .iter()
        .filter(|operation| *operation == "TransactWriteItems")
        .count();
    assert!(writes >= 4, "four commits at least, got {writes}");
    assert_eq!(app.record(&game.id).await.version, version_before + 4);
    let log = app.store.log(&game.id, None, 100).await.expect("log");
    let seqs: Vec<u64> = log.iter().map(|entry| entry.seq).collect();
    assert_eq!(seqs, (0..log.len() as u64).collect::<Vec<_>>(), "no gaps");
    eprintln!(
        "4 simultaneous commits on DynamoDB took {writes} transactions ({} lost races retried)",
        writes - 4
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_finishes_a_game_against_bots_on_dynamodb() {
    let (app, _counter) = dynamo_app().await;
    crate::seats::one_player_against_bots(&app, RULESET, SEATS).await;
}
