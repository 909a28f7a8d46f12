//! The Beurs HTTP API (DESIGN.md §5): every route, auth, optimistic concurrency,
//! problem+json errors, the audit and the OpenAPI document.
//!
//! Layout:
//! - [`routes`]: one module per resource; each handler is an axum handler with typed
//!   extractors, returning `Result<Reply, ApiError>`. [`api_routes`] lists them all once.
//! - [`edge`]: request ids, tracing spans, problem bodies, CORS, limits and timeouts around
//!   the router; `beurs serve` and every Lambda function serve the very same [`edge::app`].
//! - [`http`]: the extractors and [`http::Reply`]. [`error`]: `ApiError`, its statuses and
//!   codes, and the one place an error becomes a problem.
//! - [`auth`]: tokens (random, prefixed, stored as SHA-256, compared in constant time).
//! - [`audit`]: the seed, state hashes, the audit document and its offline verification.
//! - [`openapi`]: the utoipa document, with every game's schemas.
//!
//! Architecture invariant: this is the only crate that knows HTTP. It never serializes an
//! engine state to a client: clients get `view(viewer)` and projected events only, and the
//! seed and secret appear only in the audit of a finished game.

pub mod audit;
pub mod auth;
pub mod bots;
pub mod catalog;
pub mod clock;
pub mod ctx;
pub mod deadlines;
pub mod delivery;
pub mod dice;
pub mod dto;
pub mod edge;
#[cfg(feature = "dynamo")]
mod env;
pub mod error;
pub mod game;
pub mod http;
pub mod lambda;
pub mod openapi;
pub mod reference;
pub mod routes;
pub mod states;
pub mod streams;
pub mod time;
pub mod webhooks;

pub use catalog::registry;
pub use ctx::AppCtx;
#[cfg(feature = "dynamo")]
pub use env::{init_lambda_logs, run_lambda, EnvError};
pub use routes::docs::{get_docs, get_openapi};

use axum::routing::get;
use std::sync::Arc;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Every route, in one list: the router (its state is the [`AppCtx`]) and, through
/// utoipa-axum, the paths of the OpenAPI document come from here. [`edge::app`] puts the
/// edge's layers around it.
pub fn api_routes() -> OpenApiRouter<Arc<AppCtx>> {
    use routes::{
        actions, events, games, history, log, me, pauses, rematch, rulesets, seats, webhooks,
    };
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
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
        .route(openapi, get(get_openapi))
        .route(docs, get(get_docs))
        .route(docs_asset, get(routes::docs::get_docs_asset))
        .route(root, get(routes::docs::get_root))
        .route(play, get(routes::play::get_play))
        .route(play_file, get(routes::play::get_play_file))
}

/// The router of every route, without the edge.
pub fn router() -> axum::Router<Arc<AppCtx>> {
    api_routes().split_for_parts().0
}
