//! HTTP tests against a real server on a free loopback port (one test binary, a module per
//! concern, as zero2prod and ripgrep do).

mod apps;
mod audit;
mod bots;
mod clocks;
mod concurrency;
mod contention;
mod deletion;
mod dynamo;
mod edge;
mod errors;
mod include;
mod lambda_e2e;
mod openapi;
mod paging;
mod pauses;
mod play;
mod players;
mod playouts;
mod reads;
mod rules_version;
mod seats;
mod streams;
mod turns;
mod undo;
mod views;
mod webhook_delivery;
mod webhooks;
mod words;

/// Options that keep HTTP games short where a ruleset allows it.
pub fn test_options(ruleset: &str) -> serde_json::Value {
    match ruleset {
        // Random play can wander at the bottom of the board for a long time (spec D25).
        "tulipmania-1637" => serde_json::json!({"max_turns": 60}),
        _ => serde_json::json!({}),
    }
}

/// The options a seat count needs, on top of [`test_options`] (the 2-player variants).
pub fn options_for(ruleset: &str, seats: u8) -> serde_json::Value {
    let mut options = test_options(ruleset);
    if ruleset == "tulip-traders" && seats == 2 {
        options["allow_two_players"] = serde_json::json!(true);
    }
    options
}

/// A started game of `ruleset` at its fewest seats (at least three), with the test options.
pub async fn start_small(
    app: &api_tests::TestApp,
    ruleset: &dyn game_core::DynRuleset,
) -> api_tests::StartedGame {
    let seats = ruleset.seat_range().0.max(3);
    app.start_game(ruleset.id(), seats, options_for(ruleset.id(), seats))
        .await
}

/// Seats a player, Ann, in seat 0 of the open game `id` and a `bot` in each of its other
/// `seats`; returns Ann's token.
pub async fn seat_player_and_bots(
    app: &api_tests::TestApp,
    id: &str,
    seats: u8,
    bot: &str,
) -> String {
    let token = app.claim_player(id, 0, "Ann").await;
    for seat in 1..seats {
        app.claim_bot(id, seat, bot).await;
    }
    token
}

/// A move of the holder of `token`: its first complete legal action, else one built from its
/// first schema entry ([`api_tests::some_action`]).
pub async fn first_action(app: &api_tests::TestApp, id: &str, token: &str) -> serde_json::Value {
    let legal = app
        .get(&format!("/v1/games/{id}/legal-actions"), Some(token))
        .await
        .json();
    api_tests::some_action(&legal)
}
