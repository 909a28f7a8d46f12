//! What a play-by-web client stands on: the log and the moves in words, long-polls that
//! follow a game, and the reference client served at `/play`.

use crate::{first_action, test_options};
use api_tests::{play_randomly, spawn_app, spawn_app_seeded, TestApp};
use serde_json::{json, Value};

/// Every entry of `log` (one reader's full log) has a sentence per event, and a sentence for
/// its action exactly when the reader may read the action, naming its author.
fn assert_log_in_words(log: &Value) {
    for entry in log["entries"].as_array().expect("entries") {
        let events = entry["events"].as_array().expect("events");
        let texts = entry["event_texts"].as_array().expect("event_texts");
        assert_eq!(events.len(), texts.len(), "one sentence per event: {entry}");
        for text in texts {
            let text = text.as_str().expect("a sentence");
            game_core::words::check_sentence(text, entry);
        }
        match (&entry["action"], &entry["action_text"]) {
            (Value::Null, Value::Null) => {}
            (Value::Null, text) => panic!("a sentence {text} for a hidden action: {entry}"),
            (_, Value::String(text)) => {
                game_core::words::check_sentence(text, entry);
                let author = format!("player {}", entry["seat"]);
                assert!(
                    text.contains(&author),
                    "{text:?} does not name its author {author}"
                );
            }
            (_, other) => panic!("an action without its sentence ({other}): {entry}"),
        }
    }
}

