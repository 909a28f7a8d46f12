//! The route handlers, one module per resource, and what they share.

pub mod actions;
pub mod docs;
pub mod events;
pub mod games;
pub mod history;
pub mod log;
pub mod me;
pub mod pauses;
pub mod play;
mod problems;
pub mod rematch;
pub mod rulesets;
pub mod seats;
pub mod webhooks;

use crate::AppCtx;
use axum::routing::get;
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Every route, in one list: the router (its state is the [`AppCtx`]) and, through
/// utoipa-axum, the paths of the OpenAPI document come from here (`crate::openapi` adds
/// the rest of the document). [`crate::edge::app`] puts the
/// edge's layers around it.
pub fn api_routes() -> OpenApiRouter<Arc<AppCtx>> {
    OpenApiRouter::new()
        .routes(routes!(rulesets::list_rulesets))
        .routes(routes!(games::create_game, games::list_games))
        .routes(routes!(games::get_game))
        .routes(routes!(events::game_events))
        .routes(routes!(me::my_games))
        .routes(routes!(events::my_events))
        .routes(routes!(seats::claim_seat))
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
        .merge(page_routes())
}

/// The routes outside the OpenAPI document, all `GET`: the document itself, the reference
/// page and its script, the root, and the reference web client (clients/web). The Lambda
/// route map ([`lambda::FUNCTIONS`]) must serve each of them too.
pub const PAGE_ROUTES: [&str; 6] = [
    "/openapi.json",
    "/docs",
    "/docs/assets/{file}",
    "/",
    "/play",
    "/play/{file}",
];

/// The router of [`PAGE_ROUTES`], each with its handler.
fn page_routes() -> OpenApiRouter<Arc<AppCtx>> {
    let [openapi, docs, docs_asset, root, play, play_file] = PAGE_ROUTES;
    OpenApiRouter::new()
        .route(openapi, get(docs::get_openapi))
        .route(docs, get(docs::get_docs))
        .route(docs_asset, get(docs::get_docs_asset))
        .route(root, get(docs::get_root))
        .route(play, get(play::get_play))
        .route(play_file, get(play::get_play_file))
}

/// The router of every route, without the edge.
pub fn router() -> axum::Router<Arc<AppCtx>> {
    api_routes().split_for_parts().0
}

/// The `ETag` of a version.
pub fn etag(version: u64) -> String {
    format!("\"{version}\"")
}
