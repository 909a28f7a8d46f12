//! One error type for the whole API and the one place it becomes a response (RFC 9457).

use serde::Serialize;
use utoipa::ToSchema;

/// Base of every problem `type` URI.
pub const PROBLEM_BASE: &str = "https://beurs.dev/problems/";

/// Declares [`ApiCode`] from one table of `Variant = "code", status;` rows: its `as_str` and
/// `status` are matches over the rows, so a code cannot lack its status, and `ALL` lists them.
macro_rules! api_codes {
    ($($(#[doc = $doc:literal])+ $variant:ident = $code:literal, $status:literal;)+) => {
        /// Every problem code the API itself answers with, each with its one status. The games
        /// add their rule codes (a `Game`'s `RuleError`); the contract publishes both as the
        /// enum of `Problem.code`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ApiCode {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl ApiCode {
            /// Every code, in table order.
            pub const ALL: &'static [ApiCode] = &[$(ApiCode::$variant,)+];

            /// The stable kebab-case code (the last segment of a problem's `type`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ApiCode::$variant => $code,)+
                }
            }

            /// The HTTP status of a problem with this code.
            pub fn status(self) -> u16 {
                match self {
                    $(ApiCode::$variant => $status,)+
                }
            }
        }
    };
}

api_codes! {
    /// The body, a header or a parameter is not what the route accepts.
    MalformedRequest = "malformed-request", 400;
    /// A `Last-Event-ID` that is not the id of an event the stream sent.
    InvalidLastEventId = "invalid-last-event-id", 400;
    /// No bearer token, or one that belongs to nobody in this game.
    Unauthorized = "unauthorized", 401;
    /// A valid token that may not do this.
    Forbidden = "forbidden", 403;
    /// No such game.
    GameNotFound = "game-not-found", 404;
    /// No such seat in this game.
    SeatNotFound = "seat-not-found", 404;
    /// No such route.
    RouteNotFound = "route-not-found", 404;
    /// No such webhook subscription of the caller's.
    WebhookNotFound = "webhook-not-found", 404;
    /// The route exists, not for this method.
    MethodNotAllowed = "method-not-allowed", 405;
    /// A seat's action on a game that has not started.
    GameNotActive = "game-not-active", 409;
    /// A claim on a game whose seats are all taken.
    GameNotOpen = "game-not-open", 409;
    /// A change to a finished game.
    GameOver = "game-over", 409;
    /// A claim on a taken seat.
    SeatTaken = "seat-taken", 409;
    /// A move or resignation by a seat that resigned (a bot plays it).
    SeatResigned = "seat-resigned", 409;
    /// A replacement of a seat nobody holds.
    SeatFree = "seat-free", 409;
    /// An undo when the seat has no move it may take back.
    CannotUndo = "cannot-undo", 409;
    /// A pause or a vacation in a game without a move clock.
    NoClock = "no-clock", 409;
    /// A vacation for a seat that has used up its allowance.
    NoVacationLeft = "no-vacation-left", 409;
    /// A rematch of a game that has not finished.
    GameNotFinished = "game-not-finished", 409;
    /// A history position past the game's last log entry.
    EntryNotFound = "entry-not-found", 404;
    /// The game kept changing under a write: nothing was applied.
    VersionConflict = "version-conflict", 409;
    /// The game was recorded under a rules version this server no longer plays.
    RulesVersionRetired = "rules-version-retired", 410;
    /// `If-Match` names another version.
    StaleVersion = "stale-version", 412;
    /// A body over the limit.
    PayloadTooLarge = "payload-too-large", 413;
    /// A body that is not JSON.
    UnsupportedMediaType = "unsupported-media-type", 415;
    /// A move clock the server cannot run.
    InvalidClock = "invalid-clock", 422;
    /// A seat's entropy over 256 characters.
    EntropyTooLong = "entropy-too-long", 422;
    /// A player's name that is empty, too long or has control characters.
    InvalidName = "invalid-name", 422;
    /// A ruleset this server does not host.
    UnknownRuleset = "unknown-ruleset", 422;
    /// Options the ruleset refuses.
    InvalidOptions = "invalid-options", 422;
    /// A seat count the ruleset does not play (with these options).
    BadSeatCount = "bad-seat-count", 422;
    /// An action of another ruleset.
    WrongRuleset = "wrong-ruleset", 422;
    /// An Idempotency-Key first sent with another action.
    IdempotencyKeyReused = "idempotency-key-reused", 422;
    /// A game's subscriptions are at their limit.
    TooManyWebhooks = "too-many-webhooks", 422;
    /// A notification type the subscriber may not choose.
    EventNotAllowed = "event-not-allowed", 422;
    /// An empty list of notification types.
    InvalidEvents = "invalid-events", 422;
    /// A webhook URL that does not parse, is not `https`, or is not the address of the chat
    /// platform its format names.
    InvalidWebhookUrl = "invalid-webhook-url", 422;
    /// A webhook's `link` is not an absolute `https` URL.
    InvalidLink = "invalid-link", 422;
    /// A webhook URL on a private, loopback, link-local or metadata address.
    ForbiddenWebhookUrl = "forbidden-webhook-url", 422;
    /// A webhook URL whose host does not resolve.
    UnresolvableWebhookUrl = "unresolvable-webhook-url", 422;
    /// The caller holds as many event streams as it may.
    TooManyStreams = "too-many-streams", 429;
    /// Something failed on our side.
    Internal = "internal", 500;
    /// The request was not answered in time.
    Timeout = "timeout", 503;
}

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
    #[error("the request body must be JSON, declared with Content-Type: application/json")]
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
    /// A refusal with one of the API's own codes (seat taken, game not active, ...): its
    /// status is the code's.
    #[error("{message}")]
    Refused {
        /// The code, with its status.
        code: ApiCode,
        /// Human message.
        message: String,
    },
    /// A game's rule refused a move because of the game's state (not your turn, the game is
    /// over): 409 with the rule's code.
    #[error("{message}")]
    Conflict {
        /// The game's rule code.
        code: &'static str,
        /// Human message.
        message: String,
        /// Who may act instead, for the client to recover with.
        hints: Box<Hints>,
    },
    /// `If-Match` does not match the current version.
    #[error("the game is at version {current}, not {given}")]
    StaleVersion {
        /// The version the client named.
        given: String,
        /// The current version.
        current: u64,
    },
    /// `If-Match` named only weak tags, which never match (RFC 9110 §13.1.1): 412 with a
    /// detail saying so.
    #[error("If-Match is compared strongly (RFC 9110 §13.1.1) and {given} names only weak tags, which never match; send the ETag exactly as it was given (\"{current}\")")]
    WeakIfMatch {
        /// The tags the client sent.
        given: String,
        /// The current version.
        current: u64,
    },
    /// A game's rule refused a well-formed move: 422 with the rule's code.
    #[error("{message}")]
    Unprocessable {
        /// The game's rule code.
        code: &'static str,
        /// Human message.
        message: String,
        /// What the seat may do instead, for the client to recover with.
        hints: Box<Hints>,
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
            ApiError::Conflict { .. } => 409,
            ApiError::Unprocessable { .. } => 422,
            other => other.api_code().map_or(500, ApiCode::status),
        }
    }

    /// The API's own code of this error; `None` for a game's rule code.
    pub fn api_code(&self) -> Option<ApiCode> {
        Some(match self {
            ApiError::BadRequest(_) => ApiCode::MalformedRequest,
            ApiError::Unauthorized(_) => ApiCode::Unauthorized,
            ApiError::Forbidden(_) => ApiCode::Forbidden,
            ApiError::GameNotFound => ApiCode::GameNotFound,
            ApiError::SeatNotFound(_) => ApiCode::SeatNotFound,
            ApiError::RouteNotFound => ApiCode::RouteNotFound,
            ApiError::HookNotFound => ApiCode::WebhookNotFound,
            ApiError::MethodNotAllowed => ApiCode::MethodNotAllowed,
            ApiError::Timeout => ApiCode::Timeout,
            ApiError::Refused { code, .. } => *code,
            ApiError::Conflict { .. } | ApiError::Unprocessable { .. } => return None,
            ApiError::StaleVersion { .. } | ApiError::WeakIfMatch { .. } => ApiCode::StaleVersion,
            ApiError::RulesVersionRetired { .. } => ApiCode::RulesVersionRetired,
            ApiError::PayloadTooLarge { .. } => ApiCode::PayloadTooLarge,
            ApiError::UnsupportedMediaType => ApiCode::UnsupportedMediaType,
            ApiError::Internal(_) => ApiCode::Internal,
        })
    }

    /// The stable problem code (the last segment of `type`).
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Conflict { code, .. } | ApiError::Unprocessable { code, .. } => code,
            other => other.api_code().map_or("internal", ApiCode::as_str),
        }
    }

    /// Whether a change decided at one version failed because the game moved on first (its
    /// version changed, another seat moved, the game ended, the seat changed hands): the
    /// caller looks again. Decided by the kind of refusal, not by its HTTP status.
    pub fn moved_on(&self) -> bool {
        match self {
            ApiError::Conflict { .. }
            | ApiError::StaleVersion { .. }
            | ApiError::WeakIfMatch { .. } => true,
            ApiError::Refused { code, .. } => matches!(
                code,
                ApiCode::GameNotActive
                    | ApiCode::GameNotOpen
                    | ApiCode::GameOver
                    | ApiCode::SeatTaken
                    | ApiCode::SeatResigned
                    | ApiCode::SeatFree
                    | ApiCode::CannotUndo
                    | ApiCode::NoClock
                    | ApiCode::NoVacationLeft
                    | ApiCode::GameNotFinished
                    | ApiCode::VersionConflict
            ),
            _ => false,
        }
    }

    /// Whether a game's rules refused a well-formed move (a bot's sample, say): another
    /// move may be accepted.
    pub fn refused_by_rules(&self) -> bool {
        matches!(self, ApiError::Unprocessable { .. })
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
        let none = Hints::default();
        let hints = match self {
            ApiError::Conflict { hints, .. } | ApiError::Unprocessable { hints, .. } => {
                hints.as_ref()
            }
            _ => &none,
        };
        let listed = |seats: &Vec<u8>| (!seats.is_empty()).then(|| seats.clone());
        Problem {
            r#type: format!("{PROBLEM_BASE}{}", self.code()),
            title: title_of(self.code()),
            status,
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
            ApiError::StaleVersion { current, .. } | ApiError::WeakIfMatch { current, .. } => {
                Some(*current)
            }
            _ => None,
        }
    }

    /// A refusal with the API's own `code` (its status is the code's).
    pub fn refused(code: ApiCode, message: impl Into<String>) -> ApiError {
        ApiError::Refused {
            code,
            message: message.into(),
        }
    }
}

