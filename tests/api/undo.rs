//! Undo that cannot peek, the game at any earlier entry, and rematch (docs/api.md, "Undo",
//! "History", "Rematch").

use crate::test_options;
use api_tests::{spawn_app, spawn_app_seeded, StartedGame, TestApp};
use game_core::GameRng;
use serde_json::{json, Value};
use service::audit::{verify, Audit};

/// Every ruleset at a seat count it plays with its default options.
const RULESETS: [(&str, u8); 5] = [
    ("tulipmania-1637", 3),
    ("tulip-bubble", 3),
    ("tulip-traders", 3),
    ("tulpenfieber", 2),
    ("black-thursday", 3),
];

const UNDO: &str = r#"{"type":"undo"}"#;

fn undo() -> Value {
    serde_json::from_str(UNDO).expect("JSON")
}

async fn envelope(app: &TestApp, game: &StartedGame, token: Option<&str>) -> Value {
    let reply = app.get(&format!("/v1/games/{}", game.id), token).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

/// Every seat's view and the spectator's, as they read the game now.
async fn all_views(app: &TestApp, game: &StartedGame) -> Vec<Value> {
    let mut views = Vec::new();
    for token in game
        .tokens
        .iter()
        .map(|token| Some(token.as_str()))
        .chain([None])
    {
        views.push(envelope(app, game, token).await["view"].clone());
    }
    views
}

async fn legal(app: &TestApp, game: &StartedGame, seat: usize) -> Vec<Value> {
    let reply = app
        .get(
            &format!("/v1/games/{}/legal-actions", game.id),
            Some(&game.tokens[seat]),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["actions"].as_array().expect("actions").clone()
}

fn lists_undo(actions: &[Value]) -> bool {
    actions.iter().any(|entry| entry["action"] == undo())
}

/// One random move of `seat` from its legal actions other than undo; the accepted reply.
async fn move_of(app: &TestApp, game: &StartedGame, seat: usize, bot: &mut GameRng) -> Value {
    let actions: Vec<Value> = legal(app, game, seat)
        .await
        .into_iter()
        .filter(|entry| entry["action"] != undo())
        .collect();
    for _ in 0..40 {
        let action = game_core::testing::random_action_json(&actions, bot).expect("a move");
        let reply = app.submit(&game.id, &game.tokens[seat], &action).await;
        match reply.status {
            200 => return reply.json(),
            422 => continue,
            status => panic!("{action} by seat {seat}: {status} {}", reply.text()),
        }
    }
    panic!("no sampled move of seat {seat} was accepted")
}

/// A seat the game waits on, chosen at random.
async fn mover(app: &TestApp, game: &StartedGame, bot: &mut GameRng) -> Option<usize> {
    let now = envelope(app, game, None).await;
    if now["status"] == "finished" {
        return None;
    }
    let to_act: Vec<usize> = now["to_act"]
        .as_array()
        .expect("to_act")
        .iter()
        .filter_map(Value::as_u64)
        .map(|seat| seat as usize)
        .collect();
    bot.choose(&to_act).copied()
}

/// Ends the game quickly: every seat resigns, and the bots that take the seats over play
/// it to the end on the server. Returns once it has finished.
async fn finish_with_bots(app: &TestApp, game: &StartedGame) {
    for (seat, token) in game.tokens.iter().enumerate() {
        let reply = app
            .post(
                &format!("/v1/games/{}/seats/{seat}/resign", game.id),
                Some(token),
                &json!({}),
                &[],
            )
            .await;
        if reply.status == 409 && reply.json()["code"] == "game-over" {
            break;
        }
        assert_eq!(reply.status, 200, "resign {seat}: {}", reply.text());
    }
    let mut last = Value::Null;
    for _ in 0..120 {
        let now = envelope(app, game, None).await;
        if now["status"] == "finished" {
            return;
        }
        let version = now["version"].as_u64().expect("version");
        app.get(
            &format!("/v1/games/{}?after_version={version}&wait=5", game.id),
            None,
        )
        .await;
        last = now;
    }
    // What a stall looked like, for whoever meets it (docs/testing.md, issue 38).
    let record = app.record(&game.id).await;
    panic!(
        "the bots did not finish the game: {} at version {}, {} log entries, to act {}, \
         waiting on {}, due at {:?}",
        last["ruleset"],
        last["version"],
        record.log_len,
        last["to_act"],
        last["waiting_on"],
        record.due_at
    );
}

async fn refused_undo(app: &TestApp, game: &StartedGame, seat: usize) {
    let before = app.record(&game.id).await;
    let reply = app.submit(&game.id, &game.tokens[seat], &undo()).await;
    assert_eq!(reply.status, 409, "{}", reply.text());
    assert_eq!(reply.json()["code"], "cannot-undo", "{}", reply.text());
    let after = app.record(&game.id).await;
    assert_eq!(after, before, "a refused undo changed the game");
}

/// In every ruleset: a move that may be taken back lists `undo`; taking it back gives every
/// reader exactly the view they had before it, and the log tells it as an entry of its own;
/// an undo with nothing to take back, and one after another seat acted, are refused with
/// `cannot-undo` and change nothing; the finished game's audit, undo entries and all,
/// verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_restores_every_view_and_is_refused_once_another_seat_acts() {
    // Deals in which a move is taken back and an undo refused: the dice are chosen.
    let app = spawn_app_seeded(155).await;
    for (ruleset, seats) in RULESETS {
        let game = app.start_game(ruleset, seats, test_options(ruleset)).await;
        let mut bot = GameRng::for_entry([35; 32], u64::from(seats));
        let (mut taken_back, mut refused_after_other, mut refused_after_draw) = (0, 0, 0);
        for _ in 0..600 {
            let Some(seat) = mover(&app, &game, &mut bot).await else {
                break;
            };
            let before = all_views(&app, &game).await;
            move_of(&app, &game, seat, &mut bot).await;
            if !lists_undo(&legal(&app, &game, seat).await) {
                if refused_after_draw < 2 {
                    refused_undo(&app, &game, seat).await;
                    refused_after_draw += 1;
                }
                continue;
            }
            if taken_back < 3 {
                // Sent with an Idempotency-Key, and sent again as a client that lost the answer
                // would (issue 54): the retry gets the first answer and takes back nothing more.
                let key = format!("undo-{ruleset}-{taken_back}");
                let path = format!("/v1/games/{}/actions", game.id);
                let body = json!({ "action": undo() });
                let headers = [("idempotency-key", key.as_str())];
                let token = Some(game.tokens[seat].as_str());
                let reply = app.post(&path, token, &body, &headers).await;
                assert_eq!(reply.status, 200, "{ruleset}: {}", reply.text());
                let version = app.record(&game.id).await.version;
                let retry = app.post(&path, token, &body, &headers).await;
                assert_eq!(
                    retry.status,
                    200,
                    "{ruleset}: a retried undo: {}",
                    retry.text()
                );
                assert_eq!(retry.body, reply.body, "{ruleset}: the first undo's answer");
                assert_eq!(retry.header("idempotent-replay"), Some("true"));
                assert_eq!(app.record(&game.id).await.version, version);
                assert_eq!(reply.json()["events"], json!([]));
                assert_eq!(all_views(&app, &game).await, before, "{ruleset}: undo");
                let log = app
                    .get(
                        &format!(
                            "/v1/games/{}/log?after={}",
                            game.id,
                            reply.json()["seq"].as_u64().unwrap() - 1
                        ),
                        None,
                    )
                    .await
                    .json();
                let entry = &log["entries"][0];
                assert_eq!(entry["action"]["type"], "undo", "{log}");
                assert_eq!(
                    entry["headline"],
                    format!("player {seat} took back their last move."),
                );
                taken_back += 1;
                continue;
            }
            // Another seat acts: the move can no longer be taken back.
            let other = envelope(&app, &game, None).await["to_act"]
                .as_array()
                .expect("to_act")
                .iter()
                .filter_map(Value::as_u64)
                .map(|other| other as usize)
                .find(|&other| other != seat);
            if let (Some(other), true) = (other, refused_after_other < 2) {
                move_of(&app, &game, other, &mut bot).await;
                assert!(!lists_undo(&legal(&app, &game, seat).await), "{ruleset}");
                refused_undo(&app, &game, seat).await;
                refused_after_other += 1;
            }
            if refused_after_other >= 1 && refused_after_draw >= 1 {
                break;
            }
        }
        assert!(taken_back >= 1, "{ruleset}: no move was taken back");
        assert!(refused_after_draw >= 1, "{ruleset}: no undo was refused");
        finish_with_bots(&app, &game).await;
        let audit: Audit =
            serde_json::from_slice(&app.full_audit(&game.id).await.body).expect("an audit");
        let undos = audit
            .entries
            .iter()
            .filter(|entry| entry.action["type"] == "undo")
            .count();
        assert!(undos >= taken_back, "{ruleset}: {undos} undo entries");
        verify(&service::registry(), &audit)
            .unwrap_or_else(|error| panic!("{ruleset}: the audit does not verify: {error}"));
    }
}

/// In every ruleset: the game read at each entry of its history, once it has finished, is
/// what each reader (a seat and a spectator) read right after that entry while it was being
/// played (forty moves with undos among them, then the finished game; the bots' moves between
/// are compared to nothing). Nothing hidden then is shown now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_at_every_entry_is_what_each_reader_saw_then() {
    let app = spawn_app().await;
    for (ruleset, seats) in RULESETS {
        let game = app.start_game(ruleset, seats, test_options(ruleset)).await;
        let mut bot = GameRng::for_entry([36; 32], u64::from(seats));
        let readers: Vec<Option<String>> = vec![Some(game.tokens[0].clone()), None];
        let mut seen: Vec<(u64, usize, Value)> = Vec::new();
        let mut record = |seq: u64, views: Vec<Value>| {
            for (reader, view) in views.into_iter().enumerate() {
                seen.push((seq, reader, view));
            }
        };
        let mut views = Vec::new();
        for reader in &readers {
            views.push(envelope(&app, &game, reader.as_deref()).await);
        }
        record(0, views);
        // Forty moves by the players, undos among them, then the bots finish the game.
        let mut moves = 0;
        while moves < 40 {
            let Some(seat) = mover(&app, &game, &mut bot).await else {
                break;
            };
            let reply = if lists_undo(&legal(&app, &game, seat).await) && bot.below(3) == 0 {
                app.submit(&game.id, &game.tokens[seat], &undo())
                    .await
                    .json()
            } else {
                move_of(&app, &game, seat, &mut bot).await
            };
            let mut views = Vec::new();
            for reader in &readers {
                views.push(envelope(&app, &game, reader.as_deref()).await);
            }
            record(reply["seq"].as_u64().expect("seq"), views);
            moves += 1;
        }
        finish_with_bots(&app, &game).await;
        let last = app.record(&game.id).await.log_len - 1;
        let mut views = Vec::new();
        for reader in &readers {
            views.push(envelope(&app, &game, reader.as_deref()).await);
        }
        record(last, views);
        for (seq, reader, then) in &seen {
            let reply = app
                .get(
                    &format!("/v1/games/{}/history/{seq}", game.id),
                    readers[*reader].as_deref(),
                )
                .await;
            assert_eq!(reply.status, 200, "{}", reply.text());
            let now = reply.json();
            assert_eq!(
                now["view"], then["view"],
                "{ruleset}: entry {seq}, reader {reader}"
            );
            assert_eq!(now["to_act"], then["to_act"], "{ruleset}: entry {seq}");
            assert_eq!(now["status"], then["status"], "{ruleset}: entry {seq}");
            assert_eq!(now["outcome"], then["outcome"], "{ruleset}: entry {seq}");
        }
    }
}

