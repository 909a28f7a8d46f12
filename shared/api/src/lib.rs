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
pub use routes::docs::{get_docs, get_openapi};
pub use routes::games::{create_game, list_games};
pub use routes::rulesets::list_rulesets;

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

/// Gives `request` the `{name}` parameters of `pattern` when it lacks any of them.
///
/// API Gateway sets path parameters from the route it matched; a Lambda function URL (and
/// cargo-lambda's emulator, which imitates one) sends the raw path only. Deriving them from
/// the path lets one binary serve behind either. Parameters already present are kept as they
/// are; a path that does not match `pattern` leaves the request unchanged, and the handler
/// then answers 404 `route-not-found`.
pub fn with_route_parameters(request: Request, pattern: &str) -> Request {
    let present = |name: &str| {
        request
            .path_parameters_ref()
            .and_then(|parameters| parameters.first(name))
            .is_some()
    };
    if parameter_names(pattern).all(present) {
        return request;
    }
    match match_path(pattern, request.uri().path()) {
        Some(parameters) => request.with_path_parameters(parameters),
        None => request,
    }
}

/// The `{name}` segments of a route pattern.
fn parameter_names(pattern: &str) -> impl Iterator<Item = &str> {
    pattern.split('/').filter_map(|segment| {
        segment
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'))
    })
}

