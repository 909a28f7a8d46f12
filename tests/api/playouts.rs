//! Random clients play complete games of every ruleset and seat count over HTTP, using only
//! `GET …/legal-actions`; every listed action must be accepted and the audit must verify.

use crate::test_options;
use api_tests::{play_randomly, spawn_app};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_clients_finish_every_ruleset_at_every_seat_count() {
    let app = spawn_app().await;
    let registry = api::registry();
    for ruleset in registry.iter() {
        let (min_seats, max_seats) = ruleset.seat_range();
        for seats in min_seats..=max_seats {
            let options = test_options(ruleset.id());
            // A ruleset may need an option for some seat counts (e.g. a 2-player variant).
            let probe = app.post("/v1/games", None, &serde_json::json!({"ruleset": ruleset.id(), "seats": seats, "options": options}), &[]).await;
            if probe.status == 422 {
                continue;
            }
            let game = app.start_game(ruleset.id(), seats, options).await;
            let moves = play_randomly(&app, &game, u64::from(seats), 20_000).await;
            assert!(moves > 0, "{} with {seats} seats finished without a move", ruleset.id());

            let audit = app.get(&format!("/v1/games/{}/audit", game.id), None).await;
            assert_eq!(audit.status, 200);
            let audit: api::audit::Audit = serde_json::from_slice(&audit.body).expect("an audit");
            assert_eq!(audit.seed_commitment, game.seed_commitment);
            let secret = api::audit::parse_hex32(audit.server_secret.as_deref().expect("secret revealed")).expect("hex");
            assert_eq!(api::audit::commitment_of(&secret), game.seed_commitment, "the secret hashes to the commitment");
            let verified = api::audit::verify(&registry, &audit).expect("the audit verifies");
            assert_eq!(verified.entries, moves + 1);
            eprintln!("{} with {seats} seats: {moves} moves over HTTP, audit verified", ruleset.id());
        }
    }
}