/// Bad positions get problems: past the last entry, however large (404 `entry-not-found`),
/// not a whole number (400), and a game that has not started (404).
#[tokio::test]
async fn history_refuses_positions_the_log_does_not_have() {
    let app = spawn_app().await;
    let game = app.start_game("tulpenfieber", 2, json!({})).await;
    let last = app.record(&game.id).await.log_len - 1;
    let past = app
        .get(&format!("/v1/games/{}/history/{}", game.id, last + 1), None)
        .await;
    assert_eq!(past.status, 404, "{}", past.text());
    assert_eq!(past.json()["code"], "entry-not-found");
    // A number too large for any log is past its end too (the contract's integer allows it).
    let huge = app
        .get(
            &format!("/v1/games/{}/history/99999999999999999999999", game.id),
            None,
        )
        .await;
    assert_eq!(huge.status, 404, "{}", huge.text());
    assert_eq!(huge.json()["code"], "entry-not-found");
    for bad in ["-1", "x", "1.5", "+1"] {
        let reply = app
            .get(&format!("/v1/games/{}/history/{bad}", game.id), None)
            .await;
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text());
        assert_eq!(reply.json()["code"], "malformed-request");
    }
    let (open, _) = app
        .create_game(&json!({"ruleset": "tulpenfieber", "seats": 2}))
        .await;
    let reply = app.get(&format!("/v1/games/{open}/history/0"), None).await;
    assert_eq!(reply.status, 404, "{}", reply.text());
    assert_eq!(reply.json()["code"], "entry-not-found");
}

