//! The audit: hidden while the game runs, complete once it ends, and tamper-evident.

use crate::test_options;
use api_tests::{play_randomly, spawn_app};
use serde_json::json;
use service::audit::{verify, Audit, VerifyError};
use store::SeedScheme;

#[tokio::test]
async fn an_active_games_audit_hides_the_secret_and_state_hashes() {
    let app = spawn_app().await;
    let game = app.start_game("tulipmania-1637", 3, json!({})).await;
    let reply = app.full_audit(&game.id).await;
    assert_eq!(reply.status, 200);
    let audit: Audit = serde_json::from_slice(&reply.body).expect("an audit");
    assert_eq!(audit.status, service::dto::GameStatus::Active);
    assert_eq!(audit.seed_commitment, game.seed_commitment);
    assert_eq!(audit.server_secret, None);
    assert_eq!(audit.entropies, None);
    assert!(audit.entries.iter().all(|entry| entry.state_hash.is_none()));
    assert_eq!(
        verify(&service::registry(), &audit),
        Err(VerifyError::NotFinished)
    );
    let record = app.record(&game.id).await;
    assert!(
        !reply.text().contains(&record.server_secret),
        "the audit leaks the secret"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_tampering_makes_verification_fail() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 3, test_options("tulipmania-1637"))
        .await;
    play_randomly(&app, &game, 11, 20_000).await;
    let audit: Audit = serde_json::from_slice(&app.full_audit(&game.id).await.body).expect("audit");
    let registry = service::registry();
    assert!(verify(&registry, &audit).is_ok());

    let mut secret = audit.clone();
    secret.server_secret = Some("00".repeat(32));
    assert_eq!(
        verify(&registry, &secret),
        Err(VerifyError::CommitmentMismatch)
    );

    let mut entropy = audit.clone();
    entropy.entropies.as_mut().expect("entropies")[1] = Some("something else".into());
    assert!(
        matches!(
            verify(&registry, &entropy),
            Err(VerifyError::Setup(_) | VerifyError::Entry { .. })
        ),
        "changed entropy must not verify"
    );

    let mut hash = audit.clone();
    let last = hash.entries.len() - 1;
    hash.entries[last].state_hash = Some("ab".repeat(32));
    assert!(matches!(
        verify(&registry, &hash),
        Err(VerifyError::Entry { .. })
    ));

    // Replace one action with another legal-looking one: a different move.
    let mut action = audit.clone();
    let position = action
        .entries
        .iter()
        .position(|entry| {
            entry.action.get("type").and_then(|kind| kind.as_str()) == Some("commit_card")
        })
        .expect("some seat committed a card");
    let original = action.entries[position].action["card"].clone();
    action.entries[position].action["card"] = if original == "pass" {
        json!("purchase")
    } else {
        json!("pass")
    };
    assert!(
        verify(&registry, &action).is_err(),
        "a changed action must not verify"
    );

    let mut event = audit.clone();
    let position = event
        .entries
        .iter()
        .position(|entry| entry.seq > 0 && !entry.events.is_empty())
        .expect("events exist");
    event.entries[position].events.pop();
    assert!(matches!(
        verify(&registry, &event),
        Err(VerifyError::Entry { .. })
    ));

    // The deal's events are recorded in entry 0 and checked like any other entry's.
    let mut setup = audit.clone();
    assert!(
        setup.entries[0].events.len() > 1,
        "the deal logs its events: {:?}",
        setup.entries[0].events
    );
    setup.entries[0].events.pop();
    assert!(matches!(
        verify(&registry, &setup),
        Err(VerifyError::Setup(_))
    ));
}

/// Hole 4 of issue 13: a new game's seed binds its id, ruleset, options and seat count
/// (scheme v2), so an audit presented under another id (or with other options or seats) no
/// longer replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_audit_with_another_id_ruleset_options_or_seats_does_not_verify() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 3, test_options("tulipmania-1637"))
        .await;
    play_randomly(&app, &game, 13, 20_000).await;
    assert_eq!(app.record(&game.id).await.seed_scheme, SeedScheme::V2);
    // The whole audit: a random game may be longer than one page of the route.
    let audit: Audit = serde_json::from_slice(&app.full_audit(&game.id).await.body).expect("audit");
    assert_eq!(audit.seed_scheme, SeedScheme::V2);
    let registry = service::registry();
    assert!(verify(&registry, &audit).is_ok());
    let replay_differs = |audit: &Audit| {
        matches!(
            verify(&registry, audit),
            Err(VerifyError::Setup(_) | VerifyError::Entry { .. } | VerifyError::OutcomeMismatch)
        )
    };

    // Another game's id: same secret, entropies and moves, but not this game.
    let other = app
        .start_game("tulipmania-1637", 3, test_options("tulipmania-1637"))
        .await;
    let mut id = audit.clone();
    id.id = other.id.clone();
    assert!(replay_differs(&id), "an audit under another id verified");
    let mut legacy = id.clone();
    legacy.seed_scheme = SeedScheme::V1;
    assert!(
        replay_differs(&legacy),
        "claiming the legacy scheme verified"
    );

    let mut options = audit.clone();
    options.options["max_turns"] = json!(59);
    assert!(replay_differs(&options), "changed options verified");

    let mut seats = audit.clone();
    seats.seats = 4;
    seats.entropies.as_mut().expect("entropies").push(None);
    assert!(
        verify(&registry, &seats).is_err(),
        "a changed seat count verified"
    );

    let mut ruleset = audit.clone();
    ruleset.ruleset = "tulip-bubble".into();
    ruleset.rules_version = registry
        .get("tulip-bubble")
        .expect("registered")
        .rules_version();
    assert!(
        verify(&registry, &ruleset).is_err(),
        "a changed ruleset verified"
    );
}

