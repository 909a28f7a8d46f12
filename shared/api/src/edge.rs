//! The edge: what wraps every route, locally and on Lambda alike.
//!
//! From the outside in: [`edge`] (a request id, one tracing span per request, problem
//! bodies), CORS, a deadline for the whole request, a limit on the body, and a net that turns
//! a panic into a 500 problem. [`app`] puts them around [`crate::router`].

use crate::auth::random_bytes;
use crate::error::{ApiError, PendingProblem};
use crate::http::MAX_BODY_BYTES;
use crate::AppCtx;
use axum::extract::{MatchedPath, Request};
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};
use tracing::Instrument;

/// The response header (and problem member) carrying the request id.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// How long a request may take, body included, before it is answered 503 `timeout`.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the server waits for the next chunk of a request body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Who may call the API from a browser on another origin.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdgeConfig {
    /// Allowed origins (`https://play.example`). Empty means any origin: the API takes bearer
    /// tokens, never cookies, so a page on another origin gains nothing a script of its own
    /// could not do (docs/api.md, CORS).
    pub cors_origins: Vec<String>,
}

impl EdgeConfig {
    /// From `BEURS_CORS_ORIGINS` (comma-separated; unset or empty: any origin).
    pub fn from_env() -> EdgeConfig {
        EdgeConfig {
            cors_origins: std::env::var("BEURS_CORS_ORIGINS")
                .map(|origins| split_origins(&origins))
                .unwrap_or_default(),
        }
    }

    fn cors(&self) -> CorsLayer {
        let origins: Vec<HeaderValue> = self
            .cors_origins
            .iter()
            .filter_map(|origin| HeaderValue::from_str(origin.trim_end_matches('/')).ok())
            .collect();
        let allow_origin = if origins.is_empty() {
            AllowOrigin::any()
        } else {
            AllowOrigin::list(origins)
        };
        CorsLayer::new()
            .allow_origin(allow_origin)
            .allow_methods([Method::GET, Method::POST, Method::DELETE])
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                header::IF_MATCH,
                HeaderName::from_static("idempotency-key"),
            ])
            .expose_headers([
                header::ETAG,
                header::LOCATION,
                header::WWW_AUTHENTICATE,
                REQUEST_ID,
                HeaderName::from_static("idempotent-replay"),
            ])
            .max_age(Duration::from_secs(3600))
    }
}

/// Origins from a comma-separated list, blanks dropped.
pub fn split_origins(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|origin| !origin.is_empty())
        .map(str::to_string)
        .collect()
}

/// The whole API: every route of [`crate::router`] behind the edge's layers.
pub fn app(ctx: Arc<AppCtx>, config: &EdgeConfig) -> Router {
    crate::router()
        .with_state(ctx)
        .fallback(|| async { ApiError::RouteNotFound })
        .layer(CatchPanicLayer::custom(|_panic| {
            ApiError::Internal("a handler panicked".into()).into_response()
        }))
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        .layer(RequestBodyTimeoutLayer::new(BODY_TIMEOUT))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            REQUEST_TIMEOUT,
        ))
        .layer(config.cors())
        .layer(axum::middleware::from_fn(edge))
}

/// A new request id: `req_` and 128 bits, 64 random bits drawn once per thread and a
/// per-thread count of requests. Unique without a system call per request; an id is a label
/// for finding a request in the log, never a secret.
fn new_request_id() -> String {
    thread_local! {
        static NEXT: std::cell::Cell<([u8; 8], u64)> =
            std::cell::Cell::new((random_bytes::<8>().unwrap_or_default(), 0));
    }
    let (prefix, count) = NEXT.with(|next| {
        let (prefix, count) = next.get();
        next.set((prefix, count.wrapping_add(1)));
        (prefix, count)
    });
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&prefix);
    bytes[8..].copy_from_slice(&count.to_be_bytes());
    format!("req_{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// One request: give it an id and a span, run it, write its problem body if it failed, and
/// log one line with its status and latency.
async fn edge(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let request_id = new_request_id();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|matched| matched.as_str().to_string())
        .unwrap_or_else(|| "-".into());
    let span = tracing::info_span!(
        "request",
        request_id = %request_id,
        method = %method,
        route = %route,
    );
    let mut response = next.run(request).instrument(span.clone()).await;
    finish_problem(&mut response, &path, &request_id);
    if let Ok(value) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    let status = response.status().as_u16();
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    span.in_scope(|| {
        if status >= 500 {
            tracing::error!(status, latency_ms, "answered");
        } else {
            tracing::info!(status, latency_ms, "answered");
        }
    });
    response
}

/// Writes the problem body of a failed response: ours (a [`PendingProblem`]) or one that a
/// layer or axum answered by itself (404 without a route, 405, 413, a timeout).
fn finish_problem(response: &mut Response, path: &str, request_id: &str) {
    let status = response.status();
    let pending = response.extensions_mut().remove::<PendingProblem>();
    let mut problem = match pending {
        Some(PendingProblem(problem)) => problem,
        None if status.is_client_error() || status.is_server_error() => {
            let is_problem = response
                .headers()
                .get(header::CONTENT_TYPE)
                .is_some_and(|value| value.as_bytes().starts_with(b"application/problem+json"));
            if is_problem {
                return;
            }
            let error = match status {
                StatusCode::NOT_FOUND => ApiError::RouteNotFound,
                StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed,
                StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge {
                    limit: MAX_BODY_BYTES,
                },
                StatusCode::SERVICE_UNAVAILABLE | StatusCode::REQUEST_TIMEOUT => ApiError::Timeout,
                other => ApiError::Internal(format!("the edge answered {other} without a problem")),
            };
            error.to_problem("")
        }
        None => return,
    };
    problem.instance = path.to_string();
    problem.request_id = request_id.to_string();
    let body = serde_json::to_string(&problem).expect("problems serialize");
    let code = StatusCode::from_u16(problem.status).unwrap_or(status);
    let mut replaced = (code, body).into_response();
    // Keep what the failing response said about itself (Allow on a 405, CORS headers).
    for (name, value) in response.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            replaced.headers_mut().append(name.clone(), value.clone());
        }
    }
    replaced.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    if code == StatusCode::UNAUTHORIZED {
        replaced
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    *response = replaced;
}

#[cfg(test)]
mod tests {
    use super::new_request_id;
    use std::collections::HashSet;

    #[test]
    fn request_ids_are_distinct_across_requests_and_threads() {
        let ids: Vec<String> = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| (0..500).map(|_| new_request_id()).collect::<Vec<_>>()))
                .collect();
            threads
                .into_iter()
                .flat_map(|thread| thread.join().expect("no panic"))
                .collect()
        });
        let distinct: HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len());
        for id in &ids {
            let rest = id.strip_prefix("req_").expect("prefixed");
            assert_eq!(rest.len(), 22, "{id}: 128 bits, base64url without padding");
            assert!(rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        }
    }
}
