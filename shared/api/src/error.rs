//! The HTTP face of the service's errors: each kind's status, the edge's own refusals, and
//! the one place an error becomes a problem (RFC 9457).

use serde::Serialize;
pub use service::error::{Code, Error, Hints};
use utoipa::ToSchema;

/// Base of every problem `type` URI.
pub const PROBLEM_BASE: &str = "https://beurs.dev/problems/";

/// The HTTP status of a problem with the service's `code`: the one table of them.
pub fn status_of(code: Code) -> u16 {
    match code {
        Code::MalformedRequest => 400,
        Code::InvalidLastEventId => 400,
        Code::Unauthorized => 401,
        Code::Forbidden => 403,
        Code::GameNotFound => 404,
        Code::SeatNotFound => 404,
        Code::RouteNotFound => 404,
        Code::WebhookNotFound => 404,
        Code::MethodNotAllowed => 405,
        Code::GameNotActive => 409,
        Code::GameNotOpen => 409,
        Code::GameOver => 409,
        Code::SeatTaken => 409,
        Code::SeatResigned => 409,
        Code::SeatFree => 409,
        Code::CannotUndo => 409,
        Code::NoClock => 409,
        Code::NoVacationLeft => 409,
        Code::GameNotFinished => 409,
        Code::EntryNotFound => 404,
        Code::VersionConflict => 409,
        Code::RulesVersionRetired => 410,
        Code::StaleVersion => 412,
        Code::PayloadTooLarge => 413,
        Code::UnsupportedMediaType => 415,
        Code::InvalidClock => 422,
        Code::EntropyTooLong => 422,
        Code::InvalidName => 422,
        Code::UnknownRuleset => 422,
        Code::InvalidOptions => 422,
        Code::BadSeatCount => 422,
        Code::WrongRuleset => 422,
        Code::IdempotencyKeyReused => 422,
        Code::TooManyWebhooks => 422,
        Code::EventNotAllowed => 422,
        Code::InvalidEvents => 422,
        Code::InvalidWebhookUrl => 422,
        Code::InvalidLink => 422,
        Code::ForbiddenWebhookUrl => 422,
        Code::UnresolvableWebhookUrl => 422,
        Code::TooManyStreams => 429,
        Code::MissingScope => 403,
        Code::AppNotFound => 404,
        Code::KeyNotFound => 404,
        Code::TooManyKeys => 422,
        Code::RateLimited => 429,
        Code::QuotaExceeded => 429,
        Code::Internal => 500,
        Code::Timeout => 503,
    }
}

/// Everything a request can fail with: the service's refusals, and the edge's own (a body
/// or a route the edge refuses before any service is asked).
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The service refused or failed.
    #[error(transparent)]
    Service(#[from] Error),
    /// The body is larger than the limit.
    #[error("the request body is larger than {limit} bytes")]
    PayloadTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The body is not JSON.
    #[error("the request body must be JSON, declared with Content-Type: application/json")]
    UnsupportedMediaType,
    /// No such route or method.
    #[error("no such route")]
    RouteNotFound,
    /// The route exists but not for this method (the `Allow` header lists those it has).
    #[error("this resource does not support this method; the Allow header lists those it does")]
    MethodNotAllowed,
    /// The request was not answered in time (DESIGN.md §5's limits).
    #[error("the request was not completed in time; if it was a move, retry it with the same Idempotency-Key")]
    Timeout,
}

impl From<store::StoreError> for ApiError {
    fn from(error: store::StoreError) -> Self {
        ApiError::Service(error.into())
    }
}

impl From<game_core::SetupError> for ApiError {
    fn from(error: game_core::SetupError) -> Self {
        ApiError::Service(error.into())
    }
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::Service(Error::NotNow { .. }) => 409,
            ApiError::Service(Error::Illegal { .. }) => 422,
            other => other.own_code().map_or(500, status_of),
        }
    }

    /// The service's (or the edge's) code of this error; `None` for a game's rule code.
    pub fn own_code(&self) -> Option<Code> {
        match self {
            ApiError::Service(error) => error.service_code(),
            ApiError::PayloadTooLarge { .. } => Some(Code::PayloadTooLarge),
            ApiError::UnsupportedMediaType => Some(Code::UnsupportedMediaType),
            ApiError::RouteNotFound => Some(Code::RouteNotFound),
            ApiError::MethodNotAllowed => Some(Code::MethodNotAllowed),
            ApiError::Timeout => Some(Code::Timeout),
        }
    }

    /// The stable problem code (the last segment of `type`).
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Service(error) => error.code(),
            other => other.own_code().map_or("internal", Code::as_str),
        }
    }

    /// The problem document for this error.
    pub fn to_problem(&self, instance: &str) -> Problem {
        let detail = match self {
            // Never show internals to the client.
            ApiError::Service(Error::Internal(_)) => {
                "something went wrong on our side; our logs have the details under this request_id"
                    .to_string()
            }
            other => other.to_string(),
        };
        let none = Hints::default();
        let hints = match self {
            ApiError::Service(error) => error.hints().unwrap_or(&none),
            _ => &none,
        };
        let listed = |seats: &Vec<u8>| (!seats.is_empty()).then(|| seats.clone());
        Problem {
            r#type: format!("{PROBLEM_BASE}{}", self.code()),
            title: title_of(self.code()),
            status: self.status(),
            detail,
            instance: instance.to_string(),
            code: self.code().to_string(),
            request_id: String::new(),
            current_version: self.current_version(),
            to_act: listed(&hints.to_act),
            waiting_on: listed(&hints.waiting_on),
            expected: (!hints.expected.is_empty()).then(|| hints.expected.clone()),
            phase: hints.phase.map(str::to_string),
        }
    }

    /// The game's version, when the refusal is that the client named another one (412).
    pub fn current_version(&self) -> Option<u64> {
        match self {
            ApiError::Service(error) => error.current_version(),
            _ => None,
        }
    }
}