/// A rematch: refused while the game runs; once it has finished, every request gets the
/// same new game (and a player the same token), the seats turned one place with the bot
/// already seated; it starts when the last player has asked; the two games name each other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_one_linked_game_with_the_seats_turned() {
    // A deal that ends within the test's bound of moves: the dice are chosen.
    let app = spawn_app_seeded(342).await;
    let (id, admin) = app
        .create_game(&json!({"ruleset": "tulpenfieber", "seats": 3}))
        .await;
    let mut tokens = Vec::new();
    for seat in 0..2 {
        let claimed = app
            .post(
                &format!("/v1/games/{id}/seats/{seat}"),
                None,
                &json!({"name": format!("player {seat}")}),
                &[],
            )
            .await;
        assert_eq!(claimed.status, 201, "{}", claimed.text());
        tokens.push(claimed.json()["player_token"].as_str().unwrap().to_string());
    }
    let running = app
        .post(
            &format!("/v1/games/{id}/rematch"),
            Some(&tokens[0]),
            &json!({}),
            &[],
        )
        .await;
    assert_eq!(running.status, 409, "{}", running.text());
    assert_eq!(running.json()["code"], "game-not-finished");
    let bot = app
        .post(
            &format!("/v1/games/{id}/seats/2"),
            None,
            &json!({"bot": "random"}),
            &[],
        )
        .await;
    assert_eq!(bot.status, 201, "{}", bot.text());
    let game = StartedGame {
        id: id.clone(),
        admin_token: admin.clone(),
        seed_commitment: String::new(),
        tokens: tokens.clone(),
    };
    let mut rng = GameRng::for_entry([37; 32], 0);
    let mut moves = 0;
    while let Some(seat) = mover(&app, &game, &mut rng).await {
        move_of(&app, &game, seat, &mut rng).await;
        moves += 1;
        assert!(moves < 5_000, "the game does not end");
    }
    let unknown = app
        .post(&format!("/v1/games/{id}/rematch"), None, &json!({}), &[])
        .await;
    assert_eq!(unknown.status, 401, "{}", unknown.text());

    let ask = |token: String| {
        let app = &app;
        let path = format!("/v1/games/{id}/rematch");
        async move {
            let reply = app.post(&path, Some(&token), &json!({}), &[]).await;
            assert_eq!(reply.status, 200, "{}", reply.text());
            reply.json()
        }
    };
    let first = ask(tokens[1].clone()).await;
    let again = ask(tokens[1].clone()).await;
    assert_eq!(first["game_id"], again["game_id"]);
    assert_eq!(first["player_token"], again["player_token"]);
    assert_eq!(first["seat"], 0, "the old seat 1 starts");
    assert_eq!(first["status"], "open");
    let new_id = first["game_id"].as_str().unwrap().to_string();
    assert_ne!(new_id, id);
    let by_admin = ask(admin.clone()).await;
    assert_eq!(by_admin["game_id"], new_id.as_str());
    assert_eq!(by_admin["seat"], Value::Null);

    let old = envelope(&app, &game, None).await;
    assert_eq!(old["rematch"], new_id.as_str());
    let new = app.get(&format!("/v1/games/{new_id}"), None).await.json();
    assert_eq!(new["rematch_of"], id.as_str());
    assert_ne!(new["seed_commitment"], old["seed_commitment"]);
    assert_eq!(
        new["seats"][1]["bot"], "random",
        "the bot of seat 2 sits at seat 1"
    );
    assert_eq!(new["seats"][1]["claimed"], true);
    assert_eq!(
        new["seats"][2]["claimed"], false,
        "player 0 has not asked yet"
    );

    let last = ask(tokens[0].clone()).await;
    assert_eq!(last["game_id"], new_id.as_str());
    assert_eq!(last["seat"], 2);
    assert_eq!(last["status"], "active");
    let token = last["player_token"].as_str().unwrap();
    let mine = app
        .get(&format!("/v1/games/{new_id}"), Some(token))
        .await
        .json();
    assert_eq!(mine["you"]["seat"], 2);
    assert_eq!(mine["seats"][2]["name"], "player 0");
    let me = app.get("/v1/me/games", Some(token)).await;
    assert_eq!(me.status, 200, "{}", me.text());
}

/// The undo move is `{"type": "undo"}` and nothing else: with another field it is a
/// `400 malformed-request` (the service checks it, once), and the game is unchanged.
#[tokio::test]
async fn an_undo_with_another_field_is_malformed_and_changes_nothing() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 3, test_options("tulipmania-1637"))
        .await;
    let before = app.record(&game.id).await;
    for seat in 0..3 {
        let reply = app
            .submit(
                &game.id,
                &game.tokens[seat],
                &json!({"type": "undo", "move": 1}),
            )
            .await;
        assert_eq!(reply.status, 400, "{}", reply.text());
        assert_eq!(reply.json()["code"], "malformed-request");
    }
    let after = app.record(&game.id).await;
    assert_eq!(
        (after.version, after.log_len, after.state),
        (before.version, before.log_len, before.state)
    );
}
