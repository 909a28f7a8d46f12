//! The route handlers, one module per resource, and what they share.

pub mod actions;
pub mod apps;
pub mod events;
pub mod games;
pub mod history;
pub mod log;
pub mod me;
pub mod me_events;
pub mod pauses;
pub mod players;
mod problems;
pub mod rematch;
pub mod rulesets;
pub mod seats;
pub mod webhooks;

use service::AppCtx;
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Every operation of the contract, in one list: the router (its state is the [`AppCtx`])
/// and, through utoipa-axum, the paths of the OpenAPI document come from here
/// (`crate::openapi` adds the rest of the document). [`crate::pages::router`] adds the
/// pages, and [`crate::edge::app`] puts the edge's layers around both.
pub fn api_routes() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(rulesets::list_rulesets))
        .routes(routes!(games::create_game, games::list_games))
        .routes(routes!(games::get_game, games::delete_game))
        .routes(routes!(events::game_events))
        .routes(routes!(me::my_games))
        .routes(routes!(me_events::my_events))
        .routes(routes!(seats::claim_seat, seats::leave_seat))
        .routes(routes!(
            players::issue_player_token,
            players::list_player_tokens
        ))
        .routes(routes!(players::revoke_player_token))
        .routes(routes!(players::player_games))
        .routes(routes!(seats::resign_seat))
        .routes(routes!(seats::replace_seat))
        .routes(routes!(pauses::start_vacation, pauses::end_vacation))
        .routes(routes!(pauses::pause_game))
        .routes(routes!(pauses::resume_game))
        .routes(routes!(actions::list_legal_actions))
        .routes(routes!(actions::submit_action))
        .routes(routes!(log::get_log))
        .routes(routes!(log::get_audit))
        .routes(routes!(history::get_history))
        .routes(routes!(rematch::rematch))
        .routes(routes!(webhooks::create_webhook, webhooks::list_webhooks))
        .routes(routes!(webhooks::delete_webhook))
        .routes(routes!(webhooks::list_deliveries))
        .routes(routes!(apps::create_app, apps::list_apps))
        .routes(routes!(apps::issue_key))
        .routes(routes!(apps::revoke_key))
}

/// The `ETag` of a version.
pub fn etag(version: u64) -> String {
    format!("\"{version}\"")
}
