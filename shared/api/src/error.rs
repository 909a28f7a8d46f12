//! One error type for the whole API and the one place it becomes a response (RFC 9457).

use serde::Serialize;
use utoipa::ToSchema;

/// Base of every problem `type` URI.
pub const PROBLEM_BASE: &str = "https://beurs.dev/problems/";

/// Everything a request can fail with. Each variant has one status and one stable code.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body or a parameter is not what the route accepts.
    #[error("{0}")]
    BadRequest(String),
    /// The body is larger than the limit.
    #[error("the request body is larger than {limit} bytes")]
    PayloadTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The body is not JSON.
    #[error("the request body must be application/json")]
    UnsupportedMediaType,
    /// No bearer token, or one that belongs to nobody in this game.
    #[error("{0}")]
    Unauthorized(&'static str),
    /// A valid token that may not do this.
    #[error("{0}")]
    Forbidden(&'static str),
    /// No such game.
    #[error("no game with this id")]
    GameNotFound,
    /// No such seat in this game.
    #[error("this game has no seat {0}")]
    SeatNotFound(String),
    /// No such route or method.
    #[error("no such route")]
    RouteNotFound,
    /// No such webhook subscription of the caller's in this game.
    #[error("no such webhook subscription of yours in this game")]
    HookNotFound,
    /// The route exists but not for this method (the `Allow` header lists those it has).
    #[error("this resource does not support this method; the Allow header lists those it does")]
    MethodNotAllowed,
    /// The request was not answered in time (DESIGN.md §5's limits).
    #[error("the request was not completed in time; if it was a move, retry it with the same Idempotency-Key")]
    Timeout,
    /// A conflict with the game's state (seat taken, game not active, not your turn, ...).
    #[error("{message}")]
    Conflict {
        /// Stable code.
        code: &'static str,
        /// Human message.
        message: String,
    },
    /// `If-Match` does not match the current version.
    #[error("the game is at version {current}, not {given}")]
    StaleVersion {
        /// The version the client named.
        given: String,
        /// The current version.
        current: u64,
    },
    /// The request is well formed but refused by the rules or by validation.
    #[error("{message}")]
    Unprocessable {
        /// Stable code (a game's rule code, or a validation code).
        code: &'static str,
        /// Human message.
        message: String,
    },
    /// The game was recorded under a rules version this server no longer plays.
    #[error("this game was played under rules version {version} of its ruleset, which this server no longer plays (it plays version {current}); its audit stays readable")]
    RulesVersionRetired {
        /// The game's rules version.
        version: u32,
        /// The version new games get.
        current: u32,
    },
    /// Something failed on our side. The detail goes to the log, never to the client.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadRequest(_) => 400,
            ApiError::Unauthorized(_) => 401,
            ApiError::Forbidden(_) => 403,
            ApiError::GameNotFound
            | ApiError::SeatNotFound(_)
            | ApiError::RouteNotFound
            | ApiError::HookNotFound => 404,
            ApiError::MethodNotAllowed => 405,
            ApiError::Conflict { .. } => 409,
            ApiError::RulesVersionRetired { .. } => 410,
            ApiError::StaleVersion { .. } => 412,
            ApiError::PayloadTooLarge { .. } => 413,
            ApiError::UnsupportedMediaType => 415,
            ApiError::Unprocessable { .. } => 422,
            ApiError::Internal(_) => 500,
            ApiError::Timeout => 503,
        }
    }

    /// The stable problem code (the last segment of `type`).
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "malformed-request",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::GameNotFound => "game-not-found",
            ApiError::SeatNotFound(_) => "seat-not-found",
            ApiError::RouteNotFound => "route-not-found",
            ApiError::HookNotFound => "webhook-not-found",
            ApiError::MethodNotAllowed => "method-not-allowed",
            ApiError::Timeout => "timeout",
            ApiError::Conflict { code, .. } | ApiError::Unprocessable { code, .. } => code,
            ApiError::StaleVersion { .. } => "stale-version",
            ApiError::RulesVersionRetired { .. } => "rules-version-retired",
            ApiError::PayloadTooLarge { .. } => "payload-too-large",
            ApiError::UnsupportedMediaType => "unsupported-media-type",
            ApiError::Internal(_) => "internal",
        }
    }

    /// The problem document for this error.
    pub fn to_problem(&self, instance: &str) -> Problem {
        let status = self.status();
        let detail = match self {
            // Never show internals to the client.
            ApiError::Internal(_) => {
                "something went wrong on our side; our logs have the details under this request_id"
                    .to_string()
            }
            other => other.to_string(),
        };
        Problem {
            r#type: format!("{PROBLEM_BASE}{}", self.code()),
            title: title_of(self.code()),
            status,
            detail,
            instance: instance.to_string(),
            code: self.code().to_string(),
            request_id: String::new(),
        }
    }

    /// A conflict with the game's state.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Conflict {
            code,
            message: message.into(),
        }
    }

    /// A request refused by validation or by the rules.
    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Unprocessable {
            code,
            message: message.into(),
        }
    }
}

