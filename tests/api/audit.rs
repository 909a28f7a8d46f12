//! The audit: hidden while the game runs, complete once it ends, and tamper-evident.

use crate::test_options;
use api::audit::{verify, Audit, VerifyError};
use api_tests::{play_randomly, spawn_app};
use serde_json::json;

#[tokio::test]
async fn an_active_games_audit_hides_the_secret_and_state_hashes() {
    let app = spawn_app().await;
    let game = app.start_game("tulipmania-1637", 3, json!({})).await;
    let reply = app.full_audit(&game.id).await;
    assert_eq!(reply.status, 200);
    let audit: Audit = serde_json::from_slice(&reply.body).expect("an audit");
    assert_eq!(audit.status, "active");
    assert_eq!(audit.seed_commitment, game.seed_commitment);
    assert_eq!(audit.server_secret, None);
    assert_eq!(audit.entropies, None);
    assert!(audit.entries.iter().all(|entry| entry.state_hash.is_none()));
    assert_eq!(
        verify(&api::registry(), &audit),
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
    let registry = api::registry();
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
        .position(|entry| !entry.events.is_empty())
        .expect("events exist");
    event.entries[position].events.pop();
    assert!(matches!(
        verify(&registry, &event),
        Err(VerifyError::Entry { .. })
    ));
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
