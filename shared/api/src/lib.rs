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
pub mod clock;
pub mod deadlines;
pub mod dto;
pub mod edge;
#[cfg(feature = "dynamo")]
mod env;
pub mod error;
pub mod http;
pub mod lambda;
pub mod openapi;
pub mod reference;
pub mod routes;
pub mod states;
pub mod time;
pub mod webhooks;

#[cfg(feature = "dynamo")]
pub use env::{init_lambda_logs, run_lambda, EnvError};
pub use routes::docs::{get_docs, get_openapi};

use axum::routing::get;
use game_core::Registry;
use std::sync::Arc;
use store::GameStore;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Every game this build can host.
pub fn registry() -> Registry {
    Registry::new()
        .with::<game_tulipmania::Tulipmania>()
        .with::<game_tulip_bubble::TulipBubble>()
        .with::<game_tulip_traders::TulipTraders>()
        .with::<game_tulpenfieber::Tulpenfieber>()
        .with::<game_black_thursday::BlackThursday>()
}

/// What every handler needs: built once per process (or Lambda cold start).
pub struct AppCtx {
    /// Where games live.
    pub store: Arc<dyn GameStore>,
    /// The rulesets on offer.
    pub registry: Registry,
    /// The OpenAPI document as sent, built on first use ([`AppCtx::openapi_json`]).
    openapi_json: std::sync::OnceLock<String>,
    /// What `GET /v1/rulesets` answers, built on first use ([`AppCtx::rulesets`]).
    rulesets: std::sync::OnceLock<dto::RulesetList>,
    /// Webhook policy (dev mode, retries) and the delivery worker's wake-up signal.
    pub webhooks: webhooks::WebhookConfig,
    /// The id of every game this process commits a change to, as it commits: long-polls
    /// (`GET /v1/games/{id}?after_version=…&wait=…`) wake on it.
    pub changes: tokio::sync::broadcast::Sender<String>,
    /// Engine states already loaded, by game and version.
    pub states: states::StateCache,
    /// Seeds of started games already derived, by game.
    pub seeds: states::SeedCache,
}

/// How many change notices a slow long-poll may fall behind before it re-reads the store
/// anyway.
const CHANGES_BUFFER: usize = 256;

impl AppCtx {
    /// A context over `store` with every registered game.
    ///
    /// Cheap: the ruleset list and the OpenAPI document (which deal trial games) are built
    /// when first asked for, so a Lambda function that never serves them never builds them.
    pub fn new(store: Arc<dyn GameStore>) -> AppCtx {
        AppCtx {
            store,
            registry: registry(),
            openapi_json: std::sync::OnceLock::new(),
            rulesets: std::sync::OnceLock::new(),
            webhooks: webhooks::WebhookConfig::default(),
            changes: tokio::sync::broadcast::channel(CHANGES_BUFFER).0,
            states: states::StateCache::new(states::DEFAULT_CAPACITY),
            seeds: states::SeedCache::new(states::DEFAULT_CAPACITY),
        }
    }

    /// What `GET /v1/rulesets` answers (built on the first call).
    pub fn rulesets(&self) -> &dto::RulesetList {
        self.rulesets
            .get_or_init(|| routes::rulesets::ruleset_list(&self.registry))
    }

    /// The OpenAPI document, serialized (built on the first call).
    pub fn openapi_json(&self) -> &str {
        self.openapi_json
            .get_or_init(|| openapi::spec_for(&self.registry, self.rulesets()).to_string())
    }

    /// The same context with another webhook configuration (dev mode, a test schedule).
    pub fn with_webhooks(mut self, config: webhooks::WebhookConfig) -> AppCtx {
        self.webhooks = config;
        self
    }

    /// A delivery worker over this context's store and webhook configuration.
    pub fn deliverer(&self) -> webhooks::Deliverer {
        webhooks::Deliverer {
            store: self.store.clone(),
            config: self.webhooks.clone(),
        }
    }
}

/// Every route, in one list: the router (its state is the [`AppCtx`]) and, through
/// utoipa-axum, the paths of the OpenAPI document come from here. [`edge::app`] puts the
/// edge's layers around it.
pub fn api_routes() -> OpenApiRouter<Arc<AppCtx>> {
    use routes::{actions, games, log, me, rulesets, seats, webhooks};
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(rulesets::list_rulesets))
        .routes(routes!(games::create_game, games::list_games))
        .routes(routes!(games::get_game))
        .routes(routes!(me::my_games))
        .routes(routes!(seats::claim_seat))
        .routes(routes!(seats::resign_seat))
        .routes(routes!(seats::replace_seat))
        .routes(routes!(actions::list_legal_actions))
        .routes(routes!(actions::submit_action))
        .routes(routes!(log::get_log))
        .routes(routes!(log::get_audit))
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