impl From<store::StoreError> for ApiError {
    fn from(error: store::StoreError) -> Self {
        match error {
            store::StoreError::BadCursor => {
                ApiError::BadRequest("`after` is not a position this server handed out".into())
            }
            store::StoreError::NotFound(_) => ApiError::GameNotFound,
            other => ApiError::Internal(other.to_string()),
        }
    }
}

/// Every problem `code` the API itself answers with (the games add their rule codes): the
/// contract publishes them, with the games', as the enum of `Problem.code`.
pub const API_CODES: &[&str] = &[
    // Fixed by the variant (see `ApiError::code`).
    "malformed-request",
    "unauthorized",
    "forbidden",
    "game-not-found",
    "seat-not-found",
    "route-not-found",
    "webhook-not-found",
    "method-not-allowed",
    "timeout",
    "stale-version",
    "rules-version-retired",
    "payload-too-large",
    "unsupported-media-type",
    "internal",
    // Conflicts and refusals raised by the routes.
    "game-not-active",
    "game-not-open",
    "game-over",
    "seat-taken",
    "seat-resigned",
    "seat-free",
    "invalid-clock",
    "version-conflict",
    "entropy-too-long",
    "invalid-name",
    "unknown-ruleset",
    "invalid-options",
    "bad-seat-count",
    "wrong-ruleset",
    "idempotency-key-reused",
    "too-many-webhooks",
    "event-not-allowed",
    "invalid-events",
    "invalid-webhook-url",
    "forbidden-webhook-url",
    "unresolvable-webhook-url",
];

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
        if let ApiError::Internal(detail) = self {
            // 5xx: the detail goes to the log only, on the edge's line for this request (so
            // with its request id). Client errors are not logged as errors.
            response.extensions_mut().insert(InternalDetail(detail));
        }
        response.extensions_mut().insert(PendingProblem(problem));
        response
    }
}

#[cfg(test)]
mod tests {
    use super::API_CODES;

    /// Every code literal the API's sources raise a problem with (`conflict("…"`,
    /// `unprocessable("…"`, `code: "…"` and the arms of `ApiError::code`) is in [`API_CODES`],
    /// so the contract's enum of codes cannot miss one.
    #[test]
    fn every_code_the_sources_raise_is_listed() {
        let sources = [
            include_str!("error.rs"),
            include_str!("routes/actions.rs"),
            include_str!("routes/games.rs"),
            include_str!("routes/log.rs"),
            include_str!("routes/mod.rs"),
            include_str!("routes/rulesets.rs"),
            include_str!("routes/seats.rs"),
            include_str!("routes/webhooks.rs"),
            include_str!("webhooks/url.rs"),
            include_str!("http.rs"),
            include_str!("edge.rs"),
        ];
        let mut found = Vec::new();
        for source in sources {
            let source = source.split("#[cfg(test)]").next().unwrap_or(source);
            for opener in ["conflict(", "unprocessable(", "code: \"", "=> \""] {
                for (at, _) in source.match_indices(opener) {
                    let rest = source[at + opener.len()..].trim_start();
                    let rest = rest.strip_prefix('"').unwrap_or(rest);
                    let code: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                        .collect();
                    let closed = rest[code.len()..].starts_with('"');
                    let words_ok = code.contains('-') || opener != "=> \"";
                    if closed && !code.is_empty() && words_ok {
                        found.push(code);
                    }
                }
            }
        }
        assert!(found.len() > 20, "the scan finds the codes: {found:?}");
        for code in &found {
            assert!(
                API_CODES.contains(&code.as_str()),
                "`{code}` is raised but not in API_CODES"
            );
        }
    }
}