/// Defines the public handler of each route with path parameters: the route module's
/// handler, called with the parameters of its pattern filled in by [`with_route_parameters`]
/// when the event did not carry them (a function URL). The Lambda functions call these.
macro_rules! handlers_with_path_parameters {
    ($($(#[$doc:meta])* $name:ident = $handler:path, $pattern:literal;)+) => {
        $(
            $(#[$doc])*
            pub async fn $name(
                ctx: &AppCtx,
                request: Request,
            ) -> Result<Response<Body>, lambda_http::Error> {
                $handler(ctx, with_route_parameters(request, $pattern)).await
            }
        )+

        /// The pattern each of those handlers derives its parameters from.
        #[cfg(test)]
        const HANDLER_PATTERNS: &[&str] = &[$($pattern),+];
    };
}

handlers_with_path_parameters! {
    /// `GET /v1/games/{id}`: the game as its caller may see it.
    get_game = routes::games::get_game, "/v1/games/{id}";
    /// `POST /v1/games/{id}/seats/{seat}`: claims a seat.
    claim_seat = routes::seats::claim_seat, "/v1/games/{id}/seats/{seat}";
    /// `GET /v1/games/{id}/legal-actions`: the caller's legal actions.
    list_legal_actions = routes::actions::list_legal_actions, "/v1/games/{id}/legal-actions";
    /// `POST /v1/games/{id}/actions`: submits a move.
    submit_action = routes::actions::submit_action, "/v1/games/{id}/actions";
    /// `GET /v1/games/{id}/log`: a page of the log as the caller may see it.
    get_log = routes::log::get_log, "/v1/games/{id}/log";
    /// `GET /v1/games/{id}/audit`: the audit document.
    get_audit = routes::log::get_audit, "/v1/games/{id}/audit";
    /// `POST /v1/games/{id}/webhooks`: subscribes to notifications.
    create_webhook = routes::webhooks::create_webhook, "/v1/games/{id}/webhooks";
    /// `GET /v1/games/{id}/webhooks`: the caller's subscriptions.
    list_webhooks = routes::webhooks::list_webhooks, "/v1/games/{id}/webhooks";
    /// `DELETE /v1/games/{id}/webhooks/{hook}`: unsubscribes.
    delete_webhook = routes::webhooks::delete_webhook, "/v1/games/{id}/webhooks/{hook}";
    /// `GET /v1/games/{id}/webhooks/{hook}/deliveries`: a subscription's recent deliveries.
    list_deliveries = routes::webhooks::list_deliveries, "/v1/games/{id}/webhooks/{hook}/deliveries";
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

    /// A request for `path` with the path parameters `parameters`, if any.
    fn request(path: &str, parameters: Option<&[(&str, &str)]>) -> Request {
        let request = lambda_http::http::Request::builder()
            .uri(path)
            .body(Body::Empty)
            .expect("a valid request");
        match parameters {
            None => request,
            Some(pairs) => request.with_path_parameters(
                pairs
                    .iter()
                    .map(|(name, value)| (name.to_string(), value.to_string()))
                    .collect::<HashMap<_, _>>(),
            ),
        }
    }

    fn parameter<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
        request.path_parameters_ref()?.first(name)
    }

    #[test]
    fn absent_path_parameters_are_derived_from_the_path() {
        let pattern = "/v1/games/{id}/seats/{seat}";
        for parameters in [None, Some(&[][..])] {
            let derived =
                with_route_parameters(request("/v1/games/g_x/seats/2", parameters), pattern);
            assert_eq!(parameter(&derived, "id"), Some("g_x"));
            assert_eq!(parameter(&derived, "seat"), Some("2"));
        }
        // One of two present (not something API Gateway sends): both come from the path.
        let partial = request("/v1/games/g_x/seats/2", Some(&[("id", "g_x")]));
        let derived = with_route_parameters(partial, pattern);
        assert_eq!(parameter(&derived, "seat"), Some("2"));
    }

    #[test]
    fn parameters_api_gateway_set_are_kept() {
        // Behind a stage or a base path mapping the raw path need not match the pattern;
        // API Gateway's parameters win.
        let gateway = request(
            "/prod/v1/games/g_path",
            Some(&[("id", "g_gateway"), ("extra", "1")]),
        );
        let kept = with_route_parameters(gateway, "/v1/games/{id}");
        assert_eq!(parameter(&kept, "id"), Some("g_gateway"));
        assert_eq!(parameter(&kept, "extra"), Some("1"));
    }

    #[test]
    fn a_path_that_does_not_match_gets_no_parameters() {
        for path in ["/v1/games", "/v1/games/g_x/log", "/elsewhere/g_x"] {
            let unchanged = with_route_parameters(request(path, None), "/v1/games/{id}");
            assert_eq!(parameter(&unchanged, "id"), None, "{path}");
        }
    }

    #[test]
    fn every_wrapped_handler_pattern_is_a_route() {
        for pattern in HANDLER_PATTERNS {
            assert!(
                ROUTES.iter().any(|(_, route)| route == pattern),
                "{pattern} is not in ROUTES"
            );
            assert!(parameter_names(pattern).next().is_some(), "{pattern}");
        }
    }

    /// A function URL event as cargo-lambda's emulator sends it (no path parameters, the
    /// path in `rawPath`), parsed as the Lambda runtime parses it.
    fn function_url_event(method: &str, path: &str) -> Request {
        let event = serde_json::json!({
            "version": "2.0",
            "routeKey": "$default",
            "rawPath": path,
            "rawQueryString": "",
            "headers": {"accept": "application/json"},
            "requestContext": {
                "routeKey": "$default",
                "stage": "$default",
                "requestId": "beurs-unit-test",
                "domainName": "localhost",
                "http": {"method": method, "path": path, "protocol": "http",
                         "sourceIp": "127.0.0.1", "userAgent": "cargo-lambda"},
                "timeEpoch": 0
            },
            "pathParameters": {},
            "isBase64Encoded": false
        });
        lambda_http::request::from_str(&event.to_string()).expect("a payload 2.0 event")
    }

    #[tokio::test]
    async fn handlers_answer_function_url_events() {
        let ctx = AppCtx::new(Arc::new(store::MemoryStore::new()));
        let cases = [
            ("GET", "/v1/games/g_nosuchgame"),
            ("GET", "/v1/games/g_nosuchgame/legal-actions"),
            ("GET", "/v1/games/g_nosuchgame/log"),
            ("GET", "/v1/games/g_nosuchgame/audit"),
            ("POST", "/v1/games/g_nosuchgame/seats/0"),
            ("POST", "/v1/games/g_nosuchgame/actions"),
        ];
        for (method, path) in cases {
            let request = function_url_event(method, path);
            let response = match path.rsplit('/').next() {
                Some("legal-actions") => list_legal_actions(&ctx, request).await,
                Some("log") => get_log(&ctx, request).await,
                Some("audit") => get_audit(&ctx, request).await,
                Some("0") => claim_seat(&ctx, request).await,
                Some("actions") => submit_action(&ctx, request).await,
                _ => get_game(&ctx, request).await,
            }
            .expect("handlers always answer");
            // Every handler reads its path parameters before anything else, so a 404
            // `game-not-found` (not `route-not-found`) shows they came from the path.
            let status = response.status().as_u16();
            let body: serde_json::Value = match response.body() {
                Body::Text(text) => serde_json::from_str(text).expect("a JSON problem"),
                Body::Binary(bytes) => serde_json::from_slice(bytes).expect("a JSON problem"),
                _ => serde_json::Value::Null,
            };
            assert_eq!(status, 404, "{method} {path}: {body}");
            assert_eq!(body["code"], "game-not-found", "{method} {path}: {body}");
        }
    }
}
