//! The Beurs HTTP API (DESIGN.md §5): every route, auth, optimistic concurrency,
//! problem+json errors, the audit and the OpenAPI document.
//!
//! Layout:
//! - [`routes`]: one module per resource; each public handler is
//!   `async fn(&AppCtx, Request) -> Result<Response<Body>, lambda_http::Error>` and always
//!   returns `Ok` (errors are already problem responses), so a Lambda `main` and the local
//!   server call the very same functions.
//! - [`http`]: body, header and query parsing, and `respond()`, the one place a result
//!   becomes a response. [`error`]: `ApiError`, its statuses and codes.
//! - [`auth`]: tokens (random, prefixed, stored as SHA-256, compared in constant time).
//! - [`audit`]: the seed, state hashes, the audit document and its offline verification.
//! - [`openapi`]: the utoipa document, with every game's schemas.
//!
//! Architecture invariant: this is the only crate that knows HTTP. It never serializes an
//! engine state to a client: clients get `view(viewer)` and projected events only, and the
//! seed and secret appear only in the audit of a finished game.

pub mod audit;
pub mod auth;
pub mod dto;
#[cfg(feature = "dynamo")]
mod env;
pub mod error;
pub mod http;
pub mod openapi;
pub mod routes;
pub mod time;
pub mod webhooks;

#[cfg(feature = "dynamo")]
pub use env::EnvError;
pub use routes::actions::{list_legal_actions, submit_action};
pub use routes::docs::{get_docs, get_openapi};
pub use routes::games::{create_game, get_game, list_games};
pub use routes::log::{get_audit, get_log};
pub use routes::rulesets::list_rulesets;
pub use routes::seats::claim_seat;
pub use routes::webhooks::{create_webhook, delete_webhook, list_deliveries, list_webhooks};

use game_core::Registry;
use lambda_http::{Body, Request, RequestExt, Response};
use std::collections::HashMap;
use std::sync::Arc;
use store::GameStore;

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
    /// The OpenAPI document, built once.
    pub openapi_json: serde_json::Value,
    /// Webhook policy (dev mode, retries) and the delivery worker's wake-up signal.
    pub webhooks: webhooks::WebhookConfig,
}

impl AppCtx {
    /// A context over `store` with every registered game.
    pub fn new(store: Arc<dyn GameStore>) -> AppCtx {
        let registry = registry();
        let openapi_json = openapi::spec(&registry);
        AppCtx {
            store,
            registry,
            openapi_json,
            webhooks: webhooks::WebhookConfig::default(),
        }
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

/// The routes, as (method, path pattern).
const ROUTES: &[(&str, &str)] = &[
    ("GET", "/v1/rulesets"),
    ("POST", "/v1/games"),
    ("GET", "/v1/games"),
    ("GET", "/v1/games/{id}"),
    ("POST", "/v1/games/{id}/seats/{seat}"),
    ("GET", "/v1/games/{id}/legal-actions"),
    ("POST", "/v1/games/{id}/actions"),
    ("GET", "/v1/games/{id}/log"),
    ("GET", "/v1/games/{id}/audit"),
    ("POST", "/v1/games/{id}/webhooks"),
    ("GET", "/v1/games/{id}/webhooks"),
    ("DELETE", "/v1/games/{id}/webhooks/{hook}"),
    ("GET", "/v1/games/{id}/webhooks/{hook}/deliveries"),
    ("GET", "/openapi.json"),
    ("GET", "/docs"),
];

/// Matches `path` against a pattern, returning the `{name}` parameters.
fn match_path(pattern: &str, path: &str) -> Option<HashMap<String, String>> {
    let path = path
        .strip_suffix('/')
        .filter(|trimmed| !trimmed.is_empty())
        .unwrap_or(path);
    let pattern_parts: Vec<&str> = pattern.split('/').collect();
    let path_parts: Vec<&str> = path.split('/').collect();
    if pattern_parts.len() != path_parts.len() {
        return None;
    }
    let mut parameters = HashMap::new();
    for (expected, actual) in pattern_parts.iter().zip(&path_parts) {
        if let Some(name) = expected
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'))
        {
            if actual.is_empty() {
                return None;
            }
            parameters.insert(name.to_string(), actual.to_string());
        } else if expected != actual {
            return None;
        }
    }
    Some(parameters)
}

/// Serves every route from one entry point (the local server and the tests): finds the
/// route, sets its path parameters as API Gateway would, and calls its handler.
pub async fn route(ctx: &AppCtx, request: Request) -> Response<Body> {
    let path = request.uri().path().to_string();
    let method = request.method().as_str().to_string();
    let mut allowed: Vec<&str> = Vec::new();
    for (route_method, pattern) in ROUTES {
        let Some(parameters) = match_path(pattern, &path) else {
            continue;
        };
        allowed.push(route_method);
        if *route_method != method {
            continue;
        }
        let request = request.with_path_parameters(parameters);
        let result = match (*route_method, *pattern) {
            ("GET", "/v1/rulesets") => list_rulesets(ctx, request).await,
            ("POST", "/v1/games") => create_game(ctx, request).await,
            ("GET", "/v1/games") => list_games(ctx, request).await,
            ("GET", "/v1/games/{id}") => get_game(ctx, request).await,
            ("POST", "/v1/games/{id}/seats/{seat}") => claim_seat(ctx, request).await,
            ("GET", "/v1/games/{id}/legal-actions") => list_legal_actions(ctx, request).await,
            ("POST", "/v1/games/{id}/actions") => submit_action(ctx, request).await,
            ("GET", "/v1/games/{id}/log") => get_log(ctx, request).await,
            ("GET", "/v1/games/{id}/audit") => get_audit(ctx, request).await,
            ("POST", "/v1/games/{id}/webhooks") => create_webhook(ctx, request).await,
            ("GET", "/v1/games/{id}/webhooks") => list_webhooks(ctx, request).await,
            ("DELETE", "/v1/games/{id}/webhooks/{hook}") => delete_webhook(ctx, request).await,
            ("GET", "/v1/games/{id}/webhooks/{hook}/deliveries") => {
                list_deliveries(ctx, request).await
            }
            ("GET", "/openapi.json") => get_openapi(ctx, request).await,
            _ => get_docs(ctx, request).await,
        };
        return result.unwrap_or_else(|error| http::respond_internal(&path, &error.to_string()));
    }
    let error = match allowed.as_slice() {
        [] => error::ApiError::RouteNotFound,
        ["GET"] => error::ApiError::MethodNotAllowed { allow: "GET" },
        ["POST"] => error::ApiError::MethodNotAllowed { allow: "POST" },
        ["DELETE"] => error::ApiError::MethodNotAllowed { allow: "DELETE" },
        _ => error::ApiError::MethodNotAllowed { allow: "GET, POST" },
    };
    http::respond(&request, Err(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_match_patterns() {
        let parameters =
            match_path("/v1/games/{id}/seats/{seat}", "/v1/games/g_x/seats/2").unwrap();
        assert_eq!(parameters["id"], "g_x");
        assert_eq!(parameters["seat"], "2");
        assert!(match_path("/v1/games/{id}", "/v1/games/").is_none());
        assert!(match_path("/v1/games/{id}", "/v1/games/a/b").is_none());
        assert!(match_path("/v1/games", "/v1/games/").is_some());
    }
}