/// `kebab-case-code` → `Kebab case code`.
fn title_of(code: &str) -> String {
    let words = code.replace('-', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// An RFC 9457 problem document (`application/problem+json`).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "https://beurs.dev/problems/not-your-turn",
    "title": "Not your turn",
    "status": 409,
    "detail": "seat 2 may not act now",
    "instance": "/v1/games/g_5bWq1t0yqgGQm3WJcS4XxQ/actions",
    "code": "not-your-turn",
    "request_id": "req_0N8fQmXc2kS4v7pYbL1wHg"
}))]
pub struct Problem {
    /// A URI naming the problem type; its last segment is `code`.
    pub r#type: String,
    /// A short summary of the problem type.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong with this request.
    pub detail: String,
    /// The request path.
    pub instance: String,
    /// The stable kebab-case code (a game's rule code for 422s).
    pub code: String,
    /// The request's id, also in the `x-request-id` header and in the server's log: quote it
    /// when reporting a problem.
    pub request_id: String,
    /// On a 412: the game's version now (its `ETag`, also in this answer's `ETag` header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
    /// On a refusal of a game's rules (409, 422): the seats that may act now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Vec<u8>>,
    /// On a refusal of a game's rules (409, 422): the seats the game waits on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting_on: Option<Vec<u8>>,
    /// On a refusal of a game's rules (409, 422): the `type`s of the moves the seat may make
    /// now, from its legal actions (empty when it may make none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Vec<String>>,
    /// On a refusal of a game's rules (409, 422): the phase the game is in, as its view names
    /// it (`purchase`, `sale`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
}

/// The detail of a 5xx, on its way to the edge's log line for the request (never to the
/// client).
#[derive(Clone, Debug)]
pub struct InternalDetail(pub String);

/// A problem on its way out: the edge ([`crate::edge`]) fills in `instance` and
/// `request_id` and writes the body.
#[derive(Clone, Debug)]
pub struct PendingProblem(pub Problem);

impl axum::response::IntoResponse for ApiError {
    fn into_response(self) -> axum::response::Response {
        let problem = self.to_problem("");
        let status = axum::http::StatusCode::from_u16(problem.status)
            .unwrap_or(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = status.into_response();
        if let Some(version) = self.current_version() {
            if let Ok(tag) = axum::http::HeaderValue::from_str(&format!("\"{version}\"")) {
                response.headers_mut().insert(axum::http::header::ETAG, tag);
            }
        }
        if let ApiError::Service(Error::Limited(limited)) = &self {
            limit_headers(response.headers_mut(), limited);
        }
        if let ApiError::Service(Error::Internal(detail)) = self {
            // 5xx: the detail goes to the log only, on the edge's line for this request (so
            // with its request id). Client errors are not logged as errors.
            response.extensions_mut().insert(InternalDetail(detail));
        }
        response.extensions_mut().insert(PendingProblem(problem));
        response
    }
}

/// The headers of a 429: `Retry-After` (whole seconds, rounded up), and the policy and what
/// is left of it in the structured fields of the IETF draft "RateLimit header fields for
/// HTTP" (`RateLimit-Policy: "requests";q=20;w=1`, `RateLimit: "requests";r=0;t=1`).
fn limit_headers(headers: &mut axum::http::HeaderMap, limited: &service::apps::Limited) {
    let retry = limited.retry_after.as_millis().div_ceil(1_000).max(1);
    let mut policy = format!("\"{}\";q={}", limited.policy, limited.quota);
    if let Some(window) = limited.window {
        policy.push_str(&format!(";w={}", window.as_secs().max(1)));
    }
    let left = format!("\"{}\";r=0;t={retry}", limited.policy);
    for (name, value) in [
        ("retry-after", retry.to_string()),
        ("ratelimit-policy", policy),
        ("ratelimit", left),
    ] {
        if let Ok(value) = axum::http::HeaderValue::from_str(&value) {
            headers.insert(axum::http::HeaderName::from_static(name), value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{status_of, ApiError, Code, Error};

    /// Every code has a client or server error status, and a refusal answers with its
    /// code's status.
    #[test]
    fn every_code_answers_with_its_status() {
        for &code in Code::ALL {
            assert!((400..600).contains(&status_of(code)), "{}", code.as_str());
            let refused = ApiError::from(Error::refused(code, "no"));
            assert_eq!(
                (refused.status(), refused.code()),
                (status_of(code), code.as_str())
            );
        }
        assert_eq!(ApiError::from(Error::GameNotFound).status(), 404);
        assert_eq!(ApiError::from(Error::Internal("x".into())).status(), 500);
        let rule = ApiError::from(Error::NotNow {
            code: "not-your-turn",
            message: "wait".into(),
            hints: Box::default(),
        });
        assert_eq!((rule.status(), rule.code()), (409, "not-your-turn"));
    }

    /// `moved_on` names its refusals by kind; this holds the list to every code whose
    /// problem says the game's state changed (409), so a new such code cannot be missed.
    #[test]
    fn every_state_refusal_means_the_game_moved_on() {
        for &code in Code::ALL {
            assert_eq!(
                Error::refused(code, "x").moved_on(),
                status_of(code) == 409,
                "{}",
                code.as_str()
            );
        }
        let stale = Error::StaleVersion {
            given: "\"1\"".into(),
            current: 2,
        };
        assert!(stale.moved_on() && !stale.refused_by_rules());
        assert_eq!(ApiError::from(stale).status(), 412);
    }
}