/// The whole log as `token`'s holder reads it.
async fn full_log(app: &TestApp, id: &str, token: Option<&str>) -> Value {
    let reply = app
        .get(&format!("/v1/games/{id}/log?limit=200"), token)
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    let log = reply.json();
    assert!(log["next_after"].is_null(), "one page holds this log");
    log
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_and_the_moves_read_in_words_and_a_sealed_move_only_for_its_author() {
    // A dealt game that ends within 400 moves and one page of log: the dice are chosen.
    let app = spawn_app_seeded(47).await;
    let ruleset = "tulipmania-1637";
    let game = app.start_game(ruleset, 4, test_options(ruleset)).await;
    let seller = app.open_commit_phase(&game).await;
    let committer = (seller + 1) % 4;
    let token = &game.tokens[committer];

    // Every ready move is labelled with the sentence the log will show once it is played.
    let legal = app
        .get(&format!("/v1/games/{}/legal-actions", game.id), Some(token))
        .await
        .json();
    let moves: Vec<&Value> = legal["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .filter(|entry| entry.get("action").is_some())
        .collect();
    assert!(!moves.is_empty(), "the committer has ready moves: {legal}");
    for entry in &moves {
        let text = entry["text"].as_str().expect("every ready move has a text");
        game_core::words::check_sentence(text, entry);
        assert!(text.contains(&format!("player {committer}")), "{text:?}");
        // A sealed commit says so; nothing else in this phase is sealed.
        let sealed = entry["action"]["type"] == "commit_card";
        assert_eq!(entry["sealed"], sealed, "{entry}");
    }
    let commit = first_action(&app, &game.id, token).await;
    assert_eq!(commit["type"], "commit_card", "the commit phase is open");
    let label = moves
        .iter()
        .find(|entry| entry["action"] == commit)
        .expect("the move is listed")["text"]
        .clone();
    let reply = app
        .post(
            &format!("/v1/games/{}/actions", game.id),
            Some(token),
            &json!({ "action": commit }),
            &[],
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    let result = reply.json();
    let seq = result["seq"].clone();
    assert_eq!(
        result["event_texts"].as_array().expect("event_texts").len(),
        result["events"].as_array().expect("events").len()
    );

    // The author reads its sealed move in the words the button showed; nobody else reads it.
    let own = full_log(&app, &game.id, Some(token)).await;
    assert_log_in_words(&own);
    let entry = |log: &Value| {
        log["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .find(|entry| entry["seq"] == seq)
            .expect("the commit is logged")
            .clone()
    };
    assert_eq!(entry(&own)["action_text"], label);
    let other = full_log(&app, &game.id, Some(&game.tokens[seller])).await;
    assert_log_in_words(&other);
    assert!(entry(&other)["action"].is_null());
    assert!(entry(&other)["action_text"].is_null());
    let spectator = full_log(&app, &game.id, None).await;
    assert!(entry(&spectator)["action_text"].is_null());
    assert!(
        !spectator
            .to_string()
            .contains(label.as_str().expect("text")),
        "the sealed move's sentence reaches a spectator"
    );

    // To the end, every reader's log stays in words.
    play_randomly(&app, &game, 11, 400).await;
    for token in game.tokens.iter().map(Some).chain([None]) {
        assert_log_in_words(&full_log(&app, &game.id, token.map(String::as_str)).await);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_poll_answers_when_the_game_moves_and_after_its_wait_when_it_does_not() {
    let app = spawn_app().await;
    let ruleset = "tulpenfieber";
    let game = app.start_game(ruleset, 2, test_options(ruleset)).await;
    let path = format!("/v1/games/{}", game.id);
    let version = app.get(&path, None).await.json()["version"]
        .as_u64()
        .expect("version");

    // Nothing moves: the answer is the same game, once the wait is over.
    let unchanged = app
        .get(&format!("{path}?after_version={version}&wait=1"), None)
        .await;
    assert_eq!(unchanged.status, 200, "{}", unchanged.text());
    assert_eq!(unchanged.json()["version"], version);

    // `wait` alone waits for any change from now: nothing moves, the same game after it.
    let alone = app.get(&format!("{path}?wait=1"), None).await;
    assert_eq!(alone.status, 200, "{}", alone.text());
    assert_eq!(alone.json()["version"], version);

    // A version already passed answers at once with the game as it is.
    let behind = app
        .get(
            &format!("{path}?after_version={}&wait=25", version - 1),
            None,
        )
        .await;
    assert_eq!(behind.json()["version"], version);

    // A poll that is waiting when a seat moves answers with the move's version: it is
    // waiting at the server before the move is made.
    let poll = {
        let addr = app.addr;
        let path = format!("{path}?after_version={version}&wait=25");
        let auth = format!("Bearer {}", game.tokens[1]);
        tokio::spawn(async move {
            api_tests::request(addr, "GET", &path, &[("authorization", &auth)], Vec::new()).await
        })
    };
    app.wait_for_polls(1).await;
    let to_act = app.get(&path, None).await.json()["to_act"][0]
        .as_u64()
        .expect("a seat to act") as usize;
    let token = &game.tokens[to_act];
    let action = first_action(&app, &game.id, token).await;
    let moved = app
        .post(
            &format!("{path}/actions"),
            Some(token),
            &json!({ "action": action }),
            &[],
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text());
    let answered = poll.await.expect("the poll ran");
    assert_eq!(answered.status, 200, "{}", answered.text());
    let answered = answered.json();
    assert_eq!(answered["version"], version + 1);
    assert_eq!(
        answered["you"]["seat"], 1,
        "the poll answers as its caller sees it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_poll_parameters_out_of_range_are_refused() {
    let app = spawn_app().await;
    let game = app.start_game("tulpenfieber", 2, json!({})).await;
    let path = format!("/v1/games/{}", game.id);
    for query in [
        "after_version=1&wait=0",
        "after_version=1&wait=26",
        "after_version=-1&wait=5",
        "after_version=x&wait=5",
        "after_versions=1",
    ] {
        let reply = app.get(&format!("{path}?{query}"), None).await;
        assert_eq!(reply.status, 400, "{query}: {}", reply.text());
        assert_eq!(reply.json()["code"], "malformed-request", "{query}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_serves_the_embedded_client_from_this_server_only() {
    let app = spawn_app().await;
    let page = app.get("/play", None).await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let policy = page
        .header("content-security-policy")
        .expect("a content security policy");
    assert!(policy.contains("default-src 'self'"), "{policy}");
    assert!(policy.contains("connect-src 'self'"), "{policy}");
    let html = page.text();
    assert_eq!(
        html.as_bytes(),
        include_bytes!("../../shared/api/assets/play/index.html"),
        "the page is the committed build"
    );
    for (file, content_type) in [
        ("play.js", "text/javascript; charset=utf-8"),
        ("play.css", "text/css; charset=utf-8"),
    ] {
        assert!(
            html.contains(&format!("play/{file}")),
            "the page loads {file}"
        );
        let reply = app.get(&format!("/play/{file}"), None).await;
        assert_eq!(reply.status, 200, "{file}");
        assert_eq!(reply.header("content-type"), Some(content_type));
        assert!(!reply.body.is_empty());
    }
    for missing in [
        "/play/index.html",
        "/play/app.js",
        "/play/..%2FCargo.toml",
        "/play/",
    ] {
        let reply = app.get(missing, None).await;
        assert_eq!(reply.status, 404, "{missing}");
        assert_eq!(reply.json()["code"], "route-not-found", "{missing}");
    }
}
