//! Optimistic concurrency over HTTP: simultaneous sealed choices, stale `If-Match`,
//! idempotent retries.

use api_tests::spawn_app;
use serde_json::json;
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_sealed_choices_are_each_applied_exactly_once() {
    let app = Arc::new(spawn_app().await);
    for round in 0..3 {
        let game = Arc::new(app.start_game("tulipmania-1637", 5, json!({})).await);
        let seller = app.open_commit_phase(&game).await;
        let version_before = app.record(&game.id).await.version;
        let cards = ["pass", "purchase", "speculate", "purchase_by_proxy"];
        let tasks: Vec<_> = (0..5usize)
            .filter(|&seat| seat != seller)
            .enumerate()
            .map(|(index, seat)| {
                let (app, game) = (app.clone(), game.clone());
                let card = cards[(index + round) % cards.len()];
                tokio::spawn(async move {
                    let action = json!({"action": {"type": "commit_card", "card": card}});
                    let reply = app
                        .post(
                            &format!("/v1/games/{}/actions", game.id),
                            Some(&game.tokens[seat]),
                            &action,
                            &[],
                        )
                        .await;
                    (seat, reply)
                })
            })
            .collect();
        for task in tasks {
            let (seat, reply) = task.await.expect("task");
            assert_eq!(reply.status, 200, "seat {seat}: {}", reply.text());
        }
        let record = app.record(&game.id).await;
        assert_eq!(
            record.version,
            version_before + 4,
            "four commits, four versions"
        );
        let log = app.store.log(&game.id, None, 100).await.expect("log");
        let mut committers: Vec<u8> = log
            .iter()
            .filter(|entry| entry.action["action"]["type"] == "commit_card")
            .filter_map(|entry| entry.seat)
            .collect();
        committers.sort_unstable();
        let mut expected: Vec<u8> = (0..5u8)
            .filter(|&seat| usize::from(seat) != seller)
            .collect();
        expected.sort_unstable();
        assert_eq!(
            committers, expected,
            "every seat's commit is logged exactly once"
        );
        let seqs: Vec<u64> = log.iter().map(|entry| entry.seq).collect();
        assert_eq!(
            seqs,
            (0..log.len() as u64).collect::<Vec<_>>(),
            "the log has no gaps or duplicates"
        );
    }
}

#[tokio::test]
async fn a_stale_if_match_gets_412_and_changes_nothing() {
    let app = spawn_app().await;
    let game = app.start_game("tulipmania-1637", 3, json!({})).await;
    let etag = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .header("etag")
        .expect("etag")
        .to_string();
    let seller = app.open_commit_phase(&game).await;
    let before = app.record(&game.id).await;
    let committer = (seller + 1) % 3;
    let reply = app
        .post(
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[committer]),
            &json!({"action": {"type": "commit_card", "card": "pass"}}),
            &[("if-match", &etag)],
        )
        .await;
    assert_eq!(reply.status, 412, "{}", reply.text());
    assert_eq!(reply.json()["code"], "stale-version");
    assert_eq!(app.record(&game.id).await, before);

    let fresh = app
        .get(&format!("/v1/games/{}", game.id), None)
        .await
        .header("etag")
        .expect("etag")
        .to_string();
    let reply = app
        .post(
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[committer]),
            &json!({"action": {"type": "commit_card", "card": "pass"}}),
            &[("if-match", &fresh)],
        )
        .await;
    assert_eq!(
        reply.status,
        200,
        "the current version is accepted: {}",
        reply.text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn repeating_an_idempotency_key_returns_the_first_response() {
    let app = Arc::new(spawn_app().await);
    let game = Arc::new(app.start_game("tulipmania-1637", 4, json!({})).await);
    let seller = app.open_commit_phase(&game).await;
    let committer = (seller + 1) % 4;
    let path = format!("/v1/games/{}/actions", game.id);
    let action = json!({"action": {"type": "commit_card", "card": "purchase"}});
    let first = app
        .post(
            &path,
            Some(&game.tokens[committer]),
            &action,
            &[("idempotency-key", "move-1")],
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text());
    let version = app.record(&game.id).await.version;

    // Plain retries, and concurrent ones, all get the first response and change nothing.
    let retries: Vec<_> = (0..4)
        .map(|_| {
            let (app, game, path, action) =
                (app.clone(), game.clone(), path.clone(), action.clone());
            tokio::spawn(async move {
                app.post(
                    &path,
                    Some(&game.tokens[committer]),
                    &action,
                    &[("idempotency-key", "move-1")],
                )
                .await
            })
        })
        .collect();
    for retry in retries {
        let retry = retry.await.expect("task");
        assert_eq!(retry.status, 200);
        assert_eq!(
            retry.body, first.body,
            "a replay returns the first response unchanged"
        );
    }
    assert_eq!(app.record(&game.id).await.version, version);
    assert_eq!(
        first.header("idempotent-replay"),
        None,
        "the first response is no replay"
    );

    // The same key with another action is refused, not answered with the first move's
    // response; the same action spelled with its keys in another order is the same request.
    let other = app
        .post(
            &path,
            Some(&game.tokens[committer]),
            &json!({"action": {"type": "commit_card", "card": "pass"}}),
            &[("idempotency-key", "move-1")],
        )
        .await;
    assert_eq!(other.status, 422, "{}", other.text());
    assert_eq!(other.json()["code"], "idempotency-key-reused");
    let reordered = app
        .post(
            &path,
            Some(&game.tokens[committer]),
            &json!({"action": {"card": "purchase", "type": "commit_card"}}),
            &[("idempotency-key", "move-1")],
        )
        .await;
    assert_eq!(reordered.status, 200, "{}", reordered.text());
    assert_eq!(reordered.header("idempotent-replay"), Some("true"));
    assert_eq!(app.record(&game.id).await.version, version);

    // Without the key the same move is a new (refused) request.
    let again = app
        .post(&path, Some(&game.tokens[committer]), &action, &[])
        .await;
    assert_eq!(again.status, 409, "{}", again.text());
    assert_eq!(again.json()["code"], "already-committed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_requests_with_one_fresh_key_apply_once() {
    let app = Arc::new(spawn_app().await);
    let game = Arc::new(app.start_game("tulipmania-1637", 4, json!({})).await);
    let seller = app.open_commit_phase(&game).await;
    let committer = (seller + 2) % 4;
    let path = format!("/v1/games/{}/actions", game.id);
    let version = app.record(&game.id).await.version;
    let racers: Vec<_> = (0..6)
        .map(|_| {
            let (app, game, path) = (app.clone(), game.clone(), path.clone());
            tokio::spawn(async move {
                let action = json!({"action": {"type": "commit_card", "card": "pass"}});
                app.post(
                    &path,
                    Some(&game.tokens[committer]),
                    &action,
                    &[("idempotency-key", "race-key")],
                )
                .await
            })
        })
        .collect();
    let mut bodies = Vec::new();
    for racer in racers {
        let reply = racer.await.expect("task");
        assert_eq!(reply.status, 200, "{}", reply.text());
        bodies.push(reply.body);
    }
    assert!(
        bodies.windows(2).all(|pair| pair[0] == pair[1]),
        "every racer got the same first response"
    );
    assert_eq!(
        app.record(&game.id).await.version,
        version + 1,
        "the move was applied once"
    );
}
