//! The service's one error type ([`Error`]): why a change or a read was refused or failed,
//! by kind, with a stable code ([`Code`]). The service knows nothing of HTTP: the API crate
//! gives each kind its status and writes it as a problem document, in one place.

use strum::VariantArray;

/// Every code the service and its edge refuse with. The games add their rule codes (a
/// `Game`'s `RuleError`); the contract publishes both as the enum of `Problem.code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "kebab-case")]
pub enum Code {
    /// The body, a header or a parameter is not what the route accepts.
    MalformedRequest,
    /// A `Last-Event-ID` that is not the id of an event the stream sent.
    InvalidLastEventId,
    /// No bearer token, or one that belongs to nobody in this game.
    Unauthorized,
    /// A valid token that may not do this.
    Forbidden,
    /// No such game.
    GameNotFound,
    /// No such seat in this game.
    SeatNotFound,
    /// No such route.
    RouteNotFound,
    /// No such webhook subscription of the caller's.
    WebhookNotFound,
    /// The route exists, not for this method.
    MethodNotAllowed,
    /// A seat's action on a game that has not started.
    GameNotActive,
    /// A claim on a game whose seats are all taken.
    GameNotOpen,
    /// A change to a finished game.
    GameOver,
    /// A claim on a taken seat.
    SeatTaken,
    /// A move or resignation by a seat that resigned (a bot plays it).
    SeatResigned,
    /// A replacement of a seat nobody holds.
    SeatFree,
    /// An undo when the seat has no move it may take back.
    CannotUndo,
    /// A pause or a vacation in a game without a move clock.
    NoClock,
    /// A vacation for a seat that has used up its allowance.
    NoVacationLeft,
    /// A rematch of a game that has not finished.
    GameNotFinished,
    /// A history position past the game's last log entry.
    EntryNotFound,
    /// The game kept changing under a write: nothing was applied.
    VersionConflict,
    /// The game was recorded under a rules version this server no longer plays.
    RulesVersionRetired,
    /// `If-Match` names another version.
    StaleVersion,
    /// A body over the limit.
    PayloadTooLarge,
    /// A body that is not JSON.
    UnsupportedMediaType,
    /// A move clock the server cannot run.
    InvalidClock,
    /// A seat's entropy over 256 characters.
    EntropyTooLong,
    /// A player's name that is empty, too long or has control characters.
    InvalidName,
    /// A ruleset this server does not host.
    UnknownRuleset,
    /// Options the ruleset refuses.
    InvalidOptions,
    /// A seat count the ruleset does not play (with these options).
    BadSeatCount,
    /// An action of another ruleset.
    WrongRuleset,
    /// An Idempotency-Key first sent with another action.
    IdempotencyKeyReused,
    /// A game's subscriptions are at their limit.
    TooManyWebhooks,
    /// A notification type the subscriber may not choose.
    EventNotAllowed,
    /// An empty list of notification types.
    InvalidEvents,
    /// A webhook URL that does not parse, is not `https`, or is not the address of the chat
    /// platform its format names.
    InvalidWebhookUrl,
    /// A webhook's `link` is not an absolute `https` URL.
    InvalidLink,
    /// A webhook URL on a private, loopback, link-local or metadata address.
    ForbiddenWebhookUrl,
    /// A webhook URL whose host does not resolve.
    UnresolvableWebhookUrl,
    /// The caller holds as many event streams as it may.
    TooManyStreams,
    /// An app key without the scope the request needs.
    MissingScope,
    /// No such app.
    AppNotFound,
    /// No such key of the app.
    KeyNotFound,
    /// An app already has as many live keys as it may.
    TooManyKeys,
    /// Too many requests from one key or address: wait for `Retry-After`.
    RateLimited,
    /// An app's (or an address's) quota of games is used up.
    QuotaExceeded,
    /// Something failed on our side.
    Internal,
    /// The request was not answered in time.
    Timeout,
}

impl Code {
    /// Every code, in declaration order.
    pub const ALL: &'static [Code] = Code::VARIANTS;

