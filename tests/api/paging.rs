//! The audit is paged like the log: no unauthenticated request gets a whole long game at once.

use crate::test_options;
use api_tests::{play_randomly, spawn_app};
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audit_comes_in_pages_that_join_into_the_whole_log() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 3, test_options("tulipmania-1637"))
        .await;
    let moves = play_randomly(&app, &game, 3, 20_000).await;
    assert!(moves > 7, "a game long enough to page: {moves} moves");
    let path = format!("/v1/games/{}/audit", game.id);

    // Without parameters: the first 200 entries at most, and where to go on.
    let first = app.get(&path, None).await.json();
    let entries = first["entries"].as_array().expect("entries").len();
    assert_eq!(entries, (moves + 1).min(200));

    // Pages of 3, followed by next_after, give every entry once, in order.
    let mut seqs = Vec::new();
    let mut after: Option<u64> = None;
    loop {
        let query = after.map_or(String::new(), |after| format!("&after={after}"));
        let page = app.get(&format!("{path}?limit=3{query}"), None).await;
        assert_eq!(page.status, 200, "{}", page.text());
        let page = page.json();
        let page_entries = page["entries"].as_array().expect("entries");
        assert!(page_entries.len() <= 3);
        seqs.extend(
            page_entries
                .iter()
                .map(|entry| entry["seq"].as_u64().unwrap()),
        );
        match page["next_after"].as_u64() {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    assert_eq!(seqs, (0..=moves as u64).collect::<Vec<_>>());

    // The joined pages verify like a whole audit.
    let whole: service::audit::Audit =
        serde_json::from_slice(&app.full_audit(&game.id).await.body).expect("an audit");
    assert_eq!(whole.entries.len(), moves + 1);
    service::audit::verify(&service::registry(), &whole).expect("the joined audit verifies");

    // The cap is documented and enforced.
    for bad in [
        "limit=0",
        "limit=1001",
        "limit=x",
        "after=-1",
        "after=9223372036854775808",
    ] {
        let reply = app.get(&format!("{path}?{bad}"), None).await;
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text());
        let problem: Value = reply.json();
        assert_eq!(problem["code"], "malformed-request");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_pages_with_after_and_next_after_like_every_list() {
    let app = spawn_app().await;
    let mut created = Vec::new();
    for _ in 0..5 {
        let reply = app
            .post(
                "/v1/games",
                None,
                &serde_json::json!({"ruleset": "tulipmania-1637", "seats": 3}),
                &[],
            )
            .await;
        assert_eq!(reply.status, 201, "{}", reply.text());
        created.push(reply.json()["id"].as_str().unwrap().to_string());
    }
    let mut listed = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let query = after.map_or(String::new(), |after| format!("&after={after}"));
        let page = app.get(&format!("/v1/games?limit=2{query}"), None).await;
        assert_eq!(page.status, 200, "{}", page.text());
        let page = page.json();
        listed.extend(
            page["games"]
                .as_array()
                .expect("games")
                .iter()
                .map(|game| game["id"].as_str().unwrap().to_string()),
        );
        match page["next_after"].as_str() {
            Some(next) => after = Some(next.to_string()),
            None => break,
        }
    }
    let mine: Vec<&String> = listed.iter().filter(|id| created.contains(id)).collect();
    assert_eq!(mine.len(), 5, "every open game once: {listed:?}");
    let old = app.get("/v1/games?cursor=1.g_x", None).await;
    assert_eq!(
        old.status, 400,
        "the old parameter name is refused, not ignored"
    );
}

/// A lobby filtered by a ruleset the server does not host is refused, not answered with an
/// empty page that looks like "no games yet" (issue 54).
#[tokio::test]
async fn the_lobby_refuses_an_unknown_ruleset() {
    let app = spawn_app().await;
    let reply = app.get("/v1/games?ruleset=chess", None).await;
    assert_eq!(reply.status, 422, "{}", reply.text());
    assert_eq!(reply.json()["code"], "unknown-ruleset");
    let known = app.get("/v1/games?ruleset=tulip-bubble", None).await;
    assert_eq!(known.status, 200, "{}", known.text());
}
