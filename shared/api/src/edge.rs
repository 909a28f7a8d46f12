//! The edge: what wraps every route, locally and on Lambda alike.
//!
//! From the outside in: gzip for clients that accept it, [`edge`] (a request id, one log
//! line per request, problem bodies), CORS, a deadline for the whole request, a limit on the body, and a net that turns
//! a panic into a 500 problem. [`app`] puts them around [`crate::pages::router`].

use crate::error::{ApiError, Error, InternalDetail, PendingProblem};
use crate::http::MAX_BODY_BYTES;
use axum::extract::{MatchedPath, Request};
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use service::auth::random_bytes;
use service::ctx::AppCtx;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

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
    /// The request rate each app key, and each client address without a key, may keep up;
    /// `None`: no request limit.
    pub requests: Option<RequestRate>,
}

/// A request rate: `per_second` on average, with bursts of up to `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestRate {
    /// Requests per second, on average.
    pub per_second: u32,
    /// Requests at once, after a quiet spell.
    pub burst: u32,
}

impl EdgeConfig {
    /// From `BEURS_CORS_ORIGINS` (comma-separated; unset or empty: any origin).
    pub fn from_env() -> EdgeConfig {
        EdgeConfig {
            cors_origins: std::env::var("BEURS_CORS_ORIGINS")
                .map(|origins| split_origins(&origins))
                .unwrap_or_default(),
            // On Lambda, API Gateway's stage throttling holds the request rate across
            // instances (docs/aws.md); a per-instance limiter would not.
            requests: None,
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
                header::IF_NONE_MATCH,
                HeaderName::from_static("idempotency-key"),
                HeaderName::from_static("last-event-id"),
            ])
            .expose_headers([
                header::ETAG,
                header::LOCATION,
                header::RETRY_AFTER,
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

/// The whole API: every route of [`crate::pages::router`] behind the edge's layers.
pub fn app(ctx: Arc<AppCtx>, config: &EdgeConfig) -> Router {
    with_edge(
        crate::pages::router()
            .with_state(ctx)
            .fallback(|| async { ApiError::RouteNotFound }),
        config,
    )
}

/// `app` for one connection from `peer`: requests without an app key draw on the peer's
/// address's request bucket ([`EdgeConfig::requests`]).
pub fn for_peer(
    app: Router,
    peer: std::net::SocketAddr,
) -> axum::middleware::AddExtension<Router, axum::extract::ConnectInfo<std::net::SocketAddr>> {
    use tower::Layer;
    axum::Extension(axum::extract::ConnectInfo(peer)).layer(app)
}

/// `routes` behind the edge's layers.
fn with_edge(routes: Router, config: &EdgeConfig) -> Router {
    routes
        .layer(CatchPanicLayer::custom(|_panic| {
            ApiError::from(Error::Internal("a handler panicked".into())).into_response()
        }))
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        .layer(RequestBodyTimeoutLayer::new(BODY_TIMEOUT))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            REQUEST_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(config.requests.map(Policy::requests)),
            limit_requests,
        ))
        .layer(config.cors())
        .layer(axum::middleware::from_fn(edge))
        // Outermost, so problems (written by `edge`) are compressed too; gzip for clients
        // that send `Accept-Encoding: gzip`, never for event streams or tiny bodies
        // (tower-http's default predicate).
        .layer(CompressionLayer::new())
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

/// One request: give it an id, run it, write its problem body if it failed, and log one line
/// with its id, method, route, status and latency (and, for a 5xx, the detail that only the
/// log may see).
///
/// One event and no span: a span per request entered on every poll of the handler cost about
/// as much as the rest of the log line (docs/benchmarks.md, fifth round), and the only thing
/// logged inside a handler was the detail of a 500, which now reaches this line instead.
async fn edge(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let request_id = new_request_id();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let route = request.extensions().get::<MatchedPath>().cloned();
    let mut response = next.run(request).await;
    let internal = response.extensions_mut().remove::<InternalDetail>();
    finish_problem(&mut response, &path, &request_id);
    if let Ok(value) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert(REQUEST_ID, value);
    }
    let status = response.status().as_u16();
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    let route = route.as_ref().map_or("-", MatchedPath::as_str);
    match internal {
        Some(InternalDetail(detail)) => tracing::error!(
            %request_id, %method, %route, status, latency_ms, %detail, "answered"
        ),
        None if status >= 500 => {
            tracing::error!(%request_id, %method, %route, status, latency_ms, "answered")
        }
        None => tracing::info!(%request_id, %method, %route, status, latency_ms, "answered"),
    }
    response
}

/// One limit the edge holds: a GCRA bucket per key or client address, and what its 429 says.
struct Policy {
    buckets: governor::DefaultKeyedRateLimiter<String>,
    code: service::Code,
    name: &'static str,
    quota: u32,
    window: Duration,
    message: String,
}

impl Policy {
    /// `rate.per_second` requests a second, in bursts of `rate.burst`.
    fn requests(rate: RequestRate) -> Policy {
        let per_second = NonZeroU32::new(rate.per_second.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(rate.burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Policy {
            buckets: governor::RateLimiter::keyed(
                governor::Quota::per_second(per_second).allow_burst(burst),
            ),
            code: service::Code::RateLimited,
            name: "requests",
            quota: rate.burst,
            window: Duration::from_secs(
                u64::from(rate.burst.div_ceil(rate.per_second.max(1))).max(1),
            ),
            message: format!(
                "too many requests: at most {} a second, in bursts of {}",
                rate.per_second, rate.burst
            ),
        }
    }

    /// Draws one from `bucket`'s allowance, or the 429 that refuses it.
    fn check(&self, bucket: &String) -> Result<(), ApiError> {
        use governor::clock::Clock;
        if let Err(not_until) = self.buckets.check_key(bucket) {
            let limited = service::apps::Limited {
                code: self.code,
                policy: self.name,
                quota: self.quota,
                window: Some(self.window),
                retry_after: not_until
                    .wait_time_from(governor::clock::DefaultClock::default().now()),
                message: self.message.clone(),
            };
            return Err(Error::Limited(Box::new(limited)).into());
        }
        // Forget buckets that have refilled, now and then, so idle clients cost no memory.
        if self.buckets.len() > 10_000 {
            self.buckets.retain_recent();
        }
        Ok(())
    }
}

/// Whose bucket a request draws on: its app key's (by the key's hash, so a key never sits in
/// memory), else its client address (the peer, when the server knows it).
fn bucket_of(request: &Request) -> String {
    let key = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(crate::http::bearer_of)
        .filter(|token| service::apps::is_app_key(token));
    match key {
        Some(key) => format!("key:{}", service::auth::sha256_hex(key.as_bytes())),
        None => match request
            .extensions()
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        {
            Some(peer) => format!("addr:{}", peer.0.ip()),
            None => "addr:unknown".to_owned(),
        },
    }
}

/// Refuses a request over its bucket's rate with 429 (`Retry-After`, `RateLimit`,
/// `RateLimit-Policy`); nothing behind it runs, so nothing changes. (Quotas on what a request
/// creates are the service's, counted in the store: `service::apps`.)
async fn limit_requests(
    axum::extract::State(limiter): axum::extract::State<Arc<Option<Policy>>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(policy) = limiter.as_ref() else {
        return next.run(request).await;
    };
    match policy.check(&bucket_of(&request)) {
        Ok(()) => next.run(request).await,
        Err(refused) => refused.into_response(),
    }
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
                other => {
                    Error::Internal(format!("the edge answered {other} without a problem")).into()
                }
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
    use super::{new_request_id, with_edge, EdgeConfig};
    use crate::error::{ApiError, Error};
    use axum::body::Body;
    use axum::http::Request;
    use axum::routing::get;
    use axum::Router;
    use std::collections::HashSet;
    use std::sync::{Arc, Mutex};
    use tower::ServiceExt;

    /// The log lines written while `paths` are answered by `routes` behind the edge, and
    /// each answer's status, request id header and body.
    fn logged(routes: Router, paths: &[&str]) -> (String, Vec<(u16, String, String)>) {
        #[derive(Clone, Default)]
        struct Lines(Arc<Mutex<Vec<u8>>>);
        impl std::io::Write for Lines {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        let app = with_edge(routes, &EdgeConfig::default());
        let answers = tracing::subscriber::with_default(subscriber, || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let mut answers = Vec::new();
                for path in paths {
                    let request = Request::get(*path).body(Body::empty()).unwrap();
                    let response = app.clone().oneshot(request).await.unwrap();
                    let status = response.status().as_u16();
                    let id = response.headers()[super::REQUEST_ID]
                        .to_str()
                        .unwrap()
                        .to_string();
                    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
                        .await
                        .unwrap();
                    answers.push((status, id, String::from_utf8(body.to_vec()).unwrap()));
                }
                answers
            })
        });
        let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
        (text, answers)
    }