impl From<game_core::SetupError> for ApiError {
    /// A game refused to deal: its options, or its seat count.
    fn from(error: game_core::SetupError) -> Self {
        let code = match error {
            game_core::SetupError::SeatCount { .. } => ApiCode::BadSeatCount,
            game_core::SetupError::InvalidOptions(_) => ApiCode::InvalidOptions,
        };
        ApiError::refused(code, error.to_string())
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

/// `kebab-case-code` → `Kebab case code`.
fn title_of(code: &str) -> String {
    let words = code.replace('-', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// What a refusal of a game's rules tells the client to recover with: who may act, and
/// which kinds of move the seat may make now. Empty lists are left out of the problem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// The seats that may act now.
    pub to_act: Vec<u8>,
    /// The seats the game waits on.
    pub waiting_on: Vec<u8>,
    /// The `type`s of the moves the seat may make now (its legal actions).
    pub expected: Vec<String>,
    /// The phase the game is in ([`game_core::Game::phase`]).
    pub phase: Option<&'static str>,
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
    use super::{ApiCode, ApiError};
    use std::collections::BTreeSet;

    /// Each code is spelled once, in kebab case, with a client or server error status, and
    /// a refusal answers with its code's status.
    #[test]
    fn every_api_code_is_distinct_and_answers_with_its_status() {
        let spelled: BTreeSet<&str> = ApiCode::ALL.iter().map(|code| code.as_str()).collect();
        assert_eq!(spelled.len(), ApiCode::ALL.len(), "a code is spelled twice");
        for &code in ApiCode::ALL {
            let text = code.as_str();
            assert!(
                text.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{text}"
            );
            assert!((400..600).contains(&code.status()), "{text}");
            let refused = ApiError::refused(code, "no");
            assert_eq!((refused.status(), refused.code()), (code.status(), text));
        }
    }

    /// The fixed variants answer with their code's status; a game's rule codes keep theirs.
    #[test]
    fn variants_map_to_their_codes() {
        assert_eq!(ApiError::GameNotFound.status(), 404);
        assert_eq!(ApiError::HookNotFound.code(), "webhook-not-found");
        assert_eq!(ApiError::Internal("x".into()).status(), 500);
        let rule = ApiError::Conflict {
            code: "not-your-turn",
            message: "wait".into(),
            hints: Box::default(),
        };
        assert_eq!(
            (rule.status(), rule.code(), rule.api_code()),
            (409, "not-your-turn", None)
        );
        assert!(rule.moved_on());
        assert!(!ApiError::refused(ApiCode::InvalidName, "no").moved_on());
    }

    /// `moved_on` names its refusals by kind; this holds the list to every code whose
    /// problem says the game's state changed (409), so a new such code cannot be missed.
    #[test]
    fn every_state_refusal_means_the_game_moved_on() {
        for &code in ApiCode::ALL {
            assert_eq!(
                ApiError::refused(code, "x").moved_on(),
                code.status() == 409,
                "{}",
                code.as_str()
            );
        }
        let stale = ApiError::StaleVersion {
            given: "\"1\"".into(),
            current: 2,
        };
        assert!(stale.moved_on() && !stale.refused_by_rules());
    }
}
