//! Rules versions: a game keeps the rules version it was created with. Games of every version
//! its ruleset still plays are served; a game of a retired version is refused with a clear
//! problem on every route that needs the rules, changes nothing, and keeps its audit.

use crate::start_small;
use api_tests::{random_move, spawn_app, TestApp};

/// Rewrites the rules version stored with game `id` (what an older release recorded).
async fn set_rules_version(app: &TestApp, id: &str, version: u32) {
    let record = app.record(id).await;
    let mut older = record.clone();
    older.rules_version = version;
    older.version += 1;
    app.store
        .commit(&store::Commit {
            record: older,
            expected_version: record.version,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
        })
        .await
        .expect("commit the older rules version");
}

#[tokio::test]
async fn new_games_record_the_current_rules_version() {
    let app = spawn_app().await;
    for ruleset in service::registry().iter() {
        let game = start_small(&app, ruleset).await;
        let envelope = app
            .get(&format!("/v1/games/{}", game.id), None)
            .await
            .json();
        assert_eq!(envelope["rules_version"], ruleset.rules_version());
        assert_eq!(
            app.record(&game.id).await.rules_version,
            ruleset.rules_version()
        );
    }
}

#[tokio::test]
async fn a_game_of_every_served_rules_version_plays_on() {
    let app = spawn_app().await;
    for ruleset in service::registry().iter() {
        let served: Vec<u32> = (1..=ruleset.rules_version())
            .filter(|version| ruleset.serves_rules_version(*version))
            .collect();
        assert!(served.contains(&ruleset.rules_version()));
        for version in served {
            let game = start_small(&app, ruleset).await;
            set_rules_version(&app, &game.id, version).await;
            let envelope = app.get(&format!("/v1/games/{}", game.id), None).await;
            assert_eq!(envelope.status, 200, "{}", envelope.text());
            assert_eq!(envelope.json()["rules_version"], version);
            assert!(
                random_move(&app, &game, 5, 1).await.is_some(),
                "{} v{version}: no move was accepted",
                ruleset.id()
            );
        }
    }
}

#[tokio::test]
async fn a_game_of_a_retired_rules_version_is_refused_and_keeps_its_audit() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulip-bubble", 3, serde_json::json!({}))
        .await;
    let retired = 0;
    assert!(!service::registry()
        .get("tulip-bubble")
        .expect("registered")
        .serves_rules_version(retired));
    set_rules_version(&app, &game.id, retired).await;
    let before = app.record(&game.id).await;

    let token = game.tokens[0].as_str();
    let replies = [
        app.get(&format!("/v1/games/{}", game.id), Some(token))
            .await,
        app.get(&format!("/v1/games/{}/legal-actions", game.id), Some(token))
            .await,
        app.post(
            &format!("/v1/games/{}/actions", game.id),
            Some(token),
            &serde_json::json!({"action": {"type": "pass"}}),
            &[],
        )
        .await,
    ];
    for reply in &replies {
        assert_eq!(reply.status, 410, "{}", reply.text());
        let problem = reply.json();
        assert_eq!(problem["code"], "rules-version-retired");
        assert!(
            problem["detail"]
                .as_str()
                .is_some_and(|detail| detail.contains("rules version 0")),
            "{problem}"
        );
    }
    let after = app.record(&game.id).await;
    assert_eq!(after.version, before.version);
    assert_eq!(after.state, before.state);

    // Its record stays exportable: the log and the audit are stored data, not rules.
    let audit = app.get(&format!("/v1/games/{}/audit", game.id), None).await;
    assert_eq!(audit.status, 200, "{}", audit.text());
    assert_eq!(audit.json()["rules_version"], retired);
    let log = app
        .get(&format!("/v1/games/{}/log", game.id), Some(token))
        .await;
    assert_eq!(log.status, 200, "{}", log.text());

    // An open game of a retired version cannot be joined (its deal would need the rules).
    let open = app
        .post(
            "/v1/games",
            None,
            &serde_json::json!({"ruleset": "tulip-bubble", "seats": 3}),
            &[],
        )
        .await
        .json();
    let open_id = open["id"].as_str().expect("an id");
    set_rules_version(&app, open_id, retired).await;
    let claim = app
        .post(
            &format!("/v1/games/{open_id}/seats/0"),
            None,
            &serde_json::json!({"name": "late"}),
            &[],
        )
        .await;
    assert_eq!(claim.status, 410, "{}", claim.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_names_a_rules_version_it_no_longer_replays() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 3, crate::test_options("tulipmania-1637"))
        .await;
    api_tests::play_randomly(&app, &game, 9, 20_000).await;
    let mut audit: service::audit::Audit =
        serde_json::from_slice(&app.full_audit(&game.id).await.body).expect("an audit");
    service::audit::verify(&service::registry(), &audit).expect("the audit verifies");
    audit.rules_version = 0;
    let error =
        service::audit::verify(&service::registry(), &audit).expect_err("a retired version");
    assert!(error.to_string().contains("no longer replays"), "{error}");
}