    /// One line per request, with its id, method, route, status and latency; a 5xx's detail
    /// (an internal error's, a panic's) is on its request's line and never in the answer.
    #[test]
    fn each_request_is_one_log_line_and_a_5xx_detail_stays_in_the_log() {
        let routes = Router::new()
            .route("/fine/{id}", get(|| async { "fine" }))
            .route(
                "/broken",
                get(|| async { ApiError::from(Error::Internal("disk on fire".into())) }),
            )
            .route(
                "/bots-stuck",
                get(|| async {
                    crate::http::Reply::json(200, &"moved")
                        .detail(Some("bots of game g_1 could not move".into()))
                }),
            )
            .route(
                "/panics",
                get(|| async {
                    panic!("the handler's secret");
                    #[allow(unreachable_code)]
                    ""
                }),
            );
        let (log, answers) = logged(routes, &["/fine/7", "/broken", "/panics", "/bots-stuck"]);
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 4, "{log}");
        let [fine, broken, panicked] = [&answers[0], &answers[1], &answers[2]];
        assert_eq!(fine.0, 200);
        assert!(lines[0].contains(" INFO "), "{}", lines[0]);
        assert!(lines[0].contains(&format!("request_id={}", fine.1)));
        assert!(lines[0].contains("method=GET"));
        assert!(lines[0].contains("route=/fine/{id} "), "{}", lines[0]);
        assert!(lines[0].contains("status=200"));
        assert!(lines[0].contains("latency_ms="));