    /// The stable kebab-case code (the last segment of a problem's `type`).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Everything a change or a read can be refused or fail with. Each variant has one stable
/// code; the API crate gives each its status.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The body or a parameter is not what the request accepts.
    #[error("{0}")]
    Malformed(String),
    /// No token, or one that belongs to nobody in this game.
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
    /// No such webhook subscription of the caller's in this game.
    #[error("no such webhook subscription of yours in this game")]
    HookNotFound,
    /// A refusal with one of the service's own codes (seat taken, game not active, ...).
    #[error("{message}")]
    Refused {
        /// The code.
        code: Code,
        /// Human message.
        message: String,
    },
    /// A game's rule refused a move because of the game's state (not your turn, the game is
    /// over): another seat, or a later moment, may make it.
    #[error("{message}")]
    NotNow {
        /// The game's rule code.
        code: &'static str,
        /// Human message.
        message: String,
        /// Who may act instead, for the client to recover with.
        hints: Box<Hints>,
    },
    /// A game's rule refused a well-formed move: another move may be accepted.
    #[error("{message}")]
    Illegal {
        /// The game's rule code.
        code: &'static str,
        /// Human message.
        message: String,
        /// What the seat may do instead, for the client to recover with.
        hints: Box<Hints>,
    },
    /// The change was decided at a version the game is no longer at.
    #[error("the game is at version {current}, not {given}")]
    StaleVersion {
        /// The version the client named.
        given: String,
        /// The current version.
        current: u64,
    },
    /// The client named only weak tags, which never match (RFC 9110 §13.1.1).
    #[error("If-Match is compared strongly (RFC 9110 §13.1.1) and {given} names only weak tags, which never match; send the ETag exactly as it was given (\"{current}\")")]
    WeakIfMatch {
        /// The tags the client sent.
        given: String,
        /// The current version.
        current: u64,
    },
    /// The game was recorded under a rules version this server no longer plays.
    #[error("this game was played under rules version {version} of its ruleset, which this server no longer plays (it plays version {current}); its audit stays readable")]
    RulesVersionRetired {
        /// The game's rules version.
        version: u32,
        /// The version new games get.
        current: u32,
    },
    /// An app key without the scope the request needs.
    #[error("this API key lacks the scope {0}, which this request needs")]
    MissingScope(store::Scope),
    /// Over a rate limit or a quota.
    #[error("{}", .0.message)]
    Limited(Box<Limited>),
    /// Something failed on our side. The detail goes to the log, never to the client.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// The service's own code of this error; `None` for a game's rule code.
    pub fn service_code(&self) -> Option<Code> {
        Some(match self {
            Error::Malformed(_) => Code::MalformedRequest,
            Error::Unauthorized(_) => Code::Unauthorized,
            Error::Forbidden(_) => Code::Forbidden,
            Error::GameNotFound => Code::GameNotFound,
            Error::SeatNotFound(_) => Code::SeatNotFound,
            Error::HookNotFound => Code::WebhookNotFound,
            Error::Refused { code, .. } => *code,
            Error::NotNow { .. } | Error::Illegal { .. } => return None,
            Error::StaleVersion { .. } | Error::WeakIfMatch { .. } => Code::StaleVersion,
            Error::RulesVersionRetired { .. } => Code::RulesVersionRetired,
            Error::MissingScope(_) => Code::MissingScope,
            Error::Limited(limited) => limited.code,
            Error::Internal(_) => Code::Internal,
        })
    }

