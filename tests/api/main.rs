//! HTTP tests against a real server on a free loopback port (one test binary, a module per
//! concern, as zero2prod and ripgrep do).

mod audit;
mod concurrency;
mod contention;
mod dynamo;
mod edge;
mod errors;
mod lambda_e2e;
mod openapi;
mod paging;
mod playouts;
mod rules_version;
mod turns;
mod views;
mod webhook_delivery;
mod webhooks;

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