/// Games stored before scheme 2 (their records say `v1`, or nothing) keep their seed: they
/// play on under the old formula and their audits verify, without binding the id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_scheme_game_plays_on_and_its_audit_verifies() {
    let app = spawn_app().await;
    let created = app
        .post(
            "/v1/games",
            None,
            &json!({"ruleset": "tulipmania-1637", "seats": 3, "options": test_options("tulipmania-1637")}),
            &[],
        )
        .await
        .json();
    let id = created["id"].as_str().expect("id").to_string();
    // Turn the open game into one stored before scheme 2 existed.
    let record = app.record(&id).await;
    assert_eq!(record.seed_scheme, SeedScheme::V2);
    let mut old = record.clone();
    old.seed_scheme = SeedScheme::V1;
    old.version += 1;
    app.store
        .commit(&store::Commit {
            record: old,
            expected_version: record.version,
            entry: None,
            idempotency: None,
            outbox: Vec::new(),
        })
        .await
        .expect("commit");
    let mut tokens = Vec::new();
    for seat in 0..3 {
        let claimed = app
            .post(
                &format!("/v1/games/{id}/seats/{seat}"),
                None,
                &json!({"name": format!("player {seat}"), "entropy": format!("e{seat}")}),
                &[],
            )
            .await;
        assert_eq!(claimed.status, 201, "{}", claimed.text());
        tokens.push(
            claimed.json()["player_token"]
                .as_str()
                .expect("token")
                .to_string(),
        );
    }
    let game = api_tests::StartedGame {
        id: id.clone(),
        admin_token: created["admin_token"].as_str().expect("admin").to_string(),
        seed_commitment: created["seed_commitment"]
            .as_str()
            .expect("commitment")
            .to_string(),
        tokens,
    };
    play_randomly(&app, &game, 14, 20_000).await;
    let audit: Audit = serde_json::from_slice(&app.full_audit(&id).await.body).expect("audit");
    assert_eq!(audit.status, service::dto::GameStatus::Finished);
    assert_eq!(audit.seed_scheme, SeedScheme::V1);
    let registry = service::registry();
    assert!(verify(&registry, &audit).is_ok());
    // An audit file written before the field existed has no `seed_scheme`: still v1.
    let mut json = serde_json::to_value(&audit).expect("json");
    json.as_object_mut().expect("object").remove("seed_scheme");
    let file: Audit = serde_json::from_value(json).expect("an old audit parses");
    assert!(verify(&registry, &file).is_ok());
    // The documented limit of v1: the id is not bound.
    let mut renamed = file.clone();
    renamed.id = "g_anothergame0000000".into();
    assert!(verify(&registry, &renamed).is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beurs_verify_accepts_a_real_audit_and_rejects_a_tampered_one() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 4, test_options("tulipmania-1637"))
        .await;
    play_randomly(&app, &game, 12, 20_000).await;
    let url = format!("http://{}/v1/games/{}/audit", app.addr, game.id);
    let audit = local::verify::load(&url).await.expect("fetch over HTTP");
    assert!(local::verify::check(&audit).is_ok());
    let mut tampered = audit.clone();
    tampered.entries[1].seat = tampered.entries[1].seat.map(|seat| (seat + 1) % 4);
    assert!(local::verify::check(&tampered).is_err());
}

/// What `curl …/audit > audit.json` saves for a game longer than one page: `beurs verify`
/// says it is one page and how to get the rest, not that it was tampered with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_page_of_an_audit_is_reported_as_incomplete_not_tampered() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 3, test_options("tulipmania-1637"))
        .await;
    play_randomly(&app, &game, 13, 20_000).await;
    let page = app
        .get(&format!("/v1/games/{}/audit?limit=5", game.id), None)
        .await;
    assert_eq!(page.status, 200);
    let page: Audit = serde_json::from_slice(&page.body).expect("an audit page");
    assert_eq!(page.entries.len(), 5, "the game is longer than one page");
    let after = page.next_after.expect("more pages");
    assert_eq!(
        verify(&service::registry(), &page),
        Err(VerifyError::Incomplete { last: 4, after })
    );
    let message = local::verify::check(&page)
        .expect_err("one page")
        .to_string();
    assert!(message.contains("one page"), "{message}");
    assert!(!message.contains("differs"), "{message}");
    // The whole audit, paged by the same server, still verifies.
    let whole: Audit = serde_json::from_slice(&app.full_audit(&game.id).await.body).expect("audit");
    assert!(verify(&service::registry(), &whole).is_ok());
}