    /// The stable code (a game's rule code, or the service's own).
    pub fn code(&self) -> &'static str {
        match self {
            Error::NotNow { code, .. } | Error::Illegal { code, .. } => code,
            other => other.service_code().map_or("internal", Code::as_str),
        }
    }

    /// Whether a change decided at one version failed because the game moved on first (its
    /// version changed, another seat moved, the game ended, the seat changed hands): the
    /// caller looks again. Decided by the kind of refusal.
    pub fn moved_on(&self) -> bool {
        match self {
            Error::NotNow { .. } | Error::StaleVersion { .. } | Error::WeakIfMatch { .. } => true,
            Error::Refused { code, .. } => matches!(
                code,
                Code::GameNotActive
                    | Code::GameNotOpen
                    | Code::GameOver
                    | Code::SeatTaken
                    | Code::SeatResigned
                    | Code::SeatFree
                    | Code::CannotUndo
                    | Code::NoClock
                    | Code::NoVacationLeft
                    | Code::GameNotFinished
                    | Code::VersionConflict
            ),
            _ => false,
        }
    }

    /// Whether a game's rules refused a well-formed move (a bot's sample, say): another
    /// move may be accepted.
    pub fn refused_by_rules(&self) -> bool {
        matches!(self, Error::Illegal { .. })
    }

    /// What a refusal of a game's rules tells the client to recover with (empty otherwise).
    pub fn hints(&self) -> Option<&Hints> {
        match self {
            Error::NotNow { hints, .. } | Error::Illegal { hints, .. } => Some(hints),
            _ => None,
        }
    }

    /// The game's version, when the refusal is that the caller named another one.
    pub fn current_version(&self) -> Option<u64> {
        match self {
            Error::StaleVersion { current, .. } | Error::WeakIfMatch { current, .. } => {
                Some(*current)
            }
            _ => None,
        }
    }

    /// A refusal with the service's own `code`.
    pub fn refused(code: Code, message: impl Into<String>) -> Error {
        Error::Refused {
            code,
            message: message.into(),
        }
    }
}

/// A refusal for being over a limit: what the 429 and its `RateLimit` headers say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limited {
    /// `rate-limited` (requests) or `quota-exceeded` (creations, live games).
    pub code: Code,
    /// The policy's name in the `RateLimit-Policy` header.
    pub policy: &'static str,
    /// The policy's quota.
    pub quota: u32,
    /// The policy's window, if it has one (live games have none).
    pub window: Option<std::time::Duration>,
    /// When a retry may succeed.
    pub retry_after: std::time::Duration,
    /// What happened, in words.
    pub message: String,
}

impl From<game_core::SetupError> for Error {
    /// A game refused to deal: its options, or its seat count.
    fn from(error: game_core::SetupError) -> Self {
        let code = match error {
            game_core::SetupError::SeatCount { .. } => Code::BadSeatCount,
            game_core::SetupError::InvalidOptions(_) => Code::InvalidOptions,
        };
        Error::refused(code, error.to_string())
    }
}

impl From<store::StoreError> for Error {
    fn from(error: store::StoreError) -> Self {
        match error {
            store::StoreError::BadCursor => {
                Error::Malformed("`after` is not a position this server handed out".into())
            }
            store::StoreError::NotFound(_) => Error::GameNotFound,
            other => Error::Internal(other.to_string()),
        }
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

#[cfg(test)]
mod tests {
    use super::{Code, Error};
    use std::collections::BTreeSet;

    /// Each code is spelled once, in kebab case, and a refusal carries its code.
    #[test]
    fn every_code_is_distinct_and_kebab_case() {
        let spelled: BTreeSet<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
        assert_eq!(spelled.len(), Code::ALL.len(), "a code is spelled twice");
        for &code in Code::ALL {
            let text = code.as_str();
            assert!(
                text.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{text}"
            );
            assert_eq!(Error::refused(code, "no").code(), text);
        }
        assert_eq!(Code::InvalidLastEventId.as_str(), "invalid-last-event-id");
    }

    /// The fixed variants carry their codes; a game's rule codes keep theirs.
    #[test]
    fn variants_map_to_their_codes() {
        assert_eq!(Error::HookNotFound.code(), "webhook-not-found");
        assert_eq!(Error::Internal("x".into()).code(), "internal");
        let rule = Error::NotNow {
            code: "not-your-turn",
            message: "wait".into(),
            hints: Box::default(),
        };
        assert_eq!((rule.code(), rule.service_code()), ("not-your-turn", None));
        assert!(rule.moved_on() && !rule.refused_by_rules());
        assert!(!Error::refused(Code::InvalidName, "no").moved_on());
    }
}