        assert_eq!((broken.0, panicked.0), (500, 500));
        for ((_, id, body), (line, detail)) in [broken, panicked]
            .into_iter()
            .zip([(lines[1], "disk on fire"), (lines[2], "a handler panicked")])
        {
            assert!(line.contains(" ERROR "), "{line}");
            assert!(line.contains(&format!("request_id={id}")), "{line}");
            assert!(line.contains(&format!("detail={detail}")), "{line}");
            assert!(line.contains("status=500"), "{line}");
            assert!(!body.contains(detail), "{body}");
            assert!(
                body.contains(id.as_str()),
                "the problem quotes the id: {body}"
            );
        }
        assert!(!log.contains("the handler's secret"), "{log}");

        // A change that stands, with something that failed after it: answered 200, logged as
        // an error with its detail.
        let (_, id, body) = &answers[3];
        assert_eq!(answers[3].0, 200);
        assert!(lines[3].contains(" ERROR "), "{}", lines[3]);
        assert!(
            lines[3].contains(&format!("request_id={id}")),
            "{}",
            lines[3]
        );
        assert!(lines[3].contains("status=200"), "{}", lines[3]);
        assert!(lines[3].contains("detail=bots of game g_1 could not move"));
        assert_eq!(body, "\"moved\"");
    }

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
