//! Random clients play complete games of every ruleset and seat count over HTTP, using only
//! `GET …/legal-actions`; every listed action they pick must be accepted, and each finished
//! game's audit must verify.

use crate::options_for;
use api_tests::{play_randomly, spawn_app};

/// Games per ruleset and seat count, each with its own bot seed (and server secret).
/// Random Tulpenfieber games are long (2,000-4,000 moves: random dice rarely fill the upper
/// rows), so it plays one game per seat count.
fn games_per_configuration(ruleset: &str) -> u64 {
    if ruleset == "tulpenfieber" {
        1
    } else {
        3
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_clients_finish_every_ruleset_at_every_seat_count() {
    let app = spawn_app().await;
    let registry = service::registry();
    for ruleset in registry.iter() {
        let (min_seats, max_seats) = ruleset.seat_range();
        for seats in min_seats..=max_seats {
            for round in 0..games_per_configuration(ruleset.id()) {
                let game = app
                    .start_game(ruleset.id(), seats, options_for(ruleset.id(), seats))
                    .await;
                let moves = play_randomly(&app, &game, u64::from(seats) * 10 + round, 20_000).await;
                assert!(
                    moves > 0,
                    "{} with {seats} seats finished without a move",
                    ruleset.id()
                );

                let reply = app.full_audit(&game.id).await;
                assert_eq!(reply.status, 200);
                let audit: service::audit::Audit =
                    serde_json::from_slice(&reply.body).expect("an audit");
                assert_eq!(audit.seed_commitment, game.seed_commitment);
                let secret = audit
                    .server_secret
                    .as_deref()
                    .expect("the secret is revealed");
                let secret = service::seed::parse_hex32(secret).expect("hex");
                assert_eq!(service::seed::commitment_of(&secret), game.seed_commitment);
                let verified =
                    service::audit::verify(&registry, &audit).expect("the audit verifies");
                assert_eq!(verified.entries, moves + 1);
                eprintln!(
                    "{} with {seats} seats: {moves} moves over HTTP, audit verified",
                    ruleset.id()
                );
            }
        }
    }
}
