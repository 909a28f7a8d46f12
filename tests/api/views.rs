//! What each caller may see: seat views hide other seats' buyers and sealed cards, spectators
//! see only public information, and nothing shows the secret, the seed or a token.

use crate::test_options;
use api_tests::spawn_app;
use game_core::GameRng;
use serde_json::{json, Value};

/// Checks a Tulipmania view for `viewer` (None = spectator).
fn assert_tulipmania_view_hides(view: &Value, viewer: Option<usize>) {
    assert_eq!(
        view["viewer"],
        viewer.map_or(Value::Null, |seat| json!(seat))
    );
    for (seat, player) in view["players"]
        .as_array()
        .expect("players")
        .iter()
        .enumerate()
    {
        if Some(seat) == viewer {
            assert!(player["buyers"].is_object(), "a seat sees its own buyers");
        } else {
            assert!(
                player["buyers"].is_null(),
                "seat {seat}'s buyer colours leak to {viewer:?}: {player}"
            );
            assert!(
                player["sealed_card"].is_null(),
                "seat {seat}'s sealed card leaks to {viewer:?}: {player}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_and_logs_show_each_caller_only_what_it_may_see() {
    let app = spawn_app().await;
    let game = app
        .start_game("tulipmania-1637", 4, test_options("tulipmania-1637"))
        .await;
    let record = app.record(&game.id).await;
    let secrets: Vec<String> = {
        let seed = service::seed::seed_of_record(&record).expect("seed");
        vec![
            record.server_secret.clone(),
            hex::encode(seed),
            game.admin_token.clone(),
        ]
    };
    let mut sealed_checks = 0;
    for step in 0..400u64 {
        let envelope = app.get(&format!("/v1/games/{}", game.id), None).await;
        let spectator = envelope.json();
        if spectator["status"] == "finished" {
            break;
        }
        assert_tulipmania_view_hides(&spectator["view"], None);
        let mut bodies = vec![envelope.text()];
        for (seat, token) in game.tokens.iter().enumerate() {
            let mine = app
                .get(&format!("/v1/games/{}", game.id), Some(token))
                .await;
            assert_eq!(mine.json()["you"]["seat"], seat);
            assert_tulipmania_view_hides(&mine.json()["view"], Some(seat));
            let log = app
                .get(&format!("/v1/games/{}/log?limit=200", game.id), Some(token))
                .await;
            for entry in log.json()["entries"].as_array().expect("entries") {
                let author = entry["seat"].as_u64().map(|author| author as usize);
                if entry["action"].is_null() && author.is_some() {
                    sealed_checks += 1;
                }
                if author != Some(seat) && !entry["action"].is_null() {
                    assert_ne!(
                        entry["action"]["type"], "commit_card",
                        "seat {seat} reads another seat's sealed card in the log"
                    );
                }
            }
            bodies.push(mine.text());
            bodies.push(log.text());
            for (other, other_token) in game.tokens.iter().enumerate() {
                if other != seat {
                    assert!(!mine.text().contains(other_token.as_str()));
                }
            }
        }
        for body in &bodies {
            for secret in &secrets {
                assert!(
                    !body.contains(secret.as_str()),
                    "a response contains a secret"
                );
            }
        }
        // One random legal move.
        let to_act: Vec<u64> = spectator["to_act"]
            .as_array()
            .expect("to_act")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        let mut bot = GameRng::for_entry([21; 32], step);
        let seat = *bot.choose(&to_act).expect("someone acts") as usize;
        let legal = app
            .get(
                &format!("/v1/games/{}/legal-actions", game.id),
                Some(&game.tokens[seat]),
            )
            .await
            .json();
        let action = game_core::testing::random_action_json(
            legal["actions"].as_array().expect("actions"),
            &mut bot,
        )
        .expect("an action");
        let reply = app
            .post(
                &format!("/v1/games/{}/actions", game.id),
                Some(&game.tokens[seat]),
                &json!({"action": action}),
                &[],
            )
            .await;
        assert_eq!(reply.status, 200, "{}", reply.text());
        assert_tulipmania_view_hides(&reply.json()["view"], Some(seat));
    }
    assert!(
        sealed_checks > 0,
        "the game never had a sealed commit to hide"
    );
}
